//! Field encodings: how one value becomes the bytes of one key field, and back.
//!
//! A key format (in [`crate::format`]) frames fields; a field type only says what value it is
//! and hands it to the format, through the field model ([`FieldType`], [`WriteField`],
//! [`ReadField`]): a format implements one capability trait per family of values it holds
//! ([`Ints`], [`Strings`], [`Instants`], ...), and each field type is written once, for every
//! format with the capability it needs.
//!
//! The bytes of each field type in the ordered format, Bigtable's `Struct.OrderedCodeBytes`:
//!
//! | Rust type | field bytes |
//! |---|---|
//! | `str`, `String`, `Cow<str>`, `char` | UTF-8 |
//! | `[u8]`, `Vec<u8>`, `[u8; N]`, `Cow<[u8]>` | the bytes |
//! | `i8`..`i64`, `isize`, `u8`..`u32`, `bool` | orderedcode signed int64, 1 to 10 bytes |
//! | `u64`, `usize` | orderedcode uint64: a length byte, then the big-endian bytes |
//! | `f32`, `f64` | orderedcode float (see [below](#floats)) |
//! | [`SystemTime`](std::time::SystemTime) | microseconds since the epoch as orderedcode int64 |
//! | `u128`, `i128` | 16 bytes, big-endian (an `i128`'s sign bit flipped) |
//! | `NonZero<T>` | `T`'s bytes (zero refused when decoding) |
//! | [`Duration`](std::time::Duration) | seconds as 8 bytes, nanoseconds as 4, big-endian |
//! | [`Ipv4Addr`](std::net::Ipv4Addr), [`Ipv6Addr`](std::net::Ipv6Addr) | the 4 or 16 bytes |
//! | [`IpAddr`](std::net::IpAddr) | `04` or `06`, then the address's bytes: every V4 first |
//! | chrono, time and jiff instants (features) | microseconds since the epoch as orderedcode int64 ([`Timestamp`]) |
//! | chrono, time and jiff dates (features) | days since the epoch as orderedcode int64 ([`CalendarDate`]) |
//! | [`Nanos<T>`] of an instant | nanoseconds since the epoch as an `i128` |
//! | `uuid::Uuid`, `ulid::Ulid` (features) | the 16 bytes |
//! | `Hashed<N>` (feature `hashed`) | the `N` bytes of a keyed hash of the value |
//! | `Option<T>` | `None` is empty; `Some` is `T`'s bytes, plus `00` when those are empty or all `00` |
//! | [`Desc<T>`](crate::Desc) | `T`'s bytes in a descending field |
//! | [`BigEndian<T>`](crate::BigEndian) | 8 bytes, big-endian |
//!
//! ## Integers
//!
//! The orderedcode signed encoding is short for values near zero and keeps order over the
//! whole `i64` range with no sign tricks for the reader:
//!
//! | value | bytes |
//! |---|---|
//! | `i64::MIN` | `00 3f 80 00 00 00 00 00 00 00` |
//! | `-65` | `3f bf` |
//! | `-1` | `7f` |
//! | `0` | `80` |
//! | `63` | `bf` |
//! | `64` | `c0 40` |
//! | `i64::MAX` | `ff c0 7f ff ff ff ff ff ff ff` |
//!
//! Decoding into a narrower type than was written (`300` into an `i8`) is an
//! [`Error::OutOfRange`](crate::Error::OutOfRange), never a wrap.
//!
//! ## Floats
//!
//! A float's bits are read as an `i64`; a negative one is mapped to `i64::MIN - bits`; the
//! result is written as an orderedcode int64. So keys order like [`f64::total_cmp`], except
//! that `-0.0` and `+0.0` are one key (and decode to `+0.0`): negative NaNs first, then
//! `-inf`, the negative numbers, zero, the positive numbers, `+inf`, then positive NaNs. A NaN
//! keeps its payload. `f32` values are widened to `f64` first (NaN payloads included), so an
//! `f32` and the equal `f64` give the same key.
//!
//! ## Your own field types
//!
//! Implement [`FieldType`], [`WriteField`] and [`ReadField`], usually by delegating to a type
//! above, for every format that holds it:
//!
//! ```
//! use rowkey::field::{FieldType, ReadField, Sink, ValueFormat, WriteField};
//! use rowkey::RowKey;
//!
//! #[derive(Debug, PartialEq)]
//! struct UserId(u32);
//!
//! impl FieldType for UserId {}
//! impl<F: ValueFormat> WriteField<F> for UserId
//! where
//!     u32: WriteField<F>,
//! {
//!     fn write<S: Sink>(&self, out: &mut S) -> rowkey::Result<()> {
//!         self.0.write(out)
//!     }
//! }
//! impl<'de, F: ValueFormat> ReadField<'de, F> for UserId
//! where
//!     u32: ReadField<'de, F>,
//! {
//!     fn read(input: F::Input<'_, 'de>) -> rowkey::Result<Self> {
//!         u32::read(input).map(UserId)
//!     }
//! }
//!
//! let key = ("tenant", UserId(7)).to_key()?;
//! assert_eq!(<(String, UserId)>::from_key(&key)?.1, UserId(7));
//! # Ok::<(), rowkey::Error>(())
//! ```

pub(crate) mod alphabet;
pub(crate) mod bytes;
pub(crate) mod calendar;
mod capabilities;
#[cfg(feature = "chrono")]
mod chrono;
pub(crate) mod decimal;
mod desc;
pub(crate) mod description;
pub(crate) mod duration;
pub(crate) mod field_bytes;
pub(crate) mod float;
#[cfg(feature = "hashed")]
pub(crate) mod hashed;
pub(crate) mod hex;
pub(crate) mod instant;
pub(crate) mod instant_fields;
pub(crate) mod int;
pub(crate) mod ip;
#[cfg(feature = "jiff")]
mod jiff;
mod model;
mod nested;
mod nonzero;
pub(crate) mod numeric;
pub(crate) mod option;
pub(crate) mod reversed;
mod sink;
mod system_time;
pub mod text;
#[cfg(feature = "time")]
mod time;
pub(crate) mod ulid;
pub(crate) mod utf8;
pub(crate) mod uuid;
mod versionstamp;
pub(crate) mod wide;

pub use alphabet::Alphabet;
pub use capabilities::{
    Addrs, Bools, ByteStrings, Descending, Durations, Floats, Instants, Ints, Options, Strings, SystemTimes, Uuids,
};
pub use decimal::{Decimals, Integer, Padded};
pub use desc::Desc;
#[doc(inline)]
pub use description::{DateSpec, Encoding, TimeSpec};
pub use field_bytes::FieldBytes;
pub(crate) use field_bytes::INLINE_FIELD;
#[cfg(feature = "hashed")]
pub use hashed::{Digests, HashKey, HashWidth, Hashed};
pub use hex::{Hex, HexText};
pub use instant::{CalendarDate, Timestamp};
pub use instant_fields::Nanos;
pub use int::BigEndian;
pub use ip::Cidr;
pub use model::{FieldType, ReadField, ValueFormat, WriteField};
pub use nested::Nested;
pub use numeric::{Numeric, Numerics};
pub use reversed::{Reversed, ReversedInts};
pub(crate) use sink::KeySink;
pub use sink::{Directed, Sink};
pub use text::{DecodeText, EncodeText};
#[cfg(feature = "ulid")]
pub use ulid::ulid_range;
#[cfg(feature = "uuid")]
pub use uuid::uuid_v7_range;
pub use versionstamp::{Versionstamp, Versionstamps};
