//! The delimited (text) key format: Bigtable's `Struct.DelimitedBytes`.
//!
//! Fields are written as [text](crate::field::text) and joined by a delimiter of one or more
//! bytes (`#` by default), giving keys a person can read in Key Visualizer, `cbt` or the
//! HBase shell:
//!
//! | fields | key |
//! |---|---|
//! | `("phone", Hex(0x4c410523u32), Padded::<u32, 8>(20200501))` | `phone#4c410523#20200501` |
//! | `("asia", "india", "mumbai")` | `asia#india#mumbai` |
//! | `("a", "")` | `a#` |
//! | `()` | `#` |
//!
//! There is no escaping, so order rests on Bigtable's sorted-mode rule: **every byte of every
//! field is above the delimiter's first byte.** Then a field that is a prefix of another
//! meets the delimiter where the other has a larger byte, and sorts first. A value that
//! breaks the rule is an [`Error::Delimiter`] naming the field, the byte and its offset;
//! never a silently mis-sorted key (a `#` inside a tenant name would otherwise put that
//! tenant's keys inside another tenant's range). Encodings with a known alphabet (digits,
//! hex) are checked against the delimiter before anything is written.

use smallvec::SmallVec;

use crate::error::{Error, Location, Result};
use crate::field::alphabet::Alphabet;
use crate::field::text::{DecodeText, EncodeText};
use crate::field::{ReadField, WriteField};
use crate::format::key_format::{FormatKey, KeyFormat, KeyReader, KeyWriter, decode_key, encode_key};
use crate::format::prefix::check_prefix;
use crate::format::{DelimitedText, PREFIX_FIELD};
use crate::key::Key;

/// A delimited key format: the delimiter, and whether the sorted-mode rule is enforced.
///
/// ```
/// use rowkey::field::{Hex, Padded};
/// use rowkey::format::Delimited;
///
/// let hash = Delimited::default(); // "#"
/// let key = hash.to_key(&("phone", Hex(0x4c410523u32), Padded::<u32, 8>(20200501)))?;
/// assert_eq!(key.as_bytes(), b"phone#4c410523#20200501");
///
/// let (kind, id, day): (&str, Hex<u32>, Padded<u32, 8>) = hash.from_key(&key)?;
/// assert_eq!((kind, id.0, day.0), ("phone", 0x4c410523, 20200501));
///
/// // A '#' inside a value would let it sort (and split) wrongly: refused.
/// assert!(hash.to_key(&("ten#ant", "x")).is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Delimited {
    delimiter: SmallVec<[u8; 4]>,
    sorted: bool,
}

impl Default for Delimited {
    /// The `#` delimiter of Bigtable's schema guide.
    fn default() -> Self {
        Delimited { delimiter: SmallVec::from_slice(b"#"), sorted: true }
    }
}

impl Delimited {
    /// A format with the given delimiter, enforcing the sorted-mode rule.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for an empty delimiter.
    ///
    /// ```
    /// let colons = rowkey::format::Delimited::new("::")?;
    /// assert_eq!(colons.to_key(&("a", "b"))?.as_bytes(), b"a::b");
    /// assert!(rowkey::format::Delimited::new("").is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn new(delimiter: impl AsRef<[u8]>) -> Result<Self> {
        let delimiter = delimiter.as_ref();
        if delimiter.is_empty() {
            return Err(Error::argument("delimiter", "it is empty; use one or more bytes, such as \"#\""));
        }
        Ok(Delimited { delimiter: SmallVec::from_slice(delimiter), sorted: true })
    }

    /// A format for the key type `T`, refused when the delimiter is not below the alphabet
    /// of one of `T`'s fields (a digit delimiter for a numeric field, say).
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new) and [`check`](Self::check).
    ///
    /// ```
    /// use rowkey::format::Delimited;
    ///
    /// assert!(Delimited::for_key::<(String, u32)>("#").is_ok());
    /// let err = Delimited::for_key::<(String, u32)>("0").unwrap_err();
    /// assert!(err.to_string().contains("field 1"));
    /// ```
    pub fn for_key<T: for<'de> DelimitedKey<'de>>(delimiter: impl AsRef<[u8]>) -> Result<Self> {
        let format = Delimited::new(delimiter)?;
        format.check::<T>()?;
        Ok(format)
    }

    /// The same delimiter without the sorted-mode rule: any bytes are written as they are.
    ///
    /// Keys may then neither sort by value nor split back into their fields; this exists
    /// only to reproduce keys that other code wrote that way (such as a big-endian integer
    /// in a `#`-delimited key).
    ///
    /// ```
    /// use rowkey::BigEndian;
    /// use rowkey::format::Delimited;
    ///
    /// let key = Delimited::default().unchecked().to_key(&("id", BigEndian(1i64)))?;
    /// assert_eq!(key.as_bytes(), b"id#\x00\x00\x00\x00\x00\x00\x00\x01");
    /// assert!(Delimited::default().to_key(&("id", BigEndian(1i64))).is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn unchecked(mut self) -> Self {
        self.sorted = false;
        self
    }

    /// The delimiter's bytes.
    ///
    /// ```
    /// assert_eq!(rowkey::format::Delimited::default().delimiter(), b"#");
    /// ```
    #[must_use]
    pub fn delimiter(&self) -> &[u8] {
        &self.delimiter
    }

    /// Checks the delimiter against the alphabets of `T`'s fields, without writing a key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the first field whose alphabet reaches down to the
    /// delimiter's first byte.
    ///
    /// ```
    /// use rowkey::field::Hex;
    /// use rowkey::format::Delimited;
    ///
    /// // '0' is the lowest hex digit: a hex field cannot follow a '0' delimiter.
    /// assert!(Delimited::new("0")?.check::<(Hex<u32>,)>().is_err());
    /// assert!(Delimited::new("/")?.check::<(Hex<u32>,)>().is_ok());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn check<T: for<'de> DelimitedKey<'de>>(&self) -> Result<()> {
        for index in 0..T::FIELDS {
            if let Some(alphabet) = T::alphabet(index) {
                self.check_alphabet(index, &alphabet)?;
            }
        }
        Ok(())
    }

    fn check_alphabet(&self, index: usize, alphabet: &Alphabet) -> Result<()> {
        let first = self.delimiter[0];
        if !self.sorted || first < alphabet.lowest {
            return Ok(());
        }
        Err(Error::argument(
            "delimiter",
            format!(
                "its first byte {first:#04x} is not below field {index}'s alphabet ({}, lowest {:#04x}), so keys \
                 would not sort by value; choose a delimiter below {:#04x}, such as '#', or use the ordered format",
                alphabet.name, alphabet.lowest, alphabet.lowest
            ),
        ))
    }

    /// Encodes a key into a new [`Key`].
    ///
    /// # Errors
    ///
    /// [`Error::Delimiter`] for a value with a byte at or below the delimiter's first byte;
    /// what a field's text encoding returns (a number wider than its field, say).
    pub fn to_key<'de, T: DelimitedKey<'de>>(&self, value: &T) -> Result<Key> {
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
    /// let mut buf = rowkey::Key::new();
    /// rowkey::format::Delimited::default().encode_into(&("asia", "india", "mumbai"), &mut buf)?;
    /// assert_eq!(buf, "asia#india#mumbai");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn encode_into<'de, T: DelimitedKey<'de>>(&self, value: &T, out: &mut Key) -> Result<()> {
        encode_key(self, value, out)
    }

    /// Decodes a key. Any bytes are accepted: ones that are not a key of this type and
    /// delimiter give an error with the field and the offset.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] for too few fields, [`Error::TrailingBytes`] for too many,
    /// [`Error::Delimiter`] for a byte no field may hold, or what a field's decoder returns.
    #[inline]
    pub fn from_key<'de, T: DelimitedKey<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        decode_key(self, bytes)
    }

    /// Appends one field's text, checked against the delimiter: statically by its alphabet
    /// when it has one, else byte by byte.
    pub(crate) fn append_text<T: EncodeText + ?Sized>(
        &self,
        out: &mut Key,
        index: usize,
        name: Option<&'static str>,
        value: &T,
    ) -> Result<()> {
        let start = out.len();
        let located = |e: Error| e.in_field(index, name, start);
        match <T as EncodeText>::ALPHABET {
            Some(alphabet) => self.check_alphabet(index, &alphabet).map_err(located)?,
            None if self.sorted => {
                value.encode_text(out).map_err(located)?;
                let first = self.delimiter[0];
                if let Some(i) = out[start..].iter().position(|&b| b <= first) {
                    return Err(self.refuse(out[start + i], start + i).in_field(index, name, start));
                }
                return Ok(());
            }
            None => {}
        }
        value.encode_text(out).map_err(located)
    }

    /// The error for a byte at or below the delimiter's first byte.
    fn refuse(&self, byte: u8, offset: usize) -> Error {
        Error::Delimiter { at: Location::at(offset), byte, delimiter: self.delimiter[0] }
    }
}

/// A key type that the delimited format can write and read: tuples of 1 to 12 text fields,
/// and `#[rowkey(delimited = "...")]` structs. The name [`FormatKey<'de, Delimited>`] has in
/// bounds; implement that (its `alphabet` is what [`Delimited::check`] checks).
///
/// ```
/// use rowkey::format::{Delimited, DelimitedKey};
///
/// fn fields<K: for<'de> DelimitedKey<'de>>() -> usize {
///     K::FIELDS
/// }
/// assert_eq!(fields::<(String, u16)>(), 2);
/// assert_eq!(Delimited::default().to_key(&("phone", 7u16))?, "phone#00007");
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait DelimitedKey<'de>: FormatKey<'de, Delimited> {}

impl<'de, T: FormatKey<'de, Delimited>> DelimitedKey<'de> for T {}

impl KeyFormat for Delimited {
    type Values = DelimitedText;
    const NAME: &'static str = "delimited";
    type Writer<'a> = DelimitedWriter<'a>;
    type Reader<'a, 'de> = DelimitedReader<'a, 'de>;
    const PREFIX_IS_FIELD: bool = true;

    #[inline]
    fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> DelimitedWriter<'a> {
        DelimitedWriter::new(self, out)
    }

    #[inline]
    fn reader<'a, 'de>(&'a self, key: &'de [u8], fields: usize) -> DelimitedReader<'a, 'de> {
        DelimitedReader::new(self, key, fields)
    }
}

impl KeyWriter<DelimitedText> for DelimitedWriter<'_> {
    #[inline]
    fn field<T: WriteField<DelimitedText> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        self.push(None, value)
    }

    #[inline]
    fn named_field<T: WriteField<DelimitedText> + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<&mut Self> {
        self.push(Some(name), value)
    }

    #[inline]
    fn prefix(&mut self, prefix: &'static [u8]) -> Result<&mut Self> {
        self.push(Some(PREFIX_FIELD), prefix)
    }

    #[inline]
    fn finish(self) {
        DelimitedWriter::finish(self);
    }
}

impl<'de> KeyReader<'de, DelimitedText> for DelimitedReader<'_, 'de> {
    #[inline]
    fn field<T: ReadField<'de, DelimitedText>>(&mut self) -> Result<T> {
        self.take_field(None)
    }

    #[inline]
    fn named_field<T: ReadField<'de, DelimitedText>>(&mut self, name: &'static str) -> Result<T> {
        self.take_field(Some(name))
    }

    #[inline]
    fn prefix(&mut self, prefix: &'static [u8]) -> Result<()> {
        let (index, at) = (self.field_index(), self.position());
        check_prefix(self.take_field::<&'de [u8]>(Some(PREFIX_FIELD))?, prefix, index, at)
    }

    #[inline]
    fn position(&self) -> usize {
        self.pos
    }

    #[inline]
    fn field_index(&self) -> usize {
        self.next_field
    }

    #[inline]
    fn finish(self) -> Result<()> {
        DelimitedReader::finish(self)
    }
}

/// Appends text fields to a key, checking each against the delimiter.
pub struct DelimitedWriter<'a> {
    format: &'a Delimited,
    out: &'a mut Key,
    fields: usize,
}

impl<'a> DelimitedWriter<'a> {
    /// A writer that appends fields of `format` to `out` (which may already hold a prefix),
    /// the counterpart of [`OrderedWriter::new`](crate::format::OrderedWriter::new).
    ///
    /// ```
    /// use rowkey::format::{Delimited, DelimitedWriter};
    ///
    /// let format = Delimited::default();
    /// let mut key = rowkey::Key::new();
    /// let mut w = DelimitedWriter::new(&format, &mut key);
    /// w.field("phone")?.named_field("id", &7u16)?;
    /// w.finish();
    /// assert_eq!(key, "phone#00007");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn new(format: &'a Delimited, out: &'a mut Key) -> Self {
        DelimitedWriter { format, out, fields: 0 }
    }

    /// Appends the next field.
    ///
    /// # Errors
    ///
    /// [`Error::Delimiter`] for a byte at or below the delimiter's first byte; what the
    /// field's encoding returns.
    pub fn field<T: EncodeText + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        self.push(None, value)
    }

    /// Appends the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    pub fn named_field<T: EncodeText + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
        self.push(Some(name), value)
    }

    fn push<T: EncodeText + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
        let index = self.fields;
        self.fields += 1;
        if index > 0 {
            self.out.extend_from_slice(&self.format.delimiter);
        }
        self.format.append_text(self.out, index, name, value)?;
        Ok(self)
    }

    /// Completes the key: a key of no fields is the delimiter alone, as Bigtable writes a
    /// struct of no fields.
    pub fn finish(self) {
        if self.fields == 0 {
            self.out.extend_from_slice(&self.format.delimiter);
        }
    }
}

/// Reads the text fields of a delimited key, in order.
pub struct DelimitedReader<'f, 'de> {
    format: &'f Delimited,
    bytes: &'de [u8],
    pos: usize,
    fields: usize,
    next_field: usize,
}

impl<'f, 'de> DelimitedReader<'f, 'de> {
    /// A reader of a key of `fields` fields in `format`, the counterpart of
    /// [`OrderedReader::new`](crate::format::OrderedReader::new).
    ///
    /// ```
    /// use rowkey::format::{Delimited, DelimitedReader};
    ///
    /// let format = Delimited::default();
    /// let mut r = DelimitedReader::new(&format, b"phone#00007", 2);
    /// let kind: &str = r.field()?;
    /// let id: u16 = r.named_field("id")?;
    /// r.finish()?;
    /// assert_eq!((kind, id), ("phone", 7));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn new(format: &'f Delimited, bytes: &'de [u8], fields: usize) -> Self {
        DelimitedReader { format, bytes, pos: 0, fields, next_field: 0 }
    }

    /// The offset of the next field in the key.
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The 0-based index of the next field to read, as
    /// [`OrderedReader::field_index`](crate::format::OrderedReader::field_index).
    ///
    /// ```
    /// use rowkey::format::{Delimited, DelimitedReader};
    ///
    /// let format = Delimited::default();
    /// let mut r = DelimitedReader::new(&format, b"a#b", 2);
    /// let _: &str = r.field()?;
    /// assert_eq!((r.field_index(), r.position()), (1, 2));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn field_index(&self) -> usize {
        self.next_field
    }

    /// Reads the next field.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the key has fewer fields, [`Error::TrailingBytes`] when the
    /// last field is followed by another delimiter, [`Error::Delimiter`] for a byte no field
    /// may hold, or what the field's decoding returns.
    pub fn field<T: DecodeText<'de>>(&mut self) -> Result<T> {
        self.take_field(None)
    }

    /// Reads the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    pub fn named_field<T: DecodeText<'de>>(&mut self, name: &'static str) -> Result<T> {
        self.take_field(Some(name))
    }

    fn take_field<T: DecodeText<'de>>(&mut self, name: Option<&'static str>) -> Result<T> {
        let index = self.next_field;
        self.next_field += 1;
        let start = self.pos;
        let located = |e: Error| e.in_field(index, name, start);
        let text = self.take(index + 1 == self.fields).map_err(located)?;
        T::decode_text(text).map_err(located)
    }

    /// Cuts the next field's text out of the key.
    fn take(&mut self, last: bool) -> Result<&'de [u8]> {
        let rest = &self.bytes[self.pos..];
        let delimiter = self.format.delimiter.as_slice();
        let first = delimiter[0];
        let boundary = if self.format.sorted {
            rest.iter().position(|&b| b <= first)
        } else {
            rest.windows(delimiter.len()).position(|w| w == delimiter)
        };
        let Some(end) = boundary else {
            if !last {
                return Err(Error::Truncated {
                    at: Location::at(self.bytes.len()),
                    detail: "the key has fewer fields than this type (a delimiter is missing)",
                });
            }
            self.pos = self.bytes.len();
            return Ok(rest);
        };
        if !rest[end..].starts_with(delimiter) {
            return Err(self.format.refuse(rest[end], self.pos + end));
        }
        if last {
            return Err(Error::TrailingBytes { offset: self.pos + end, len: rest.len() - end });
        }
        self.pos += end + delimiter.len();
        Ok(&rest[..end])
    }

    /// Checks that the key ends here: a key of no fields is the delimiter alone (the fields'
    /// reads check the rest).
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] for a key of no fields that is not the delimiter.
    pub fn finish(self) -> Result<()> {
        if self.fields == 0 && self.bytes != self.format.delimiter.as_slice() {
            return Err(Error::Malformed { at: Location::at(0), detail: "a key of no fields is the delimiter alone" });
        }
        Ok(())
    }
}
