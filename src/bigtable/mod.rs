//! Bigtable over its v2 Data API (feature `bigtable`): [`KeyRange`]s and [`KeyRanges`] as
//! `RowRange`s and `RowSet`s, reads as resumable streams ([`RowStream`]), fan-out reads merged
//! across salt buckets as they arrive ([`MergedRows`]), and batched writes with retries, all
//! configured by one [`Config`].
//!
//! The client is [`bigtable_rs`], re-exported here so that the connection and the request
//! types come from the same version this module was built against. A [`Table`] pairs a
//! connection with a table name:
//!
//! ```no_run
//! use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
//! use rowkey::bigtable::{ReadOptions, Table, set_cell};
//! use rowkey::scan::OrderedScan;
//! use rowkey::{Desc, RowKey};
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! // Honours BIGTABLE_EMULATOR_HOST; otherwise application default credentials.
//! let connection = BigTableConnection::new("my-project", "my-instance", false, 1, None).await?;
//! let table = Table::new(connection.client(), "readings");
//!
//! let key = ("phone", "4c410523", Desc(1_588_291_200_000i64)).to_key()?;
//! table.write_rows([(key, vec![set_cell("r", "celsius", "21.5", 1_588_291_200_000_000)])]).await?;
//!
//! let mut scan = OrderedScan::new(3);
//! scan.fix("phone")?.fix("4c410523")?;
//! for row in table.read_rows(&scan.ranges(), &ReadOptions::new().limit(10)).await? {
//!     println!("{} {:?}", row.key, row.value("r", b"celsius"));
//! }
//! # Ok(())
//! # }
//! ```
//!
//! On a real network connections drop: a read resumes after the last row it delivered, a
//! write retries the rows that failed (when that is safe), each with backoff, as far as the
//! table's [`Config`] allows. The runtime must have tokio's time driver enabled
//! (`#[tokio::main]` does).
//!
//! Tables are created with `cbt`, `gcloud` or the Admin API, not here: `bigtable_rs` speaks only
//! the Data API. For a table created with initial splits, write its split points with
//! [`Splits`](crate::splits::Splits) as the Admin API's JSON, `cbt createtable` arguments or
//! Terraform `split_keys`.
//!
//! A read never sends an empty `RowSet`: Bigtable reads the whole table for one, so empty
//! [`KeyRanges`] read nothing without asking the server. The emulator that ships with the
//! Google Cloud SDK serves this API; `examples/bigtable.rs` and `tests/bigtable_emulator.rs`
//! run against it.

use std::ops::{Bound, RangeBounds};

mod config;
mod error;
mod merged;
pub mod migrate;
mod read;
mod sample;
mod write;

use std::sync::Arc;

use bigtable_rs::bigtable::{BigTable, RowCell};
use bigtable_rs::google::bigtable::v2::row_filter::Filter;
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{Mutation, RowFilter, RowRange, RowSet, mutation};

pub use bigtable_rs;
pub use config::{Config, Retry};
pub use error::{Error, FailReason, FailedRow};
pub use merged::MergedRows;
pub use read::RowStream;
pub use sample::SampledKey;

use crate::key::Key;
use crate::range::{KeyRange, KeyRanges};

/// The `RowRange` that reads the keys of `range`, or `None` when it holds no row Bigtable can
/// store, so there is nothing to send.
///
/// Each side keeps the range's own form: an inclusive start is `start_key_closed`, an
/// exclusive one `start_key_open`, and likewise for the end; an unbounded side is left unset.
/// Empty keys are the exception, because Bigtable reads an empty key as "no bound": a start
/// at the empty key is left unset (no row has an empty key, so this changes nothing), and a
/// range that ends at or before the empty key is `None` rather than a range that Bigtable
/// would read to the end of the table.
///
/// ```
/// use rowkey::KeyRange;
/// use rowkey::bigtable::bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
/// use rowkey::bigtable::row_range;
///
/// let range = row_range(&KeyRange::prefix(b"phone#")).unwrap();
/// assert_eq!(range.start_key, Some(StartKey::StartKeyClosed(b"phone#".to_vec())));
/// assert_eq!(range.end_key, Some(EndKey::EndKeyOpen(b"phone$".to_vec())));
///
/// let open = row_range(&KeyRange::from((std::ops::Bound::Excluded("a"), std::ops::Bound::Unbounded))).unwrap();
/// assert_eq!(open.start_key, Some(StartKey::StartKeyOpen(b"a".to_vec())));
/// assert_eq!(open.end_key, None);
///
/// assert_eq!(row_range(&KeyRange::from("b".."a")), None);
/// assert_eq!(row_range(&KeyRange::from(..="")), None);
/// ```
#[must_use]
pub fn row_range(range: &KeyRange) -> Option<RowRange> {
    if range.is_empty() || range.end_bound() == Bound::Included(&[][..]) {
        return None;
    }
    let start_key = match range.start_bound() {
        Bound::Included(key) | Bound::Excluded(key) if key.is_empty() => None,
        Bound::Included(key) => Some(StartKey::StartKeyClosed(key.to_vec())),
        Bound::Excluded(key) => Some(StartKey::StartKeyOpen(key.to_vec())),
        Bound::Unbounded => None,
    };
    let end_key = match range.end_bound() {
        Bound::Included(key) => Some(EndKey::EndKeyClosed(key.to_vec())),
        Bound::Excluded(key) => Some(EndKey::EndKeyOpen(key.to_vec())),
        Bound::Unbounded => None,
    };
    Some(RowRange { start_key, end_key })
}

/// The `RowSet` that reads the keys of `ranges`, one `RowRange` per range, or `None` when
/// they hold no row.
///
/// `None` matters: a `ReadRowsRequest` with an empty `RowSet` (or none) reads every row of the
/// table, the opposite of what empty ranges mean.
///
/// ```
/// use rowkey::bigtable::row_set;
/// use rowkey::salt::Salt;
/// use rowkey::scan::OrderedScan;
/// use rowkey::KeyRanges;
///
/// let salt = Salt::farmhash(16)?;
/// let phones = salt.fan_out(|bucket| {
///     let mut scan = OrderedScan::new(4);
///     scan.fix(&bucket)?.fix("phone")?;
///     Ok(scan.ranges())
/// })?;
/// assert_eq!(row_set(&phones).unwrap().row_ranges.len(), 16);
/// assert!(row_set(&KeyRanges::new()).is_none());
/// # Ok::<(), rowkey::Error>(())
/// ```
#[must_use]
pub fn row_set(ranges: &KeyRanges) -> Option<RowSet> {
    let row_ranges: Vec<RowRange> = ranges.iter().filter_map(row_range).collect();
    (!row_ranges.is_empty()).then(|| RowSet { row_keys: Vec::new(), row_ranges })
}

/// A `SetCell` mutation: `value` in column `family:qualifier` at `timestamp_micros`.
///
/// Bigtable keeps timestamps at millisecond granularity unless the table says otherwise, so
/// give a multiple of 1000; `-1` asks the server to use its own clock (which makes a retried
/// write add a second cell rather than overwrite the first).
///
/// ```
/// let mutation = rowkey::bigtable::set_cell("r", "celsius", "21.5", 1_588_291_200_000_000);
/// assert!(mutation.mutation.is_some());
/// ```
#[must_use]
pub fn set_cell(
    family: &str,
    qualifier: impl Into<Vec<u8>>,
    value: impl Into<Vec<u8>>,
    timestamp_micros: i64,
) -> Mutation {
    Mutation {
        mutation: Some(mutation::Mutation::SetCell(mutation::SetCell {
            family_name: family.to_owned(),
            column_qualifier: qualifier.into(),
            timestamp_micros,
            value: value.into(),
        })),
    }
}

/// One row a read returned: its key, and its cells ordered by family, qualifier and then
/// newest first, as Bigtable sends them.
#[derive(Debug)]
pub struct Row {
    /// The row key.
    pub key: Key,
    /// The cells that passed the read's filter.
    pub cells: Vec<RowCell>,
}

impl Row {
    /// The value of the newest cell in `family:qualifier`, if the row has one.
    ///
    /// ```
    /// use rowkey::bigtable::Row;
    /// use rowkey::bigtable::bigtable_rs::bigtable::RowCell;
    ///
    /// let cell = |value: &str, timestamp_micros| RowCell {
    ///     family_name: "r".into(),
    ///     qualifier: b"celsius".to_vec(),
    ///     value: value.into(),
    ///     timestamp_micros,
    ///     labels: vec![],
    /// };
    /// let row = Row { key: "k".into(), cells: vec![cell("21.5", 2_000), cell("20.0", 1_000)] };
    /// assert_eq!(row.value("r", b"celsius"), Some(&b"21.5"[..]));
    /// assert_eq!(row.value("r", b"humidity"), None);
    /// ```
    #[must_use]
    pub fn value(&self, family: &str, qualifier: &[u8]) -> Option<&[u8]> {
        self.cells
            .iter()
            .find(|cell| cell.family_name == family && cell.qualifier == qualifier)
            .map(|cell| cell.value.as_slice())
    }
}

/// What a read returns besides the row keys: a filter on the cells, and a limit on the rows.
///
/// ```
/// let options = rowkey::bigtable::ReadOptions::new().latest_cells().limit(10);
/// assert_eq!(options.rows_limit(), Some(10));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    filter: Option<RowFilter>,
    limit: Option<u64>,
}

impl ReadOptions {
    /// Every cell of every row in the ranges.
    #[must_use]
    pub fn new() -> Self {
        ReadOptions::default()
    }

    /// Returns at most `rows` rows. For [`Table::read_merged`] the limit applies to the merged
    /// rows, and each stream is read with it too, so no stream is read past it.
    ///
    /// `limit(0)` reads nothing; Bigtable's own `rows_limit` of 0 would mean "no limit".
    #[must_use]
    pub fn limit(mut self, rows: u64) -> Self {
        self.limit = Some(rows);
        self
    }

    /// The limit set by [`limit`](Self::limit).
    #[must_use]
    pub fn rows_limit(&self) -> Option<u64> {
        self.limit
    }

    /// Returns only the cells that pass `filter`.
    #[must_use]
    pub fn filter(mut self, filter: RowFilter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Returns only the newest cell of each column.
    #[must_use]
    pub fn latest_cells(self) -> Self {
        self.filter(RowFilter { filter: Some(Filter::CellsPerColumnLimitFilter(1)) })
    }

    /// Returns one cell of each row, without its value: the row keys, for counting rows or
    /// checking that they exist at little cost.
    ///
    /// ```
    /// let options = rowkey::bigtable::ReadOptions::new().keys_only().limit(100);
    /// assert_eq!(options.rows_limit(), Some(100));
    /// ```
    #[must_use]
    pub fn keys_only(self) -> Self {
        use bigtable_rs::google::bigtable::v2::row_filter::Chain;
        let filters = vec![
            RowFilter { filter: Some(Filter::CellsPerRowLimitFilter(1)) },
            RowFilter { filter: Some(Filter::StripValueTransformer(true)) },
        ];
        self.filter(RowFilter { filter: Some(Filter::Chain(Chain { filters })) })
    }
}

/// A Bigtable table: a connection and a table name, with reads over [`KeyRanges`] and batched
/// writes. Cloning is cheap and shares the connection.
///
/// ```no_run
/// use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
/// use rowkey::bigtable::Table;
///
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// let connection = BigTableConnection::new_with_emulator("127.0.0.1:8086", "p", "i", false, 1, None)?;
/// let table = Table::new(connection.client(), "readings");
/// assert_eq!(table.name(), "projects/p/instances/i/tables/readings");
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Table {
    client: BigTable,
    name: String,
    config: Arc<Config>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("name", &self.name).finish_non_exhaustive()
    }
}

impl Table {
    /// The table `table_id` of the client's instance.
    #[must_use]
    pub fn new(client: BigTable, table_id: &str) -> Self {
        let name = client.get_full_table_name(table_id);
        Table { client, name, config: Arc::new(Config::default()) }
    }

    /// The same table with `config`'s retries, timeouts and batching.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) {
    /// use rowkey::bigtable::{Config, Retry};
    ///
    /// let table = table.with_config(Config::default().reads(Retry::reads().attempts(20)).batches_in_flight(16));
    /// assert_eq!(table.config().max_batches_in_flight(), 16);
    /// # }
    /// ```
    #[must_use]
    pub fn with_config(mut self, config: Config) -> Self {
        self.config = Arc::new(config);
        self
    }

    /// The table's retries, timeouts and batching.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The table's full name, `projects/{project}/instances/{instance}/tables/{table}`.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}
