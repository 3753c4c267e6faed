//! Reads as streams: [`RowStream`], one `ReadRows` query that resumes after the last row it
//! delivered when its stream fails, stalls or is cut.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use bigtable_rs::bigtable::RowCell;
use bigtable_rs::google::bigtable::v2::ReadRowsRequest;
use futures_util::{Stream, StreamExt};

use super::config::{Backoff, code, retryable};
use super::{Error, Failure, ReadOptions, Row, Table, row_set};
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
        self.stream_pages(ranges, options, self.config.page_rows)
    }

    /// [`stream_rows`](Self::stream_rows) with pages of `page_rows` rows.
    pub(crate) fn stream_pages(&self, ranges: &KeyRanges, options: &ReadOptions, page_rows: Option<u64>) -> RowStream {
        let read = Resumable {
            page_rows,
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
        let stream = futures_util::stream::unfold(read, |mut read| async move {
            let row = read.next_row().await?;
            Some((row, read))
        });
        RowStream { inner: Box::pin(stream) }
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

/// The state of one resumable read between rows.
struct Resumable {
    page_rows: Option<u64>,
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
    async fn next_row(&mut self) -> Option<Result<Row, Error>> {
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
                    let key = Key::from(key);
                    self.last = Some(key.clone());
                    self.remaining = self.remaining.map(|n| n - 1);
                    self.delivered += 1;
                    self.attempts = 0;
                    self.backoff.reset();
                    return Some(Ok(Row { key, cells }));
                }
                Ok(None) => {
                    if self.asked.is_some_and(|asked| self.delivered >= asked) {
                        self.rows = None; // a full page: the next one follows
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
        let asked = match (self.remaining, self.page_rows) {
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
