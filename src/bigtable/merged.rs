//! Fan-out reads merged as they arrive: [`MergedRows`], a k-way merge that pulls from each
//! stream on demand.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::{Stream, StreamExt};

use super::{Error, ReadOptions, Row, Table};
use crate::range::KeyRanges;

/// Rows of several streams merged into one order, as a stream.
///
/// It holds one row per stream (the next one each stream offers) and pulls the next row of a
/// stream only when that stream's row has been handed on, so the first merged row comes as
/// soon as every stream has offered one, long before the streams end, and memory stays
/// bounded by the number of streams, not by the rows read. Ties go to the stream given first.
///
/// Each stream must deliver its rows in the merge's order; one that does not ends the merge
/// with [`Error::Unsorted`]. The first error of any stream ends the merge with that error.
///
/// Made by [`Table::stream_merged`], or by [`MergedRows::new`] over any streams of rows.
///
/// ```
/// use futures_util::{StreamExt, stream};
/// use rowkey::bigtable::{MergedRows, Row};
///
/// let rows = |keys: &[&str]| {
///     let rows: Vec<_> = keys.iter().map(|k| Ok(Row { key: (*k).into(), cells: vec![] })).collect();
///     stream::iter(rows)
/// };
/// // Two salt buckets, each in the order of the key without its bucket byte.
/// let merged = MergedRows::new(vec![rows(&["0a", "0c"]), rows(&["1b", "1d"])], |row: &Row| row.key[1..].to_vec());
/// let runtime = tokio::runtime::Builder::new_current_thread().build()?;
/// let keys: Vec<String> = runtime.block_on(merged.map(|row| row.unwrap().key.to_string()).collect());
/// assert_eq!(keys, ["0a", "1b", "0c", "1d"]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// The lifetime is that of `key_of`, which may borrow (a [`Salt`](crate::salt::Salt), say).
pub struct MergedRows<'a> {
    inner: Pin<Box<dyn Stream<Item = Result<Row, Error>> + Send + 'a>>,
}

impl std::fmt::Debug for MergedRows<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MergedRows").finish_non_exhaustive()
    }
}

impl Stream for MergedRows<'_> {
    type Item = Result<Row, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}

impl<'a> MergedRows<'a> {
    /// Merges `streams` into the order of `key_of`.
    #[must_use]
    pub fn new<S, F, K>(streams: Vec<S>, key_of: F) -> Self
    where
        S: Stream<Item = Result<Row, Error>> + Send + Unpin + 'a,
        F: FnMut(&Row) -> K + Send + 'a,
        K: Ord + Send + 'a,
    {
        let merge =
            Merge { heads: BinaryHeap::with_capacity(streams.len()), streams, key_of, primed: false, refill: None };
        let stream = futures_util::stream::unfold(merge, |mut merge| async move {
            let row = merge.next_row().await?;
            if row.is_err() {
                // The first error ends the merge: no stream is read after it.
                merge.streams.clear();
                merge.heads.clear();
                merge.refill = None;
            }
            Some((row, merge))
        });
        MergedRows { inner: Box::pin(stream) }
    }
}

/// The next row of one stream, ordered by its merge key and then by stream.
struct Head<K> {
    key: K,
    stream: usize,
    row: Row,
}

impl<K: Ord> Ord for Head<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key).then(self.stream.cmp(&other.stream))
    }
}

impl<K: Ord> PartialOrd for Head<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord> PartialEq for Head<K> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<K: Ord> Eq for Head<K> {}

struct Merge<S, F, K> {
    streams: Vec<S>,
    heads: BinaryHeap<Reverse<Head<K>>>,
    key_of: F,
    primed: bool,
    /// The stream whose head went out last, with that head's key.
    refill: Option<(usize, K)>,
}

impl<S, F, K> Merge<S, F, K>
where
    S: Stream<Item = Result<Row, Error>> + Unpin,
    F: FnMut(&Row) -> K,
    K: Ord,
{
    async fn next_row(&mut self) -> Option<Result<Row, Error>> {
        if !self.primed {
            self.primed = true;
            // Every stream's first row at once: the slowest bucket sets the first row's wait.
            let firsts = futures_util::future::join_all(self.streams.iter_mut().map(StreamExt::next)).await;
            for (stream, first) in firsts.into_iter().enumerate() {
                match first {
                    Some(Ok(row)) => self.heads.push(Reverse(Head { key: (self.key_of)(&row), stream, row })),
                    Some(Err(error)) => return Some(Err(error)),
                    None => {}
                }
            }
        }
        // The stream whose row went out last is read only now, when the next row is asked for.
        if let Some((stream, key)) = self.refill.take() {
            match self.streams[stream].next().await {
                Some(Ok(next)) => {
                    let next_key = (self.key_of)(&next);
                    if next_key < key {
                        return Some(Err(Error::Unsorted { stream, key: next.key }));
                    }
                    self.heads.push(Reverse(Head { key: next_key, stream, row: next }));
                }
                Some(Err(error)) => return Some(Err(error)),
                None => {}
            }
        }
        let Reverse(Head { key, stream, row }) = self.heads.pop()?;
        self.refill = Some((stream, key));
        Some(Ok(row))
    }
}

impl Table {
    /// Reads each of `streams` with its own resumable [`RowStream`](super::RowStream), all at
    /// once, and merges the rows into the order of `key_of` as they arrive ([`MergedRows`]).
    ///
    /// This is the read of a salted table that does not know the salt. Each stream must come
    /// back in `key_of` order; the rows of one salt bucket do when `key_of` gives the key
    /// without its bucket (or the values decoded from it). A stream is anything that converts
    /// into [`KeyRanges`]: the [`KeyRanges`] from [`Salt::fan_out`](crate::salt::Salt::fan_out)
    /// passes as is, one stream per range, because the scan builders' ranges never cross a
    /// bucket boundary; one [`KeyRanges`] per bucket works too.
    ///
    /// Each bucket's stream reads in pages of [`Config::merge_page_rows`](super::Config::merge_page_rows)
    /// rows (1,000 by default), which keeps the read's memory bounded however large the table.
    ///
    /// With a [limit](ReadOptions::limit) of n, every stream is read with limit n as well and
    /// the merge stops after n rows, so the first 10 rows across 16 buckets read at most 160.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), Box<dyn std::error::Error>> {
    /// use futures_util::TryStreamExt;
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
    /// let unsalted = |row: &Row| salt.decode_ordered::<(String, String, Desc<i64>)>(&row.key).ok().map(|(_, key)| key);
    /// let mut rows = table.stream_merged(phones, &ReadOptions::new(), unsalted);
    /// while let Some(row) = rows.try_next().await? {
    ///     println!("{}", row.key);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn stream_merged<'a, S, F, K>(&self, streams: S, options: &ReadOptions, key_of: F) -> MergedRows<'a>
    where
        S: IntoIterator,
        S::Item: Into<KeyRanges>,
        F: FnMut(&Row) -> K + Send + 'a,
        K: Ord + Send + 'a,
    {
        let page = self.config.merge_page_rows;
        let streams: Vec<_> =
            streams.into_iter().map(|ranges| self.stream_pages(&ranges.into(), options, page)).collect();
        let merged = MergedRows::new(streams, key_of);
        match options.rows_limit() {
            None => merged,
            Some(limit) => {
                let limit = usize::try_from(limit).unwrap_or(usize::MAX);
                MergedRows { inner: Box::pin(merged.take(limit)) }
            }
        }
    }

    /// [`stream_merged`](Self::stream_merged) collected into a `Vec`.
    ///
    /// # Errors
    ///
    /// [`Error::Read`] when a stream fails for good; [`Error::Unsorted`] when a stream's rows
    /// do not come back in `key_of` order, such as a range that spans two buckets.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::Desc;
    /// use rowkey::bigtable::{ReadOptions, Row};
    /// use rowkey::salt::Salt;
    /// use rowkey::scan::OrderedScan;
    ///
    /// let salt = Salt::farmhash(16)?;
    /// let phones = salt.fan_out(|bucket| {
    ///     let mut scan = OrderedScan::new(4);
    ///     scan.fix(&bucket)?.fix("phone")?;
    ///     Ok(scan.ranges())
    /// })?;
    /// let unsalted = |row: &Row| salt.decode_ordered::<(String, String, Desc<i64>)>(&row.key).ok().map(|(_, key)| key);
    /// for row in table.read_merged(phones, &ReadOptions::new().limit(10), unsalted).await? {
    ///     println!("{}", row.key);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn read_merged<S, F, K>(&self, streams: S, options: &ReadOptions, key_of: F) -> Result<Vec<Row>, Error>
    where
        S: IntoIterator,
        S::Item: Into<KeyRanges>,
        F: FnMut(&Row) -> K + Send,
        K: Ord + Send,
    {
        let mut merged = self.stream_merged(streams, options, key_of);
        let mut rows = Vec::new();
        while let Some(row) = merged.next().await {
            rows.push(row?);
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use futures_util::stream;

    use super::*;

    fn row(key: &str) -> Result<Row, Error> {
        Ok(Row { key: key.into(), cells: vec![] })
    }

    /// A stream of `keys` that counts the rows taken from it.
    fn counted(keys: &[&str], taken: &Arc<AtomicUsize>) -> Pin<Box<dyn Stream<Item = Result<Row, Error>> + Send>> {
        let taken = Arc::clone(taken);
        let rows: Vec<_> = keys.iter().map(|k| row(k)).collect();
        Box::pin(stream::iter(rows).inspect(move |_| {
            taken.fetch_add(1, Ordering::SeqCst);
        }))
    }

    fn run<T>(future: impl Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().build().expect("a runtime").block_on(future)
    }

    #[test]
    fn pulls_a_stream_only_when_its_row_has_gone_out() {
        let counts: Vec<Arc<AtomicUsize>> = (0..3).map(|_| Arc::new(AtomicUsize::new(0))).collect();
        let streams = vec![
            counted(&["a1", "a4", "a7"], &counts[0]),
            counted(&["b2", "b5"], &counts[1]),
            counted(&["c3", "c6", "c8", "c9"], &counts[2]),
        ];
        let mut merged = MergedRows::new(streams, |row: &Row| row.key[1..].to_vec());
        let taken = || counts.iter().map(|c| c.load(Ordering::SeqCst)).collect::<Vec<_>>();
        run(async {
            assert_eq!(merged.next().await.unwrap().unwrap().key, "a1");
            assert_eq!(taken(), [1, 1, 1], "one row of each stream, and no more");
            assert_eq!(merged.next().await.unwrap().unwrap().key, "b2");
            assert_eq!(taken(), [2, 1, 1], "the stream of the row that went out is read next");
            let rest: Vec<String> = merged.map(|r| r.unwrap().key.to_string()).collect().await;
            assert_eq!(rest, ["c3", "a4", "b5", "c6", "a7", "c8", "c9"]);
        });
    }

    #[test]
    fn a_stream_out_of_order_or_failing_ends_the_merge_with_its_error() {
        let never = Arc::new(AtomicUsize::new(0));
        let streams = vec![counted(&["a1", "a3", "a2"], &never), counted(&["b5"], &never)];
        let got: Vec<_> = run(MergedRows::new(streams, |row: &Row| row.key[1..].to_vec()).collect());
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(matches!(&got[2], Err(Error::Unsorted { stream: 0, key }) if key == "a2"), "{got:?}");

        let failing: Pin<Box<dyn Stream<Item = Result<Row, Error>> + Send>> = Box::pin(stream::iter(vec![
            row("x1"),
            Err(Error::Unsorted { stream: 9, key: "stand-in".into() }),
            row("x9"),
        ]));
        let got: Vec<_> =
            run(MergedRows::new(vec![failing, counted(&["y2", "y3"], &never)], |row: &Row| row.key[1..].to_vec())
                .collect());
        let keys: Vec<String> =
            got.iter().map(|r| r.as_ref().map_or_else(|e| e.to_string(), |r| r.key.to_string())).collect();
        assert_eq!(keys.len(), 2, "nothing after the error: {keys:?}");
        assert!(got[1].is_err(), "{keys:?}");
    }
}
