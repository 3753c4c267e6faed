//! Reads as streams: [`RowStream`], one `ReadRows` query that resumes after the last row it
//! delivered when its stream fails, stalls or is cut.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use bigtable_rs::bigtable::RowCell;
use bigtable_rs::google::bigtable::v2::ReadRowsRequest;
use futures_util::{Stream, StreamExt};

use super::config::{Backoff, code, retryable};
use super::error::{Error, Failure};
use super::{ReadOptions, Row, Table, row_set};
use crate::key::Key;
use crate::range::KeyRanges;

type Rows = Pin<Box<dyn Stream<Item = Result<(Vec<u8>, Vec<RowCell>), bigtable_rs::bigtable::Error>> + Send>>;

/// The rows of one query as they arrive, in key order, each exactly once.
///
/// Memory stays bounded whatever the query's size: the stream holds the rows gRPC has
/// received and not yet handed over (HTTP/2 flow control bounds them), plus the one being
/// assembled.
///
/// When the `ReadRows` stream fails with a retryable status (`UNAVAILABLE`,
/// `DEADLINE_EXCEEDED`, `ABORTED`, a dropped connection) or stalls for longer than
/// [`Config::row_timeout`](super::Config::row_timeout), the read is sent again for the rest
/// of its ranges: those above the last row delivered ([`KeyRanges::after`]), with the row
/// limit less the rows already delivered, after a backoff with jitter. Attempts and backoff
/// start afresh whenever an attempt delivered a row. Any other status, or running out of
/// attempts or time, ends the stream with [`Error::Read`], which says which row the read had
/// reached.
///
/// With [`Config::page_rows`](super::Config::page_rows) set, each request asks for one page
/// of rows and the next page starts after the last row of the one before.
///
/// Made by [`Table::stream_rows`]; it sends nothing until first polled.
pub struct RowStream {
    inner: Pin<Box<dyn Stream<Item = Result<Row, Error>> + Send>>,
}

impl std::fmt::Debug for RowStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowStream").finish_non_exhaustive()
    }
}

impl Stream for RowStream {
    type Item = Result<Row, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}

impl Table {
    /// The rows whose keys lie in `ranges`, in key order, as a stream that resumes where it
    /// stopped when the connection fails (see [`RowStream`]).
    ///
    /// Empty `ranges` and a [limit](ReadOptions::limit) of 0 give an empty stream without a
    /// call: Bigtable reads the whole table for an empty `RowSet`.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), rowkey::bigtable::Error> {
    /// use futures_util::TryStreamExt;
    /// use rowkey::KeyRange;
    /// use rowkey::bigtable::ReadOptions;
    ///
    /// let mut rows = table.stream_rows(&KeyRange::prefix(b"phone#").into(), &ReadOptions::new());
    /// while let Some(row) = rows.try_next().await? {
    ///     println!("{}", row.key); // the first row prints before the last one is read
    /// }
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn stream_rows(&self, ranges: &KeyRanges, options: &ReadOptions) -> RowStream {
        let pages = Pages { rows: self.config.page_rows, bytes: None, visible: false };
        let stream = self.pulls(ranges, options, pages).filter_map(|pulled| {
            std::future::ready(match pulled {
                Ok(Pulled::Row(row)) => Some(Ok(row)),
                Ok(Pulled::PageEnd) => None,
                Err(error) => Some(Err(error)),
            })
        });
        RowStream { inner: Box::pin(stream) }
    }

    /// The rows of `ranges` read in `pages`, with the end of each page that ended full when
    /// `pages.visible` asks for it.
    pub(crate) fn pulls(
        &self,
        ranges: &KeyRanges,
        options: &ReadOptions,
        pages: Pages,
    ) -> impl Stream<Item = Result<Pulled, Error>> + Send + use<> {
        let read = Resumable {
            pages,
            rows_read: 0,
            bytes_read: 0,
            table: self.clone(),
            ranges: ranges.clone(),
            options: options.clone(),
            remaining: options.rows_limit(),
            last: None,
            rows: None,
            attempt_started: Instant::now(),
            asked: None,
            delivered: 0,
            started: Instant::now(),
            attempts: 0,
            backoff: Backoff::new(&self.config.read),
            done: false,
        };
        futures_util::stream::unfold(read, |mut read| async move {
            let pulled = read.next().await?;
            Some((pulled, read))
        })
    }

    /// The rows whose keys lie in `ranges`, in key order, collected: [`stream_rows`](Self::stream_rows)
    /// read to the end, with the same retries.
    ///
    /// # Errors
    ///
    /// [`Error::Read`] when the read fails for good (see [`RowStream`]).
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
        let mut stream = self.stream_rows(ranges, options);
        let mut rows = Vec::new();
        while let Some(row) = stream.next().await {
            rows.push(row?);
        }
        Ok(rows)
    }
}

/// How a read is cut into pages, one request each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pages {
    /// At most this many rows a page.
    pub rows: Option<u64>,
    /// About this many bytes a page: the rows of the next page are the bytes over the mean
    /// size of the rows read so far (at least one row), and [`FIRST_PAGE_ROWS`] before any.
    pub bytes: Option<u64>,
    /// Whether the end of a full page is reported ([`Pulled::PageEnd`]) before the next
    /// page is asked for.
    pub visible: bool,
}

/// The rows of a byte-bounded read's first page, before it knows how large its rows are:
/// few, so that a first page of large rows stays small.
pub(crate) const FIRST_PAGE_ROWS: u64 = 16;

impl Pages {
    /// The rows to ask for in the next page, after `rows_read` rows of `bytes_read` bytes;
    /// `None` for no page limit.
    pub(crate) fn next_rows(self, rows_read: u64, bytes_read: u64) -> Option<u64> {
        let Some(bytes) = self.bytes else {
            return self.rows;
        };
        let fit = match bytes_read.checked_div(rows_read) {
            None => FIRST_PAGE_ROWS,
            Some(mean) => (bytes / mean.max(1)).max(1),
        };
        Some(self.rows.map_or(fit, |rows| rows.min(fit)))
    }
}

/// What a paged read yields: a row, or the end of a page that ended full (when asked for).
#[derive(Debug)]
pub(crate) enum Pulled {
    Row(Row),
    PageEnd,
}

/// The bytes a row takes in a response, near enough to size pages by: its key, and each
/// cell's family, qualifier, value, labels and timestamp.
fn row_bytes(key: &[u8], cells: &[RowCell]) -> u64 {
    let cells: usize = cells
        .iter()
        .map(|cell| {
            let labels: usize = cell.labels.iter().map(String::len).sum();
            cell.family_name.len() + cell.qualifier.len() + cell.value.len() + labels + 8
        })
        .sum();
    u64::try_from(key.len() + cells).unwrap_or(u64::MAX)
}

/// The state of one resumable read between rows.
struct Resumable {
    pages: Pages,
    /// Rows delivered, and their bytes ([`row_bytes`]), which size the next page.
    rows_read: u64,
    bytes_read: u64,
    table: Table,
    ranges: KeyRanges,
    options: ReadOptions,
    remaining: Option<u64>,
    /// The last key delivered: a resumed attempt reads only above it.
    last: Option<Key>,
    rows: Option<Rows>,
    attempt_started: Instant,
    /// The row limit of the request in flight (`None`: none), and the rows it delivered: a
    /// page that ended full is followed by the next one.
    asked: Option<u64>,
    delivered: u64,
    started: Instant,
    /// Attempts since the last row delivered.
    attempts: u32,
    backoff: Backoff,
    done: bool,
}

impl Resumable {
    async fn next(&mut self) -> Option<Result<Pulled, Error>> {
        loop {
            if self.done || self.remaining == Some(0) {
                return None;
            }
            let row_timeout = self.table.config.row_timeout;
            let attempt_timeout = self.table.config.read.attempt_timeout();
            if self.rows.is_none() {
                match self.start().await {
                    Ok(Some(rows)) => self.rows = Some(rows),
                    Ok(None) => {
                        self.done = true;
                        return None;
                    }
                    Err(failure) => match self.retry(failure).await {
                        Ok(()) => continue,
                        Err(error) => return Some(Err(error)),
                    },
                }
            }
            let rows = self.rows.as_mut().expect("started above");
            // A stalled stream is dropped after the row timeout or at the end of the attempt's
            // time, whichever comes first, and the read resumes.
            let left = attempt_timeout.saturating_sub(self.attempt_started.elapsed());
            let failure = match tokio::time::timeout(row_timeout.min(left), rows.next()).await {
                Ok(Some(Ok((key, cells)))) => {
                    if self.last.as_ref().is_some_and(|last| key.as_slice() <= &last[..]) {
                        // A resumed read never repeats a row; a server that did would not
                        // deliver it twice.
                        continue;
                    }
                    self.rows_read += 1;
                    self.bytes_read = self.bytes_read.saturating_add(row_bytes(&key, &cells));
                    let key = Key::from(key);
                    self.last = Some(key.clone());
                    self.remaining = self.remaining.map(|n| n - 1);
                    self.delivered += 1;
                    self.attempts = 0;
                    self.backoff.reset();
                    return Some(Ok(Pulled::Row(Row { key, cells })));
                }
                Ok(None) => {
                    if self.asked.is_some_and(|asked| self.delivered >= asked) {
                        self.rows = None; // a full page: the next one follows
                        if self.pages.visible {
                            return Some(Ok(Pulled::PageEnd));
                        }
                        continue;
                    }
                    self.done = true;
                    return None;
                }
                Ok(Some(Err(error))) => Failure::from(error),
                Err(_) if left <= row_timeout => Failure {
                    code: code::DEADLINE_EXCEEDED,
                    message: format!("the attempt took longer than its timeout of {attempt_timeout:?}"),
                },
                Err(_) => Failure {
                    code: code::DEADLINE_EXCEEDED,
                    message: format!("no row for {row_timeout:?} (Config::row_timeout): the stream stalled"),
                },
            };
            self.rows = None;
            if let Err(error) = self.retry(failure).await {
                return Some(Err(error));
            }
        }
    }

    /// Sends the request for what is left to read; `None` when nothing is.
    async fn start(&mut self) -> Result<Option<Rows>, Failure> {
        let ranges = match &self.last {
            Some(last) => self.ranges.after(last),
            None => self.ranges.clone(),
        };
        let Some(rows) = row_set(&ranges) else {
            return Ok(None);
        };
        let asked = match (self.remaining, self.pages.next_rows(self.rows_read, self.bytes_read)) {
            (Some(left), Some(page)) => Some(left.min(page)),
            (left, page) => left.or(page),
        };
        let request = ReadRowsRequest {
            table_name: self.table.name.clone(),
            rows: Some(rows),
            filter: self.options.filter.clone(),
            rows_limit: asked.map_or(0, |n| i64::try_from(n).unwrap_or(i64::MAX)),
            ..ReadRowsRequest::default()
        };
        self.asked = asked;
        self.delivered = 0;
        self.attempts += 1;
        self.attempt_started = Instant::now();
        let mut client = self.table.client.clone();
        let timeout = self.table.config.read.attempt_timeout();
        match tokio::time::timeout(timeout, client.stream_rows(request)).await {
            Ok(Ok(rows)) => Ok(Some(Box::pin(rows))),
            Ok(Err(error)) => Err(Failure::from(error)),
            Err(_) => Err(Failure {
                code: code::DEADLINE_EXCEEDED,
                message: format!("no response within the attempt timeout of {timeout:?}"),
            }),
        }
    }

    /// Waits before the next attempt, or gives the error that ends the read.
    async fn retry(&mut self, failure: Failure) -> Result<(), Error> {
        let retry = &self.table.config.read;
        let can_retry = retryable(failure.code, &failure.message, true);
        let out_of_attempts = retry.max_attempts().is_some_and(|max| self.attempts >= max);
        let wait = self.backoff.wait();
        let out_of_time = self.started.elapsed() + wait >= retry.total_timeout();
        if !can_retry || out_of_attempts || out_of_time {
            self.done = true;
            return Err(Error::Read {
                reached: self.last.clone(),
                attempts: self.attempts,
                retryable: can_retry,
                code: failure.code,
                message: failure.message,
            });
        }
        tokio::time::sleep(wait).await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{FIRST_PAGE_ROWS, Pages};

    #[test]
    fn pages_by_bytes_fit_the_mean_row_and_stay_under_the_row_limit() {
        let pages = |rows, bytes| Pages { rows, bytes, visible: true };
        assert_eq!(pages(Some(1000), None).next_rows(50, 1 << 30), Some(1000), "rows alone");
        assert_eq!(pages(None, None).next_rows(0, 0), None, "no limit at all");
        assert_eq!(pages(Some(1000), Some(1 << 20)).next_rows(0, 0), Some(FIRST_PAGE_ROWS), "nothing read yet");
        assert_eq!(pages(Some(4), Some(1 << 20)).next_rows(0, 0), Some(4), "a smaller row limit holds");
        // 16 rows of 4 KiB read: 256 fit in 1 MiB.
        assert_eq!(pages(Some(1000), Some(1 << 20)).next_rows(16, 16 * 4096), Some(256));
        assert_eq!(pages(Some(100), Some(1 << 20)).next_rows(16, 16 * 4096), Some(100));
        assert_eq!(pages(None, Some(1 << 20)).next_rows(16, 16 * 100), Some(10_485));
        assert_eq!(pages(Some(1000), Some(1 << 20)).next_rows(1, 8 << 20), Some(1), "one row larger than a page");
        assert_eq!(pages(Some(1000), Some(1 << 20)).next_rows(3, 0), Some(1000), "empty rows");
    }
}
