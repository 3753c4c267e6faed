//! `SampleRowKeys`: the table's own sample of its keys, with the bytes before each, retried
//! as a read is.

use std::time::Instant;

use bigtable_rs::google::bigtable::v2::SampleRowKeysRequest;

use super::Table;
use super::config::{Backoff, code, retryable};
use super::error::{Error, Failure};
use crate::key::Key;

/// One key of a table's sample ([`Table::sample`]): a row key, and about how many bytes of
/// the table lie before it.
///
/// ```
/// let sampled = rowkey::bigtable::SampledKey { key: "m".into(), offset_bytes: 1 << 20 };
/// assert_eq!(sampled.key.as_bytes(), b"m");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampledKey {
    /// The key; empty in the last entry Bigtable sends, which stands for the end of the table.
    pub key: Key,
    /// The approximate bytes stored before `key` (Bigtable counts what it stores, which may be
    /// compressed; the emulator gives the number of rows before the key instead).
    pub offset_bytes: u64,
}

impl Table {
    /// The table's sample of its own keys (Bigtable's `SampleRowKeys`): keys that cut it into
    /// pieces of similar size, in order, each with the bytes stored before it, as the server
    /// sends them (Bigtable's last entry has an empty key and the table's size).
    ///
    /// The call is idempotent, so it is retried as [`Config::reads`](super::Config::reads)
    /// says: a failed attempt with a retryable status (`UNAVAILABLE`, `DEADLINE_EXCEEDED`,
    /// `ABORTED`, a dropped connection) is sent again whole after a backoff, until the
    /// attempts or the time run out.
    ///
    /// # Errors
    ///
    /// [`Error::Sample`] when the call fails with a status that is not retried, or when the
    /// retries run out.
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), rowkey::bigtable::Error> {
    /// let sample = table.sample().await?;
    /// let bytes = sample.last().map_or(0, |last| last.offset_bytes);
    /// println!("about {bytes} bytes in {} pieces", sample.len());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn sample(&self) -> Result<Vec<SampledKey>, Error> {
        let retry = &self.config.read;
        let mut backoff = Backoff::new(retry);
        let started = Instant::now();
        let mut attempts = 0;
        loop {
            attempts += 1;
            let failure = match tokio::time::timeout(retry.attempt_timeout(), self.sample_once()).await {
                Ok(Ok(keys)) => return Ok(keys),
                Ok(Err(failure)) => failure,
                Err(_) => Failure {
                    code: code::DEADLINE_EXCEEDED,
                    message: format!("the attempt took longer than its timeout of {:?}", retry.attempt_timeout()),
                },
            };
            let can_retry = retryable(failure.code, &failure.message, true);
            let out_of_attempts = retry.max_attempts().is_some_and(|max| attempts >= max);
            let wait = backoff.wait();
            if !can_retry || out_of_attempts || started.elapsed() + wait >= retry.total_timeout() {
                return Err(Error::Sample {
                    attempts,
                    retryable: can_retry,
                    code: failure.code,
                    message: failure.message,
                });
            }
            tracing::debug!(attempts, code = failure.code, message = failure.message, "SampleRowKeys retried");
            tokio::time::sleep(wait).await;
        }
    }

    /// The keys of the table's [sample](Self::sample), in order, without the empty key that
    /// ends Bigtable's: split points that cut the table into pieces of similar size.
    ///
    /// # Errors
    ///
    /// As [`sample`](Self::sample).
    ///
    /// ```no_run
    /// # async fn demo(table: rowkey::bigtable::Table) -> Result<(), rowkey::bigtable::Error> {
    /// let points = table.sample_row_keys().await?;
    /// assert!(points.windows(2).all(|w| w[0] < w[1]));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn sample_row_keys(&self) -> Result<Vec<Key>, Error> {
        let sample = self.sample().await?;
        Ok(sample.into_iter().map(|sampled| sampled.key).filter(|key| !key.is_empty()).collect())
    }

    /// One attempt: the whole stream, or how it failed.
    async fn sample_once(&self) -> Result<Vec<SampledKey>, Failure> {
        let request = SampleRowKeysRequest { table_name: self.name.clone(), ..SampleRowKeysRequest::default() };
        let mut responses = self.client.clone().sample_row_keys(request).await.map_err(Failure::from)?;
        let mut keys = Vec::new();
        loop {
            match responses.message().await {
                Ok(Some(response)) => keys.push(SampledKey {
                    key: Key::from(response.row_key),
                    offset_bytes: u64::try_from(response.offset_bytes).unwrap_or(0),
                }),
                Ok(None) => return Ok(keys),
                Err(status) => return Err(Failure::from(bigtable_rs::bigtable::Error::from(status))),
            }
        }
    }
}
