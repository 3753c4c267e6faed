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
//! HBase tables hold both: rowkey reads, besides the current digits, any decimal of at most 18
//! significant digits that rounds to a finite non-zero double, as that double.
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

mod java_digits;
pub mod numeric;

use std::borrow::Cow;

use crate::error::{Error, Location, Result};
use crate::field::numeric::Numerics;
use crate::field::option::write_some;
use crate::field::{
    Addrs, Bools, ByteStrings, Descending, Durations, FieldType, Floats, Instants, Ints, Options, ReadField, Sink,
    Strings, SystemTimes, Uuids, ValueFormat, WriteField,
};
use crate::format::prefix::check_raw_prefix;
use crate::format::tuple::for_each_tuple;
use crate::key::Key;

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

/// A key of the HBase format: `()`, or a tuple of 1 to 12 field types it holds.
///
/// ```
/// use rowkey::format::{HBase, HBaseKey, HBaseReader, HBaseWriter};
///
/// // A key type of one's own, written field by field.
/// #[derive(Debug, PartialEq)]
/// struct Visit { host: String, at: i64 }
///
/// impl<'de> HBaseKey<'de> for Visit {
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
pub trait HBaseKey<'de>: Sized {
    /// How many fields the key has.
    const FIELDS: usize;

    /// Writes the fields in order.
    ///
    /// # Errors
    ///
    /// What a field's writing returns.
    fn write_fields(&self, w: &mut HBaseWriter<'_>) -> Result<()>;

    /// Reads the fields in order.
    ///
    /// # Errors
    ///
    /// What a field's reading returns.
    fn read_fields(r: &mut HBaseReader<'de>) -> Result<Self>;
}

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
    pub fn encode_into<'de, T: HBaseKey<'de>>(&self, value: &T, out: &mut Key) -> Result<()> {
        out.rewrite(|out| value.write_fields(&mut HBaseWriter { out, fields: T::FIELDS, next: 0 }))
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
    pub fn from_key<'de, T: HBaseKey<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        let mut r = HBaseReader::new(bytes, T::FIELDS);
        let value = T::read_fields(&mut r)?;
        r.finish()?;
        Ok(value)
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
    pub fn field<T: WriteField<HBase> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        self.write(None, value)
    }

    /// Writes the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    pub fn named_field<T: WriteField<HBase> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
        self.write(Some(name), value)
    }

    /// Appends `bytes` as they are: a table's raw prefix, which belongs before the first
    /// field. It is not a field: the next field's index is unchanged.
    ///
    /// ```
    /// use rowkey::format::{HBase, HBaseKey, HBaseReader, HBaseWriter};
    ///
    /// struct Tagged(bool);
    /// impl<'de> HBaseKey<'de> for Tagged {
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

    fn write<T: WriteField<HBase> + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
        let index = self.next;
        self.next += 1;
        let start = self.out.len();
        let located = |e: Error| e.in_field(index, name, start);
        let last = index + 1 == self.fields;
        if last { value.write(&mut LastField(self.out)) } else { value.write(self.out) }.map_err(located)?;
        if T::DESCENDING {
            if self.out.as_bytes()[start] == BLOB_COPY {
                if self.out.as_bytes()[start + 1..].contains(&TERM) {
                    return Err(located(Error::unencodable(
                        "byte string",
                        "a descending byte string in the last field ends at a 00 byte, so it cannot hold one \
                         (HBase refuses it too); make the field ascending, or not the last",
                    )));
                }
                self.out.push(TERM);
            }
            for b in &mut self.out.as_mut_bytes()[start..] {
                *b = !*b;
            }
        } else if last && self.out.as_bytes()[start..] == [NULL, TERM] {
            // A null byte string's terminator is written only when descending.
            self.out.truncate(start + 1);
        }
        Ok(self)
    }
}

/// The key as the last field's writer sees it: what it writes ends the key.
struct LastField<'a>(&'a mut Key);

impl Sink for LastField<'_> {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    fn write_byte(&mut self, byte: u8) {
        self.0.push(byte);
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
    pub(crate) fn new(bytes: &'de [u8], fields: usize) -> Self {
        HBaseReader { bytes, pos: 0, fields, next: 0, flip: 0 }
    }

    /// Refuses bytes after the last field, as [`HBase::from_key`] does.
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
    pub fn field<T: ReadField<'de, HBase>>(&mut self) -> Result<T> {
        self.read(None)
    }

    /// Reads the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
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
    /// use rowkey::format::{HBase, HBaseKey, HBaseReader, HBaseWriter};
    ///
    /// struct Two(i8, i8);
    /// impl<'de> HBaseKey<'de> for Two {
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

    fn read<T: ReadField<'de, HBase>>(&mut self, name: Option<&'static str>) -> Result<T> {
        let index = self.next;
        self.next += 1;
        let start = self.pos;
        self.flip = if T::DESCENDING { 0xff } else { 0 };
        let value = T::read(self).map_err(|e| e.in_field(index, name, start));
        self.flip = 0;
        value
    }

    fn is_last(&self) -> bool {
        self.next == self.fields
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).map(|b| b ^ self.flip)
    }

    /// The header byte, which must be `want`.
    fn header(&mut self, want: u8, ty: &'static str, what: &'static str) -> Result<()> {
        match self.peek() {
            Some(h) if h == want => {
                self.pos += 1;
                Ok(())
            }
            Some(h) => Err(Error::invalid(ty, format!("the field starts with {h:02x}, not {want:02x} ({what})"))),
            None => Err(Error::Truncated { at: Location::at(self.pos), detail: "the key ends before this field" }),
        }
    }

    /// `n` bytes as they are in the ascending form.
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
    fn until_term(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        let rest = &self.bytes[self.pos..];
        let Some(end) = rest.iter().position(|&b| b ^ self.flip == TERM) else {
            return Err(Error::invalid(ty, "the field has no 00 at its end"));
        };
        self.pos += end + 1;
        Ok(self.ascending(&rest[..end]))
    }

    fn ascending(&self, bytes: &'de [u8]) -> Cow<'de, [u8]> {
        if self.flip == 0 { Cow::Borrowed(bytes) } else { Cow::Owned(bytes.iter().map(|b| !b).collect()) }
    }
}

/// The bytes an `OrderedBlobVar` body holds (everything after its header): 7 bits a byte, the
/// high bit set on every byte but the last; the padding bits of the last byte are zero.
fn blob_var_bytes(body: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len() * 7 / 8);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, &b) in body.iter().enumerate() {
        let last = i + 1 == body.len();
        if (b & 0x80 == 0) != last {
            return Err(Error::invalid("byte string", "its 7-bit groups do not end at its last byte"));
        }
        acc = acc << 7 | u32::from(b & 0x7f);
        bits += 7;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if acc != 0 {
        return Err(Error::invalid("byte string", "the padding bits of its last byte are not zero"));
    }
    Ok(out)
}

fn put_blob_var<S: Sink>(value: &[u8], out: &mut S) {
    out.write_byte(BLOB_VAR);
    if value.is_empty() {
        out.write_byte(TERM);
        return;
    }
    let groups = (value.len() * 8).div_ceil(7);
    let (mut acc, mut bits, mut written) = (0u32, 0u32, 0);
    let mut emit = |out: &mut S, group: u32| {
        written += 1;
        let more = if written < groups { 0x80 } else { 0 };
        out.write_byte(group as u8 | more);
    };
    for &b in value {
        acc = acc << 8 | u32::from(b);
        bits += 8;
        while bits >= 7 {
            bits -= 7;
            emit(out, acc >> bits & 0x7f);
        }
        acc &= (1 << bits) - 1;
    }
    if bits > 0 {
        emit(out, acc << (7 - bits) & 0x7f);
    }
}

macro_rules! fixed_ints {
    ($($ty:ty => $header:expr, $wide:ty);* $(;)?) => {$(
        impl Ints<$ty> for HBase {
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                let wide = <$wide>::try_from(value).map_err(|_| Error::unencodable(stringify!($ty), "it is wider than 64 bits"))?;
                out.write_byte($header);
                out.write(&(wide.cast_unsigned() ^ (1 << (<$wide>::BITS - 1))).to_be_bytes());
                Ok(())
            }

            fn read_int(input: &mut HBaseReader<'_>) -> Result<$ty> {
                input.header($header, stringify!($ty), concat!("a fixed-width ", stringify!($wide)))?;
                let bytes = input.take(stringify!($ty))?;
                let wide = (<$wide>::from_be_bytes(bytes).cast_unsigned() ^ (1 << (<$wide>::BITS - 1))).cast_signed();
                <$ty>::try_from(wide).map_err(|_| Error::out_of_range(i128::from(wide), stringify!($ty)))
            }
        }
    )*};
}

fixed_ints! {
    i8 => INT8, i8;
    i16 => INT16, i16;
    i32 => INT32, i32;
    i64 => INT64, i64;
    isize => INT64, i64;
    u8 => INT16, i16;
    u16 => INT32, i32;
    u32 => INT64, i64;
}

macro_rules! numeric_ints {
    ($($ty:ty),*) => {$(
        impl Ints<$ty> for HBase {
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                #[allow(unused_comparisons)]
                let negative = value < 0;
                #[allow(clippy::cast_sign_loss, clippy::cast_possible_wrap)]
                let magnitude = if negative { (value as i128).unsigned_abs() } else { value as u128 };
                HBase::write_decimal_int(negative, magnitude, out)
            }

            fn read_int(input: &mut HBaseReader<'_>) -> Result<$ty> {
                let (negative, magnitude) = HBase::read_decimal_int(input, stringify!($ty))?;
                let value = if negative {
                    0i128.checked_sub_unsigned(magnitude).and_then(|v| <$ty>::try_from(v).ok())
                } else {
                    <$ty>::try_from(magnitude).ok()
                };
                value.ok_or_else(|| {
                    let shown = i128::try_from(magnitude).map_or(i128::MAX, |m| if negative { -m } else { m });
                    Error::out_of_range(shown, stringify!($ty))
                })
            }
        }
    )*};
}

numeric_ints!(u64, usize, u128, i128);

impl Numerics for HBase {
    fn write_decimal_int<S: Sink>(negative: bool, magnitude: u128, out: &mut S) -> Result<()> {
        let mut bytes = Vec::with_capacity(24);
        numeric::put_int(&mut bytes, negative, magnitude);
        out.write(&bytes);
        Ok(())
    }

    fn write_decimal_float<S: Sink>(value: f64, out: &mut S) -> Result<()> {
        let mut bytes = Vec::with_capacity(24);
        numeric::put_float(&mut bytes, value);
        out.write(&bytes);
        Ok(())
    }

    fn read_decimal_int(input: &mut HBaseReader<'_>, ty: &'static str) -> Result<(bool, u128)> {
        let (number, len) = numeric::get(&input.bytes[input.pos..], input.flip)?;
        let int = number.to_int().ok_or_else(|| {
            Error::invalid(ty, "the number is not an integer of at most 128 bits (a fraction, infinity or NaN)")
        })?;
        input.pos += len;
        Ok(int)
    }

    fn read_decimal_float(input: &mut HBaseReader<'_>) -> Result<f64> {
        let (number, len) = numeric::get(&input.bytes[input.pos..], input.flip)?;
        let value = number.to_f64();
        let mut again = Vec::with_capacity(len);
        numeric::put_float(&mut again, value);
        let read = &input.bytes[input.pos..input.pos + len];
        let canonical = again.len() == len && again.iter().zip(read).all(|(a, b)| *a == b ^ input.flip);
        // Java 18 and older wrote other digits for some doubles, at most 18 of them, and HBase
        // tables hold both: those are read too, as the double they round to.
        let old_java = value.is_finite() && value != 0.0 && number.decimal_digits() <= numeric::OLD_JAVA_DIGITS;
        if !(canonical || old_java) {
            return Err(Error::NonCanonical {
                at: Location::default(),
                detail: "the number is not a double's decimal digits as Java writes them (its shortest, or at most \
                         18 digits that round to it)",
            });
        }
        input.pos += len;
        Ok(value)
    }
}

macro_rules! floats {
    ($($ty:ty => $header:expr, $bits:ty, $nan:expr);*) => {$(
        impl Floats<$ty> for HBase {
            fn write_float<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                let bits = if value.is_nan() { $nan } else { value.to_bits() };
                let sign = 1 << (<$bits>::BITS - 1);
                let ordered = if bits & sign != 0 { !bits } else { bits | sign };
                out.write_byte($header);
                out.write(&ordered.to_be_bytes());
                Ok(())
            }

            fn read_float(input: &mut HBaseReader<'_>) -> Result<$ty> {
                input.header($header, stringify!($ty), concat!("a fixed-width ", stringify!($ty)))?;
                let ordered = <$bits>::from_be_bytes(input.take(stringify!($ty))?);
                let sign = 1 << (<$bits>::BITS - 1);
                let bits = if ordered & sign != 0 { ordered ^ sign } else { !ordered };
                let value = <$ty>::from_bits(bits);
                if value.is_nan() && bits != $nan {
                    return Err(Error::NonCanonical {
                        at: Location::default(),
                        detail: "a NaN other than the one NaN Java writes",
                    });
                }
                Ok(value)
            }
        }
    )*};
}

floats!(f32 => FLOAT32, u32, 0x7fc0_0000; f64 => FLOAT64, u64, 0x7ff8_0000_0000_0000);

// A bool is HBase's Int8 0 or 1: HBase has no bool of its own.
impl Bools for HBase {
    fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()> {
        <HBase as Ints<i8>>::write_int(i8::from(value), out)
    }

    fn read_bool(input: &mut HBaseReader<'_>) -> Result<bool> {
        match <HBase as Ints<i8>>::read_int(input)? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Error::out_of_range(i128::from(other), "bool")),
        }
    }
}

impl Strings for HBase {
    fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()> {
        if value.as_bytes().contains(&TERM) {
            return Err(Error::unencodable(
                "text",
                "HBase's OrderedString ends at a 00 byte, so it cannot hold U+0000; store the text as bytes",
            ));
        }
        out.write_byte(TEXT);
        out.write(value.as_bytes());
        out.write_byte(TERM);
        Ok(())
    }

    fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()> {
        Self::write_str(value.encode_utf8(&mut [0; 4]), out)
    }

    fn read_str<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, str>> {
        input.header(TEXT, ty, "text")?;
        let text = match input.until_term(ty)? {
            Cow::Borrowed(b) => std::str::from_utf8(b).map(Cow::Borrowed),
            Cow::Owned(v) => String::from_utf8(v).map(Cow::Owned).map_err(|e| e.utf8_error()),
        };
        text.map_err(|e| Error::invalid(ty, format!("invalid UTF-8 at byte {} of the text", e.valid_up_to())))
    }

    fn read_char(input: &mut HBaseReader<'_>) -> Result<char> {
        let text = Self::read_str(input, "char")?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Error::invalid("char", format!("the field holds {} characters, not one", text.chars().count()))),
        }
    }
}

impl ByteStrings for HBase {
    fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()> {
        if out.ends_key() {
            // The last field of a key holds its bytes as they are (HBase's `OrderedBlob`).
            out.write_byte(BLOB_COPY);
            out.write(value);
        } else {
            put_blob_var(value, out);
        }
        Ok(())
    }

    fn read_bytes<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        if input.is_last() {
            input.header(BLOB_COPY, ty, "the last field's bytes, HBase's OrderedBlob")?;
            if input.flip == 0 {
                let rest = &input.bytes[input.pos..];
                input.pos = input.bytes.len();
                return Ok(Cow::Borrowed(rest));
            }
            return input.until_term(ty);
        }
        input.header(BLOB_VAR, ty, "a byte string that is not the last field, HBase's OrderedBlobVar")?;
        let rest = &input.bytes[input.pos..];
        let Some(end) = rest.iter().position(|&b| (b ^ input.flip) & 0x80 == 0) else {
            return Err(Error::invalid(ty, "the byte string's 7-bit groups run to the end of the key"));
        };
        let body: Vec<u8> = rest[..=end].iter().map(|b| b ^ input.flip).collect();
        input.pos += end + 1;
        if body == [TERM] {
            return Ok(Cow::Owned(Vec::new()));
        }
        let bytes = blob_var_bytes(&body).map_err(|_| Error::invalid(ty, "its 7-bit groups are malformed"))?;
        // One value, one encoding: the group count must be the one the bytes need.
        if bytes.is_empty() || (bytes.len() * 8).div_ceil(7) != body.len() {
            return Err(Error::NonCanonical {
                at: Location::default(),
                detail: "the byte string has extra 7-bit groups",
            });
        }
        Ok(Cow::Owned(bytes))
    }
}

impl Options for HBase {
    fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()> {
        match value {
            Some(v) => write_some(v, out, NULL, "HBase"),
            // HBase's `OrderedBlob` ends a descending null with the terminator its values
            // have, where every other type's null is the one byte. The writer drops the `00`
            // again when the field is ascending, as HBase does.
            None if T::BYTE_STRING && out.ends_key() => {
                out.write(&[NULL, TERM]);
                Ok(())
            }
            None => {
                out.write_byte(NULL);
                Ok(())
            }
        }
    }

    fn read_option<'de, T: ReadField<'de, Self>>(input: &mut HBaseReader<'de>) -> Result<Option<T>> {
        if input.peek() == Some(NULL) {
            input.pos += 1;
            if T::BYTE_STRING && input.flip != 0 && input.is_last() {
                if input.peek() != Some(TERM) {
                    return Err(Error::invalid(
                        "Option of a byte string",
                        "a descending null in the last field is fa ff for a byte string (HBase's OrderedBlob), \
                         and the ff is missing",
                    ));
                }
                input.pos += 1;
            }
            return Ok(None);
        }
        T::read(input).map(Some)
    }
}

// A descending field is its ascending bytes inverted: the writer and reader do it.
impl Descending for HBase {}

// UUIDs, ULIDs, addresses and durations are byte strings; instants and dates int64s.
impl Uuids for HBase {
    fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        Self::write_bytes(value, out)
    }

    fn read_id(input: &mut HBaseReader<'_>, ty: &'static str) -> Result<[u8; 16]> {
        Self::read_array(input, ty)
    }
}

impl Instants for HBase {}
impl SystemTimes for HBase {}
impl Durations for HBase {}
#[cfg(feature = "hashed")]
impl crate::field::Digests for HBase {}
impl crate::field::ReversedInts for HBase {}
impl Addrs for HBase {}

impl<'de> HBaseKey<'de> for () {
    const FIELDS: usize = 0;

    fn write_fields(&self, _: &mut HBaseWriter<'_>) -> Result<()> {
        Ok(())
    }

    fn read_fields(_: &mut HBaseReader<'de>) -> Result<Self> {
        Ok(())
    }
}

macro_rules! hbase_tuples {
    ($( ($n:expr; $($name:ident . $idx:tt),+) )+) => {$(
        impl<'de, $($name),+> HBaseKey<'de> for ($($name,)+)
        where
            $($name: WriteField<HBase> + ReadField<'de, HBase>,)+
        {
            const FIELDS: usize = $n;

            fn write_fields(&self, w: &mut HBaseWriter<'_>) -> Result<()> {
                $(w.field(&self.$idx)?;)+
                Ok(())
            }

            fn read_fields(r: &mut HBaseReader<'de>) -> Result<Self> {
                Ok(($(r.field::<$name>()?,)+))
            }
        }
    )+};
}

for_each_tuple!(hbase_tuples);

// A FieldType bound the macros above rely on, checked once.
const _: () = assert!(!<i64 as FieldType>::DESCENDING);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_var_round_trips_every_length() {
        for len in 0..20usize {
            let value: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let mut out = Vec::new();
            put_blob_var(&value, &mut out);
            assert_eq!(out.len(), 1 + if len == 0 { 1 } else { (len * 8).div_ceil(7) }, "{len}");
            if len > 0 {
                assert_eq!(blob_var_bytes(&out[1..]).unwrap(), value, "{len}");
            }
        }
    }

    #[test]
    fn the_last_byte_string_is_copied_and_others_are_grouped() {
        let key = HBase.to_key(&(vec![0x66u8, 0x6f, 0x6f], vec![0x66u8, 0x6f, 0x6f])).unwrap();
        assert_eq!(key.as_bytes(), [0x37, 0xb3, 0x9b, 0xed, 0x70, 0x38, 0x66, 0x6f, 0x6f]);
        let (a, b): (Vec<u8>, Vec<u8>) = HBase.from_key(key.as_bytes()).unwrap();
        assert_eq!((a.as_slice(), b.as_slice()), (&b"foo"[..], &b"foo"[..]));
    }
}
