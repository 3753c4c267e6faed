//! Changing the key design of a live table: every row of the old table copied into a new one
//! under its new key ([`Rekey`]), with every cell unchanged; then both tables compared
//! ([`Migration::verify`]); and, while the move runs, queries of the new design answered from
//! both ([`Moving`]).
//!
//! A copy reads the old table in shards (the old design's salt buckets by default, or split
//! points given or sampled from the table), several at a time, each in key order on the
//! client's streaming reads, and writes batches of re-keyed rows with the client's retried
//! writes. Each cell keeps its family, qualifier, value and timestamp, so writing a row again
//! writes the same cells: a copy can be run twice, or stopped and started again, and never
//! doubles a row.
//!
//! With a [checkpoint file](Migration::checkpoint), each shard's last copied key is saved
//! once the writes of the rows up to it are acknowledged. A run that is killed and started
//! again with the same file skips what was copied and ends with the rows of a run that never
//! stopped; a file of another migration is refused before anything is written.
//!
//! ```no_run
//! # async fn demo(old: rowkey::bigtable::Table, new: rowkey::bigtable::Table) -> Result<(), Box<dyn std::error::Error>> {
//! use rowkey::RowKey;
//! use rowkey::bigtable::migrate::Migration;
//! use rowkey::rekey::Rekey;
//!
//! #[derive(RowKey)]
//! #[rowkey(delimited = "#", allow_hotspot)]
//! struct ByTime { ts_millis: i64, device_id: String }
//!
//! #[derive(RowKey)]
//! #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
//! struct Reading { device_id: String, #[rowkey(reverse)] ts_millis: i64 }
//!
//! let rekey = Rekey::between::<ByTime, Reading>().build()?;
//! let migration = Migration::new(old, new, rekey).checkpoint("readings.checkpoint.json").sample_shards(16).await?;
//! let summary = migration.run().await?;
//! println!("{} rows in {:?}", summary.rows, summary.elapsed);
//! let report = migration.verify(None).await?;
//! assert!(report.is_clean(), "{report}");
//! # Ok(())
//! # }
//! ```

mod checkpoint;
mod error;
mod moving;
mod verify;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{StreamExt, TryStreamExt};
use tracing::Instrument;

use super::{ReadOptions, Row, Table, set_cell};
use crate::key::Key;
use crate::range::KeyRange;
use crate::rekey::Rekey;
use crate::salt::farm_fingerprint;

use checkpoint::Checkpoint;
pub use error::MigrateError;
pub use moving::Moving;
pub use verify::{Mismatch, VerifyReport};

/// Where a copy stands, as [`Migration::on_progress`] receives it after each batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The shard, counting from 0.
    pub shard: usize,
    /// Rows of the shard copied, counting those of earlier runs of the same checkpoint.
    pub rows: u64,
    /// Whether the shard is finished.
    pub done: bool,
}

/// What a [`Migration::run`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Rows copied by this run.
    pub rows: u64,
    /// Rows copied in all, counting those of earlier runs of the same checkpoint.
    pub total_rows: u64,
    /// Shards in all.
    pub shards: usize,
    /// Shards an earlier run had finished, skipped.
    pub skipped: usize,
    /// How long the run took.
    pub elapsed: Duration,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rate = self.rows as f64 / self.elapsed.as_secs_f64().max(1e-9);
        write!(
            f,
            "{} rows copied in {:.1} s ({rate:.0} rows/s), {} in all over {} shards",
            self.rows,
            self.elapsed.as_secs_f64(),
            self.total_rows,
            self.shards
        )?;
        if self.skipped > 0 {
            write!(f, " ({} finished by an earlier run)", self.skipped)?;
        }
        Ok(())
    }
}

type OnProgress = Arc<dyn Fn(Progress) + Send + Sync>;

/// A copy of a table under a new key design; see the [module docs](self).
#[derive(Clone)]
pub struct Migration {
    source: Table,
    target: Table,
    rekey: Rekey,
    shards: Vec<KeyRange>,
    at_once: usize,
    batch_rows: usize,
    checkpoint: Option<PathBuf>,
    on_progress: Option<OnProgress>,
}

impl std::fmt::Debug for Migration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Migration")
            .field("source", &self.source.name())
            .field("target", &self.target.name())
            .field("shards", &self.shards.len())
            .field("checkpoint", &self.checkpoint)
            .finish_non_exhaustive()
    }
}

impl Migration {
    /// A copy of `source` into `target`, each row re-keyed by `rekey`. The shards are the old
    /// design's salt buckets (at most 64, consecutive buckets grouped), or the whole table
    /// for an unsalted design: give [`split_points`](Self::split_points) or call
    /// [`sample_shards`](Self::sample_shards) to copy it in parallel.
    #[must_use]
    pub fn new(source: Table, target: Table, rekey: Rekey) -> Self {
        let schema = rekey.from_schema();
        let points = schema
            .salt
            .and_then(|salt| schema.split_planner().tablets(salt.buckets.min(64)).plan().ok())
            .map(|splits| splits.points().to_vec())
            .unwrap_or_default();
        Migration {
            source,
            target,
            rekey,
            shards: shards_between(points),
            at_once: 4,
            batch_rows: 500,
            checkpoint: None,
            on_progress: None,
        }
    }

    /// Shards cut at these old keys: one before the first, one between each two, one after
    /// the last.
    #[must_use]
    pub fn split_points<I>(mut self, points: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Key>,
    {
        self.shards = shards_between(points.into_iter().map(Into::into).collect());
        self
    }

    /// Shards cut at the old table's own sample of its keys (Bigtable's `SampleRowKeys`, about
    /// one key per 100 MB stored), thinned to at most `shards` shards.
    ///
    /// # Errors
    ///
    /// [`MigrateError::Bigtable`] when the sample cannot be read after the retries of the old
    /// table's [`Config::reads`](super::Config::reads) ([`Table::sample`]).
    pub async fn sample_shards(self, shards: usize) -> Result<Self, MigrateError> {
        let sample = self.source.sample_row_keys().await?;
        let step = sample.len().div_ceil(shards.max(1)).max(1);
        let points: Vec<Key> = sample.into_iter().skip(step - 1).step_by(step).collect();
        Ok(self.split_points(points))
    }

    /// How many shards are copied at once (4 by default).
    #[must_use]
    pub fn shards_at_once(mut self, shards: usize) -> Self {
        self.at_once = shards.max(1);
        self
    }

    /// Rows read before each write (500 by default); the target table's
    /// [`Config`](super::Config) splits a write into its own batches.
    #[must_use]
    pub fn batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// Keeps progress in this file, and continues from it when it exists.
    #[must_use]
    pub fn checkpoint(mut self, path: impl Into<PathBuf>) -> Self {
        self.checkpoint = Some(path.into());
        self
    }

    /// Calls `report` after each batch a shard writes, and when a shard finishes.
    #[must_use]
    pub fn on_progress(mut self, report: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.on_progress = Some(Arc::new(report));
        self
    }

    /// The shards, as ranges of the old table's keys (a checkpoint file that exists keeps its
    /// own).
    #[must_use]
    pub fn shards(&self) -> &[KeyRange] {
        &self.shards
    }

    /// The re-keying.
    #[must_use]
    pub fn rekey(&self) -> &Rekey {
        &self.rekey
    }

    /// What a checkpoint file records this migration as: a fingerprint of the two designs,
    /// the mapping and the tables, so that a file of another migration is refused. (The
    /// shards are the file's own: a run that continues from it copies the shards the first
    /// run cut, whatever this one's.)
    #[must_use]
    pub fn id(&self) -> String {
        let mut text = format!(
            "{}\n{}\n{}\n{}\n",
            self.source.name(),
            self.target.name(),
            self.rekey.from_schema(),
            self.rekey.to_schema()
        );
        for (field, source) in self.rekey.mapping() {
            text.push_str(&format!("{} <- {source}\n", field.name));
        }
        format!("{:016x}", farm_fingerprint(text.as_bytes()))
    }

    /// Shard by shard as the checkpoint says (its shards, when the file exists): what each has
    /// copied, and whether it is done.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run) for the checkpoint file.
    pub fn progress(&self) -> Result<Vec<Progress>, MigrateError> {
        let checkpoint = Checkpoint::open(self.checkpoint.as_deref(), &self.id(), &self.shards)?;
        Ok(checkpoint
            .shards
            .iter()
            .enumerate()
            .map(|(shard, state)| Progress { shard, rows: state.rows, done: state.done })
            .collect())
    }

    /// Copies every row not yet copied.
    ///
    /// # Errors
    ///
    /// [`MigrateError::Checkpoint`] before anything is written when the checkpoint file
    /// cannot be read or belongs to another migration, or when it cannot be written;
    /// [`MigrateError::Bigtable`] when a read or write fails after the client's retries;
    /// [`MigrateError::Rekey`] for a row whose key is not one of the old design's. In each
    /// case the checkpoint holds what was copied before.
    pub async fn run(&self) -> Result<Summary, MigrateError> {
        let started = Instant::now();
        let mut checkpoint = Checkpoint::open(self.checkpoint.as_deref(), &self.id(), &self.shards)?;
        checkpoint.save()?;
        let skipped = checkpoint.shards.iter().filter(|s| s.done).count();
        let shards = checkpoint.shards.len();
        let todo: Vec<usize> = (0..shards).filter(|&i| !checkpoint.shards[i].done).collect();
        let checkpoint = Mutex::new(checkpoint);
        let span = tracing::info_span!("migrate", source = self.source.name(), target = self.target.name());
        let copied: u64 = futures_util::stream::iter(todo)
            .map(|shard| self.copy_shard(shard, &checkpoint))
            .buffer_unordered(self.at_once)
            .try_fold(0, |sum, rows| std::future::ready(Ok(sum + rows)))
            .instrument(span)
            .await?;
        let mut checkpoint = checkpoint.into_inner().expect("no copy panicked holding the checkpoint");
        checkpoint.save()?;
        let summary = Summary {
            rows: copied,
            total_rows: checkpoint.shards.iter().map(|s| s.rows).sum(),
            shards,
            skipped,
            elapsed: started.elapsed(),
        };
        tracing::info!(rows = summary.rows, total = summary.total_rows, "copied");
        Ok(summary)
    }

    /// Copies what is left of one shard; the rows this run copied.
    async fn copy_shard(&self, shard: usize, checkpoint: &Mutex<Checkpoint>) -> Result<u64, MigrateError> {
        let (remaining, mut rows) = {
            let checkpoint = checkpoint.lock().expect("no copy panicked holding the checkpoint");
            let state = &checkpoint.shards[shard];
            (state.remaining(), state.rows)
        };
        let span = tracing::info_span!("shard", shard, range = %remaining);
        async {
            let mut copied = 0;
            let mut stream = self.source.stream_rows(&remaining.into(), &ReadOptions::new()).chunks(self.batch_rows);
            while let Some(batch) = stream.next().await {
                let batch: Vec<Row> = batch.into_iter().collect::<Result<_, _>>()?;
                let last = batch.last().expect("a chunk holds a row").key.clone();
                let writes = batch
                    .into_iter()
                    .map(|row| {
                        let key = self.rekey.rekey(&row.key).map_err(|error| MigrateError::Rekey {
                            shard,
                            key: Box::new(row.key.clone()),
                            error: Box::new(error),
                        })?;
                        Ok((key, mutations_of(&row)))
                    })
                    .collect::<Result<Vec<_>, MigrateError>>()?;
                let n = writes.len() as u64;
                self.target.write_rows(writes).await?;
                copied += n;
                rows += n;
                tracing::debug!(rows, "batch written");
                checkpoint.lock().expect("no copy panicked holding the checkpoint").advance(shard, last, rows)?;
                self.report(Progress { shard, rows, done: false });
            }
            checkpoint.lock().expect("no copy panicked holding the checkpoint").finish(shard)?;
            self.report(Progress { shard, rows, done: true });
            Ok(copied)
        }
        .instrument(span)
        .await
    }

    fn report(&self, progress: Progress) {
        if let Some(report) = &self.on_progress {
            report(progress);
        }
    }
}

/// The cells of a row as the mutations that write them again, timestamps and all.
fn mutations_of(row: &Row) -> Vec<super::Mutation> {
    row.cells
        .iter()
        .map(|cell| set_cell(&cell.family_name, cell.qualifier.clone(), cell.value.clone(), cell.timestamp_micros))
        .collect()
}

/// The ranges between sorted, distinct points (the whole key space for none).
fn shards_between(mut points: Vec<Key>) -> Vec<KeyRange> {
    points.sort();
    points.dedup();
    points.retain(|p| !p.is_empty());
    let mut shards = Vec::with_capacity(points.len() + 1);
    let mut start = std::ops::Bound::Unbounded;
    for point in points {
        shards.push(KeyRange::new(start, std::ops::Bound::Excluded(point.clone())));
        start = std::ops::Bound::Included(point);
    }
    shards.push(KeyRange::new(start, std::ops::Bound::Unbounded));
    shards
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_key_space_once() {
        let shards = shards_between(vec![Key::from("m"), Key::from("c"), Key::from("m"), Key::new()]);
        assert_eq!(shards.len(), 3);
        for key in [&b""[..], b"a", b"c", b"l\xff", b"m", b"zz"] {
            assert_eq!(shards.iter().filter(|s| s.contains(key)).count(), 1, "{key:?}");
        }
        assert_eq!(shards_between(Vec::new()), [KeyRange::all()]);
    }
}
