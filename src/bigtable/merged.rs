//! Fan-out reads merged as they arrive: [`MergedRows`], a k-way merge that pulls from each
//! stream on demand.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::stream::FuturesUnordered;
use futures_util::{Stream, StreamExt};

use super::read::{Pages, Pulled};
use super::{Error, ReadOptions, Row, Table};
use crate::range::KeyRanges;

/// Rows of several streams merged into one order, as a stream.
///
/// Over streams given to [`MergedRows::new`], it holds one row per stream (the next one each
/// stream offers) and pulls the next row of a stream only when that stream's row has been
/// handed on, so the first merged row comes as soon as every stream has offered one, long
/// before the streams end, and memory stays bounded by the number of streams, not by the rows
/// read. [`Table::stream_merged`] reads ahead within each stream's page instead (see there).
/// Ties go to the stream given first.
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
        let sources =
            streams.into_iter().map(|stream| -> Source<'a> { Box::pin(stream.map(|row| row.map(Pulled::Row))) });
        MergedRows { inner: Box::pin(Merge::new(sources, key_of, false).into_stream()) }
    }
}

/// A stream of one merge input: rows, and page ends where the input reports them.
type Source<'a> = Pin<Box<dyn Stream<Item = Result<Pulled, Error>> + Send + 'a>>;

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

/// One input of the merge between polls.
struct Input<'a, K> {
    /// `None` while a [`Pull`] holds it, and after it ended.
    stream: Option<Source<'a>>,
    /// Rows taken from the stream behind the one in the heap, in stream order.
    queue: VecDeque<(K, Row)>,
    /// Whether one of its rows is in the heap.
    has_head: bool,
    /// The key of its row that went out last: the next one may not sort before it.
    last_out: Option<K>,
    /// Inside a page: its response is still arriving, and must be read as it comes.
    mid_page: bool,
    ended: bool,
}

/// A pending `next()` of one input, which gives the input back with its item.
struct Pull<'a> {
    input: usize,
    stream: Option<Source<'a>>,
}

impl<'a> Future for Pull<'a> {
    type Output = (usize, Source<'a>, Option<Result<Pulled, Error>>);

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let item = match self.stream.as_mut() {
            Some(stream) => std::task::ready!(stream.poll_next_unpin(cx)),
            None => unreachable!("a pull is polled after it finished"),
        };
        let stream = self.stream.take().expect("taken once");
        Poll::Ready((self.input, stream, item))
    }
}

/// The k-way merge behind [`MergedRows`].
///
/// An input is read when it has no row in the heap, and, with `drain`, for as long as it is
/// inside a page, whether or not the merge needs its rows yet. Draining is what keeps a merged
/// read of one connection from stalling: all inputs share the connection's HTTP/2 flow-control
/// window, and rows sent to one input and left unread hold their part of that window. Left
/// unread long enough, they fill it, and the input the merge waits for gets no more data. Read
/// out as they arrive, they hold memory instead, which the pages bound: an input asks for its
/// next page only when the merge has taken every row of the last one.
struct Merge<'a, F, K> {
    inputs: Vec<Input<'a, K>>,
    pulls: FuturesUnordered<Pull<'a>>,
    heads: BinaryHeap<Reverse<Head<K>>>,
    key_of: F,
    drain: bool,
    /// Inputs that have not ended and have no row in the heap: no row can go out before
    /// each of them has one or ends.
    waiting: usize,
    /// An input's row found out of order behind the row going out: the merge's next answer.
    unsorted: Option<Error>,
    failed: bool,
}

impl<'a, F, K> Merge<'a, F, K>
where
    F: FnMut(&Row) -> K,
    K: Ord,
{
    fn new(sources: impl Iterator<Item = Source<'a>>, key_of: F, drain: bool) -> Self {
        let inputs: Vec<_> = sources
            .map(|stream| Input {
                stream: Some(stream),
                queue: VecDeque::new(),
                has_head: false,
                last_out: None,
                mid_page: false,
                ended: false,
            })
            .collect();
        let mut merge = Merge {
            waiting: inputs.len(),
            inputs,
            pulls: FuturesUnordered::new(),
            heads: BinaryHeap::new(),
            key_of,
            drain,
            unsorted: None,
            failed: false,
        };
        for input in 0..merge.inputs.len() {
            merge.schedule(input);
        }
        merge
    }

    /// Starts reading `input` if the merge needs its next row or it is inside a page.
    fn schedule(&mut self, index: usize) {
        let input = &mut self.inputs[index];
        if input.ended || (input.has_head && !(self.drain && input.mid_page)) {
            return;
        }
        if let Some(stream) = input.stream.take() {
            self.pulls.push(Pull { input: index, stream: Some(stream) });
        }
    }

    /// Takes in what `input` gave; an error ends the merge.
    fn arrived(&mut self, index: usize, stream: Source<'a>, item: Option<Result<Pulled, Error>>) -> Result<(), Error> {
        let input = &mut self.inputs[index];
        input.stream = Some(stream);
        match item {
            None => {
                input.ended = true;
                input.stream = None;
                if !input.has_head {
                    self.waiting -= 1;
                }
            }
            Some(Err(error)) => return Err(error),
            Some(Ok(Pulled::PageEnd)) => input.mid_page = false,
            Some(Ok(Pulled::Row(row))) => {
                input.mid_page = true;
                let key = (self.key_of)(&row);
                if input.has_head {
                    input.queue.push_back((key, row));
                } else {
                    if input.last_out.as_ref().is_some_and(|last| key < *last) {
                        return Err(Error::Unsorted { stream: index, key: row.key });
                    }
                    input.has_head = true;
                    self.waiting -= 1;
                    self.heads.push(Reverse(Head { key, stream: index, row }));
                }
            }
        }
        self.schedule(index);
        Ok(())
    }

    /// Hands on the least row, and puts its input's next row, if it has one, in its place.
    fn pop(&mut self) -> Option<Row> {
        let Reverse(Head { key, stream: index, row }) = self.heads.pop()?;
        let input = &mut self.inputs[index];
        match input.queue.pop_front() {
            Some((next_key, next)) if next_key < key => {
                // The row that came in order goes out; the merge ends at the next one.
                self.unsorted = Some(Error::Unsorted { stream: index, key: next.key });
                return Some(row);
            }
            Some((next_key, next)) => self.heads.push(Reverse(Head { key: next_key, stream: index, row: next })),
            None => {
                input.has_head = false;
                if !input.ended {
                    self.waiting += 1;
                }
            }
        }
        input.last_out = Some(key);
        self.schedule(index);
        Some(row)
    }

    fn fail(&mut self, error: Error) -> Poll<Option<Result<Row, Error>>> {
        // The first error ends the merge: no input is read after it.
        self.failed = true;
        self.inputs.clear();
        self.heads.clear();
        self.pulls = FuturesUnordered::new();
        Poll::Ready(Some(Err(error)))
    }

    /// The merge as a stream.
    fn into_stream(self) -> impl Stream<Item = Result<Row, Error>> + 'a
    where
        F: 'a,
        K: 'a,
    {
        futures_util::stream::unfold(self, |mut merge| async move {
            let row = std::future::poll_fn(|cx| merge.poll_row(cx)).await?;
            Some((row, merge))
        })
    }

    fn poll_row(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Row, Error>>> {
        if self.failed {
            return Poll::Ready(None);
        }
        if let Some(error) = self.unsorted.take() {
            return self.fail(error);
        }
        // Everything the inputs have ready is taken in first, so that no input's rows wait in
        // the transport while a row goes out.
        while let Poll::Ready(Some((index, stream, item))) = self.pulls.poll_next_unpin(cx) {
            if let Err(error) = self.arrived(index, stream, item) {
                return self.fail(error);
            }
        }
        if self.waiting > 0 {
            // Each waiting input has a pull in flight, polled above with this task's waker.
            debug_assert!(!self.pulls.is_empty(), "an input waits with nothing to wake the merge");
            return Poll::Pending;
        }
        Poll::Ready(self.pop().map(Ok))
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
    /// Each bucket's stream reads in pages of at most [`Config::merge_page_rows`](super::Config::merge_page_rows)
    /// rows (1,000 by default) and about [`Config::merge_page_bytes`](super::Config::merge_page_bytes)
    /// (1 MiB), and every page is read as it arrives, so that rows waiting for their turn never
    /// hold the connection's flow-control window: the read neither stalls nor grows with the
    /// table, whatever the size of its rows.
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
        let pages =
            Pages { rows: self.config.merge_page_rows, bytes: Some(self.config.merge_page_bytes), visible: true };
        let sources =
            streams.into_iter().map(|ranges| -> Source<'a> { Box::pin(self.pulls(&ranges.into(), options, pages)) });
        let merged = MergedRows { inner: Box::pin(Merge::new(sources, key_of, true).into_stream()) };
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

    /// A source of rows and page ends (`|`), counting the items taken from it.
    fn paged(items: &[&str], taken: &Arc<AtomicUsize>) -> Source<'static> {
        let taken = Arc::clone(taken);
        let items: Vec<_> =
            items.iter().map(|k| if *k == "|" { Ok(Pulled::PageEnd) } else { row(k).map(Pulled::Row) }).collect();
        Box::pin(stream::iter(items).inspect(move |_| {
            taken.fetch_add(1, Ordering::SeqCst);
        }))
    }

    #[test]
    fn a_draining_merge_reads_each_page_whole_and_the_next_only_when_the_last_is_taken() {
        let counts: Vec<Arc<AtomicUsize>> = (0..2).map(|_| Arc::new(AtomicUsize::new(0))).collect();
        let sources =
            vec![paged(&["a1", "a2", "|", "a5", "a6"], &counts[0]), paged(&["b3", "b4", "|", "b7"], &counts[1])];
        let mut merged = Merge::new(sources.into_iter(), |row: &Row| row.key[1..].to_vec(), true).into_stream().boxed();
        let taken = || counts.iter().map(|c| c.load(Ordering::SeqCst)).collect::<Vec<_>>();
        run(async {
            assert_eq!(merged.next().await.unwrap().unwrap().key, "a1");
            assert_eq!(taken(), [3, 3], "each first page read to its end, nothing of the next");
            assert_eq!(merged.next().await.unwrap().unwrap().key, "a2");
            assert_eq!(taken(), [3, 3], "the next page is not asked for before its row is needed");
            assert_eq!(merged.next().await.unwrap().unwrap().key, "b3");
            assert_eq!(taken(), [5, 3], "the first stream's next page read whole once its rows were needed");
            let rest: Vec<String> = merged.map(|r| r.unwrap().key.to_string()).collect().await;
            assert_eq!(rest, ["b4", "a5", "a6", "b7"]);
        });

        let never = Arc::new(AtomicUsize::new(0));
        let sources = vec![paged(&["a1", "a3", "a2"], &never), paged(&["b5"], &never)];
        let got: Vec<_> =
            run(Merge::new(sources.into_iter(), |row: &Row| row.key[1..].to_vec(), true).into_stream().collect());
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(matches!(&got[2], Err(Error::Unsorted { stream: 0, key }) if key == "a2"), "{got:?}");
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
