//! The memcomparable format: keys byte for byte as the [`memcomparable`] crate 0.2
//! (RisingWave's, after MySQL/MyRocks' memcomparable format) serializes the same values.
//!
//! Every field has a width fixed by its type, or frames itself (strings and byte strings in
//! 9-byte groups), so a key is its fields' bytes one after another, with no separators and no
//! escapes:
//!
//! | field type | bytes |
//! |---|---|
//! | `u8`, `u16`, `u32`, `u64`, `u128` | 1, 2, 4, 8, 16 bytes, big-endian |
//! | `i8`, `i16`, `i32`, `i64`, `i128` | the same, with the sign bit flipped (negatives first) |
//! | `usize`, `isize` | as `u64`, `i64` (what serde hands the crate for them) |
//! | `bool` | `00` or `01` |
//! | `f32`, `f64` | 4 or 8 bytes: a positive float's bits with the sign bit set, a negative float's bits inverted |
//! | `char` | its scalar value as a big-endian `u32` |
//! | `str`, `String`, `[u8]`, `Vec<u8>`, `[u8; N]`, `Cow` | `00` when empty; else `01`, then 9-byte groups (see below) |
//! | `Option<T>` | `00` for `None`; `01`, then `T`'s bytes |
//! | [`Desc<T>`](crate::Desc) | `T`'s bytes, every byte inverted (the crate's reverse mode) |
//!
//! A string or byte string is cut into groups of 8 bytes; each group is written with its
//! 8 bytes (the last one padded with `00`) and a marker byte: `09` when more groups follow,
//! else the number of bytes of the last group that are data (`01` to `08`). So `"phone"` is
//! `01 70 68 6f 6e 65 00 00 00 05`.
//!
//! That is what the crate writes for `serialize_bytes` (`serde_bytes`, `uuid::Uuid`). serde
//! hands it a plain `[u8; N]` as `N` separate `u8`s instead, `N` raw bytes: for 16 of them,
//! the field type with those bytes is `u128` (`u128::from_be_bytes`).
//!
//! Text and bytes borrow from the key (`&str`, `&[u8]`, a borrowed `Cow`) when they are
//! ascending and at most 8 bytes long; longer ones have marker bytes between their groups, so
//! they are read into `String`, `Vec<u8>` or an owned `Cow`, and `&str` is an error that says
//! so.
//!
//! Field types the crate has no encoding of its own for are written as a user of the crate
//! would write them (the serde form of the type where it has one):
//!
//! | field type | bytes |
//! |---|---|
//! | `uuid::Uuid`, `ulid::Ulid` | the 16 bytes as a byte string (19 bytes: what `Uuid`'s serde writes here) |
//! | instants ([`Timestamp`](crate::field::Timestamp)), `SystemTime` | microseconds from 1970 as an `i64` |
//! | [`Nanos<T>`](crate::field::Nanos) | nanoseconds from 1970 as an `i128` |
//! | dates ([`CalendarDate`](crate::field::CalendarDate)) | days from 1970-01-01 as an `i64` |
//! | `Duration` | seconds as a `u64`, then nanoseconds as a `u32` (serde's `Duration` struct) |
//! | `Ipv4Addr`, `Ipv6Addr` | the 4 or 16 octets as they are (serde's octet tuple) |
//! | `IpAddr` | `00` and 4 octets, or `01` and 16 (serde's variant index) |
//! | [`BigEndian<T>`](crate::BigEndian) | its 8 bytes as a byte string |
//!
//! # Floats: NaN and -0.0
//!
//! The crate writes every NaN as the one NaN `f64::NAN` (`f32::NAN`), and `-0.0` as `0.0`,
//! so those values do not round trip: a key holding NaN decodes to `f64::NAN`, whatever NaN
//! was written, and a key of `-0.0` decodes to `0.0`. Keys order like
//! [`f64::total_cmp`] once NaN and `-0.0` are so replaced: NaN sorts after `+inf`. Decoding
//! refuses the bytes of any other NaN and of `-0.0`, which the format never writes.
//!
//! # Decoding is strict
//!
//! The crate's own decoder accepts some bytes its encoder never writes (non-zero padding in
//! a string's last group) and panics on a key cut short (it also cannot read back the
//! addresses and UUIDs it writes: its deserializer calls itself human-readable, so their
//! serde impls ask it for text). Here every decoder accepts exactly
//! the bytes its encoder writes and answers anything else with an error naming the field, its
//! type and what was expected, so one value has one key.
//!
//! # Scans
//!
//! Because no field has a terminator that a longer value could extend, the bytes of a key's
//! first fields are a prefix of the key's bytes, and no key whose first fields differ has
//! that prefix (each field's bytes say where they end). So "every key whose first fields are
//! these" is the byte range from the packed fields to their
//! [successor](crate::prefix_successor): [`Memcomparable::prefix_range`].
//!
//! ```
//! use rowkey::Desc;
//! use rowkey::format::Memcomparable;
//!
//! let key = Memcomparable.to_key(&("phone", 7u16, Desc(-1i32)))?;
//! assert_eq!(key.as_bytes(), b"\x01phone\x00\x00\x00\x05\x00\x07\x80\x00\x00\x00");
//! let (kind, id, day): (String, u16, Desc<i32>) = Memcomparable.from_key(&key)?;
//! assert_eq!((kind.as_str(), id, day), ("phone", 7, Desc(-1)));
//!
//! // Every key of kind "phone", whatever follows.
//! let range = Memcomparable.prefix_range(&("phone",))?;
//! assert!(range.contains(&key));
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! [`memcomparable`]: https://docs.rs/memcomparable/0.2

mod cursor;
mod key;
mod values;

pub use cursor::Cursor;
pub use key::{MemcomparableReader, MemcomparableWriter};

use crate::error::Result;
use crate::field::ValueFormat;
use crate::format::key_format::{FormatKey, decode_key, encode_key};
use crate::key::Key;
use crate::range::KeyRange;

/// The memcomparable format: a unit type for the field model, and the key-level functions.
///
/// ```
/// use rowkey::format::Memcomparable;
///
/// let key = Memcomparable.to_key(&(-1i64, true))?;
/// assert_eq!(key.as_bytes(), [0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
/// assert_eq!(Memcomparable.from_key::<(i64, bool)>(&key)?, (-1, true));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Memcomparable;

impl ValueFormat for Memcomparable {
    type Input<'r, 'de>
        = &'r mut Cursor<'de>
    where
        'de: 'r;
}

/// A key type that the memcomparable format can write and read: `()` and tuples of 1 to 12
/// fields, each a field type of [`Memcomparable`], and derived keys. The name
/// [`FormatKey<'de, Memcomparable>`] has in bounds; implement that.
///
/// ```
/// use rowkey::format::{Memcomparable, MemcomparableKey};
///
/// fn fields<'de, K: MemcomparableKey<'de>>() -> usize {
///     K::FIELDS
/// }
/// assert_eq!(fields::<(String, u32, bool)>(), 3);
/// assert_eq!(Memcomparable.to_key(&())?.len(), 0);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait MemcomparableKey<'de>: FormatKey<'de, Memcomparable> {}

impl<'de, T: FormatKey<'de, Memcomparable>> MemcomparableKey<'de> for T {}

impl Memcomparable {
    /// Encodes a key into a new [`Key`].
    ///
    /// # Errors
    ///
    /// What a field's encoder returns (an instant beyond the `i64` microseconds, say).
    ///
    /// ```
    /// use rowkey::format::Memcomparable;
    ///
    /// assert_eq!(Memcomparable.to_key(&(Some(1u8), None::<u8>))?.as_bytes(), [1, 1, 0]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_key<'de, T: MemcomparableKey<'de>>(&self, value: &T) -> Result<Key> {
        let mut key = Key::new();
        self.encode_into(value, &mut key)?;
        Ok(key)
    }

    /// Clears `out` and writes the key into it; on error `out` is left empty.
    ///
    /// # Errors
    ///
    /// As [`to_key`](Self::to_key).
    ///
    /// ```
    /// use rowkey::format::Memcomparable;
    ///
    /// let mut buf = rowkey::Key::new();
    /// Memcomparable.encode_into(&(258u16,), &mut buf)?;
    /// assert_eq!(buf.as_bytes(), [1, 2]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn encode_into<'de, T: MemcomparableKey<'de>>(&self, value: &T, out: &mut Key) -> Result<()> {
        encode_key(self, value, out)
    }

    /// Decodes a key of type `T`; bytes after its last field are an error.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`](crate::Error::Truncated) for a key that ends inside a field,
    /// [`Error::TrailingBytes`](crate::Error::TrailingBytes) for bytes after the last one, or
    /// what a field's decoder returns ([`Error::InvalidField`](crate::Error::InvalidField) for
    /// bytes the encoder never writes).
    ///
    /// ```
    /// use rowkey::format::Memcomparable;
    ///
    /// assert_eq!(Memcomparable.from_key::<(u16,)>(&[1, 2])?, (258,));
    /// assert!(Memcomparable.from_key::<(u16,)>(&[1]).is_err());
    /// assert!(Memcomparable.from_key::<(u16,)>(&[1, 2, 3]).is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn from_key<'de, T: MemcomparableKey<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        decode_key(self, bytes)
    }

    /// The range of every key whose first fields are `prefix` (a tuple of them): from the
    /// packed fields to their [successor](crate::prefix_successor), unbounded above when the
    /// packed fields are all `ff`.
    ///
    /// # Errors
    ///
    /// As [`to_key`](Self::to_key).
    ///
    /// ```
    /// use rowkey::format::Memcomparable;
    ///
    /// let range = Memcomparable.prefix_range(&("asia", 3u8))?;
    /// assert!(range.contains(&Memcomparable.to_key(&("asia", 3u8, "mumbai"))?));
    /// assert!(!range.contains(&Memcomparable.to_key(&("asia", 4u8, "delhi"))?));
    /// // A longer string that starts with the same text is another value, outside the range.
    /// assert!(!range.contains(&Memcomparable.to_key(&("asian", 3u8, "x"))?));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn prefix_range<'de, P: MemcomparableKey<'de>>(&self, prefix: &P) -> Result<KeyRange> {
        Ok(KeyRange::prefix(&self.to_key(prefix)?))
    }
}
