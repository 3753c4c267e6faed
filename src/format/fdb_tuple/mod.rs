//! FoundationDB's tuple layer as a key format: the bytes every FoundationDB binding writes with
//! `Tuple.pack` / `fdb.tuple.pack`, so keys that other FoundationDB code wrote can be read,
//! and written, through rowkey's field types.
//!
//! Each field starts with a type code that says what it is, so a key can be cut into its
//! fields without knowing its type, and keys of the same types sort by their values:
//!
//! | value | bytes |
//! |---|---|
//! | `("phone", 20200501)` | `02 70 68 6f 6e 65 00 18 01 34 3c 35` |
//! | `(-1i64,)` | `13 fe` |
//! | `(true, 2.5f64)` | `27 21 c0 04 00 00 00 00 00 00` |
//! | `(b"\x00\xff",)` (bytes) | `01 00 ff ff 00` |
//! | `((1u8, "a"),)` (a nested tuple) | `05 15 01 02 61 00 00` |
//!
//! `docs/FORMAT.md` has the table of every type code rowkey writes. A format may carry a raw
//! prefix, the bytes a subspace or the directory layer puts before the tuple;
//! [`FdbTuple::range`] gives the tuple layer's own range of every key under some leading
//! fields.
//!
//! ```
//! use rowkey::format::FdbTuple;
//!
//! let users = FdbTuple::with_prefix(b"\x15\x02"); // the subspace (2,)
//! let key = users.to_key(&("ada", 1815u32))?;
//! assert_eq!(key.as_bytes(), b"\x15\x02\x02ada\x00\x16\x07\x17");
//! let (name, year): (&str, u32) = users.from_key(&key)?;
//! assert_eq!((name, year), ("ada", 1815));
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! Decoding is strict: it accepts exactly the bytes the encoder writes, so one value has one
//! key. An integer with a redundant byte, a field of another type, a string without its end
//! byte or bytes after the last field are errors naming the field and what was expected.

mod codes;
mod key;
mod reader;
mod values;
mod writer;

use crate::error::{Error, Location, Result};
use crate::format::key_format::{FormatKey, decode_key, encode_key};
use crate::format::prefix::hex;
use crate::key::Key;

pub use reader::TupleReader;
pub use writer::TupleWriter;

/// FoundationDB's tuple layer, with an optional raw prefix before the tuple.
///
/// A value of this type writes and reads keys ([`to_key`](Self::to_key),
/// [`from_key`](Self::from_key)); the type itself is the format parameter of the field model
/// ([`WriteField<FdbTuple>`](crate::field::WriteField), [`ReadField<'de, FdbTuple>`](crate::field::ReadField)), which holds integers of every
/// width (`u128` and `i128` included), `f32`, `f64`, `bool`, text, byte strings, `Option`
/// (`None` is the tuple layer's null), UUIDs (`uuid::Uuid`, and `ulid::Ulid` under the UUID
/// type code, as the tuple layer has no ULID), instants, dates, durations and IP addresses (as
/// integers or byte strings: see `docs/FORMAT.md`), nested tuples and
/// [`Versionstamp`](crate::field::Versionstamp)s. It has no descending fields: `Desc` is a
/// compile error here, as the tuple layer has no descending order.
///
/// ```
/// use rowkey::format::FdbTuple;
///
/// let tuples = FdbTuple::default();
/// assert_eq!(tuples.to_key(&(1i64, "a"))?.as_bytes(), b"\x15\x01\x02a\x00");
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FdbTuple {
    prefix: Vec<u8>,
}

impl FdbTuple {
    /// A format whose keys start with `prefix`: the raw bytes of a subspace or of a directory
    /// layer's directory, written as they are.
    ///
    /// ```
    /// use rowkey::format::FdbTuple;
    ///
    /// let dir = FdbTuple::with_prefix([0x15, 0x2a]);
    /// assert_eq!(dir.prefix(), [0x15, 0x2a]);
    /// assert_eq!(dir.to_key(&(7u8,))?.as_bytes(), [0x15, 0x2a, 0x15, 0x07]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn with_prefix(prefix: impl AsRef<[u8]>) -> Self {
        FdbTuple { prefix: prefix.as_ref().to_vec() }
    }

    /// The raw prefix (empty for [`FdbTuple::default`]).
    ///
    /// ```
    /// assert!(rowkey::format::FdbTuple::default().prefix().is_empty());
    /// ```
    #[must_use]
    pub fn prefix(&self) -> &[u8] {
        &self.prefix
    }

    /// The key of `value`: the prefix, then each field packed as the tuple layer packs it.
    ///
    /// # Errors
    ///
    /// What a field's encoder returns (no field type of this crate fails in this format).
    ///
    /// ```
    /// use rowkey::format::FdbTuple;
    ///
    /// let key = FdbTuple::default().to_key(&("phone", 20200501u32))?;
    /// assert_eq!(key.as_bytes(), b"\x02phone\x00\x18\x01\x34\x3c\x35");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_key<'de, T: FdbKey<'de>>(&self, value: &T) -> Result<Key> {
        let mut key = Key::new();
        self.encode_into(value, &mut key)?;
        Ok(key)
    }

    /// Clears `out` and writes the key of `value` into it; on error `out` is left empty.
    ///
    /// # Errors
    ///
    /// As [`to_key`](Self::to_key).
    ///
    /// ```
    /// use rowkey::Key;
    /// use rowkey::format::FdbTuple;
    ///
    /// let mut key = Key::new();
    /// FdbTuple::default().encode_into(&(false,), &mut key)?;
    /// assert_eq!(key.as_bytes(), [0x26]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn encode_into<'de, T: FdbKey<'de>>(&self, value: &T, out: &mut Key) -> Result<()> {
        encode_key(self, value, out)
    }

    /// Reads a key back: checks and strips the prefix, then reads every field of `T`, and
    /// refuses bytes after the last one.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] naming the prefix when the key does not start with it, or
    /// naming the field whose bytes are not a value of its type (with what was expected);
    /// [`Error::OutOfRange`] for an integer that does not fit; [`Error::TrailingBytes`] after
    /// the last field.
    ///
    /// ```
    /// use rowkey::format::FdbTuple;
    ///
    /// let dir = FdbTuple::with_prefix(b"\xfe");
    /// let (n,): (i16,) = dir.from_key(b"\xfe\x12\xfb\xd5")?;
    /// assert_eq!(n, -1066);
    /// assert!(dir.from_key::<(i16,)>(b"\x12\xfb\xd5").is_err()); // no prefix
    /// assert!(dir.from_key::<(i8,)>(b"\xfe\x12\xfb\xd5").is_err()); // does not fit
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn from_key<'de, T: FdbKey<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        decode_key(self, bytes)
    }

    // Out of line, so that reading a key inlines only the comparison.
    #[cold]
    fn not_this_prefix(&self, bytes: &[u8]) -> Error {
        Error::InvalidField {
            at: Location::at(0),
            ty: "prefix",
            detail: format!(
                "the key starts with {}, not this format's prefix {}; it is a key of another subspace or directory, \
                 or the format was given the wrong prefix",
                hex(&bytes[..bytes.len().min(self.prefix.len())]),
                hex(&self.prefix)
            )
            .into(),
        }
    }

    /// The tuple layer's range of every key that extends `value` by one or more fields: the
    /// packed key followed by `00`, to the packed key followed by `ff` (both exclusive of
    /// the key itself, as FoundationDB's `Tuple.range` / `fdb.tuple.range`).
    ///
    /// It is not the byte-prefix range of the packed key: under `("a",)` (`02 61 00`) that
    /// would also hold `("a\0",)` (`02 61 00 ff 00`), which is not a key under `("a",)`.
    ///
    /// # Errors
    ///
    /// As [`to_key`](Self::to_key).
    ///
    /// ```
    /// use rowkey::format::FdbTuple;
    ///
    /// let tuples = FdbTuple::default();
    /// let (start, end) = tuples.range(&("users",))?;
    /// assert_eq!(start.as_bytes(), b"\x02users\x00\x00");
    /// assert_eq!(end.as_bytes(), b"\x02users\x00\xff");
    ///
    /// let ada = tuples.to_key(&("users", "ada"))?;
    /// assert!(start < ada && ada < end);
    /// let nul = tuples.to_key(&("users\0",))?; // shares the bytes of ("users",), not a key under it
    /// assert!(nul >= end);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn range<'de, T: FdbKey<'de>>(&self, value: &T) -> Result<(Key, Key)> {
        let mut start = self.to_key(value)?;
        let mut end = start.clone();
        start.push(0x00);
        end.push(0xff);
        Ok((start, end))
    }
}

/// A key whose fields the tuple layer packs: `()`, tuples of 1 to 12 field types of
/// [`FdbTuple`], and derived keys. The name [`FormatKey<'de, FdbTuple>`] has in bounds;
/// implement that.
///
/// ```
/// use rowkey::format::{FdbKey, FdbTuple};
///
/// fn field_count<'de, T: FdbKey<'de>>(_: &T) -> usize {
///     T::FIELDS
/// }
/// assert_eq!(field_count(&("a", 1u8, true)), 3);
/// assert_eq!(FdbTuple::default().to_key(&())?.as_bytes(), b"");
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait FdbKey<'de>: FormatKey<'de, FdbTuple> {}

impl<'de, T: FormatKey<'de, FdbTuple>> FdbKey<'de> for T {}

#[cfg(test)]
mod tests;
