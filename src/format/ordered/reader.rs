//! [`OrderedReader`]: an ordered key read field by field, every byte checked against what
//! [`OrderedWriter`](crate::format::OrderedWriter) writes.

use super::frame::{EMPTY_FIELD, ESCAPED_NUL, SEPARATOR};
use crate::error::{Error, Location, Result};
use crate::field::{FieldBytes, FieldType, INLINE_FIELD, ReadField};
use std::borrow::Cow;

use crate::format::key_format::KeyReader;
use crate::format::prefix::check_prefix;
use crate::format::{Ordered, PREFIX_FIELD};
use crate::key_buf::find_byte;

/// Reads the fields of an ordered key, in order, checking every byte.
///
/// The reader accepts any input: bytes that are not a key of the expected shape give an
/// [`Error`] with the offset, never a panic. It also refuses bytes that the writer would not
/// produce (an empty trailing field written out, a trailing separator), so each value has one
/// key.
///
/// ```
/// use rowkey::format::OrderedReader;
///
/// let mut r = OrderedReader::new(b"bobby\x00\x01\xe0\x37\xa2", 2);
/// let name: &str = r.field()?;
/// let n: i64 = r.field()?;
/// r.finish()?;
/// assert_eq!((name, n), ("bobby", 14242));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub struct OrderedReader<'de> {
    bytes: &'de [u8],
    pos: usize,
    fields: usize,
    next_field: usize,
    /// The previous field ended in a separator, so another field must follow.
    after_separator: bool,
}

impl<'de> OrderedReader<'de> {
    /// A reader for a key of `fields` fields.
    #[must_use]
    pub fn new(bytes: &'de [u8], fields: usize) -> Self {
        // `00 00` alone is the key whose fields were all dropped: read from its end.
        let pos = if bytes == EMPTY_FIELD { 2 } else { 0 };
        OrderedReader { bytes, pos, fields, next_field: 0, after_separator: false }
    }

    /// The offset of the next unread byte.
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Whether the field read last was ascending and ended in a separator, so that another
    /// field must follow it.
    #[cfg(feature = "serde")]
    #[inline]
    pub(crate) fn after_separator(&self) -> bool {
        self.after_separator
    }

    /// The 0-based index of the next field to read: where a check of a field made after
    /// reading it (a flattened key's prefix, say) locates its error.
    ///
    /// ```
    /// use rowkey::format::OrderedReader;
    ///
    /// let mut r = OrderedReader::new(b"a\x00\x01b", 2);
    /// let _: String = r.field()?;
    /// assert_eq!(r.field_index(), 1);
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
    /// A framing error ([`Error::Truncated`], [`Error::BadEscape`], [`Error::NonCanonical`],
    /// [`Error::TrailingBytes`]) or what the field's decoder returns, located in the key.
    #[inline]
    pub fn field<T: ReadField<'de, Ordered>>(&mut self) -> Result<T> {
        self.read(None)
    }

    /// Reads the next field, naming it in any error.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    #[inline]
    pub fn named_field<T: ReadField<'de, Ordered>>(&mut self, name: &'static str) -> Result<T> {
        self.read(Some(name))
    }

    #[inline(always)]
    fn read<T: ReadField<'de, Ordered>>(&mut self, name: Option<&'static str>) -> Result<T> {
        let index = self.next_field;
        if index >= self.fields {
            return Err(too_many_fields(self.fields));
        }
        self.next_field += 1;
        let start = self.pos;
        let last = index + 1 == self.fields;
        let located = |e: Error| e.in_field(index, name, start);
        if !<T as FieldType>::DESCENDING
            && let Some(bytes) = self.take_plain(last)
        {
            return T::read(FieldBytes::borrowed(bytes)).map_err(located);
        }
        self.read_rest(last).map_err(located)
    }

    /// [`read`](Self::read) for a field [`take_plain`](Self::take_plain) leaves. Out of
    /// line, so that the fast path's copy of the decoder is the only one inlined per field.
    #[inline(never)]
    fn read_rest<T: ReadField<'de, Ordered>>(&mut self, last: bool) -> Result<T> {
        let bytes =
            if <T as FieldType>::DESCENDING { self.take_rest::<true>(last) } else { self.take_rest::<false>(last) };
        T::read(bytes?)
    }

    /// The next field's bytes for serde's key source, whose reader takes any number of fields
    /// (so none is the last, and there is no count to check): the path of
    /// [`field`](Self::field) without the count, which kept it from inlining there.
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn raw_field(&mut self, desc: bool, name: Option<&'static str>) -> Result<FieldBytes<'de>> {
        debug_assert_eq!(self.fields, usize::MAX);
        let index = self.next_field;
        self.next_field += 1;
        let start = self.pos;
        let bytes = if desc { self.take_rest::<true>(false) } else { self.take_rest::<false>(false) };
        bytes.map_err(|e| e.in_field(index, name, start))
    }

    /// [`raw_field`](Self::raw_field) for the common shape only (see
    /// [`take_plain`](Self::take_plain)): the field's bytes as a slice, or `None` with
    /// nothing read.
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn raw_plain_field(&mut self) -> Option<&'de [u8]> {
        let bytes = self.take_plain(false)?;
        self.next_field += 1;
        Some(bytes)
    }

    /// Checks that the whole key was read.
    ///
    /// # Errors
    ///
    /// [`Error::TrailingBytes`] when bytes are left, [`Error::Truncated`] for an empty input
    /// (an ordered key is never empty).
    pub fn finish(self) -> Result<()> {
        self.check_finished()
    }

    /// [`finish`](Self::finish) without giving up the reader.
    #[inline]
    pub(crate) fn check_finished(&self) -> Result<()> {
        if self.bytes.is_empty() {
            return Err(empty_key());
        }
        if self.pos < self.bytes.len() {
            return Err(Error::TrailingBytes { offset: self.pos, len: self.bytes.len() - self.pos });
        }
        Ok(())
    }

    /// The shape most fields have: ascending, no `00` inside, so the field is everything up
    /// to the first `00 01` (or the end of the key), borrowed as it is. Such a field does not
    /// start with `00`, so it is not the empty-field marker either, which is checked only
    /// after. A slice rather than a [`FieldBytes`] lets the caller decode it from registers;
    /// `None` (the key is not advanced) leaves everything else to
    /// [`take_rest`](Self::take_rest).
    #[inline(always)]
    fn take_plain(&mut self, last: bool) -> Option<&'de [u8]> {
        let base = self.pos;
        let rest = &self.bytes[base..];
        match find_byte(rest, 0) {
            None if !rest.is_empty() => {
                self.pos = self.bytes.len();
                self.after_separator = false;
                Some(rest)
            }
            Some(zero) if zero > 0 && !last && rest.get(zero + 1) == Some(&SEPARATOR[1]) => {
                self.pos = base + zero + 2;
                self.after_separator = true;
                Some(&rest[..zero])
            }
            _ => None,
        }
    }

    /// Cuts the next field out of the key and unescapes it (`DESC` fields are negated): what
    /// [`take_plain`](Self::take_plain) leaves (the end of the key, the empty-field marker,
    /// [`take_general`](Self::take_general)'s fields), and any field when the caller did not
    /// try `take_plain` first.
    #[inline]
    fn take_rest<const DESC: bool>(&mut self, last: bool) -> Result<FieldBytes<'de>> {
        let flip = if DESC { 0xff } else { 0x00 };
        let rest = &self.bytes[self.pos..];
        if rest.is_empty() {
            return self.take_at_end(DESC);
        }
        self.after_separator = false;
        if rest.len() >= 2 && rest[0] ^ flip == 0 && rest[1] ^ flip == 0 {
            return self.take_empty::<DESC>(last);
        }
        self.take_general::<DESC>(last)
    }

    /// [`take_rest`](Self::take_rest) for an ascending field whose only `00` is its first byte: every
    /// negative integer of 9 or 10 bytes (so half the `i64`s and `f64`s of random data) is
    /// one. Its bytes are the `00` and what follows the escape, copied inline in one move;
    /// `None` sends anything else (another escape, a framing error, a long field) to the
    /// general path, which starts over.
    #[inline]
    fn take_leading_nul(&mut self, last: bool) -> Option<FieldBytes<'de>> {
        let base = self.pos;
        let tail = &self.bytes[base + 2..];
        let (len, next, after_separator) = match find_byte(tail, 0) {
            None => (tail.len(), self.bytes.len(), false),
            Some(zero) if zero > 0 && !last && tail.get(zero + 1) == Some(&SEPARATOR[1]) => {
                (zero, base + 2 + zero + 2, true)
            }
            Some(_) => return None,
        };
        if len >= INLINE_FIELD {
            return None;
        }
        let mut bytes = [0u8; INLINE_FIELD];
        crate::key_buf::copy_short(&mut bytes[1..=len], &tail[..len]);
        self.pos = next;
        self.after_separator = after_separator;
        Some(FieldBytes::inline(bytes, len + 1))
    }

    /// [`take_rest`](Self::take_rest) for a descending field or one with escapes or framing errors.
    ///
    /// One pass finds where the field ends and checks every escape; a second copies its bytes
    /// without the escapes when there are any (or it is descending).
    #[inline(never)]
    fn take_general<const DESC: bool>(&mut self, last: bool) -> Result<FieldBytes<'de>> {
        let flip = if DESC { 0xff } else { 0x00 };
        let base = self.pos;
        let rest = &self.bytes[base..];
        // Checked here rather than in `take`, whose inlined fast path it slowed for every key.
        if !DESC
            && rest.len() >= 2
            && rest[..2] == [0, ESCAPED_NUL]
            && let Some(bytes) = self.take_leading_nul(last)
        {
            return Ok(bytes);
        }
        let mut escaped = false;
        let mut from = 0;
        let end = loop {
            let Some(zero) = find_byte(&rest[from..], flip).map(|i| from + i) else {
                if DESC {
                    return Err(Error::Truncated {
                        at: Location::at(self.bytes.len()),
                        detail: "a descending field ends in ff fe, which is missing",
                    });
                }
                self.pos = self.bytes.len();
                break rest.len();
            };
            match rest.get(zero + 1).map(|b| b ^ flip) {
                None => {
                    return Err(Error::Truncated {
                        at: Location::at(base + zero),
                        detail: "the last byte starts an escape (00 must be followed by ff, 01 or 00)",
                    });
                }
                Some(ESCAPED_NUL) => {
                    escaped = true;
                    from = zero + 2;
                }
                Some(0x01) => {
                    if zero == 0 {
                        return Err(Error::NonCanonical {
                            at: Location::at(base),
                            detail: "an empty field is written 00 00 before its separator",
                        });
                    }
                    if last && !DESC {
                        return Err(Error::TrailingBytes { offset: base + zero, len: rest.len() - zero });
                    }
                    self.pos = base + zero + 2;
                    self.after_separator = !DESC;
                    break zero;
                }
                Some(byte) => return Err(Error::BadEscape { at: Location::at(base + zero), byte }),
            }
        };
        let body = &rest[..end];
        Ok(if escaped || DESC { unescape::<DESC>(body) } else { FieldBytes::borrowed(body) })
    }

    /// A field at the very end of the key: an ascending one was dropped because it was empty.
    fn take_at_end(&mut self, desc: bool) -> Result<FieldBytes<'de>> {
        if self.bytes.is_empty() {
            return Err(empty_key());
        }
        if desc {
            return Err(Error::Truncated {
                at: Location::at(self.pos),
                detail: "a descending field is always written, but the key ends before it",
            });
        }
        if self.after_separator {
            return Err(Error::NonCanonical {
                at: Location::at(self.pos - 2),
                detail: "the key ends in a separator, but empty trailing fields are dropped with theirs",
            });
        }
        Ok(FieldBytes::borrowed(&[]))
    }

    /// The `00 00` empty-field marker (negated when descending) at the reader's position.
    fn take_empty<const DESC: bool>(&mut self, last: bool) -> Result<FieldBytes<'de>> {
        let flip = if DESC { 0xff } else { 0x00 };
        let base = self.pos;
        let after = &self.bytes[base + 2..];
        if last && !DESC {
            return Err(Error::NonCanonical {
                at: Location::at(base),
                detail: "an empty last field is dropped, not written as 00 00",
            });
        }
        match after {
            [a, b, ..] if a ^ flip == SEPARATOR[0] && b ^ flip == SEPARATOR[1] => {
                self.pos = base + 4;
                self.after_separator = !DESC;
                Ok(FieldBytes::borrowed(&[]))
            }
            [] if !DESC => Err(Error::NonCanonical {
                at: Location::at(base),
                detail: "an empty trailing field is dropped, not written as 00 00",
            }),
            [] | [_] => Err(Error::Truncated {
                at: Location::at(base + 2),
                detail: "an empty field (00 00) must be followed by a separator (00 01)",
            }),
            _ => Err(Error::Malformed {
                at: Location::at(base + 2),
                detail: "an empty field (00 00) must be followed by a separator (00 01)",
            }),
        }
    }
}

/// A field's bytes without their escapes (each `00` is followed by an `ff` to drop), negated
/// when descending. The escapes were checked when the field's end was found.
///
/// Fields are short: up to [`INLINE_FIELD`] bytes are gathered in an array a byte at a time,
/// which costs a fraction of appending each escaped run to a vector (a library `memmove`
/// call or two per run).
#[inline]
fn unescape<const DESC: bool>(body: &[u8]) -> FieldBytes<'static> {
    let flip = if DESC { 0xff } else { 0x00 };
    let mut bytes = body.iter();
    if body.len() <= INLINE_FIELD {
        let mut buf = [0u8; INLINE_FIELD];
        let mut len = 0;
        while let Some(&b) = bytes.next() {
            let byte = b ^ flip;
            buf[len] = byte;
            len += 1;
            if byte == 0 {
                bytes.next();
            }
        }
        return FieldBytes::inline(buf, len);
    }
    let mut out = Vec::with_capacity(body.len());
    while let Some(&b) = bytes.next() {
        let byte = b ^ flip;
        out.push(byte);
        if byte == 0 {
            bytes.next();
        }
    }
    FieldBytes::owned(out)
}

/// A read past the fields the reader was made for.
#[cold]
#[inline(never)]
fn too_many_fields(fields: usize) -> Error {
    Error::argument("field", format!("the reader was made for {fields} fields; read no more"))
}

fn empty_key() -> Error {
    Error::Truncated { at: Location::at(0), detail: "an ordered key is never empty (a key of empty fields is 00 00)" }
}

impl<'de> KeyReader<'de, Ordered> for OrderedReader<'de> {
    #[inline(always)]
    fn field<T: ReadField<'de, Ordered>>(&mut self) -> Result<T> {
        OrderedReader::field(self)
    }

    #[inline(always)]
    fn named_field<T: ReadField<'de, Ordered>>(&mut self, name: &'static str) -> Result<T> {
        OrderedReader::named_field(self, name)
    }

    /// The prefix is a field: where the reader is, not 0, as a flattened key's prefix is
    /// inside the outer key.
    #[inline]
    fn prefix(&mut self, prefix: &'static [u8]) -> Result<()> {
        let (index, at) = (self.field_index(), self.position());
        check_prefix(&self.named_field::<Cow<'de, [u8]>>(PREFIX_FIELD)?, prefix, index, at)
    }

    #[inline(always)]
    fn position(&self) -> usize {
        OrderedReader::position(self)
    }

    #[inline(always)]
    fn field_index(&self) -> usize {
        OrderedReader::field_index(self)
    }

    #[inline]
    fn finish(self) -> Result<()> {
        self.check_finished()
    }
}
