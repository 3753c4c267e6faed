//! What can stop a migration.

use std::path::{Path, PathBuf};

use crate::bigtable::Error;
use crate::key::Key;

/// What can stop a migration.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MigrateError {
    /// A read or write failed for good (after the client's retries).
    #[error(transparent)]
    Bigtable(#[from] Error),
    /// A row of the old table has a key that is not one of the old design's, or whose values
    /// do not fit the new design. The rows copied before it stay copied.
    #[error("the row of {} bytes in shard {shard} cannot be re-keyed: {error}", key.len())]
    Rekey {
        /// The shard being copied.
        shard: usize,
        /// The old key (not printed: it may hold a sensitive field).
        key: Box<Key>,
        /// Why.
        error: Box<crate::Error>,
    },
    /// A query of [`Moving::read`](super::Moving::read) that is not one of the new design's.
    #[error("the query: {0}")]
    Query(Box<crate::Error>),
    /// The checkpoint file cannot be read or written, or belongs to another migration.
    #[error("the checkpoint file {path} {detail}")]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong, and what to do.
        detail: String,
    },
}

impl MigrateError {
    pub(super) fn checkpoint(path: &Path, detail: impl Into<String>) -> Self {
        MigrateError::Checkpoint { path: path.to_owned(), detail: detail.into() }
    }
}
