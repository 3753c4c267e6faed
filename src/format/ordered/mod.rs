//! The ordered (binary) key format: Bigtable's `Struct.OrderedCodeBytes`.
//!
//! Each field's bytes (from its [field encoding](crate::field)) are framed so that the keys
//! sort field by field, with no type tags and no lengths:
//!
//! | in a field | written as | why |
//! |---|---|---|
//! | a `00` byte | `00 ff` | frees `00` to start the two markers below |
//! | the end of a field | `00 01` ([`SEPARATOR`]) | sorts below every escaped byte, so a shorter field sorts first |
//! | an empty field | `00 00` ([`EMPTY_FIELD`]) | sorts below any separator and any value |
//! | a descending field | all of the above plus its separator, bitwise negated | reverses its order |
//!
//! The last ascending field has no separator, and empty ascending fields at the end are not
//! written at all (Bigtable's rule); a key whose fields were all dropped is `00 00`. So:
//!
//! | fields | key |
//! |---|---|
//! | `("A", "", "C")` | `41 00 01 00 00 00 01 43` |
//! | `("A", "")` | `41` |
//! | `("", "")` | `00 00` |
//! | `("bobby", 14242i64)` | `62 6f 62 62 79 00 01 e0 37 a2` |
//! | `(Desc(""),)` | `ff ff ff fe` |
//!
//! [`OrderedWriter`] and [`OrderedReader`] are the building blocks that tuple keys and the
//! derive use; reach for them to write a key type by hand.

mod frame;
mod reader;

use crate::error::{Error, Result};
use crate::field::{FieldType, Sink, WriteField};
use crate::format::key_format::{FormatKey, KeyFormat, KeyWriter};
use crate::format::{Ordered, PREFIX_FIELD};
use crate::key::Key;

pub use frame::{EMPTY_FIELD, ESCAPED_NUL, SEPARATOR};
pub use reader::OrderedReader;

/// Escapes an ascending field's bytes into the key.
struct Ascending<'a>(&'a mut Key);

impl Sink for Ascending<'_> {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        if self.0.extend_if_no_nul(bytes) {
            return;
        }
        self.write_escaped(bytes);
    }

    #[inline]
    fn write_byte(&mut self, byte: u8) {
        self.0.push(byte);
        if byte == 0 {
            self.0.push(ESCAPED_NUL);
        }
    }
}

impl Ascending<'_> {
    /// The slow path: a field that holds `00` bytes. Those are mostly integers (every
    /// negative one of 9 or 10 bytes starts with `00`) and short random ids: up to 16 bytes
    /// are escaped into an array and appended with one copy, which is far cheaper than
    /// appending each run between two `00`s; the integers' lone leading `00` is escaped
    /// without looking at the other bytes one at a time.
    #[inline(never)]
    fn write_escaped(&mut self, bytes: &[u8]) {
        if bytes.len() <= 16 {
            let mut buf = [0u8; 32];
            // A negative 9- or 10-byte integer: one leading `00`, no other.
            if let [0, rest @ ..] = bytes
                && !crate::key_buf::has_nul(rest)
            {
                buf[1] = ESCAPED_NUL;
                buf[2..2 + rest.len()].copy_from_slice(rest);
                self.0.extend_from_slice(&buf[..2 + rest.len()]);
                return;
            }
            let mut len = 0;
            for &b in bytes {
                buf[len] = b;
                buf[len + 1] = ESCAPED_NUL;
                len += 1 + usize::from(b == 0);
            }
            self.0.extend_from_slice(&buf[..len]);
            return;
        }
        for chunk in bytes.split_inclusive(|&b| b == 0) {
            self.0.extend_from_slice(chunk);
            if chunk.last() == Some(&0) {
                self.0.push(ESCAPED_NUL);
            }
        }
    }
}

/// [`Ascending`] for a field of [`OrderedWriter`] with no empty fields held before it: the
/// separator it needs is written together with its first bytes, so an empty field writes
/// nothing at all and there is nothing to undo.
struct Separated<'a> {
    out: &'a mut Key,
    /// The separator still to write before the field's first byte: `SEPARATOR` or empty.
    pending: &'static [u8],
    written: bool,
}

impl Separated<'_> {
    #[inline(always)]
    fn start(&mut self) {
        if !self.pending.is_empty() {
            self.out.extend_from_slice(self.pending);
            self.pending = &[];
        }
        self.written = true;
    }
}

impl Sink for Separated<'_> {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if self.out.extend_separated_if_no_nul(self.pending, bytes) {
            self.pending = &[];
            self.written = true;
            return;
        }
        self.start();
        Ascending(self.out).write_escaped(bytes);
    }

    #[inline(always)]
    fn write_byte(&mut self, byte: u8) {
        // With its pending separator in one append, as a longer field is written.
        self.write(std::slice::from_ref(&byte));
    }
}

/// Escapes and negates a descending field's bytes into the key.
struct Descending<'a>(&'a mut Key);

impl Sink for Descending<'_> {
    fn write(&mut self, bytes: &[u8]) {
        self.0.reserve(bytes.len());
        for &b in bytes {
            self.write_byte(b);
        }
    }

    #[inline]
    fn write_byte(&mut self, byte: u8) {
        self.0.push(!byte);
        if byte == 0 {
            self.0.push(!ESCAPED_NUL);
        }
    }

    fn descending(&self) -> bool {
        true
    }
}

/// Appends fields to a key in the ordered format, in one pass.
///
/// Call [`field`](Self::field) (or [`named_field`](Self::named_field)) once per field, in
/// order, then [`finish`](Self::finish). Empty ascending fields are held back and written
/// only when a later field is not dropped, so trailing ones never reach the key.
///
/// ```
/// use rowkey::{Desc, Key};
/// use rowkey::format::OrderedWriter;
///
/// let mut key = Key::new();
/// let mut w = OrderedWriter::new(&mut key);
/// w.field("A")?.field("")?.field("C")?;
/// w.finish();
/// assert_eq!(key.as_bytes(), b"A\x00\x01\x00\x00\x00\x01C");
/// # Ok::<(), rowkey::Error>(())
/// ```
#[must_use = "call finish() to complete the key"]
pub struct OrderedWriter<'a> {
    out: &'a mut Key,
    start: usize,
    next_field: usize,
    /// Empty ascending fields not written yet: dropped if nothing follows them.
    held_empty: usize,
    /// The last field written is ascending and needs a separator before the next one.
    needs_separator: bool,
}

impl<'a> OrderedWriter<'a> {
    /// A writer that appends to `out` (which may already hold a prefix).
    #[inline]
    pub fn new(out: &'a mut Key) -> Self {
        let start = out.len();
        OrderedWriter { out, start, next_field: 0, held_empty: 0, needs_separator: false }
    }

    /// Appends the next field.
    ///
    /// # Errors
    ///
    /// What the field's encoder returns, with the field's position filled in.
    #[inline]
    pub fn field<T: WriteField<Ordered> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        self.write(None, value)
    }

    /// Appends the next field, naming it in any error.
    ///
    /// # Errors
    ///
    /// What the field's encoder returns, with the field's position and name filled in.
    ///
    /// ```
    /// use rowkey::{BigEndian, Key};
    /// use rowkey::format::OrderedWriter;
    ///
    /// let mut key = Key::new();
    /// let err = OrderedWriter::new(&mut key).named_field("balance", &BigEndian(-5i64)).err().unwrap();
    /// assert_eq!(err.location().name(), Some("balance"));
    /// ```
    #[inline]
    pub fn named_field<T: WriteField<Ordered> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
        self.write(Some(name), value)
    }

    #[inline(always)]
    fn write<T: WriteField<Ordered> + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
        let index = self.next_field;
        self.next_field += 1;
        let mark = self.out.len();
        let located = |e: Error| e.in_field(index, name, mark);
        if <T as FieldType>::DESCENDING {
            if self.held_empty > 0 {
                self.flush_held();
            }
            if self.needs_separator {
                self.out.extend_from_slice(&SEPARATOR);
            }
            let body = self.out.len();
            WriteField::<Ordered>::write(value, &mut Descending(self.out)).map_err(located)?;
            if self.out.len() == body {
                self.out.extend_from_slice(&[!EMPTY_FIELD[0], !EMPTY_FIELD[1]]);
            }
            self.out.extend_from_slice(&[!SEPARATOR[0], !SEPARATOR[1]]);
            self.needs_separator = false;
        } else if self.held_empty == 0 {
            let pending: &'static [u8] = if self.needs_separator { &SEPARATOR } else { &[] };
            let mut sink = Separated { out: self.out, pending, written: false };
            WriteField::<Ordered>::write(value, &mut sink).map_err(located)?;
            if sink.written {
                self.needs_separator = true;
            } else {
                // Empty: held back until a field follows; nothing was written.
                self.held_empty = 1;
            }
        } else {
            let (held, needs_separator) = (self.held_empty, self.needs_separator);
            if held > 0 {
                self.flush_held();
            }
            if self.needs_separator {
                self.out.extend_from_slice(&SEPARATOR);
            }
            let body = self.out.len();
            WriteField::<Ordered>::write(value, &mut Ascending(self.out)).map_err(located)?;
            if self.out.len() == body {
                // Empty: undo the separators and hold it back with the others.
                self.out.truncate(mark);
                self.held_empty = held + 1;
                self.needs_separator = needs_separator;
            } else {
                self.needs_separator = true;
            }
        }
        Ok(self)
    }

    /// Writes the held-back empty fields, now that a field follows them.
    #[cold]
    fn flush_held(&mut self) {
        for _ in 0..self.held_empty {
            if self.needs_separator {
                self.out.extend_from_slice(&SEPARATOR);
            }
            self.out.extend_from_slice(&EMPTY_FIELD);
            self.needs_separator = true;
        }
        self.held_empty = 0;
    }

    /// Completes the key: a key whose fields were all dropped becomes `00 00`.
    #[inline]
    pub fn finish(self) {
        if self.out.len() == self.start {
            self.out.extend_from_slice(&EMPTY_FIELD);
        }
    }
}

/// A key type whose fields the ordered format can write and read: tuples of 1 to 12 field
/// types, and derived keys. The name [`FormatKey<'de, Ordered>`] has in bounds; implement that.
/// Through it keys compose: a salted key writes its bucket field, then the fields of the key
/// it salts.
///
/// ```
/// use rowkey::Key;
/// use rowkey::format::{FormatKey, Ordered, OrderedReader, OrderedWriter};
///
/// let mut key = Key::new();
/// let mut w = OrderedWriter::new(&mut key);
/// w.field(&7u8)?;
/// FormatKey::<Ordered>::write_fields(&("phone", 42i64), &mut w)?;
/// w.finish();
///
/// let fields = <(String, i64) as FormatKey<Ordered>>::FIELDS;
/// let mut r = OrderedReader::new(&key, 1 + fields);
/// assert_eq!(r.field::<u8>()?, 7);
/// assert_eq!(<(String, i64) as FormatKey<Ordered>>::read_fields(&mut r)?, ("phone".to_owned(), 42));
/// r.finish()?;
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait OrderedKey<'de>: FormatKey<'de, Ordered> {}

impl<'de, T: FormatKey<'de, Ordered>> OrderedKey<'de> for T {}

impl KeyFormat for Ordered {
    type Values = Ordered;
    const NAME: &'static str = "ordered";
    type Writer<'a> = OrderedWriter<'a>;
    type Reader<'a, 'de> = OrderedReader<'de>;
    const PREFIX_IS_FIELD: bool = true;

    #[inline]
    fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> OrderedWriter<'a> {
        OrderedWriter::new(out)
    }

    #[inline]
    fn reader<'de>(&self, key: &'de [u8], fields: usize) -> OrderedReader<'de> {
        OrderedReader::new(key, fields)
    }
}

impl KeyWriter<Ordered> for OrderedWriter<'_> {
    #[inline(always)]
    fn field<T: WriteField<Ordered> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        self.write(None, value)
    }

    #[inline(always)]
    fn named_field<T: WriteField<Ordered> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
        self.write(Some(name), value)
    }

    #[inline]
    fn prefix(&mut self, prefix: &'static [u8]) -> Result<&mut Self> {
        self.write(Some(PREFIX_FIELD), prefix)
    }

    #[inline]
    fn finish(self) {
        OrderedWriter::finish(self);
    }
}

/// Appends one field as it stands when more fields follow it: escaped, then its separator
/// (an empty ascending field as `00 00 00 01`; a descending one negated). Scan bounds are
/// built from these. Returns whether the field was an empty ascending one, which a complete
/// key drops when nothing follows it.
#[inline]
pub(crate) fn append_terminated<T: WriteField<Ordered> + ?Sized>(out: &mut Key, value: &T) -> Result<bool> {
    let body = out.len();
    if <T as FieldType>::DESCENDING {
        value.write(&mut Descending(out))?;
        if out.len() == body {
            out.extend_from_slice(&[!EMPTY_FIELD[0], !EMPTY_FIELD[1]]);
        }
        out.extend_from_slice(&[!SEPARATOR[0], !SEPARATOR[1]]);
        return Ok(false);
    }
    value.write(&mut Ascending(out))?;
    let empty = out.len() == body;
    if empty {
        out.extend_from_slice(&EMPTY_FIELD);
    }
    out.extend_from_slice(&SEPARATOR);
    Ok(empty)
}

/// Appends a field's escaped bytes with no terminator (negated when descending): the form a
/// `starts_with` bound matches against.
#[inline]
pub(crate) fn append_escaped<T: WriteField<Ordered> + ?Sized>(out: &mut Key, value: &T) -> Result<()> {
    if <T as FieldType>::DESCENDING { value.write(&mut Descending(out)) } else { value.write(&mut Ascending(out)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The escaping writer and the unescaping reader for every length around their inline
    /// limits, with `00` at each position and in runs: the bytes are the reference escaping,
    /// and they read back.
    #[test]
    fn escaping_is_exact_for_every_length_and_position() {
        for n in 0..40usize {
            for zeros in [vec![], vec![0], vec![n / 2], vec![0, 1, n.saturating_sub(1)]] {
                let mut field: Vec<u8> = (0..n).map(|i| 0x41 + (i % 26) as u8).collect();
                for &at in zeros.iter().filter(|&&at| at < n) {
                    field[at] = 0;
                }
                let mut expected: Vec<u8> =
                    field.iter().flat_map(|&b| if b == 0 { vec![0, 0xff] } else { vec![b] }).collect();
                let mut key = Key::new();
                let mut w = OrderedWriter::new(&mut key);
                w.field(&field[..]).unwrap().field(&7u8).unwrap();
                w.finish();
                if !field.is_empty() {
                    expected.extend_from_slice(&SEPARATOR);
                } else {
                    expected.extend_from_slice(&[0, 0, 0, 1]);
                }
                expected.push(0x87);
                assert_eq!(key.as_bytes(), &expected[..], "{field:02x?}");
                let mut r = OrderedReader::new(&key, 2);
                assert_eq!(r.field::<Vec<u8>>().unwrap(), field);
                assert_eq!(r.field::<u8>().unwrap(), 7);
                r.finish().unwrap();
            }
        }
    }

    /// A field led by its only `00` (the reader's second fast path) reads as the general path
    /// would: whole as the last field, up to its separator before another, longer than the
    /// inline limit, with a second escape, and refused with a separator after the last field.
    #[test]
    fn a_field_led_by_its_only_nul_reads_like_any_other() {
        for n in 0..40usize {
            let field: Vec<u8> = std::iter::once(0).chain((0..n).map(|i| 0x41 + (i % 26) as u8)).collect();
            let mut key = Key::new();
            let mut w = OrderedWriter::new(&mut key);
            w.field(&field[..]).unwrap();
            w.finish();
            let mut r = OrderedReader::new(&key, 1);
            assert_eq!(r.field::<Vec<u8>>().unwrap(), field, "last, {n}");
            r.finish().unwrap();

            let mut separated = key.as_bytes().to_vec();
            separated.extend_from_slice(&SEPARATOR);
            let err = OrderedReader::new(&separated, 1).field::<Vec<u8>>().unwrap_err();
            assert!(matches!(err, Error::TrailingBytes { .. }), "{n}: {err}");
            separated.push(0x87);
            let mut r = OrderedReader::new(&separated, 2);
            assert_eq!(r.field::<Vec<u8>>().unwrap(), field, "followed, {n}");
            assert_eq!(r.field::<u8>().unwrap(), 7);
            r.finish().unwrap();
        }
        let mut r = OrderedReader::new(b"\x00\xff\x00\xff\x41\x00\x01\x87", 2);
        assert_eq!(r.field::<Vec<u8>>().unwrap(), [0, 0, 0x41]);
        assert_eq!(r.field::<u8>().unwrap(), 7);
        let mut r = OrderedReader::new(b"\x00\xff\x00\x01\x87", 2);
        assert_eq!(r.field::<Vec<u8>>().unwrap(), [0]);
        assert_eq!(r.field::<u8>().unwrap(), 7);
    }
}
