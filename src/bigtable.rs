//! Bigtable over its v2 Data API (feature `bigtable`): [`KeyRange`]s and [`KeyRanges`] as
//! `RowRange`s and `RowSet`s, reads merged across salt buckets, and batched writes.
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
//! A read never sends an empty `RowSet`: Bigtable reads the whole table for one, so empty
//! [`KeyRanges`] read nothing without asking the server. The emulator that ships with the
//! Google Cloud SDK serves this API; `examples/bigtable.rs` and `tests/bigtable_emulator.rs`
//! run against it.

use std::ops::{Bound, RangeBounds};

use bigtable_rs::bigtable::{BigTable, RowCell};
use bigtable_rs::google::bigtable::v2::row_filter::Filter;
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{
    MutateRowsRequest, Mutation, ReadRowsRequest, RowFilter, RowRange, RowSet, mutate_rows_request, mutation,
};
use prost::Message;

pub use bigtable_rs;

use crate::key::Key;
use crate::range::{KeyRange, KeyRanges};

/// Bigtable's limit on the mutations of one `MutateRows` request.
const MAX_BATCH_MUTATIONS: usize = 100_000;
/// Where a `MutateRows` batch is cut by size: under 4 MiB, gRPC's default limit on a received
/// message, so that a server or proxy that keeps the default accepts it (Bigtable and its
/// emulator accept more), with room for the table name and framing.
const MAX_BATCH_BYTES: usize = 4_000_000;
/// gRPC's `UNKNOWN` status code.
const UNKNOWN: i32 = 2;

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
}

/// What can go wrong talking to Bigtable.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The client or the server failed: connection, authentication, or a failed RPC.
    #[error("bigtable: {0}")]
    Client(#[from] bigtable_rs::bigtable::Error),
    /// `MutateRows` applied some rows but not others. Rows are not retried: a failed row with
    /// a server-assigned timestamp might have been written after all.
    #[error("MutateRows: {failed} of {rows} rows were not written; the first, {key}: {message} (gRPC code {code})")]
    Write {
        /// How many rows failed.
        failed: usize,
        /// How many rows were sent.
        rows: usize,
        /// The key of the first failed row.
        key: Key,
        /// Its gRPC status code.
        code: i32,
        /// Its status message.
        message: String,
    },
    /// A stream given to [`Table::read_merged`] did not come back in the merge's key order.
    #[error(
        "read_merged: stream {stream} is not in merge order at row {key}; give each stream the ranges of one salt bucket"
    )]
    Unsorted {
        /// Which stream, counting from 0.
        stream: usize,
        /// The row that sorts before the one its stream returned ahead of it.
        key: Key,
    },
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
        Table { client, name }
    }

    /// The table's full name, `projects/{project}/instances/{instance}/tables/{table}`.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rows whose keys lie in `ranges`, in key order, with one `ReadRows` call.
    ///
    /// Empty `ranges` return no rows without a call.
    ///
    /// # Errors
    ///
    /// [`Error::Client`] when the call fails.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), rowkey::bigtable::Error> {
    /// use rowkey::KeyRange;
    /// use rowkey::bigtable::ReadOptions;
    ///
    /// let ranges = KeyRange::prefix(b"phone#").into();
    /// let rows = table.read_rows(&ranges, &ReadOptions::new().limit(100)).await?;
    /// assert!(rows.windows(2).all(|w| w[0].key < w[1].key));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn read_rows(&self, ranges: &KeyRanges, options: &ReadOptions) -> Result<Vec<Row>, Error> {
        let Some(rows) = row_set(ranges) else {
            return Ok(Vec::new());
        };
        let rows_limit = match options.limit {
            Some(0) => return Ok(Vec::new()),
            Some(limit) => i64::try_from(limit).unwrap_or(i64::MAX),
            None => 0,
        };
        let request = ReadRowsRequest {
            table_name: self.name.clone(),
            rows: Some(rows),
            filter: options.filter.clone(),
            rows_limit,
            ..ReadRowsRequest::default()
        };
        let rows = self.client.clone().read_rows(request).await?;
        Ok(rows.into_iter().map(|(key, cells)| Row { key: Key::from(key), cells }).collect())
    }

    /// Reads each of `streams` with its own `ReadRows` call, all at once, and merges the rows
    /// into the order of `key_of` with [`merge`](crate::merge()).
    ///
    /// This is the read of a salted table that does not know the salt. Each stream must come
    /// back in `key_of` order; the rows of one salt bucket do when `key_of` gives the key
    /// without its bucket (or the values decoded from it). A stream is anything that converts
    /// into [`KeyRanges`]: the [`KeyRanges`] from [`Salt::fan_out`](crate::salt::Salt::fan_out)
    /// passes as is, one stream per range, because the scan builders' ranges never cross a
    /// bucket boundary; one [`KeyRanges`] per bucket works too. The merge costs O(log streams)
    /// a row.
    ///
    /// With a [limit](ReadOptions::limit) of n, every stream is read with limit n as well, so
    /// the first 10 rows across 16 buckets read at most 160 rows, not the whole table.
    ///
    /// # Errors
    ///
    /// [`Error::Client`] when a call fails; [`Error::Unsorted`] when a stream's rows do not
    /// come back in `key_of` order, such as a range that spans two buckets.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::Desc;
    /// use rowkey::bigtable::{ReadOptions, Row};
    /// use rowkey::salt::Salt;
    /// use rowkey::scan::OrderedScan;
    ///
    /// // Keys: the bucket of the device id, then (device type, device id, Desc(millis)).
    /// let salt = Salt::farmhash(16)?;
    /// let phones = salt.fan_out(|bucket| {
    ///     let mut scan = OrderedScan::new(4);
    ///     scan.fix(&bucket)?.fix("phone")?;
    ///     Ok(scan.ranges())
    /// })?;
    /// let unsalted =
    ///     |row: &Row| salt.decode_ordered::<(String, String, Desc<i64>)>(&row.key).ok().map(|(_, key)| key);
    /// for row in table.read_merged(phones, &ReadOptions::new().limit(10), unsalted).await? {
    ///     println!("{}", row.key);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn read_merged<S, F, K>(
        &self,
        streams: S,
        options: &ReadOptions,
        mut key_of: F,
    ) -> Result<Vec<Row>, Error>
    where
        S: IntoIterator,
        S::Item: Into<KeyRanges>,
        F: FnMut(&Row) -> K,
        K: Ord,
    {
        let streams: Vec<KeyRanges> = streams.into_iter().map(Into::into).collect();
        let reads = streams.iter().map(|ranges| self.read_rows(ranges, options));
        let streams = futures_util::future::try_join_all(reads).await?;
        check_sorted(&streams, &mut key_of)?;
        let limit = options.limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        Ok(crate::merge(streams, key_of).take(limit).collect())
    }

    /// Writes rows with `MutateRows`: each row's mutations are applied atomically, in
    /// batches of at most 100,000 mutations (Bigtable's limit) and about 4 MB, one batch
    /// after another.
    /// Returns how many rows were written.
    ///
    /// # Errors
    ///
    /// [`Error::Client`] when a call fails, and [`Error::Write`] when the server rejects some
    /// rows of a batch: the batch's other rows and the batches before it were written, the
    /// batches after it were not sent.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::RowKey;
    /// use rowkey::bigtable::set_cell;
    ///
    /// let rows = (0..1000u32).map(|i| {
    ///     let key = ("sensor", i).to_key().expect("a u32 always encodes");
    ///     (key, vec![set_cell("r", "n", i.to_string(), 0)])
    /// });
    /// assert_eq!(table.write_rows(rows).await?, 1000);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn write_rows<I>(&self, rows: I) -> Result<usize, Error>
    where
        I: IntoIterator<Item = (Key, Vec<Mutation>)>,
    {
        let mut written = 0;
        let mut batch = Batch::default();
        for (key, mutations) in rows {
            let entry = mutate_rows_request::Entry { row_key: key.into_vec(), mutations, ..Default::default() };
            let bytes = entry.encoded_len();
            if batch.overflows_with(entry.mutations.len(), bytes) {
                written += self.send(std::mem::take(&mut batch)).await?;
            }
            batch.push(entry, bytes);
        }
        if !batch.entries.is_empty() {
            written += self.send(batch).await?;
        }
        Ok(written)
    }

    async fn send(&self, batch: Batch) -> Result<usize, Error> {
        let rows = batch.entries.len();
        let mut keys: Vec<Key> = batch.entries.iter().map(|e| Key::from(e.row_key.as_slice())).collect();
        let request = MutateRowsRequest { table_name: self.name.clone(), entries: batch.entries, ..Default::default() };
        let mut responses = self.client.clone().mutate_rows(request).await?;
        // An entry the server never reports on counts as failed: it may or may not be written.
        let mut outcome: Vec<Option<(i32, String)>> = vec![Some((UNKNOWN, "no status returned".to_owned())); rows];
        while let Some(response) = responses.message().await.map_err(bigtable_rs::bigtable::Error::from)? {
            for entry in response.entries {
                let Some(slot) = usize::try_from(entry.index).ok().and_then(|i| outcome.get_mut(i)) else {
                    continue;
                };
                *slot = match entry.status {
                    Some(status) if status.code != 0 => Some((status.code, status.message)),
                    _ => None,
                };
            }
        }
        let failed = outcome.iter().flatten().count();
        match outcome.into_iter().enumerate().find_map(|(i, o)| o.map(|o| (i, o))) {
            None => Ok(rows),
            Some((first, (code, message))) => {
                Err(Error::Write { failed, rows, key: std::mem::take(&mut keys[first]), code, message })
            }
        }
    }
}

/// Entries of one `MutateRows` request, with the counts its limits are checked against.
#[derive(Default)]
struct Batch {
    entries: Vec<mutate_rows_request::Entry>,
    mutations: usize,
    bytes: usize,
}

impl Batch {
    /// Whether an entry of this size would take the batch past a limit. An entry too large
    /// on its own still goes, alone, for the server to judge.
    fn overflows_with(&self, mutations: usize, bytes: usize) -> bool {
        !self.entries.is_empty()
            && (self.mutations + mutations > MAX_BATCH_MUTATIONS || self.bytes + bytes > MAX_BATCH_BYTES)
    }

    fn push(&mut self, entry: mutate_rows_request::Entry, bytes: usize) {
        self.mutations += entry.mutations.len();
        self.bytes += bytes;
        self.entries.push(entry);
    }
}

/// Checks that every stream is in `key_of` order, which the merge relies on.
fn check_sorted<K: Ord>(streams: &[Vec<Row>], key_of: &mut impl FnMut(&Row) -> K) -> Result<(), Error> {
    for (stream, rows) in streams.iter().enumerate() {
        let mut previous: Option<K> = None;
        for row in rows {
            let key = key_of(row);
            if previous.as_ref().is_some_and(|p| key < *p) {
                return Err(Error::Unsorted { stream, key: row.key.clone() });
            }
            previous = Some(key);
        }
    }
    Ok(())
}
