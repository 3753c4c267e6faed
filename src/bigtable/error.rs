//! What can go wrong talking to Bigtable: the client's [`Error`], the rows a write left
//! failed, and a failed call as the retry logic sees it.

use super::config;
use crate::key::Key;

/// What can go wrong talking to Bigtable.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The client failed outside a read or a write: connection setup or authentication.
    #[error("bigtable: {0}")]
    Client(#[from] bigtable_rs::bigtable::Error),
    /// A read failed for good: a status no retry can fix, or a retryable one after the
    /// attempts or the time of [`Config::reads`](super::Config::reads) ran out. The rows up to `reached` were
    /// delivered, each once; a new read from just after it (see [`KeyRanges::after`](crate::KeyRanges::after)) would
    /// continue where this one stopped.
    #[error(
        "ReadRows failed {}after {attempts} attempt(s): {message} (gRPC code {code}); {}",
        reached.as_ref().map_or_else(|| "before its first row ".to_owned(), |key| format!("after row {key}, ")),
        if *retryable { "the retries ran out: raise Config::reads' attempts or timeouts, or Config::row_timeout" } else { "this status is not retried" }
    )]
    Read {
        /// The last row key the read delivered, `None` when it delivered none.
        reached: Option<Key>,
        /// How many attempts were made since the last row delivered.
        attempts: u32,
        /// Whether the status was a retryable one (the retries ran out) or not.
        retryable: bool,
        /// The gRPC status code of the last attempt.
        code: i32,
        /// Its status message.
        message: String,
    },
    /// `SampleRowKeys` failed for good: a status no retry can fix, or a retryable one after
    /// the attempts or the time of [`Config::reads`](super::Config::reads) ran out.
    #[error(
        "SampleRowKeys failed after {attempts} attempt(s): {message} (gRPC code {code}); {}",
        if *retryable { "the retries ran out: raise Config::reads' attempts or timeouts" } else { "this status is not retried" }
    )]
    Sample {
        /// How many attempts were made.
        attempts: u32,
        /// Whether the status was a retryable one (the retries ran out) or not.
        retryable: bool,
        /// The gRPC status code of the last attempt.
        code: i32,
        /// Its status message.
        message: String,
    },
    /// `MutateRows` left some rows unwritten. The others were written; after the first
    /// failure no new batch was sent.
    #[error(
        "MutateRows: {} row(s) not written ({written} written{}); the first, {}: {} (gRPC code {}){}",
        failed.len(),
        unsent_from.as_ref().map_or_else(String::new, |key| format!(", rows from {key} on not sent")),
        failed[0].key,
        failed[0].message,
        failed[0].code,
        match failed[0].reason {
            FailReason::NotIdempotent => "; not retried: it has a mutation that is not idempotent (a SetCell with a server-assigned timestamp, -1): give it an explicit timestamp",
            FailReason::OutOfRetries => "; the retries ran out: raise Config::writes' attempts or timeouts",
            FailReason::Rejected => "",
        }
    )]
    Write {
        /// How many rows were written.
        written: usize,
        /// The rows that were not, each with its status and why it was left; never empty.
        failed: Vec<FailedRow>,
        /// The first row of the input that was never sent, if the write stopped before the
        /// end; it and the rows after it in the input were not sent.
        unsent_from: Option<Key>,
    },
    /// A stream given to [`Table::stream_merged`](super::Table::stream_merged) did not come back in the merge's key order.
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

/// A failed call as the retry logic sees it: a gRPC status code and a message.
#[derive(Clone, Debug)]
pub(super) struct Failure {
    pub(super) code: i32,
    pub(super) message: String,
}

impl From<bigtable_rs::bigtable::Error> for Failure {
    fn from(error: bigtable_rs::bigtable::Error) -> Self {
        use bigtable_rs::bigtable::Error as E;
        match error {
            E::RpcError(status) => {
                // A transport failure's detail is in the status's source, not its message.
                let mut message = status.message().to_owned();
                let mut source = std::error::Error::source(&status);
                while let Some(cause) = source {
                    let cause_text = cause.to_string();
                    if !message.contains(&cause_text) {
                        message = format!("{message}: {cause_text}");
                    }
                    source = cause.source();
                }
                Failure { code: status.code() as i32, message }
            }
            E::TransportError(e) => {
                Failure { code: config::code::UNAVAILABLE, message: format!("transport error: {e}") }
            }
            E::IoError(e) => Failure { code: config::code::UNAVAILABLE, message: format!("connection: {e}") },
            E::TimeoutError(secs) => {
                Failure { code: config::code::DEADLINE_EXCEEDED, message: format!("no answer within {secs} s") }
            }
            other => Failure { code: config::code::UNKNOWN, message: other.to_string() },
        }
    }
}

/// One row a write could not apply, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedRow {
    /// The row's key.
    pub key: Key,
    /// The gRPC status code of its last attempt.
    pub code: i32,
    /// The status message of its last attempt.
    pub message: String,
    /// Why it was not tried again.
    pub reason: FailReason,
}

/// Why a failed row was left failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailReason {
    /// The status is not one a retry can fix (a missing column family, a bad argument, ...).
    Rejected,
    /// The status was retryable but the attempts or the time of
    /// [`Config::writes`](super::Config::writes) ran out.
    OutOfRetries,
    /// The status was retryable, but the row has a mutation that is not idempotent: a
    /// `SetCell` with a server-assigned timestamp (`-1`), or an `AddToCell` / `MergeToCell`.
    /// The row may have been applied before the failure, and again by a retry, so it is
    /// never retried. Give every `SetCell` an explicit timestamp to make it retryable.
    NotIdempotent,
}
