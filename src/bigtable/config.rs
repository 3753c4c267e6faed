//! [`Config`]: how a [`Table`](super::Table) retries, times out and batches, in one place.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// gRPC status codes the client acts on.
pub(crate) mod code {
    pub const CANCELLED: i32 = 1;
    pub const UNKNOWN: i32 = 2;
    pub const DEADLINE_EXCEEDED: i32 = 4;
    pub const RESOURCE_EXHAUSTED: i32 = 8;
    pub const ABORTED: i32 = 10;
    pub const INTERNAL: i32 = 13;
    pub const UNAVAILABLE: i32 = 14;
}

/// How one kind of call is retried: how often, how long to wait between attempts, and how
/// long the whole operation and each attempt may take.
///
/// The wait before retry `n` is drawn uniformly from zero to `min(initial_backoff ×
/// multiplier^(n-1), max_backoff)` ("full jitter"), so that many clients cut off by the same
/// failure do not come back in step. A read that made progress since its last failure starts
/// counting attempts and backoff afresh: a long scan over a flaky network keeps going as long
/// as each attempt delivers rows.
///
/// ```
/// use std::time::Duration;
/// use rowkey::bigtable::Retry;
///
/// let retry = Retry::reads().attempts(5).within(Duration::from_secs(30));
/// assert_eq!(retry.max_attempts(), Some(5));
/// assert_eq!(retry.initial_backoff(), Duration::from_millis(10));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Retry {
    attempts: Option<u32>,
    initial_backoff: Duration,
    multiplier: f64,
    max_backoff: Duration,
    attempt_timeout: Duration,
    total_timeout: Duration,
}

impl Retry {
    /// `ReadRows` as Google's Java client sets it: at most 10 attempts, backoff from 10 ms
    /// doubling to at most 1 minute, 30 minutes an attempt, 12 hours in all.
    ///
    /// ```
    /// let retry = rowkey::bigtable::Retry::reads();
    /// assert_eq!(retry.total_timeout(), std::time::Duration::from_secs(12 * 3600));
    /// ```
    #[must_use]
    pub fn reads() -> Self {
        Retry {
            attempts: Some(10),
            initial_backoff: Duration::from_millis(10),
            multiplier: 2.0,
            max_backoff: Duration::from_secs(60),
            attempt_timeout: Duration::from_secs(30 * 60),
            total_timeout: Duration::from_secs(12 * 3600),
        }
    }

    /// `MutateRows` as Google's Java client sets it: no limit on attempts but time, backoff
    /// from 10 ms doubling to at most 1 minute, 1 minute an attempt, 10 minutes in all.
    ///
    /// ```
    /// let retry = rowkey::bigtable::Retry::writes();
    /// assert_eq!(retry.max_attempts(), None);
    /// assert_eq!(retry.attempt_timeout(), std::time::Duration::from_secs(60));
    /// ```
    #[must_use]
    pub fn writes() -> Self {
        Retry {
            attempts: None,
            attempt_timeout: Duration::from_secs(60),
            total_timeout: Duration::from_secs(600),
            ..Retry::reads()
        }
    }

    /// No retries: the first failure is the answer.
    ///
    /// ```
    /// assert_eq!(rowkey::bigtable::Retry::never().max_attempts(), Some(1));
    /// ```
    #[must_use]
    pub fn never() -> Self {
        Retry::reads().attempts(1)
    }

    /// At most `attempts` attempts (the first call included) without progress in between;
    /// `0` is taken as 1.
    ///
    /// ```
    /// assert_eq!(rowkey::bigtable::Retry::writes().attempts(3).max_attempts(), Some(3));
    /// ```
    #[must_use]
    pub fn attempts(mut self, attempts: u32) -> Self {
        self.attempts = Some(attempts.max(1));
        self
    }

    /// The wait before the first retry, and how it grows: multiplied by `multiplier` (at least
    /// 1) after each failed attempt, up to `max`.
    ///
    /// ```
    /// use std::time::Duration;
    /// let retry = rowkey::bigtable::Retry::reads().backoff(Duration::from_millis(50), 1.5, Duration::from_secs(2));
    /// assert_eq!(retry.max_backoff(), Duration::from_secs(2));
    /// ```
    #[must_use]
    pub fn backoff(mut self, initial: Duration, multiplier: f64, max: Duration) -> Self {
        self.initial_backoff = initial;
        self.multiplier = if multiplier.is_finite() { multiplier.max(1.0) } else { 1.0 };
        self.max_backoff = max.max(initial);
        self
    }

    /// How long one attempt may take: one `MutateRows` call, or one `ReadRows` stream from
    /// its request to its last row.
    ///
    /// ```
    /// use std::time::Duration;
    /// let retry = rowkey::bigtable::Retry::writes().per_attempt(Duration::from_secs(5));
    /// assert_eq!(retry.attempt_timeout(), Duration::from_secs(5));
    /// ```
    #[must_use]
    pub fn per_attempt(mut self, timeout: Duration) -> Self {
        self.attempt_timeout = timeout;
        self
    }

    /// How long the operation may take across all its attempts: no retry starts after it.
    ///
    /// ```
    /// use std::time::Duration;
    /// let retry = rowkey::bigtable::Retry::reads().within(Duration::from_secs(60));
    /// assert_eq!(retry.total_timeout(), Duration::from_secs(60));
    /// ```
    #[must_use]
    pub fn within(mut self, timeout: Duration) -> Self {
        self.total_timeout = timeout;
        self
    }

    /// The limit on attempts, `None` when only time limits them.
    #[must_use]
    pub fn max_attempts(&self) -> Option<u32> {
        self.attempts
    }

    /// The wait before the first retry (before jitter).
    #[must_use]
    pub fn initial_backoff(&self) -> Duration {
        self.initial_backoff
    }

    /// The longest wait between attempts (before jitter).
    #[must_use]
    pub fn max_backoff(&self) -> Duration {
        self.max_backoff
    }

    /// How long one attempt may take.
    #[must_use]
    pub fn attempt_timeout(&self) -> Duration {
        self.attempt_timeout
    }

    /// How long the whole operation may take.
    #[must_use]
    pub fn total_timeout(&self) -> Duration {
        self.total_timeout
    }
}

/// Everything a [`Table`](super::Table) needs to know to survive a real network: how reads and
/// writes are retried, how long a read may wait for its next row, and how writes are cut into
/// batches and how many batches are in flight at once.
///
/// The defaults follow Google's Java client where it documents a value (the retries, the
/// 5-minute wait for a row); the batching is rowkey's own (see [`Config::batch_rows`]).
///
/// ```
/// use std::time::Duration;
/// use rowkey::bigtable::{Config, Retry};
///
/// let config = Config::default()
///     .reads(Retry::reads().attempts(20))
///     .row_timeout(Duration::from_secs(10))
///     .batches_in_flight(4);
/// assert_eq!(config.read_retry().max_attempts(), Some(20));
/// assert_eq!(config.max_batches_in_flight(), 4);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub(crate) read: Retry,
    pub(crate) write: Retry,
    pub(crate) row_timeout: Duration,
    pub(crate) in_flight: usize,
    pub(crate) batch_rows: usize,
    pub(crate) page_rows: Option<u64>,
    pub(crate) merge_page_rows: Option<u64>,
    pub(crate) merge_page_bytes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            read: Retry::reads(),
            write: Retry::writes(),
            row_timeout: Duration::from_secs(5 * 60),
            in_flight: 8,
            batch_rows: 1000,
            page_rows: None,
            merge_page_rows: Some(1000),
            merge_page_bytes: 1 << 20,
        }
    }
}

impl Config {
    /// How `ReadRows` streams are retried and resumed.
    ///
    /// ```
    /// let config = rowkey::bigtable::Config::default().reads(rowkey::bigtable::Retry::never());
    /// assert_eq!(config.read_retry().max_attempts(), Some(1));
    /// ```
    #[must_use]
    pub fn reads(mut self, retry: Retry) -> Self {
        self.read = retry;
        self
    }

    /// How failed `MutateRows` entries are retried.
    ///
    /// ```
    /// let config = rowkey::bigtable::Config::default().writes(rowkey::bigtable::Retry::writes().attempts(3));
    /// assert_eq!(config.write_retry().max_attempts(), Some(3));
    /// ```
    #[must_use]
    pub fn writes(mut self, retry: Retry) -> Self {
        self.write = retry;
        self
    }

    /// How long a read waits for its next row before it takes the stream for stalled, drops
    /// it and resumes after the last row received (as a retryable failure). Default 5 minutes.
    ///
    /// ```
    /// use std::time::Duration;
    /// let config = rowkey::bigtable::Config::default().row_timeout(Duration::from_secs(30));
    /// assert_eq!(config.next_row_timeout(), Duration::from_secs(30));
    /// ```
    #[must_use]
    pub fn row_timeout(mut self, timeout: Duration) -> Self {
        self.row_timeout = timeout;
        self
    }

    /// How many `MutateRows` batches a write keeps in flight at once (at least 1). Default 8:
    /// with batches of at most 4 MB, a write holds at most 32 MB of requests.
    ///
    /// ```
    /// assert_eq!(rowkey::bigtable::Config::default().batches_in_flight(0).max_batches_in_flight(), 1);
    /// ```
    #[must_use]
    pub fn batches_in_flight(mut self, batches: usize) -> Self {
        self.in_flight = batches.max(1);
        self
    }

    /// How many rows one `MutateRows` batch holds at most (at least 1; Bigtable's own limits of
    /// 100,000 mutations and the 4 MB cut apply as well). Default 1,000: small enough that a
    /// batch lost to a dropped connection costs little to resend, large enough that the
    /// per-call cost does not dominate.
    ///
    /// ```
    /// assert_eq!(rowkey::bigtable::Config::default().batch_rows(100).max_batch_rows(), 100);
    /// ```
    #[must_use]
    pub fn batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// Reads in pages of at most `rows` rows: each `ReadRows` request asks for that many, and
    /// the next page starts after the last row of the one before. `None` (the default) reads
    /// each query with one request, as Google's clients do.
    ///
    /// Pages bound how many rows a read has asked for and not yet taken, which matters when
    /// the consumer is slower than the server and the server sends each row in its own small
    /// HTTP/2 frame, as the Bigtable emulator does: the client's HTTP/2 layer (h2) then closes
    /// the connection as a flood of small frames (`ENHANCE_YOUR_CALM`, "too_many_data_frames").
    /// A read resumes from that like from any dropped connection, but pages keep it from
    /// happening. Bigtable itself packs many rows into each message.
    ///
    /// ```
    /// let config = rowkey::bigtable::Config::default().page_rows(Some(1000));
    /// assert_eq!(config.read_page_rows(), Some(1000));
    /// ```
    #[must_use]
    pub fn page_rows(mut self, rows: Option<u64>) -> Self {
        self.page_rows = rows.map(|n| n.max(1));
        self
    }

    /// The most rows a page of each bucket's stream holds in a merged read
    /// ([`Table::stream_merged`](super::Table::stream_merged)), like [`page_rows`](Self::page_rows)
    /// for one stream; `None` leaves only the byte bound of [`merge_page_bytes`](Self::merge_page_bytes).
    /// Default 1,000 rows.
    ///
    /// A merge takes rows from one bucket at a time, yet it reads every bucket's page as its
    /// rows arrive and keeps them until their turn: rows left unread in the connection would
    /// hold its HTTP/2 flow-control window, which all buckets share, and once they filled it the
    /// bucket the merge waits for would get no more data (a stall until the connection drops).
    /// A bucket asks for its next page only when the merge has taken the last one's rows, so a
    /// merged read holds about one page per bucket: at most `merge_page_rows` rows and about
    /// [`merge_page_bytes`](Self::merge_page_bytes) bytes each, however large the table. Each
    /// page is a request: larger pages read faster and hold more.
    ///
    /// ```
    /// let config = rowkey::bigtable::Config::default().merge_page_rows(Some(5000));
    /// assert_eq!(config.merged_read_page_rows(), Some(5000));
    /// ```
    #[must_use]
    pub fn merge_page_rows(mut self, rows: Option<u64>) -> Self {
        self.merge_page_rows = rows.map(|n| n.max(1));
        self
    }

    /// About how many bytes a page of each bucket's stream holds in a merged read. Default
    /// 1 MiB, so a merged read of 16 buckets holds about 16 MiB of rows at most.
    ///
    /// A request cannot ask for bytes, only rows, so each bucket sizes its pages from its rows:
    /// its first page asks for 16 rows (fewer if [`merge_page_rows`](Self::merge_page_rows) says
    /// so), and each next page for as many rows of the mean size read so far as fit in
    /// `bytes`, at least one. A page of rows larger than the mean holds more than `bytes`.
    ///
    /// ```
    /// let config = rowkey::bigtable::Config::default().merge_page_bytes(4 << 20);
    /// assert_eq!(config.merged_read_page_bytes(), 4 << 20);
    /// ```
    #[must_use]
    pub fn merge_page_bytes(mut self, bytes: u64) -> Self {
        self.merge_page_bytes = bytes.max(1);
        self
    }

    /// About how many bytes a page of each bucket's stream holds in a merged read.
    #[must_use]
    pub fn merged_read_page_bytes(&self) -> u64 {
        self.merge_page_bytes
    }

    /// The page size of each bucket's stream in a merged read.
    #[must_use]
    pub fn merged_read_page_rows(&self) -> Option<u64> {
        self.merge_page_rows
    }

    /// The page size of reads, `None` when a query is one request.
    #[must_use]
    pub fn read_page_rows(&self) -> Option<u64> {
        self.page_rows
    }

    /// The retry settings of reads.
    #[must_use]
    pub fn read_retry(&self) -> &Retry {
        &self.read
    }

    /// The retry settings of writes.
    #[must_use]
    pub fn write_retry(&self) -> &Retry {
        &self.write
    }

    /// How long a read waits for its next row.
    #[must_use]
    pub fn next_row_timeout(&self) -> Duration {
        self.row_timeout
    }

    /// How many batches a write keeps in flight.
    #[must_use]
    pub fn max_batches_in_flight(&self) -> usize {
        self.in_flight
    }

    /// How many rows a batch holds at most.
    #[must_use]
    pub fn max_batch_rows(&self) -> usize {
        self.batch_rows
    }
}

/// The waits of one operation's retries, with full jitter.
pub(crate) struct Backoff {
    next: Duration,
    multiplier: f64,
    max: Duration,
    initial: Duration,
    rng: u64,
}

impl Backoff {
    pub(crate) fn new(retry: &Retry) -> Self {
        // Seeded per operation from the standard library's random hasher keys: jitter needs
        // spread between clients, not a cryptographic generator.
        let rng = std::collections::hash_map::RandomState::new().build_hasher().finish() | 1;
        Backoff {
            next: retry.initial_backoff,
            multiplier: retry.multiplier,
            max: retry.max_backoff,
            initial: retry.initial_backoff,
            rng,
        }
    }

    /// The wait before the next retry; the one after it grows.
    pub(crate) fn wait(&mut self) -> Duration {
        let ceiling = self.next;
        self.next = self.next.mul_f64(self.multiplier).min(self.max);
        // xorshift64: enough for spreading retries.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        #[allow(clippy::cast_precision_loss)] // a fraction of a wait needs no 64-bit precision
        let fraction = (self.rng >> 11) as f64 / (1u64 << 53) as f64;
        ceiling.mul_f64(fraction)
    }

    /// Progress was made: the next failure waits as little as the first.
    pub(crate) fn reset(&mut self) {
        self.next = self.initial;
    }
}

/// Whether a failed status is worth another attempt: `UNAVAILABLE` and `DEADLINE_EXCEEDED`
/// always (Google's clients' idempotent retry codes), `ABORTED` for reads as well, and the
/// statuses that the client's own transport gives a lost connection, told from the server's
/// by their message: tonic reports a connection closed under a call as `CANCELLED`, a broken
/// pipe as `UNKNOWN`, and h2 closing a connection it judged abusive as `RESOURCE_EXHAUSTED`.
pub(crate) fn retryable(code: i32, message: &str, read: bool) -> bool {
    match code {
        code::UNAVAILABLE | code::DEADLINE_EXCEEDED => true,
        code::ABORTED => read,
        code::CANCELLED | code::UNKNOWN | code::INTERNAL | code::RESOURCE_EXHAUSTED => {
            let message = message.to_ascii_lowercase();
            [
                "transport error",
                "connection error",
                "connection closed",
                "connection reset",
                "h2 protocol error",
                "broken pipe",
            ]
            .iter()
            .any(|sign| message.contains(sign))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_to_the_cap_and_stay_under_it() {
        let retry = Retry::reads().backoff(Duration::from_millis(10), 2.0, Duration::from_millis(100));
        let mut backoff = Backoff::new(&retry);
        let ceilings = [10, 20, 40, 80, 100, 100, 100];
        let mut total = Duration::ZERO;
        for ceiling in ceilings {
            let wait = backoff.wait();
            assert!(wait <= Duration::from_millis(ceiling), "{wait:?} above {ceiling} ms");
            total += wait;
        }
        assert!(total > Duration::ZERO, "jitter drew zero seven times");
        backoff.reset();
        assert!(backoff.wait() <= Duration::from_millis(10));
    }

    #[test]
    fn retries_the_statuses_of_a_lost_connection_only() {
        assert!(retryable(code::UNAVAILABLE, "", false));
        assert!(retryable(code::ABORTED, "", true));
        assert!(!retryable(code::ABORTED, "", false));
        assert!(retryable(code::UNKNOWN, "transport error", true));
        assert!(!retryable(code::UNKNOWN, "bad request", true));
        assert!(retryable(code::CANCELLED, "operation was canceled: connection closed", false));
        assert!(!retryable(code::CANCELLED, "the caller gave up", false));
        let calm = "h2 protocol error: connection error detected: excessive load (too_many_data_frames)";
        assert!(retryable(code::RESOURCE_EXHAUSTED, calm, true));
        assert!(!retryable(code::RESOURCE_EXHAUSTED, "quota exceeded", true));
        assert!(!retryable(3, "invalid argument: stream", true));
    }
}
