//! The store, and the rows kept beside it.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use redb::{Database, ReadableTable, ReadableTableMetadata, TableDefinition};
use rowkey::{Key, KeyRanges, RowKeyOwned};

use crate::rows::Rng;

/// Key bytes to the row's index in the sorted rows the test keeps beside the store.
pub(crate) const ROWS: TableDefinition<&[u8], u64> = TableDefinition::new("rows");

/// Generated queries per query shape.
pub(crate) const QUERIES: usize = 150;

/// A redb database in its own directory under the temp dir, removed when dropped.
pub(crate) struct Store {
    // First, so the database is closed before its directory is removed.
    pub(crate) db: Database,
    dir: PathBuf,
}

impl Store {
    fn create(name: &str) -> Store {
        // The pid and the clock keep concurrent runs apart; the name keeps tests apart.
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("rowkey-store-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Database::create(dir.join("db.redb")).unwrap();
        Store { db, dir }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Rows in a store, and the same rows in key order in memory: the store maps each key to
/// the row's index in `rows`, so a scan's result is a list of indices.
pub(crate) struct Table<T> {
    pub(crate) store: Store,
    pub(crate) rows: Vec<(Key, T)>,
}

impl<T: RowKeyOwned + Debug> Table<T> {
    /// Writes the rows (a later row with the same key replaces an earlier one, as in the
    /// store) and checks that every key decodes back to its row.
    pub(crate) fn load(name: &str, rows: impl IntoIterator<Item = T>) -> Table<T>
    where
        T: PartialEq,
    {
        let mut by_key = BTreeMap::new();
        for row in rows {
            let key = row.to_key().unwrap();
            assert_eq!(T::from_key(&key).unwrap(), row, "{key}");
            by_key.insert(key, row);
        }
        let rows: Vec<(Key, T)> = by_key.into_iter().collect();
        assert!(rows.len() >= 2_000, "{name}: only {} distinct rows", rows.len());

        let store = Store::create(name);
        let tx = store.db.begin_write().unwrap();
        {
            let mut table = tx.open_table(ROWS).unwrap();
            for (i, (key, _)) in rows.iter().enumerate() {
                table.insert(key.as_bytes(), i as u64).unwrap();
            }
        }
        tx.commit().unwrap();
        Table { store, rows }
    }

    pub(crate) fn row(&self, i: usize) -> &T {
        &self.rows[i].1
    }

    /// Rows to build queries from, so that most queries find something.
    pub(crate) fn picks(&self, rng: &mut Rng) -> Vec<&T> {
        (0..QUERIES).map(|_| &rng.pick(&self.rows).1).collect()
    }

    /// What redb returns for `ranges`, in the order it returns it.
    pub(crate) fn scan(&self, ranges: &KeyRanges) -> Vec<usize> {
        let read = self.store.db.begin_read().unwrap();
        let table = read.open_table(ROWS).unwrap();
        let mut found = Vec::new();
        for range in ranges {
            for row in table.range::<&[u8]>(range.bounds()).unwrap() {
                found.push(row.unwrap().1.value() as usize);
            }
        }
        found
    }

    /// Every row the store holds, in key order.
    pub(crate) fn stored(&self) -> Vec<usize> {
        let read = self.store.db.begin_read().unwrap();
        let table = read.open_table(ROWS).unwrap();
        table.iter().unwrap().map(|row| row.unwrap().1.value() as usize).collect()
    }

    /// For every query, the store's scan over the computed ranges returns the rows that
    /// `matches` keeps, each once, in key order. At least a quarter of the queries must find
    /// something, or the test would prove little.
    pub(crate) fn check<Q: Debug>(
        &self,
        queries: impl IntoIterator<Item = Q>,
        ranges: impl Fn(&Q) -> rowkey::Result<KeyRanges>,
        matches: impl Fn(&Q, &T) -> bool,
    ) {
        let (mut asked, mut found) = (0, 0);
        for query in queries {
            let ranges = ranges(&query).unwrap_or_else(|e| panic!("ranges for {query:?}: {e}"));
            let scanned = self.scan(&ranges);
            let expected: Vec<usize> = (0..self.rows.len()).filter(|&i| matches(&query, self.row(i))).collect();
            if scanned != expected {
                let show =
                    |ids: Vec<usize>| ids.iter().map(|&i| format!("\n    {}", self.rows[i].0)).collect::<String>();
                let missed = expected.iter().filter(|i| !scanned.contains(i)).copied().collect();
                let extra = scanned.iter().filter(|i| !expected.contains(i)).copied().collect();
                panic!(
                    "query {query:?}\n  ranges {ranges}\n  missed:{}\n  returned but not matching:{}\n  \
                     (or the same rows in another order)",
                    show(missed),
                    show(extra)
                );
            }
            asked += 1;
            found += usize::from(!scanned.is_empty());
        }
        assert!(found * 4 >= asked, "only {found} of {asked} queries found rows");
    }

    /// A query that matches no key: its ranges are empty, and so read, delete and merge
    /// nothing.
    pub(crate) fn assert_matches_nothing(&self, query: &str, ranges: rowkey::Result<KeyRanges>) {
        let ranges = ranges.unwrap_or_else(|e| panic!("ranges for {query}: {e}"));
        assert!(ranges.is_empty(), "{query}: matches no key, but its ranges are {ranges}");
        self.assert_reads_nothing(query, &ranges);
    }

    /// Reading, deleting and merging `ranges` leave every row where it is and return none.
    pub(crate) fn assert_reads_nothing(&self, query: &str, ranges: &KeyRanges) {
        assert_eq!(self.scan(ranges), Vec::<usize>::new(), "{query}: read");
        assert!(self.merged(ranges, |key| Key::from(key)).is_empty(), "{query}: merged");

        let before = self.stored().len();
        let tx = self.store.db.begin_write().unwrap();
        let deleted = {
            let mut rows = tx.open_table(ROWS).unwrap();
            for range in ranges {
                rows.retain_in::<&[u8], _>(range.bounds(), |_, _| false).unwrap();
            }
            before - rows.len().unwrap() as usize
        };
        // Never committed: a wrong range must not empty the table for the other queries.
        tx.abort().unwrap();
        assert_eq!(deleted, 0, "{query}: a delete by its ranges removes rows");
    }

    /// The rows of `ranges`, each range read from the store as its own stream and the streams
    /// merged by `unsalted`.
    pub(crate) fn merged(&self, ranges: &KeyRanges, unsalted: impl Fn(&[u8]) -> Key) -> Vec<&T> {
        let read = self.store.db.begin_read().unwrap();
        let table = read.open_table(ROWS).unwrap();
        let streams: Vec<_> = ranges.iter().map(|range| table.range::<&[u8]>(range.bounds()).unwrap()).collect();
        rowkey::try_merge(streams, |(key, _)| unsalted(key.value()))
            .map(|row| self.row(row.unwrap().1.value() as usize))
            .collect()
    }
}
