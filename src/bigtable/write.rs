//! Writes: rows cut into `MutateRows` batches, several batches in flight, and the entries that
//! fail with a retryable status sent again alone.

use std::time::Instant;

use bigtable_rs::google::bigtable::v2::{MutateRowsRequest, Mutation, mutate_rows_request, mutation};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use prost::Message;

use super::Table;
use super::config::{Backoff, code, retryable};
use super::error::{Error, FailReason, FailedRow, Failure};
use crate::key::Key;

/// Bigtable's limit on the mutations of one `MutateRows` request.
const MAX_BATCH_MUTATIONS: usize = 100_000;
/// Where a `MutateRows` batch is cut by size: under 4 MiB, gRPC's default limit on a received
/// message, so that a server or proxy that keeps the default accepts it (Bigtable and its
/// emulator accept more), with room for the table name and framing.
const MAX_BATCH_BYTES: usize = 4_000_000;

impl Table {
    /// Writes rows with `MutateRows`: each row's mutations are applied atomically, in batches
    /// of at most [`Config::batch_rows`](super::Config::batch_rows) rows, 100,000 mutations
    /// (Bigtable's limit) and about 4 MB, with up to
    /// [`Config::batches_in_flight`](super::Config::batches_in_flight) batches in flight.
    /// Returns how many rows were written.
    ///
    /// Rows whose entry fails with a retryable status (`UNAVAILABLE`, `DEADLINE_EXCEEDED`, a
    /// dropped connection) are sent again on their own, with backoff, as
    /// [`Config::writes`](super::Config::writes) says; a row that the server already applied
    /// is applied again, which is harmless for idempotent mutations. A row with a mutation that
    /// is not idempotent (a `SetCell` timestamped by the server) is never retried, only
    /// reported: see [`FailReason::NotIdempotent`].
    ///
    /// # Errors
    ///
    /// [`Error::Write`] when some rows could not be written: it lists each with its status and
    /// why it was left, counts the rows that were, and names the first row that was never
    /// sent (after a failure no new batch starts; the batches in flight finish).
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::RowKey;
    /// use rowkey::bigtable::set_cell;
    ///
    /// let rows = (0..1000u32).map(|i| {
    ///     let key = ("sensor", i).to_key().expect("a u32 always encodes");
    ///     // An explicit timestamp makes the write idempotent, so it is retried when it fails.
    ///     (key, vec![set_cell("r", "n", i.to_string(), 1_588_291_200_000_000)])
    /// });
    /// assert_eq!(table.write_rows(rows).await?, 1000);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn write_rows<I>(&self, rows: I) -> Result<usize, Error>
    where
        I: IntoIterator<Item = (Key, Vec<Mutation>)>,
    {
        let mut batches = Batches { rows: rows.into_iter(), next: None, max_rows: self.config.batch_rows };
        let mut in_flight = FuturesUnordered::new();
        let mut written = 0;
        let mut failed = Vec::new();
        loop {
            while failed.is_empty() && in_flight.len() < self.config.in_flight {
                let Some(batch) = batches.next() else { break };
                in_flight.push(self.send(batch));
            }
            let Some(outcome) = in_flight.next().await else { break };
            written += outcome.written;
            failed.extend(outcome.failed);
        }
        if failed.is_empty() {
            return Ok(written);
        }
        let unsent_from =
            batches.next().and_then(|batch| batch.entries.into_iter().next()).map(|e| Key::from(e.row_key));
        Err(Error::Write { written, failed, unsent_from })
    }

    /// Sends one batch, then its retryable failures alone, until they are written or left.
    async fn send(&self, batch: Batch) -> Outcome {
        let retry = &self.config.write;
        let started = Instant::now();
        let mut backoff = Backoff::new(retry);
        let mut pending = batch.entries;
        let mut outcome = Outcome { written: 0, failed: Vec::new() };
        for attempt in 1.. {
            let statuses = self.mutate(&pending).await;
            let wait = backoff.wait();
            let out_of_retries = retry.max_attempts().is_some_and(|max| attempt >= max)
                || started.elapsed() + wait >= retry.total_timeout();
            let mut again = Vec::new();
            for (entry, status) in pending.into_iter().zip(statuses) {
                let Some(failure) = status else {
                    outcome.written += 1;
                    continue;
                };
                let reason = if !retryable(failure.code, &failure.message, false) {
                    FailReason::Rejected
                } else if !idempotent(&entry.mutations) {
                    FailReason::NotIdempotent
                } else if out_of_retries {
                    FailReason::OutOfRetries
                } else {
                    again.push(entry);
                    continue;
                };
                outcome.failed.push(FailedRow {
                    key: Key::from(entry.row_key),
                    code: failure.code,
                    message: failure.message,
                    reason,
                });
            }
            if again.is_empty() {
                break;
            }
            pending = again;
            tokio::time::sleep(wait).await;
        }
        outcome
    }

    /// One `MutateRows` call: each entry's failure, `None` for the entries written.
    async fn mutate(&self, entries: &[mutate_rows_request::Entry]) -> Vec<Option<Failure>> {
        // `None` until the server reports on the entry.
        let mut reported: Vec<Option<Option<Failure>>> = vec![None; entries.len()];
        let request =
            MutateRowsRequest { table_name: self.name.clone(), entries: entries.to_vec(), ..Default::default() };
        let timeout = self.config.write.attempt_timeout();
        let call = async {
            let mut responses = self.client.clone().mutate_rows(request).await?;
            while let Some(response) = responses.message().await.map_err(bigtable_rs::bigtable::Error::from)? {
                for entry in response.entries {
                    let Some(slot) = usize::try_from(entry.index).ok().and_then(|i| reported.get_mut(i)) else {
                        continue;
                    };
                    *slot = Some(match entry.status {
                        Some(status) if status.code != 0 => {
                            Some(Failure { code: status.code, message: status.message })
                        }
                        _ => None,
                    });
                }
            }
            Ok::<(), bigtable_rs::bigtable::Error>(())
        };
        let result = tokio::time::timeout(timeout, call).await;
        // An entry the call did not answer for may or may not be written: it shares the call's
        // failure, or counts as unavailable when the call ended without a word on it.
        let unanswered = match result {
            Ok(Ok(())) => {
                Failure { code: code::UNAVAILABLE, message: "MutateRows returned no status for the row".to_owned() }
            }
            Ok(Err(error)) => Failure::from(error),
            Err(_) => Failure {
                code: code::DEADLINE_EXCEEDED,
                message: format!("MutateRows took longer than the attempt timeout of {timeout:?}"),
            },
        };
        reported.into_iter().map(|status| status.unwrap_or_else(|| Some(unanswered.clone()))).collect()
    }
}

/// Whether applying `mutations` twice leaves the row as applying them once.
fn idempotent(mutations: &[Mutation]) -> bool {
    mutations.iter().all(|m| match &m.mutation {
        Some(mutation::Mutation::SetCell(set)) => set.timestamp_micros >= 0,
        Some(
            mutation::Mutation::DeleteFromColumn(_)
            | mutation::Mutation::DeleteFromFamily(_)
            | mutation::Mutation::DeleteFromRow(_),
        )
        | None => true,
        Some(_) => false,
    })
}

/// What one batch came to.
struct Outcome {
    written: usize,
    failed: Vec<FailedRow>,
}

/// Entries of one `MutateRows` request.
#[derive(Default)]
struct Batch {
    entries: Vec<mutate_rows_request::Entry>,
}

/// Cuts rows into batches as they are asked for, so that a write of many rows holds only the
/// batches in flight.
struct Batches<I> {
    rows: I,
    /// The entry that did not fit in the last batch.
    next: Option<(mutate_rows_request::Entry, usize)>,
    max_rows: usize,
}

impl<I: Iterator<Item = (Key, Vec<Mutation>)>> Iterator for Batches<I> {
    type Item = Batch;

    fn next(&mut self) -> Option<Batch> {
        let mut batch = Batch::default();
        let (mut mutations, mut bytes) = (0, 0);
        loop {
            let (entry, size) = match self.next.take() {
                Some(next) => next,
                None => {
                    let Some((key, row)) = self.rows.next() else { break };
                    let entry =
                        mutate_rows_request::Entry { row_key: key.into_vec(), mutations: row, ..Default::default() };
                    let size = entry.encoded_len();
                    (entry, size)
                }
            };
            // An entry too large on its own still goes, alone, for the server to judge.
            let full = batch.entries.len() >= self.max_rows
                || mutations + entry.mutations.len() > MAX_BATCH_MUTATIONS
                || bytes + size > MAX_BATCH_BYTES;
            if full && !batch.entries.is_empty() {
                self.next = Some((entry, size));
                break;
            }
            mutations += entry.mutations.len();
            bytes += size;
            batch.entries.push(entry);
        }
        (!batch.entries.is_empty()).then_some(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bigtable::set_cell;

    fn rows(n: usize, value_len: usize) -> impl Iterator<Item = (Key, Vec<Mutation>)> {
        (0..n)
            .map(move |i| (Key::from(format!("k{i:05}").as_str()), vec![set_cell("f", "q", vec![b'v'; value_len], 0)]))
    }

    #[test]
    fn batches_are_cut_by_rows_and_by_bytes_and_keep_every_row_in_order() {
        let sizes: Vec<usize> =
            Batches { rows: rows(2500, 10), next: None, max_rows: 1000 }.map(|b| b.entries.len()).collect();
        assert_eq!(sizes, [1000, 1000, 500]);
        let batches: Vec<Batch> = Batches { rows: rows(10, 1_500_000), next: None, max_rows: 1000 }.collect();
        assert_eq!(batches.iter().map(|b| b.entries.len()).collect::<Vec<_>>(), [2, 2, 2, 2, 2]);
        let keys: Vec<Vec<u8>> = batches.into_iter().flat_map(|b| b.entries).map(|e| e.row_key).collect();
        assert_eq!(keys, rows(10, 0).map(|(k, _)| k.into_vec()).collect::<Vec<_>>());
        let alone: Vec<usize> =
            Batches { rows: rows(2, 5_000_000), next: None, max_rows: 1000 }.map(|b| b.entries.len()).collect();
        assert_eq!(alone, [1, 1]);
    }

    #[test]
    fn only_server_timestamps_and_aggregates_are_not_idempotent() {
        assert!(idempotent(&[set_cell("f", "q", "v", 1000)]));
        assert!(!idempotent(&[set_cell("f", "q", "v", 1000), set_cell("f", "q", "v", -1)]));
        let delete = Mutation { mutation: Some(mutation::Mutation::DeleteFromRow(mutation::DeleteFromRow {})) };
        assert!(idempotent(&[delete]));
        let add = Mutation { mutation: Some(mutation::Mutation::AddToCell(mutation::AddToCell::default())) };
        assert!(!idempotent(&[add]));
    }
}
