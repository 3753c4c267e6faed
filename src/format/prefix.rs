//! The prefix field: a constant first field (`#[rowkey(prefix = "...")]`) that every key of a
//! type starts with, checked when a key is read by the derive and by `Schema::inspect`.

use crate::error::{Error, Result};
use crate::format::PREFIX_FIELD;

/// Checks the prefix field read from a key (field `index`, starting at `offset`).
///
/// # Errors
///
/// [`Error::InvalidField`] naming the prefix field when the bytes differ.
pub fn check_prefix(found: &[u8], expected: &'static str, index: usize, offset: usize) -> Result<()> {
    if found == expected.as_bytes() {
        return Ok(());
    }
    let found = String::from_utf8_lossy(found);
    Err(Error::invalid(
        "prefix",
        format!("the key starts with {found:?}, not this type's prefix {expected:?}; it is a key of another type"),
    )
    .in_field(index, Some(PREFIX_FIELD), offset))
}
