//! HBase's `OrderedBytes`: the key bytes HBase's `Ordered*` data types and `Struct` write
//! (`org.apache.hadoop.hbase.util.OrderedBytes`).
//!
//! Every field starts with a header byte that names its type, so a key can be read without
//! its schema. A descending field ([`Desc`](crate::Desc)) is the ascending bytes with every
//! byte inverted, header included.
//!
//! | field type | HBase type | bytes (ascending) |
//! |---|---|---|
//! | `None` | null | `05`; descending, `fa`, but `fa ff` for a byte string in the last field (HBase's `OrderedBlob` null) |
//! | `i8`, `i16`, `i32`, `i64`/`isize` | `OrderedInt8`..`OrderedInt64` | `29`..`2c`, then the big-endian value with its sign bit flipped |
//! | `u8`, `u16`, `u32` | the next wider signed type | `2a`, `2b`, `2c` and the value |
//! | `u64`, `usize`, `u128`, `i128`, [`Numeric<T>`](crate::field::Numeric) | `OrderedNumeric` | a header from `07` to `26`, then base-100 digits (see below) |
//! | `bool` | `OrderedInt8` | `29 80` (false) or `29 81` (true) |
//! | `f32`, `f64` | `OrderedFloat32`, `OrderedFloat64` | `30` or `31`, then the IEEE bits, all flipped when negative, else the sign bit |
//! | `String`, `&str`, `char` | `OrderedString` | `34`, the UTF-8 bytes, `00` |
//! | byte strings, not the last field | `OrderedBlobVar` | `37`, the bytes in groups of 7 bits (`80` set on all but the last), or `37 00` when empty |
//! | byte strings, the last field | `OrderedBlob` | `38`, then the bytes as they are (descending: and a `00`) |
//! | instants, dates | `OrderedInt64` | microseconds (or days) from 1970 |
//! | `Nanos<T>` | `OrderedNumeric` | nanoseconds from 1970 |
//! | UUID, ULID, addresses, `Duration` | byte strings | their bytes, as above |
//!
//! The numeric encoding is described in [`numeric`]'s table. A float is written through the
//! decimal digits Java's `Double.toString` gives it since JDK 19 (HBase encodes those): the
//! shortest that round to it, the closest of them, ties to an even digit, and at least two.
//! JDK 18 and older gave other digits for some doubles (`1e23` was `9.999999999999999E22`), so
//! HBase tables hold both: rowkey reads exactly those two forms of a double, the current digits
//! and the ones the old `Double.toString` printed for it ([`numeric::jdk18_bytes`]), and no
//! other decimal.
//!
//! What HBase itself refuses, so does rowkey: text holding U+0000, and a descending byte
//! string in the last field that holds `00` (its end is a `00`). Every NaN is written as the
//! one NaN Java writes (`7fc00000` / `7ff8000000000000`), so another NaN does not round trip
//! and its bytes are refused when read; `-0.0` keeps its own bytes as a fixed-width float, and
//! is zero as a `Numeric`.
//!
//! Order: keys sort as their values do, field by field, with two exceptions that come from
//! HBase's encodings themselves: a byte string that is not the last field (`OrderedBlobVar`)
//! does not sort by its bytes across lengths (`x'01'` encodes to `37 80 40`, which sorts before
//! `x'00ff'` at `37 80 bf 60`), and NaN sorts above +∞ as a fixed-width float.
//!
//! ```
//! use rowkey::format::HBase;
//! use rowkey::Desc;
//!
//! let key = HBase.to_key(&("phone", 20200501i64, Desc(7i8)))?;
//! assert_eq!(key.as_bytes(), b"\x34phone\x00\x2c\x80\x00\x00\x00\x01\x34\x3c\x35\xd6\x78");
//! let (kind, day, Desc(n)): (String, i64, Desc<i8>) = HBase.from_key(&key)?;
//! assert_eq!((kind.as_str(), day, n), ("phone", 20200501, 7));
//! # Ok::<(), rowkey::Error>(())
//! ```

mod big;
mod java_digits;
mod jdk18_digits;
pub mod numeric;
mod values;

use std::borrow::Cow;

use crate::error::{Error, Location, Result};
use crate::field::{FieldType, ReadField, Sink, ValueFormat, WriteField};
use crate::format::key_format::{FormatKey, KeyFormat, decode_key, encode_key, store_key_io};
use crate::format::prefix::check_raw_prefix;
use crate::key::Key;
use crate::key_buf::find_byte;

const NULL: u8 = 0x05;
const INT8: u8 = 0x29;
const INT16: u8 = 0x2a;
const INT32: u8 = 0x2b;
const INT64: u8 = 0x2c;
const FLOAT32: u8 = 0x30;
const FLOAT64: u8 = 0x31;
const TEXT: u8 = 0x34;
const BLOB_VAR: u8 = 0x37;
const BLOB_COPY: u8 = 0x38;
const TERM: u8 = 0x00;

/// HBase's `OrderedBytes` as a key format (see the [module docs](self)).
///
/// ```
/// use rowkey::format::HBase;
///
/// let key = HBase.to_key(&(-1i32, "a"))?;
/// assert_eq!(key.as_bytes(), [0x2b, 0x7f, 0xff, 0xff, 0xff, 0x34, b'a', 0x00]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HBase;

impl ValueFormat for HBase {
    type Input<'r, 'de>
        = &'r mut HBaseReader<'de>
    where
        'de: 'r;
}

/// A key of the HBase format: `()`, a tuple of 1 to 12 field types it holds, or a derived
/// key. The name [`FormatKey<'de, HBase>`] has in bounds; implement that.
///
/// ```
/// use rowkey::format::{FormatKey, HBase, HBaseReader, HBaseWriter};
///
/// // A key type of one's own, written field by field.
/// #[derive(Debug, PartialEq)]
/// struct Visit { host: String, at: i64 }
///
/// impl<'de> FormatKey<'de, HBase> for Visit {
///     const FIELDS: usize = 2;
///     fn write_fields(&self, w: &mut HBaseWriter<'_>) -> rowkey::Result<()> {
///         w.named_field("host", &self.host)?.named_field("at", &self.at)?;
///         Ok(())
///     }
///     fn read_fields(r: &mut HBaseReader<'de>) -> rowkey::Result<Self> {
///         Ok(Visit { host: r.named_field("host")?, at: r.named_field("at")? })
///     }
/// }
///
/// let visit = Visit { host: "example.org".into(), at: 7 };
/// let key = HBase.to_key(&visit)?;
/// assert_eq!(HBase.from_key::<Visit>(&key)?, visit);
/// assert!(HBase.from_key::<Visit>(&key[..4]).unwrap_err().to_string().contains("host"));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait HBaseKey<'de>: FormatKey<'de, HBase> {}

impl<'de, T: FormatKey<'de, HBase>> HBaseKey<'de> for T {}

impl KeyFormat for HBase {
    type Values = HBase;
    const NAME: &'static str = "hbase";
    type Writer<'a> = HBaseWriter<'a>;
    type Reader<'a, 'de> = HBaseReader<'de>;

    /// The last field is framed apart, so the writer is told how many there are.
    #[inline]
    fn writer<'a>(&'a self, out: &'a mut Key, fields: usize) -> HBaseWriter<'a> {
        HBaseWriter { out, fields, next: 0 }
    }

    #[inline]
    fn reader<'de>(&self, key: &'de [u8], fields: usize) -> HBaseReader<'de> {
        HBaseReader::new(key, fields)
    }
}

store_key_io!(HBase, HBaseWriter, HBaseReader);

impl HBase {
    /// The key of `value`.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`] for a value HBase cannot write (text holding U+0000, say),
    /// located at its field.
    ///
    /// ```
    /// let key = rowkey::format::HBase.to_key(&(5i32,))?;
    /// assert_eq!(key.as_bytes(), [0x2b, 0x80, 0, 0, 5]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_key<'de, T: HBaseKey<'de>>(&self, value: &T) -> Result<Key> {
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
    /// let mut key = rowkey::Key::new();
    /// rowkey::format::HBase.encode_into(&(true,), &mut key)?;
    /// assert_eq!(key.as_bytes(), [0x29, 0x81]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn encode_into<'de, T: HBaseKey<'de>>(&self, value: &T, out: &mut Key) -> Result<()> {
        encode_key(self, value, out)
    }

    /// Reads a key back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] (and the other field errors) naming the field, for bytes that
    /// are not what the encoder writes for that field type; [`Error::TrailingBytes`] after the
    /// last field.
    ///
    /// ```
    /// let (n, text): (i16, String) = rowkey::format::HBase.from_key(b"\x2a\x80\x01\x34hi\x00")?;
    /// assert_eq!((n, text.as_str()), (1, "hi"));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn from_key<'de, T: HBaseKey<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        decode_key(self, bytes)
    }
}

/// Writes the fields of one HBase key: it frames each field (the last field's bytes, a
/// descending field's inversion). See [`HBaseKey`] for an example.
#[derive(Debug)]
pub struct HBaseWriter<'a> {
    out: &'a mut Key,
    fields: usize,
    next: usize,
}

impl<'a> HBaseWriter<'a> {
    /// A writer whose next field is field `index` of a key of `fields` fields, for the scan
    /// builder (the last field is framed apart).
    pub(crate) fn at_field(out: &'a mut Key, index: usize, fields: usize) -> Self {
        HBaseWriter { out, fields, next: index }
    }

    /// Writes the next field.
    ///
    /// # Errors
    ///
    /// What the field's writing returns, located at the field.
    #[inline(always)]
    pub fn field<T: WriteField<HBase> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        self.write(None, value)
    }

    /// Writes the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    #[inline(always)]
    pub fn named_field<T: WriteField<HBase> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
        self.write(Some(name), value)
    }

    /// Appends `bytes` as they are: a table's raw prefix, which belongs before the first
    /// field. It is not a field: the next field's index is unchanged.
    ///
    /// ```
    /// use rowkey::format::{FormatKey, HBase, HBaseReader, HBaseWriter};
    ///
    /// struct Tagged(bool);
    /// impl<'de> FormatKey<'de, HBase> for Tagged {
    ///     const FIELDS: usize = 1;
    ///     fn write_fields(&self, w: &mut HBaseWriter<'_>) -> rowkey::Result<()> {
    ///         w.raw_prefix(b"t:").field(&self.0)?;
    ///         Ok(())
    ///     }
    ///     fn read_fields(r: &mut HBaseReader<'de>) -> rowkey::Result<Self> {
    ///         r.raw_prefix(b"t:")?;
    ///         Ok(Tagged(r.field()?))
    ///     }
    /// }
    /// let key = HBase.to_key(&Tagged(true))?;
    /// assert_eq!(key.as_bytes(), b"t:\x29\x81");
    /// assert!(HBase.from_key::<Tagged>(&key)?.0);
    /// assert!(HBase.from_key::<Tagged>(b"u:\x29\x81").is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn raw_prefix(&mut self, bytes: &[u8]) -> &mut Self {
        self.out.extend_from_slice(bytes);
        self
    }

    #[inline(always)]
    fn write<T: WriteField<HBase> + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
        let index = self.next;
        self.next += 1;
        let start = self.out.len();
        let last = index + 1 == self.fields;
        let written = if last { value.write(&mut LastField(self.out)) } else { value.write(self.out) };
        if let Err(e) = written {
            return Err(e.in_field(index, name, start));
        }
        if T::DESCENDING {
            self.descend(start).map_err(|e| e.in_field(index, name, start))?;
        } else if last && self.out.len() == start + 2 && self.out.as_bytes()[start..] == [NULL, TERM] {
            // A null byte string's terminator is written only when descending.
            self.out.truncate(start + 1);
        }
        Ok(self)
    }

    /// Makes the field written from `start` descending: its bytes inverted, and a last byte
    /// string's (`OrderedBlob`) end marked with a `00` (inverted too).
    fn descend(&mut self, start: usize) -> Result<()> {
        if self.out.as_bytes()[start] == BLOB_COPY {
            if find_byte(&self.out.as_bytes()[start + 1..], TERM).is_some() {
                return Err(Error::unencodable(
                    "byte string",
                    "a descending byte string in the last field ends at a 00 byte, so it cannot hold one \
                     (HBase refuses it too); make the field ascending, or not the last",
                ));
            }
            self.out.push(TERM);
        }
        for b in &mut self.out.as_mut_bytes()[start..] {
            *b = !*b;
        }
        Ok(())
    }
}

/// The key as the last field's writer sees it: what it writes ends the key.
struct LastField<'a>(&'a mut Key);

impl Sink for LastField<'_> {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    #[inline(always)]
    fn write_byte(&mut self, byte: u8) {
        self.0.push(byte);
    }

    #[inline(always)]
    fn write_framed(&mut self, head: u8, bytes: &[u8], tail: u8) {
        self.0.extend_framed(head, bytes, tail);
    }

    fn ends_key(&self) -> bool {
        true
    }
}

/// Reads the fields of one HBase key; the field model's input for [`HBase`]. See [`HBaseKey`]
/// for an example.
#[derive(Debug)]
pub struct HBaseReader<'de> {
    bytes: &'de [u8],
    pos: usize,
    fields: usize,
    next: usize,
    /// `ff` while a descending field is read, so every byte is seen as its ascending form.
    flip: u8,
}

impl<'de> HBaseReader<'de> {
    /// A reader of a key of `fields` fields (the last is framed apart), for reading a key by
    /// its schema, whose field count is known only at run time.
    #[inline]
    pub(crate) fn new(bytes: &'de [u8], fields: usize) -> Self {
        HBaseReader { bytes, pos: 0, fields, next: 0, flip: 0 }
    }

    /// Refuses bytes after the last field, as [`HBase::from_key`] does.
    #[inline]
    pub(crate) fn finish(&self) -> Result<()> {
        if self.pos != self.bytes.len() {
            return Err(Error::TrailingBytes { offset: self.pos, len: self.bytes.len() - self.pos });
        }
        Ok(())
    }

    /// Reads the next field.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] and the other field errors, located at the field.
    #[inline(always)]
    pub fn field<T: ReadField<'de, HBase>>(&mut self) -> Result<T> {
        self.read(None)
    }

    /// Reads the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    #[inline(always)]
    pub fn named_field<T: ReadField<'de, HBase>>(&mut self, name: &'static str) -> Result<T> {
        self.read(Some(name))
    }

    /// Reads the raw prefix `expected` that [`HBaseWriter::raw_prefix`] wrote.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] naming the prefix when the key does not hold it here.
    pub fn raw_prefix(&mut self, expected: &[u8]) -> Result<()> {
        check_raw_prefix(&self.bytes[self.pos..], self.pos, expected)?;
        self.pos += expected.len();
        Ok(())
    }

    /// The offset of the next field in the key.
    ///
    /// ```
    /// use rowkey::format::{FormatKey, HBase, HBaseReader, HBaseWriter};
    ///
    /// struct Two(i8, i8);
    /// impl<'de> FormatKey<'de, HBase> for Two {
    ///     const FIELDS: usize = 2;
    ///     fn write_fields(&self, w: &mut HBaseWriter<'_>) -> rowkey::Result<()> {
    ///         w.field(&self.0)?.field(&self.1)?;
    ///         Ok(())
    ///     }
    ///     fn read_fields(r: &mut HBaseReader<'de>) -> rowkey::Result<Self> {
    ///         let first = r.field()?;
    ///         assert_eq!((r.field_index(), r.position()), (1, 2));
    ///         Ok(Two(first, r.field()?))
    ///     }
    /// }
    /// HBase.from_key::<Two>(&HBase.to_key(&Two(1, 2))?)?;
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The 0-based index of the next field to read (see [`position`](Self::position)).
    #[must_use]
    pub fn field_index(&self) -> usize {
        self.next
    }

    #[inline(always)]
    fn read<T: ReadField<'de, HBase>>(&mut self, name: Option<&'static str>) -> Result<T> {
        let index = self.next;
        self.next += 1;
        let start = self.pos;
        if T::DESCENDING {
            self.flip = 0xff;
        }
        let value = T::read(self);
        if T::DESCENDING {
            self.flip = 0;
        }
        value.map_err(|e| e.in_field(index, name, start))
    }

    #[inline(always)]
    fn is_last(&self) -> bool {
        self.next == self.fields
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).map(|b| b ^ self.flip)
    }

    /// The header byte, which must be `want`.
    #[inline(always)]
    fn header(&mut self, want: u8, ty: &'static str, what: &'static str) -> Result<()> {
        if self.peek() == Some(want) {
            self.pos += 1;
            return Ok(());
        }
        Err(self.wrong_header(want, ty, what))
    }

    #[cold]
    fn wrong_header(&self, want: u8, ty: &'static str, what: &'static str) -> Error {
        match self.peek() {
            Some(h) => Error::invalid(ty, format!("the field starts with {h:02x}, not {want:02x} ({what})")),
            None => Error::Truncated { at: Location::at(self.pos), detail: "the key ends before this field" },
        }
    }

    /// `n` bytes as they are in the ascending form.
    #[inline(always)]
    fn take<const N: usize>(&mut self, ty: &'static str) -> Result<[u8; N]> {
        let Some(bytes) = self.bytes.get(self.pos..self.pos + N) else {
            return Err(Error::invalid(ty, format!("the field needs {N} bytes after its header")));
        };
        self.pos += N;
        let mut out = [0u8; N];
        for (o, b) in out.iter_mut().zip(bytes) {
            *o = b ^ self.flip;
        }
        Ok(out)
    }

    /// The bytes up to the next `00` (in the ascending form), and the `00` consumed.
    #[inline(always)]
    fn until_term(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        let rest = &self.bytes[self.pos..];
        let Some(end) = find_byte(rest, TERM ^ self.flip) else {
            return Err(Error::invalid(ty, "the field has no 00 at its end"));
        };
        self.pos += end + 1;
        Ok(self.ascending(&rest[..end]))
    }

    #[inline(always)]
    fn ascending(&self, bytes: &'de [u8]) -> Cow<'de, [u8]> {
        if self.flip == 0 { Cow::Borrowed(bytes) } else { Cow::Owned(bytes.iter().map(|b| !b).collect()) }
    }
}

// A FieldType bound the macros above rely on, checked once.
const _: () = assert!(!<i64 as FieldType>::DESCENDING);
