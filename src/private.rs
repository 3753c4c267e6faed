//! What generated code calls. Not public API: it changes without notice.
//!
//! `#[derive(RowKey)]` expands to code in the user's crate that names only items of this
//! module (through `::rowkey::__private`, or the path given with `crate = "..."`), so the
//! public modules can move without breaking derived keys.

pub use std::borrow::Cow;
pub use std::ops::{Bound, RangeBounds};
pub use std::string::String;
pub use std::vec::Vec;

pub use crate::error::{Error, Location, Result};
pub use crate::field::{
    Alphabet, BigEndian, DecodeField, DecodeText, Desc, EncodeField, EncodeText, Hex, Nanos, Padded, Reversed,
};
pub use crate::format::delimited::{Delimited, DelimitedKey, DelimitedReader, DelimitedWriter};
pub use crate::format::ordered::{OrderedKey, OrderedReader, OrderedWriter};
pub use crate::key::Key;
pub use crate::range::KeyRanges;
pub use crate::row_key::RowKey;
pub use crate::salt::{BucketField, Salt, SaltHash};
pub use crate::scan::{DelimitedScan, OrderedScan};
pub use crate::schema::{Encoding, FieldSchema, Format, KeySchema, SaltSchema, Schema, Transform};
pub use crate::transform::{BitReversed, ReversedDomain};

use crate::format::ordered::{decode_key, encode_key};

/// A derived key in the ordered format, which `#[rowkey(flatten)]` can inline into another
/// ordered key. The derive implements it; a struct that flattens a type asserts it once, so
/// a type that does not derive `RowKey` (or derives it in the other format) gets one error
/// that says so.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into an ordered key",
    label = "`{Self}` does not derive `RowKey` in the ordered format",
    note = "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the \
            outer key: derive it on `{Self}` (without `delimited`), or remove `flatten`"
)]
pub trait FlattenOrdered<'de>: OrderedKey<'de> {
    /// The flattened key's schema.
    const SCHEMA: &'static Schema;
}

/// As [`FlattenOrdered`], for the delimited format.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into a delimited key",
    label = "`{Self}` does not derive `RowKey` in the delimited format",
    note = "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the \
            outer key: derive it on `{Self}` with `#[rowkey(delimited = \"...\")]`, or remove `flatten`"
)]
pub trait FlattenDelimited<'de>: DelimitedKey<'de> {
    /// The flattened key's schema.
    const SCHEMA: &'static Schema;
}

/// Compiles only when `T` can be flattened into an ordered key.
pub fn assert_flatten_ordered<'de, T: FlattenOrdered<'de>>() {}

/// Compiles only when `T` can be flattened into a delimited key.
pub fn assert_flatten_delimited<'de, T: FlattenDelimited<'de>>() {}

/// The number of fields a flattened ordered key adds.
#[must_use]
pub const fn ordered_fields<'de, T: FlattenOrdered<'de>>() -> usize {
    T::FIELDS
}

/// Writes a flattened ordered key's fields.
///
/// # Errors
///
/// What its fields' encoders return.
#[inline]
pub fn write_ordered<'de, T: FlattenOrdered<'de>>(value: &T, w: &mut OrderedWriter<'_>) -> Result<()> {
    value.write_fields(w)
}

/// Reads a flattened ordered key's fields.
///
/// # Errors
///
/// What the reader or its fields' decoders return.
#[inline]
pub fn read_ordered<'de, T: FlattenOrdered<'de>>(r: &mut OrderedReader<'de>) -> Result<T> {
    T::read_fields(r)
}

/// The number of fields a flattened delimited key adds.
#[must_use]
pub const fn delimited_fields<'de, T: FlattenDelimited<'de>>() -> usize {
    T::FIELDS
}

/// The alphabet of a flattened delimited key's field.
#[must_use]
pub fn delimited_alphabet<'de, T: FlattenDelimited<'de>>(index: usize) -> Option<Alphabet> {
    T::alphabet(index)
}

/// Writes a flattened delimited key's fields.
///
/// # Errors
///
/// What its fields' encodings return.
#[inline]
pub fn write_delimited<'de, T: FlattenDelimited<'de>>(value: &T, w: &mut DelimitedWriter<'_>) -> Result<()> {
    value.write_fields(w)
}

/// Reads a flattened delimited key's fields.
///
/// # Errors
///
/// What the reader or its fields' decodings return.
#[inline]
pub fn read_delimited<'de, T: FlattenDelimited<'de>>(r: &mut DelimitedReader<'_, 'de>) -> Result<T> {
    T::read_fields(r)
}

/// `RowKey::encode_into` of a derived ordered key: the whole key, then the length limit.
///
/// # Errors
///
/// What a field's encoder returns, or [`Error::TooLong`]; `out` is then empty.
#[inline]
pub fn encode_ordered<'de, T: OrderedKey<'de>>(value: &T, out: &mut Key, max_len: usize) -> Result<()> {
    encode_key(value, out)?;
    check_len(out, max_len)
}

/// `RowKey::from_key` of a derived ordered key.
///
/// # Errors
///
/// What the reader or a field's decoder returns.
#[inline]
pub fn decode_ordered<'de, T: OrderedKey<'de>>(bytes: &'de [u8]) -> Result<T> {
    decode_key(bytes)
}

/// `RowKey::encode_into` of a derived delimited key.
///
/// # Errors
///
/// As [`Delimited::encode_into`], or [`Error::TooLong`]; `out` is then empty.
#[inline]
pub fn encode_delimited<'de, T: DelimitedKey<'de>>(
    delimiter: &'static str,
    value: &T,
    out: &mut Key,
    max_len: usize,
) -> Result<()> {
    Delimited::new(delimiter)?.encode_into(value, out)?;
    check_len(out, max_len)
}

/// `RowKey::from_key` of a derived delimited key.
///
/// # Errors
///
/// As [`Delimited::from_key`].
#[inline]
pub fn decode_delimited<'de, T: DelimitedKey<'de>>(delimiter: &'static str, bytes: &'de [u8]) -> Result<T> {
    Delimited::new(delimiter)?.from_key(bytes)
}

/// Refuses (and clears) a key longer than `max_len`.
fn check_len(out: &mut Key, max_len: usize) -> Result<()> {
    if out.len() <= max_len {
        return Ok(());
    }
    let len = out.len();
    out.clear();
    Err(Error::TooLong { len, max: max_len })
}

/// The salt bucket of source fields that `write` appends to a scratch ordered key.
///
/// # Errors
///
/// What a source field's encoder returns; for a modulo salt, a source that is not one
/// integer field.
#[inline]
pub fn bucket(salt: &Salt, write: impl FnOnce(&mut OrderedWriter<'_>) -> Result<()>) -> Result<u32> {
    let mut source = Key::new();
    write(&mut OrderedWriter::new(&mut source))?;
    salt.bucket_of_encoded(&source)
}

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
    .in_field(index, Some(crate::schema::Schema::PREFIX_FIELD), offset))
}

/// Checks the bucket read from a key against the one its salt source fields give.
///
/// # Errors
///
/// [`Error::InvalidField`] naming the bucket field when they differ.
pub fn check_bucket(found: u32, expected: u32, index: usize, offset: usize) -> Result<()> {
    if found == expected {
        return Ok(());
    }
    Err(Error::invalid(
        "bucket",
        format!(
            "the key is in bucket {found}, but its salt source fields give bucket {expected}; \
             the key was written with another salt or is corrupt"
        ),
    )
    .in_field(index, Some(crate::schema::Schema::BUCKET_FIELD), offset))
}

/// Reads a salted key's bucket field as its salt writes it, naming the field on error.
#[inline]
pub fn read_bucket(salt: &Salt, bytes: &[u8], delimited: bool, index: usize, offset: usize) -> Result<u32> {
    salt.read_bucket(bytes, delimited).map_err(|e| e.in_field(index, Some(crate::schema::Schema::BUCKET_FIELD), offset))
}

/// A bound with its value mapped, for scan builders that wrap a field's value.
#[inline]
pub fn map_bound<T, U>(bound: Bound<T>, f: impl FnOnce(T) -> U) -> Bound<U> {
    match bound {
        Bound::Included(v) => Bound::Included(f(v)),
        Bound::Excluded(v) => Bound::Excluded(f(v)),
        Bound::Unbounded => Bound::Unbounded,
    }
}
