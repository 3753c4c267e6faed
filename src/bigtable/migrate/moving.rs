//! Reads while a table moves to a new key design: a query of the new design answered from the
//! new table and the old one.

use std::ops::Bound;

use futures_util::TryStreamExt;

use super::error::MigrateError;
use crate::bigtable::{ReadOptions, Row, Table};
use crate::range::{KeyRange, KeyRanges};
use crate::rekey::{Rekey, Source};
use crate::schema::{Encoding, KeyField, ScanNext, Schema, ValueText, parse_value};

/// A table on its way to a new key design, read as if the move were done.
///
/// [`read`](Self::read) takes a query of the new design (as [`Schema::scan_query`] does:
/// fixed leading fields by name, then a range or prefix on the next) and returns the rows the
/// new table will hold for it once the move is over:
///
/// - the new table's rows in the query's ranges;
/// - the old table's rows for the same query, read from the old design's ranges for it (the
///   query's fields by name, through the mapping's renames; where the old design cannot bound
///   the query exactly, because its key puts other fields first, a wider range, down to the
///   whole table), re-keyed, and kept when the new key is in the query's ranges;
/// - the two merged in the new key's order, the new table's row winning for a key in both
///   (it is the copy of the old one, or newer).
///
/// What it costs: two reads in place of one, the re-keying of each old row, and the old
/// rows of the answer held in memory to be sorted in the new order. When the old design
/// cannot bound the query, the old table is read over the wider range, every row of which
/// costs a read and a re-key, even those the query then drops.
///
/// ```no_run
/// # async fn demo(old: rowkey::bigtable::Table, new: rowkey::bigtable::Table, rekey: rowkey::rekey::Rekey) -> Result<(), rowkey::bigtable::migrate::MigrateError> {
/// use rowkey::bigtable::migrate::Moving;
///
/// let moving = Moving::new(old, new, rekey);
/// for row in moving.read(&[("device_id", "4c410523")], None).await? {
///     println!("{}", row.key); // in the new design, as the finished table will hold it
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Moving {
    old: Table,
    new: Table,
    rekey: Rekey,
}

impl Moving {
    /// The move from `old` to `new` by `rekey`.
    #[must_use]
    pub fn new(old: Table, new: Table, rekey: Rekey) -> Self {
        Moving { old, new, rekey }
    }

    /// The old table's ranges for a query of the new design: exact where the old design puts
    /// the query's fields first, wider otherwise.
    ///
    /// # Errors
    ///
    /// [`MigrateError::Query`] when the query is not one of the new design's.
    pub fn old_ranges(
        &self,
        fixed: &[(&str, &str)],
        next: Option<(&str, ScanNext<'_>)>,
    ) -> Result<KeyRanges, MigrateError> {
        let (from, to) = (self.rekey.from_schema(), self.rekey.to_schema());
        // Checks the query against the new design first, so that a bad one is its error.
        to.scan_query(fixed, next).map_err(|e| MigrateError::Query(Box::new(e)))?;
        let old_name = |name: &str| {
            self.rekey.mapping().find_map(|(field, source)| match source {
                Source::Field(old) if field.name == name => Some(*old),
                _ => None,
            })
        };
        // Each fixed value in the old field's text.
        let mut old_fixed: Vec<(&str, String)> = Vec::new();
        for (name, text) in fixed {
            let (Some(old), Some(new_field)) = (old_name(name), to.field(name)) else { continue };
            let old_field = from.field(old).expect("the mapping names old fields");
            let value = parse_value(to.format, new_field, text).map_err(|e| MigrateError::Query(Box::new(e)))?;
            old_fixed.push((old, ValueText(KeyField::Value(old_field), &value).to_string()));
        }
        // The old design's leading fields that the query fixes, in its order, then the next
        // one when the query bounds it the same way.
        let steps = from.fields.iter().take_while(|f| !matches!(f.encoding, Encoding::Flattened(_)));
        let mut query: Vec<(&str, &str)> = Vec::new();
        let mut old_next = None;
        let next_old = next.and_then(|(name, scan)| Some((old_name(name)?, name, scan)));
        for field in steps {
            if let Some((_, text)) = old_fixed.iter().find(|(name, _)| *name == field.name) {
                query.push((field.name, text.as_str()));
                continue;
            }
            if let Some((old, new, scan)) = next_old.filter(|(old, _, _)| *old == field.name) {
                old_next = Some((old, new, scan));
            }
            break;
        }
        let translated = old_next.and_then(|(old, new, scan)| Some((old, translate(to, from, new, old, scan)?)));
        let old_next = translated.as_ref().map(|(old, scan)| (*old, scan.as_scan()));
        // Wider where the old design cannot take the query: without the next field's scan,
        // and the whole table when its leading field is not fixed.
        Ok(from
            .scan_query(&query, old_next)
            .or_else(|_| from.scan_query(&query, None))
            .unwrap_or_else(|_| KeyRange::all().into()))
    }

    /// The rows of the new design's query, from both tables; see the [type docs](Self).
    ///
    /// # Errors
    ///
    /// [`MigrateError::Query`] for a query that is not one of the new design's,
    /// [`MigrateError::Bigtable`] when a read fails, [`MigrateError::Rekey`] for an old row
    /// whose key is not one of the old design's.
    pub async fn read(
        &self,
        fixed: &[(&str, &str)],
        next: Option<(&str, ScanNext<'_>)>,
    ) -> Result<Vec<Row>, MigrateError> {
        let to = self.rekey.to_schema();
        let new_ranges = to.scan_query(fixed, next).map_err(|e| MigrateError::Query(Box::new(e)))?;
        if new_ranges.is_empty() {
            // No key matches (`ts=5..5`): nothing to read from either table, and the old
            // design's wider ranges would read rows only to drop them all.
            return Ok(Vec::new());
        }
        let old_ranges = self.old_ranges(fixed, next)?;
        let options = ReadOptions::new();
        let mut olds = Vec::new();
        let mut stream = self.old.stream_rows(&old_ranges, &options);
        while let Some(row) = stream.try_next().await? {
            let key = self.rekey.rekey(&row.key).map_err(|error| MigrateError::Rekey {
                shard: 0,
                key: Box::new(row.key.clone()),
                error: Box::new(error),
            })?;
            if new_ranges.contains(&key) {
                olds.push(Row { key, cells: row.cells });
            }
        }
        olds.sort_by(|a, b| a.key.cmp(&b.key));
        let news = self.new.read_rows(&new_ranges, &options).await?;
        let mut merged = Vec::with_capacity(olds.len() + news.len());
        let mut olds = olds.into_iter().peekable();
        for new in news {
            while let Some(old) = olds.next_if(|old| old.key < new.key) {
                merged.push(old);
            }
            olds.next_if(|old| old.key == new.key);
            merged.push(new);
        }
        merged.extend(olds);
        Ok(merged)
    }
}

/// A scan on the old field in its own text, when it can take the new field's scan as it is.
enum Translated {
    Range(Bound<String>, Bound<String>),
    StartsWith(String),
    Subdomains(String),
}

impl Translated {
    fn as_scan(&self) -> ScanNext<'_> {
        fn bound(b: &Bound<String>) -> Bound<&str> {
            b.as_ref().map(String::as_str)
        }
        match self {
            Translated::Range(start, end) => ScanNext::Range(bound(start), bound(end)),
            Translated::StartsWith(text) => ScanNext::StartsWith(text),
            Translated::Subdomains(host) => ScanNext::HostAndSubdomains(host),
        }
    }
}

/// The new field's scan for the old field: a range's bounds as values in the old field's
/// text; a text prefix or a host as it is (the old scan refuses it when the old field is not
/// text or not a reversed host, and the old table is then read wider). `None` when a bound
/// is no value of the old field.
fn translate(to: &Schema, from: &Schema, new: &str, old: &str, scan: ScanNext<'_>) -> Option<Translated> {
    let (new_field, old_field) = (to.field(new)?, from.field(old)?);
    let bound = |b: Bound<&str>| -> Option<Bound<String>> {
        let text = |t: &str| {
            parse_value(to.format, new_field, t)
                .ok()
                .map(|value| ValueText(KeyField::Value(old_field), &value).to_string())
        };
        Some(match b {
            Bound::Included(t) => Bound::Included(text(t)?),
            Bound::Excluded(t) => Bound::Excluded(text(t)?),
            Bound::Unbounded => Bound::Unbounded,
        })
    };
    Some(match scan {
        ScanNext::Range(start, end) => Translated::Range(bound(start)?, bound(end)?),
        ScanNext::StartsWith(text) => Translated::StartsWith(text.to_owned()),
        ScanNext::HostAndSubdomains(host) => Translated::Subdomains(host.to_owned()),
    })
}
