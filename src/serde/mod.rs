//! Keys from any [`Serialize`] type and back, in the ordered format: [`to_key`],
//! [`to_key_into`] and [`from_key`].
//!
//! A `#[derive(Serialize, Deserialize)]` struct becomes a key without a second derive. Its
//! fields become key fields in order, each with the same [field encoding](crate::field) and
//! framing as the core types, so the struct and the tuple of its fields give the same bytes:
//!
//! ```
//! use rowkey::{Desc, RowKey};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Reading {
//!     device_type: String,
//!     device_id: String,
//!     ts_millis: Desc<i64>,      // newest first
//! }
//!
//! let reading = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: Desc(1_588_291_200_000) };
//! let key = rowkey::to_key(&reading)?;
//! assert_eq!(key, ("phone", "4c410523", Desc(1_588_291_200_000i64)).to_key()?);
//! assert_eq!(rowkey::from_key::<Reading>(&key)?, reading);
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! # How serde values become fields
//!
//! | serde value | key fields |
//! |---|---|
//! | struct, tuple, tuple struct, array | its fields in order, flattened: a nested struct gives the same bytes as its fields inline |
//! | newtype struct | its inner value |
//! | `bool`, integers, floats, `char`, `str`, [`SystemTime`](std::time::SystemTime) | one field, encoded as the core type |
//! | bytes (`serde_bytes`) | one field of raw bytes |
//! | `Option` | one field, as the core's `Option`: `None` empty, `Some` with Bigtable's `escape_nulls` |
//! | unit variant | one field: the variant's index as an orderedcode int64 |
//! | variant with data | the index field, then the payload's fields |
//! | sequence, map | one field holding all the elements ([below](#sequences-and-maps)) |
//! | `()`, unit struct, `PhantomData` | no field |
//!
//! Field names play no part: a struct's key is its field order. Renaming a field keeps its
//! keys; reordering fields changes them. `Vec<u8>` is a sequence of integers to serde; write
//! byte strings with `serde_bytes` (`#[serde(with = "serde_bytes")]`, `ByteBuf`) to get the
//! core's raw-bytes field.
//!
//! An index as an orderedcode int64 keeps variant order past 127 (`V1 < V128`), which a
//! signed index byte would not. `u64` and `usize` use the core's orderedcode uint64; the
//! narrower integers, as in the core, the signed int64 encoding.
//!
//! # Field options
//!
//! The core's wrappers work as ordinary serde fields: [`Desc`](crate::Desc) (a descending
//! field; around a struct, each of its fields), [`BigEndian`](crate::BigEndian),
//! [`Reversed`](crate::field::Reversed), [`BitReversed`](crate::transform::BitReversed),
//! [`ReversedDomain`](crate::transform::ReversedDomain) and
//! [`ReversedUrl`](crate::transform::ReversedUrl). They serialize as a newtype struct with a
//! reserved name that this serializer recognises; other formats (JSON, bincode, ...) see the
//! plain inner value.
//!
//! ```
//! use rowkey::transform::BitReversed;
//! use rowkey::{BigEndian, RowKey};
//! use serde::Serialize;
//!
//! #[derive(Serialize)]
//! struct Order { id: BitReversed<i64>, user: BigEndian<u32> }
//!
//! let order = Order { id: BitReversed(7), user: BigEndian(42) };
//! assert_eq!(rowkey::to_key(&order)?, (BitReversed(7i64), BigEndian(42u32)).to_key()?);
//! assert_eq!(serde_json::to_string(&order).unwrap(), r#"{"id":7,"user":42}"#);
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! # Dates, times, ids and addresses
//!
//! **These types' own `Serialize` impls were not written for keys.** Made for JSON and the
//! like, some give keys that order wrongly without any error (chrono, time), others keys that
//! sort but differ from the derived key's bytes (the std address types' integer tuples), and
//! a few match it (`uuid::Uuid`'s binary form is its 16 bytes). Measured through `to_key` on a struct
//! `{ user: Uuid, at: DateTime<Utc> }`: of 36 ordered pairs of six instants, 12 came out in
//! the wrong order, because chrono writes RFC 3339 text with a fraction of varying width
//! (`…:40Z` after `…:40.500Z`) and a fifth year digit sorts first (`+10000` before `2020`);
//! time's `OffsetDateTime` gave 6 of 16 pairs wrong, because its compact form is the local
//! date and time plus the offset (`01:00+02:00` after `00:00:01Z`).
//!
//! Write such fields with [`as_field`] (`#[serde(with = "rowkey::serde::as_field")]`) or
//! wrap them in [`AsField`]: the field then gets the bytes `#[derive(RowKey)]` writes for
//! it (microseconds for instants, 16 bytes for UUIDs, ...), so the serde struct and the
//! derived key are one key. Where the serializer can tell a value is text of its `Display`
//! (`collect_str`, which chrono and jiff use), it refuses it with an error that names the
//! field and the adapter, rather than write a key that mis-sorts; time's tuple form and the
//! std address types' integer tuples cannot be told from other tuples, so only the adapter
//! keeps those right. [`rowkey::testing::assert_order_preserving`] catches the rest in your
//! own tests.
//!
//! ```
//! use chrono::{DateTime, Utc};
//! use rowkey::RowKey;
//!
//! #[derive(serde::Serialize)]
//! struct Plain { at: DateTime<Utc> }
//! let at: DateTime<Utc> = "2020-05-01T00:00:40Z".parse().unwrap();
//! let err = rowkey::to_key(&Plain { at }).unwrap_err();
//! assert!(err.to_string().contains("rowkey::serde::as_field"), "{err}");
//! assert_eq!(err.location().field(), Some(0));
//!
//! #[derive(serde::Serialize)]
//! struct Adapted { #[serde(with = "rowkey::serde::as_field")] at: DateTime<Utc> }
//! assert_eq!(rowkey::to_key(&Adapted { at })?, (at,).to_key()?);
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! [`rowkey::testing::assert_order_preserving`]: https://docs.rs/rowkey/latest/rowkey/testing/fn.assert_order_preserving.html
//!
//! # Sequences and maps
//!
//! A sequence is one key field, so that fields after it still compare only when the
//! sequences are equal. Inside that field each element is framed exactly like a key field
//! that has more fields after it: escaped, then the separator `00 01` (an empty element is
//! `00 00 00 01`; a [`Desc`](crate::Desc) element is negated). Because every element keeps
//! its terminator, `[1] < [1, 0] < [2]` and `["a"] < ["a", ""]`: a sequence sorts before its
//! extensions, element by element. The field's bytes are then framed like any other field
//! (their `00` bytes escaped once more).
//!
//! | value | field bytes | key `to_key(&(value,))` |
//! |---|---|---|
//! | `Vec::<u16>::new()` | (none) | `00 00` |
//! | `vec![1u16]` | `81 00 01` | `81 00 ff 01` |
//! | `vec![1u16, 0]` | `81 00 01 80 00 01` | `81 00 ff 01 80 00 ff 01` |
//! | `vec![2u16]` | `82 00 01` | `82 00 ff 01` |
//! | `vec!["a", ""]` | `61 00 01 00 00 00 01` | `61 00 ff 01 00 ff 00 ff 00 ff 01` |
//! | `vec![Desc(1u16)]` | `7e ff fe` | `7e ff fe` |
//!
//! ```
//! let key = rowkey::to_key(&(vec![1u16, 0],))?;
//! assert_eq!(key.as_bytes(), b"\x81\x00\xff\x01\x80\x00\xff\x01");
//! assert!(rowkey::to_key(&(vec![1u16],))? < key);
//! assert!(key < rowkey::to_key(&(vec![2u16],))?);
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! A map is the sequence key, value, key, value, ... Its keys must come in ascending key
//! order with no two equal (a `BTreeMap` does; `-0.0` and `0.0` are one key): a map in
//! another order, such as a `HashMap`'s, would give different keys for equal maps, so it is
//! an [`Error::Unencodable`] that says to use a `BTreeMap`, and decoding refuses such keys
//! ([`Error::NonCanonical`]). A
//! `HashSet` cannot be told from a sequence: use a `BTreeSet`.
//!
//! A set is a sequence to serde, in encoding and decoding alike, so the decoder cannot tell
//! a `BTreeSet`'s elements from a `Vec`'s: [`from_key`] accepts a set's elements repeated or
//! out of order (the set keeps each once, sorted), keys the encoder never writes. That is
//! the one exception to "one value, one key" below; [`from_key_exact`] refuses those keys
//! too.
//!
//! # Values inside one field
//!
//! An `Option`'s payload and a sequence's elements must each fit in one field. A scalar is
//! its field encoding, as in the core (so `Option<u8>` is the core's `Option<u8>`). A struct
//! or tuple there is encoded as an ordered key of its own (`00 00` when all its fields are
//! dropped), an enum as its index's int64 bytes followed, for a variant with data, by the
//! payload as an ordered key of its own, and a sequence as its elements. Order holds
//! throughout: `None` first, then `Some` values in their own order.
//!
//! # Borrowing
//!
//! `&str` and `&[u8]` fields borrow from the key when the field needed no unescaping (no
//! `00` byte, ascending, not inside an `Option` that added a marker or a sequence). When it
//! did, decoding into `&str` is an [`Error::InvalidField`] that
//! says to decode into `String` or `Cow<str>` instead.
//!
//! ```
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct Device<'a> { kind: &'a str, id: &'a str }
//!
//! let key = rowkey::to_key(&("phone", "4c410523"))?;
//! let device: Device = rowkey::from_key(&key)?;
//! assert_eq!((device.kind, device.id), ("phone", "4c410523"));
//!
//! let escaped = rowkey::to_key(&("a\0b", "x"))?;
//! let err = rowkey::from_key::<Device>(&escaped).err().unwrap();
//! assert!(err.to_string().contains("decode into an owned type"), "{err}");
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! # What is refused
//!
//! The format has no type tags, so only a type's own shape says where a field ends.
//! Decoding through `deserialize_any` (untagged and internally tagged enums,
//! `#[serde(flatten)]`, `serde_json::Value`), `deserialize_ignored_any` and identifiers by
//! name is an [`Error::InvalidField`] that says so. A wrapper
//! around a value it cannot hold (`BigEndian<String>`), a negative `BigEndian`, a value that
//! serializes as its `Display` text ([below](#dates-times-ids-and-addresses)) and values
//! nested deeper than 128 levels are errors when encoding and decoding alike. Decoding accepts any bytes without panicking, and refuses bytes the
//! encoder would not write, so one value has one key, except for sets
//! ([above](#sequences-and-maps)), which [`from_key_exact`] covers.

pub mod as_field;
mod boxed_error;
mod de;
mod de_field;
mod exact;
mod flatten;
mod impls;
mod scalar;
mod ser;
mod ser_field;
mod source;
mod target;

use std::fmt::Display;

use serde::de::{Deserialize, Expected, Unexpected};
use serde::ser::Serialize;

pub use as_field::AsField;
pub use exact::from_key_exact;

use crate::error::{Error, Location, Result};
use crate::format::OrderedWriter;
use crate::key::Key;
use boxed_error::BoxedError;

/// Encodes `value` as a key in the ordered format.
///
/// # Errors
///
/// When a value cannot be encoded without breaking order (a negative
/// [`BigEndian`](crate::BigEndian), map keys out of order, a wrapper around a value it does
/// not take); the error names the field.
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Event { user: String, seq: u32 }
///
/// let key = rowkey::to_key(&Event { user: "bobby".into(), seq: 14242 })?;
/// assert_eq!(key.as_bytes(), b"bobby\x00\x01\xe0\x37\xa2");
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn to_key<T: Serialize + ?Sized>(value: &T) -> Result<Key> {
    let mut key = Key::new();
    to_key_into(value, &mut key)?;
    Ok(key)
}

/// Clears `out`, then encodes `value` into it: reusing one [`Key`] avoids allocating for keys
/// that fit inline. On error `out` is left empty.
///
/// # Errors
///
/// As [`to_key`].
///
/// ```
/// let mut buf = rowkey::Key::new();
/// for n in 0..3u8 {
///     rowkey::to_key_into(&("counter", n), &mut buf)?;
///     assert_eq!(rowkey::from_key::<(String, u8)>(&buf)?.1, n);
/// }
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn to_key_into<T: Serialize + ?Sized>(value: &T, out: &mut Key) -> Result<()> {
    out.rewrite(|out| {
        let mut w = OrderedWriter::new(out);
        value.serialize(ser::FlatSer::new(&mut w))?;
        w.finish();
        Ok(())
    })
}

/// Decodes a key in the ordered format into `T`. `&str` and `&[u8]` fields of `T` borrow
/// from `bytes` where the field needed no unescaping.
///
/// # Errors
///
/// When the bytes are not a key of `T` (the error names the field and the byte offset), or
/// `T` needs what the format cannot give (see [what is refused](self#what-is-refused)).
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Event { user: String, seq: u32 }
///
/// let event: Event = rowkey::from_key(b"bobby\x00\x01\xe0\x37\xa2")?;
/// assert_eq!(event, Event { user: "bobby".into(), seq: 14242 });
/// assert!(rowkey::from_key::<Event>(b"bobby\x00\x01\xe0\x37").is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn from_key<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut source = source::KeySource::new(bytes);
    let value =
        T::deserialize(&mut de::FlatDe::<_, de_field::FieldDe>::new(&mut source, 0)).map_err(BoxedError::into_inner)?;
    source.finish().map_err(BoxedError::into_inner)?;
    Ok(value)
}

/// Values nest at most this deep (structs, options, sequences, variants, newtypes), so that
/// a recursive type cannot exhaust the stack on a hostile key.
const MAX_DEPTH: u16 = 128;

#[inline]
fn deeper(depth: u16) -> Result<u16> {
    if depth >= MAX_DEPTH {
        return Err(Error::Malformed {
            at: Location::UNKNOWN,
            detail: "values nest more than 128 levels deep; flatten the type or shorten the recursion",
        });
    }
    Ok(depth + 1)
}

/// The reserved newtype names the wrappers serialize under. The `$` keeps them apart from
/// any Rust type name.
mod names {
    pub const DESC: &str = "$rowkey::Desc";
    pub const BIG_ENDIAN: &str = "$rowkey::BigEndian";
    pub const REVERSED: &str = "$rowkey::Reversed";
    pub const BIT_REVERSED: &str = "$rowkey::BitReversed";
    pub const REVERSED_DOMAIN: &str = "$rowkey::ReversedDomain";
    pub const REVERSED_URL: &str = "$rowkey::ReversedUrl";
}

/// How a scalar is stored, set by a wrapper around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transform {
    None,
    BigEndian,
    Reversed,
    BitReversed,
    ReversedDomain,
    ReversedUrl,
}

/// What a newtype name asks for.
enum Marker {
    Desc,
    Transform(Transform),
}

impl Marker {
    #[inline]
    fn of(name: &str) -> Option<Marker> {
        if !name.starts_with('$') {
            return None;
        }
        Some(match name {
            names::DESC => Marker::Desc,
            names::BIG_ENDIAN => Marker::Transform(Transform::BigEndian),
            names::REVERSED => Marker::Transform(Transform::Reversed),
            names::BIT_REVERSED => Marker::Transform(Transform::BitReversed),
            names::REVERSED_DOMAIN => Marker::Transform(Transform::ReversedDomain),
            names::REVERSED_URL => Marker::Transform(Transform::ReversedUrl),
            _ => return None,
        })
    }
}

impl Transform {
    fn wrapper(self) -> &'static str {
        match self {
            Transform::None => "value",
            Transform::BigEndian => "BigEndian",
            Transform::Reversed => "Reversed",
            Transform::BitReversed => "BitReversed",
            Transform::ReversedDomain => "ReversedDomain",
            Transform::ReversedUrl => "ReversedUrl",
        }
    }

    fn takes(self) -> &'static str {
        match self {
            Transform::None => "any value",
            Transform::BigEndian | Transform::Reversed => "an integer",
            Transform::BitReversed => "an i64 or a u64",
            Transform::ReversedDomain | Transform::ReversedUrl => "a string",
        }
    }

    fn message(self, found: &str) -> String {
        format!("{} wraps {}, not {found}; put the wrapper directly around such a value", self.wrapper(), self.takes())
    }

    #[cold]
    #[inline(never)]
    fn encode_error(self, found: &str) -> Error {
        Error::unencodable(self.wrapper(), self.message(found))
    }

    #[cold]
    #[inline(never)]
    fn decode_error(self, found: &str) -> Error {
        Error::invalid(self.wrapper(), self.message(found))
    }

    /// Fails when a wrapper waits for a scalar that `found` is not.
    #[inline]
    fn check_encode(self, found: &str) -> Result<()> {
        if self == Transform::None { Ok(()) } else { Err(self.encode_error(found)) }
    }

    #[inline]
    fn check_decode(self, found: &str) -> Result<()> {
        if self == Transform::None { Ok(()) } else { Err(self.decode_error(found)) }
    }
}

const NOT_BORROWABLE: &str = "the field needed unescaping (it holds a 00 byte, is descending, or sits inside an \
     Option, a sequence or another value in one field), so it cannot borrow from the key; decode into an owned type \
     (String, Vec<u8>, serde_bytes::ByteBuf) or a Cow instead";

impl serde::ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::unencodable("value", msg.to_string())
    }
}

impl serde::de::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::invalid("value", msg.to_string())
    }

    fn invalid_type(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
        let expected = exp.to_string();
        // serde's `&str` and `&[u8]` visitors expect "a borrowed string" / "a borrowed byte array".
        if expected.contains("borrowed") && matches!(unexp, Unexpected::Str(_) | Unexpected::Bytes(_)) {
            return Error::invalid("&str or &[u8]", NOT_BORROWABLE);
        }
        Error::invalid("value", format!("found {unexp}, expected {expected}"))
    }

    fn invalid_value(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
        Error::invalid("value", format!("found {unexp}, expected {exp}"))
    }
}

/// serde writes and reads a `SystemTime` as a struct of this name with two fields (seconds
/// and nanoseconds since the epoch); in a key it is the core's one `SystemTime` field.
fn is_system_time(name: &str, fields: usize) -> bool {
    name == "SystemTime" && fields == SYSTEM_TIME_FIELDS.len()
}

/// The names serde gives those two fields, which a deserializer is told.
const SYSTEM_TIME_FIELDS: [&str; 2] = ["secs_since_epoch", "nanos_since_epoch"];

/// The error for a value that serializes as its `Display` text (`collect_str`).
fn display_text_refused() -> Error {
    Error::unencodable(
        "Display text",
        "the value serializes as its Display text (chrono's and jiff's date-times do), which rarely sorts as the \
         value does: chrono writes RFC 3339 with a fraction of varying width, so `...:40Z` sorts after \
         `...:40.500Z`; write the field as its key encoding with `#[serde(with = \"rowkey::serde::as_field\")]` \
         (or `rowkey::serde::AsField<T>`), or serialize a string of your own whose text sorts",
    )
}

/// The error for what the format cannot do at all, with what to use instead.
fn unsupported(what: &'static str) -> Error {
    Error::invalid("self-describing value", what)
}
