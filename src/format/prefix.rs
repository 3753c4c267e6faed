//! The prefix field: a constant first field (`#[rowkey(prefix = "...")]`, or a byte string
//! `prefix = b"\xbd\x89"`) that every key of a type starts with, checked when a key is read by
//! the derive and by `Schema::inspect`.

use crate::error::{Error, Result};
use crate::format::PREFIX_FIELD;

/// Checks the prefix field read from a key (field `index`, starting at `offset`).
///
/// # Errors
///
/// [`Error::InvalidField`] naming the prefix field when the bytes differ.
pub fn check_prefix(found: &[u8], expected: &'static [u8], index: usize, offset: usize) -> Result<()> {
    if found == expected {
        return Ok(());
    }
    // A text prefix is named as text; a byte prefix, and what stands in its place, as hex.
    let detail = match std::str::from_utf8(expected) {
        Ok(text) => format!(
            "the key starts with {:?}, not this type's prefix {text:?}; it is a key of another type",
            String::from_utf8_lossy(found)
        ),
        Err(_) => format!(
            "the key starts with {}, not this type's prefix {}; it is a key of another type",
            hex(found),
            hex(expected)
        ),
    };
    Err(Error::invalid("prefix", detail).in_field(index, Some(PREFIX_FIELD), offset))
}

/// Checks that `rest`, the key from `offset` on, starts with the raw prefix `expected`: the store formats
/// (FoundationDB tuples, memcomparable, HBase) write a derived key's prefix as raw bytes before
/// its fields, as a subspace or a table prefix is, not as a field of their own encoding.
///
/// # Errors
///
/// [`Error::InvalidField`] naming the prefix field when the bytes there differ.
pub(crate) fn check_raw_prefix(rest: &[u8], offset: usize, expected: &[u8]) -> Result<()> {
    if rest.starts_with(expected) {
        return Ok(());
    }
    let found = &rest[..rest.len().min(expected.len())];
    Err(Error::invalid(
        "prefix",
        format!(
            "the key starts with {}, not this type's prefix {}; it is a key of another type or subspace",
            hex(found),
            hex(expected)
        ),
    )
    .in_field(0, Some(PREFIX_FIELD), offset))
}

/// Bytes as lowercase hex pairs, for error messages.
pub(crate) fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "nothing".to_owned();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}
