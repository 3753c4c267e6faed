//! Comparing the old table with the new one after a copy.
//!
//! Forward, shard by shard: each old row is re-keyed and looked up in the new table (in
//! batches of single-row reads): a row that is not there is *missing*, one whose cells differ
//! is *differing*. Backward, over the new table: a new row that no old row re-keys to is
//! *extra*. When every old field is in the new key, each new key is re-keyed back to its old
//! key ([`Rekey::inverse`]) and looked up in the old table. When a field is dropped there is
//! no way back: the forward pass keeps every old row's new key, sorted, and the new table's
//! keys (which come in the same order) are merged with them, so that verify holds about as
//! many bytes as the new keys of the old table.

use std::collections::HashMap;
use std::fmt;

use futures_util::{StreamExt, TryStreamExt};

use super::Migration;
use super::checkpoint::Checkpoint;
use super::error::MigrateError;
use crate::bigtable::{ReadOptions, Row, Table};
use crate::key::Key;
use crate::range::{KeyRange, KeyRanges};
use crate::rekey::Rekey;
use crate::schema::Schema;

/// One row that differs between the tables, by its key in each design (`None` where that
/// design has no key for it: a new row whose key is not one of the new design's, or an old
/// row whose key is not one of the old design's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The key in the old table.
    pub old_key: Option<Key>,
    /// The key in the new table.
    pub new_key: Option<Key>,
}

/// What [`Migration::verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Rows in the old table.
    pub old_rows: u64,
    /// Rows in the new table.
    pub new_rows: u64,
    /// Old rows whose cells were compared with their new row's.
    pub compared: u64,
    /// Old rows with no new row.
    pub missing: Vec<Mismatch>,
    /// Old rows whose new row holds other cells.
    pub differing: Vec<Mismatch>,
    /// New rows that no old row gives (by their new key alone when a field is dropped, since
    /// then a new key has no old key).
    pub extra: Vec<Mismatch>,
    /// Whether the mapping lets rows merge ([`Rekey::merges_rows`]), so that the new table
    /// may hold fewer rows than the old.
    pub rows_merge: bool,
    old: &'static Schema,
    new: &'static Schema,
}

impl VerifyReport {
    /// Whether the tables agree: nothing missing, differing or extra, and as many rows in
    /// each table unless rows merge (then the new table may hold fewer).
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.missing.is_empty() && self.differing.is_empty() && self.extra.is_empty() && self.counts_agree()
    }

    /// Whether the row counts are what the mapping allows.
    fn counts_agree(&self) -> bool {
        self.new_rows == self.old_rows || (self.rows_merge && self.new_rows < self.old_rows)
    }
}

/// A line of counts, then one line per row found wrong, with its keys in both designs as
/// their fields (a sensitive field redacted).
impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "old rows: {}, new rows: {}, compared: {}, missing: {}, differing: {}, extra: {}",
            self.old_rows,
            self.new_rows,
            self.compared,
            self.missing.len(),
            self.differing.len(),
            self.extra.len()
        )?;
        if !self.counts_agree() {
            write!(
                f,
                "\nthe row counts differ ({} old, {} new) and {}",
                self.old_rows,
                self.new_rows,
                if self.rows_merge { "merged rows cannot outnumber the old ones" } else { "no rows merge" }
            )?;
        }
        let key = |schema: &Schema, key: &Option<Key>| match key {
            None => "-".to_owned(),
            Some(key) => match schema.inspect(key) {
                Ok(fields) => format!("[{fields}]"),
                Err(_) if schema.has_sensitive_fields() => format!("<key of {} bytes>", key.len()),
                Err(_) => key.to_string(),
            },
        };
        for (what, rows) in [("missing", &self.missing), ("differing", &self.differing), ("extra", &self.extra)] {
            for row in rows {
                write!(f, "\n{what}: old {} new {}", key(self.old, &row.old_key), key(self.new, &row.new_key))?;
            }
        }
        Ok(())
    }
}

/// Reads of the row keys alone.
fn keys_only() -> ReadOptions {
    ReadOptions::new().keys_only()
}

/// The rows of `keys` in `table`, by key.
async fn rows_at(table: &Table, keys: &[Key], options: &ReadOptions) -> Result<HashMap<Key, Row>, MigrateError> {
    let mut ranges = KeyRanges::new();
    for key in keys {
        ranges.push(KeyRange::key(key));
    }
    Ok(table.read_rows(&ranges, options).await?.into_iter().map(|row| (row.key.clone(), row)).collect())
}

/// A row's cells in one order (Bigtable sends families in no fixed order).
fn cells(row: &Row) -> Vec<(&str, &[u8], i64, &[u8])> {
    let mut cells: Vec<_> = row
        .cells
        .iter()
        .map(|c| (c.family_name.as_str(), c.qualifier.as_slice(), c.timestamp_micros, c.value.as_slice()))
        .collect();
    cells.sort_unstable();
    cells
}

/// Whether the new row holds the old row's cells: all of them and no other, or, when rows
/// merge, each of them at its column and time (another old row may have set its value).
fn holds(old: &Row, new: &Row, merged: bool) -> bool {
    let (old, new) = (cells(old), cells(new));
    if merged {
        old.iter().all(|(family, qualifier, at, _)| new.iter().any(|(f, q, t, _)| (f, q, t) == (family, qualifier, at)))
    } else {
        old == new
    }
}

struct ShardFindings {
    rows: u64,
    compared: u64,
    missing: Vec<Mismatch>,
    differing: Vec<Mismatch>,
    /// The new key of every old row of the shard that has one, sorted: kept when there is no
    /// inverse to find a new row's old key by.
    new_keys: Option<Vec<Key>>,
}

impl Migration {
    /// The rows of each shard of the old table (the checkpoint's shards, when its file
    /// exists), counted by a read that returns no values: what a progress display needs for
    /// its totals and ETAs.
    ///
    /// # Errors
    ///
    /// [`MigrateError::Bigtable`] when a read fails; as [`run`](Self::run) for the checkpoint.
    pub async fn count_rows(&self) -> Result<Vec<u64>, MigrateError> {
        let checkpoint = Checkpoint::open(self.checkpoint.as_deref(), &self.id(), &self.shards)?;
        futures_util::stream::iter(checkpoint.shards.iter().map(|shard| &shard.range))
            .map(|shard| count(&self.source, shard))
            .buffered(self.at_once)
            .try_collect()
            .await
    }

    /// Compares both tables; see [`VerifyReport`]. With `sample`, the cells of about that many
    /// rows of each shard are compared rather than every row's (the row counts are always
    /// whole).
    ///
    /// When the mapping drops an old field, a new key cannot be turned back into its old key,
    /// so extra rows are found by holding every old row's new key in memory, sorted, and
    /// merging them with the new table's keys: about the bytes of the new keys of the whole
    /// table (40 MB for a million keys of 40 bytes).
    ///
    /// # Errors
    ///
    /// [`MigrateError::Bigtable`] when a read fails; a row of either table whose key is not
    /// of its design is reported, not an error.
    pub async fn verify(&self, sample: Option<u64>) -> Result<VerifyReport, MigrateError> {
        verify(self, sample).await
    }
}

pub(super) async fn verify(migration: &Migration, sample: Option<u64>) -> Result<VerifyReport, MigrateError> {
    let rekey = &migration.rekey;
    let merged = rekey.merges_rows();
    // A sample looks at every n-th row, n from the shard's row count, which a keys-only pass
    // gives first.
    let strides: Vec<u64> = match sample {
        None => vec![1; migration.shards.len()],
        Some(rows) => {
            let counts = futures_util::stream::iter(&migration.shards)
                .map(|shard| count(&migration.source, shard))
                .buffered(migration.at_once)
                .try_collect::<Vec<u64>>()
                .await?;
            counts.iter().map(|&n| (n / rows.max(1)).max(1)).collect()
        }
    };
    let inverse = rekey.inverse();
    let keep_keys = inverse.is_none();
    let mut findings = futures_util::stream::iter(migration.shards.iter().zip(&strides))
        .map(|(shard, &stride)| forward(migration, shard, stride, merged, keep_keys))
        .buffered(migration.at_once)
        .try_collect::<Vec<ShardFindings>>()
        .await?;
    let old_rows: u64 = findings.iter().map(|f| f.rows).sum();
    let (new_rows, extra) = match &inverse {
        Some(inverse) => {
            let stride =
                (old_rows / sample.unwrap_or(u64::MAX).saturating_mul(migration.shards.len() as u64).max(1)).max(1);
            backward(migration, inverse, if sample.is_some() { stride } else { 1 }).await?
        }
        None => {
            let mut given: Vec<Key> = findings.iter_mut().filter_map(|f| f.new_keys.take()).flatten().collect();
            given.sort_unstable();
            given.dedup();
            unmatched(&migration.target, &given, migration.batch_rows).await?
        }
    };
    let mut report = VerifyReport {
        old_rows,
        new_rows,
        compared: findings.iter().map(|f| f.compared).sum(),
        missing: Vec::new(),
        differing: Vec::new(),
        extra,
        rows_merge: merged,
        old: rekey.from_schema(),
        new: rekey.to_schema(),
    };
    for found in findings {
        report.missing.extend(found.missing);
        report.differing.extend(found.differing);
    }
    Ok(report)
}

pub(super) async fn count(table: &Table, range: &KeyRange) -> Result<u64, MigrateError> {
    let rows = table.stream_rows(&range.clone().into(), &keys_only());
    Ok(rows.try_fold(0u64, |n, _| std::future::ready(Ok(n + 1))).await?)
}

/// One shard of the old table against the new one.
async fn forward(
    migration: &Migration,
    shard: &KeyRange,
    stride: u64,
    merged: bool,
    keep_keys: bool,
) -> Result<ShardFindings, MigrateError> {
    let mut found = ShardFindings {
        rows: 0,
        compared: 0,
        missing: Vec::new(),
        differing: Vec::new(),
        new_keys: keep_keys.then(Vec::new),
    };
    // Without sampling every row is read whole; with it, keys first and whole rows only for
    // the sampled ones.
    let options = if stride == 1 { ReadOptions::new() } else { keys_only() };
    let mut batches = migration.source.stream_rows(&shard.clone().into(), &options).chunks(migration.batch_rows);
    while let Some(batch) = batches.next().await {
        let mut olds = Vec::new();
        for row in batch {
            let row = row?;
            found.rows += 1;
            // Every row's new key, sampled or not: an extra row is one no old row gives.
            if let (Some(keys), Ok(key)) = (&mut found.new_keys, migration.rekey.rekey(&row.key)) {
                keys.push(key);
            }
            if (found.rows - 1).is_multiple_of(stride) {
                olds.push(row);
            }
        }
        if stride > 1 {
            let keys: Vec<Key> = olds.iter().map(|row| row.key.clone()).collect();
            let mut whole = rows_at(&migration.source, &keys, &ReadOptions::new()).await?;
            // A row deleted since the first read is no longer the copy's concern.
            olds = keys.iter().filter_map(|key| whole.remove(key)).collect();
        }
        let mut pairs = Vec::with_capacity(olds.len());
        for old in olds {
            match migration.rekey.rekey(&old.key) {
                Ok(new_key) => pairs.push((old, new_key)),
                Err(_) => found.missing.push(Mismatch { old_key: Some(old.key), new_key: None }),
            }
        }
        let keys: Vec<Key> = pairs.iter().map(|(_, key)| key.clone()).collect();
        let news = rows_at(&migration.target, &keys, &ReadOptions::new()).await?;
        for (old, new_key) in pairs {
            found.compared += 1;
            match news.get(&new_key) {
                None => found.missing.push(Mismatch { old_key: Some(old.key), new_key: Some(new_key) }),
                Some(new) if !holds(&old, new, merged) => {
                    found.differing.push(Mismatch { old_key: Some(old.key), new_key: Some(new_key) });
                }
                Some(_) => {}
            }
        }
    }
    if let Some(keys) = &mut found.new_keys {
        keys.sort_unstable();
    }
    Ok(found)
}

/// The new table against the old: its row count, and the rows no old row gives (every
/// `stride`-th row looked at).
async fn backward(migration: &Migration, inverse: &Rekey, stride: u64) -> Result<(u64, Vec<Mismatch>), MigrateError> {
    let mut rows = 0u64;
    let mut extra = Vec::new();
    let mut batches = migration.target.stream_rows(&KeyRange::all().into(), &keys_only()).chunks(migration.batch_rows);
    while let Some(batch) = batches.next().await {
        let mut looked = Vec::new();
        for row in batch {
            let row = row?;
            rows += 1;
            if !(rows - 1).is_multiple_of(stride) {
                continue;
            }
            match inverse.rekey(&row.key) {
                Ok(old_key) => looked.push((row.key, old_key)),
                Err(_) => extra.push(Mismatch { old_key: None, new_key: Some(row.key) }),
            }
        }
        let keys: Vec<Key> = looked.iter().map(|(_, old)| old.clone()).collect();
        let olds = rows_at(&migration.source, &keys, &keys_only()).await?;
        for (new_key, old_key) in looked {
            // The new key must also be the one the old row re-keys to: the way back of a
            // default field accepts any value of it.
            let gives = olds.contains_key(&old_key) && migration.rekey.rekey(&old_key).is_ok_and(|k| k == new_key);
            if !gives {
                extra.push(Mismatch { old_key: Some(old_key), new_key: Some(new_key) });
            }
        }
    }
    Ok((rows, extra))
}

/// The new table's row count, and its rows whose keys are not among `given` (sorted, no
/// duplicates): both in key order, merged in one pass.
async fn unmatched(target: &Table, given: &[Key], batch_rows: usize) -> Result<(u64, Vec<Mismatch>), MigrateError> {
    let mut rows = 0u64;
    let mut extra = Vec::new();
    let mut next = 0;
    let mut batches = target.stream_rows(&KeyRange::all().into(), &keys_only()).chunks(batch_rows);
    while let Some(batch) = batches.next().await {
        for row in batch {
            let row = row?;
            rows += 1;
            while given.get(next).is_some_and(|key| *key < row.key) {
                next += 1;
            }
            if given.get(next) != Some(&row.key) {
                extra.push(Mismatch { old_key: None, new_key: Some(row.key) });
            }
        }
    }
    Ok((rows, extra))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Schema;

    fn report(old_rows: u64, new_rows: u64, rows_merge: bool) -> VerifyReport {
        let schema = Schema::from_json(
            r#"{ "rowkey_schema": 1, "type": "K", "format": "ordered",
                 "fields": [{ "name": "a", "type": "i64", "encoding": "int64" }] }"#,
        )
        .unwrap();
        VerifyReport {
            old_rows,
            new_rows,
            compared: old_rows,
            missing: Vec::new(),
            differing: Vec::new(),
            extra: Vec::new(),
            rows_merge,
            old: schema,
            new: schema,
        }
    }

    #[test]
    fn counts_that_differ_fail_unless_rows_merge_into_fewer() {
        assert!(report(40, 40, false).is_clean());
        let more = report(40, 41, false);
        assert!(!more.is_clean());
        assert!(more.to_string().contains("the row counts differ (40 old, 41 new) and no rows merge"), "{more}");
        assert!(!report(40, 39, false).is_clean());
        assert!(report(40, 39, true).is_clean());
        assert!(!report(40, 41, true).is_clean());
    }
}
