//! [`TupleReader`]: a packed tuple read field by field, each cut where its type code says it
//! ends.

use std::borrow::Cow;

use super::FdbTuple;
use super::codes::{ZERO, code_name};
use crate::error::{Error, Location, Result};
use crate::field::{ReadField, ValueFormat};
use crate::format::prefix::check_raw_prefix;
use crate::key_buf::{copy_short, find_byte};

/// Reads a packed tuple's fields one after another: fields are cut as they are read, since
/// only a field's type code says where it ends.
///
/// ```
/// use rowkey::format::TupleReader;
///
/// let mut r = TupleReader::new(b"\x02a\x00\x13\xfd");
/// let text: String = r.field()?;
/// let n: i32 = r.field()?;
/// r.finish()?;
/// assert_eq!((text.as_str(), n), ("a", -2));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub struct TupleReader<'de> {
    pub(super) key: &'de [u8],
    /// The offset of the next byte in the key.
    pub(super) pos: usize,
    /// How many nested tuples the reader is inside: there a null is `00 ff`, and a lone `00`
    /// ends the nested tuple.
    pub(super) depth: usize,
    /// The top-level field being read, for errors.
    pub(super) index: usize,
}

impl ValueFormat for FdbTuple {
    type Input<'r, 'de>
        = &'r mut TupleReader<'de>
    where
        'de: 'r;
}

impl<'de> TupleReader<'de> {
    /// A reader of `bytes`, a packed tuple with no prefix.
    ///
    /// ```
    /// let mut r = rowkey::format::TupleReader::new(b"\x27");
    /// assert!(r.field::<bool>()?);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn new(bytes: &'de [u8]) -> Self {
        TupleReader::at(bytes, 0)
    }

    /// A reader of the tuple that starts at `start` in `key`, so errors give offsets in the
    /// whole key.
    pub(crate) fn at(key: &'de [u8], start: usize) -> Self {
        TupleReader { key, pos: start, depth: 0, index: 0 }
    }

    /// Reads the next field as a `T`.
    ///
    /// # Errors
    ///
    /// What `T`'s decoder returns, with the field's position and offset filled in.
    ///
    /// ```
    /// let mut r = rowkey::format::TupleReader::new(b"\x15\x01");
    /// assert!(r.field::<String>().is_err()); // an integer, not a string
    /// ```
    #[inline]
    pub fn field<T: ReadField<'de, FdbTuple>>(&mut self) -> Result<T> {
        self.take_field(None)
    }

    /// Reads the next field as a `T`, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    ///
    /// ```
    /// let mut r = rowkey::format::TupleReader::new(b"\x15\x01");
    /// let err = r.named_field::<String>("name").unwrap_err();
    /// assert_eq!(err.location().name(), Some("name"));
    /// ```
    #[inline]
    pub fn named_field<T: ReadField<'de, FdbTuple>>(&mut self, name: &'static str) -> Result<T> {
        self.take_field(Some(name))
    }

    #[inline(always)]
    pub(super) fn take_field<T: ReadField<'de, FdbTuple>>(&mut self, name: Option<&'static str>) -> Result<T> {
        let (start, index) = (self.pos, self.index);
        let value = T::read(self).map_err(|e| e.in_field(index, name, start))?;
        self.index += 1;
        Ok(value)
    }

    /// Reads the raw prefix `expected` that [`TupleWriter::raw_prefix`] wrote.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] naming the prefix when the key does not hold it here.
    ///
    /// ```
    /// let mut r = rowkey::format::TupleReader::new(b"\xfe\x14");
    /// r.raw_prefix(b"\xfe")?;
    /// assert_eq!(r.field::<u8>()?, 0);
    /// assert!(rowkey::format::TupleReader::new(b"\x14").raw_prefix(b"\xfe").is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    ///
    /// [`TupleWriter::raw_prefix`]: crate::format::TupleWriter::raw_prefix
    #[inline]
    pub fn raw_prefix(&mut self, expected: &[u8]) -> Result<()> {
        check_raw_prefix(&self.key[self.pos..], self.pos, expected)?;
        self.pos += expected.len();
        Ok(())
    }

    /// The offset of the next field in the key.
    ///
    /// ```
    /// let mut r = rowkey::format::TupleReader::new(b"\x15\x01\x14");
    /// let _: u8 = r.field()?;
    /// assert_eq!(r.position(), 2);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The 0-based index of the next field to read.
    ///
    /// ```
    /// let mut r = rowkey::format::TupleReader::new(b"\x15\x01\x14");
    /// let _: u8 = r.field()?;
    /// assert_eq!(r.field_index(), 1);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn field_index(&self) -> usize {
        self.index
    }

    /// Checks that every byte was read.
    ///
    /// # Errors
    ///
    /// [`Error::TrailingBytes`] when bytes are left.
    ///
    /// ```
    /// let mut r = rowkey::format::TupleReader::new(b"\x14\x14");
    /// assert_eq!(r.field::<u8>()?, 0);
    /// assert!(r.finish().is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn finish(&self) -> Result<()> {
        let pos = self.pos;
        if pos < self.key.len() {
            return Err(Error::TrailingBytes { offset: pos, len: self.key.len() - pos });
        }
        Ok(())
    }
}

impl<'de> TupleReader<'de> {
    /// The next byte, not consumed.
    #[inline]
    pub(super) fn peek(&self) -> Option<u8> {
        self.key.get(self.pos).copied()
    }

    /// Whether the reader is at the `00` that ends the nested tuple it is in.
    #[inline]
    pub(super) fn at_nested_end(&self) -> bool {
        self.depth > 0 && self.peek() == Some(0x00) && self.key.get(self.pos + 1) != Some(&0xff)
    }

    /// Reads a field's type code, which must be one `accepts` takes; `want` says what that is
    /// (`"a string (type code 02)"`), for the error. No caller accepts `00`, so a nested
    /// tuple's end is only looked for once the code is refused.
    #[inline(always)]
    pub(super) fn code(&mut self, ty: &'static str, want: &str, accepts: impl Fn(u8) -> bool) -> Result<u8> {
        match self.key.get(self.pos) {
            Some(&code) if accepts(code) => {
                self.pos += 1;
                Ok(code)
            }
            _ => Err(self.not_the_code(ty, want)),
        }
    }

    /// Why the next byte is not the type code that was wanted.
    #[cold]
    #[inline(never)]
    fn not_the_code(&self, ty: &'static str, want: &str) -> Error {
        if self.at_nested_end() {
            return Error::invalid(
                ty,
                format!(
                    "the nested tuple ends here (00), where {want} was expected; it has fewer elements than the type"
                ),
            );
        }
        match self.peek() {
            None => Error::Truncated { at: Location::at(self.pos), detail: "the tuple has fewer fields than the type" },
            Some(code) => Error::invalid(
                ty,
                format!("found {} (type code {code:02x}) where {want} was expected", code_name(code)),
            ),
        }
    }

    /// Reads an integer of at most 8 bytes (type codes `0c..1c`) as its sign and magnitude,
    /// with one load of the word that ends at its last byte. `None`, having read nothing,
    /// for anything else: an arbitrary-precision code, a key cut short, a leading zero byte,
    /// which the full reader then reports.
    #[inline(always)]
    pub(super) fn small_integer(&mut self) -> Option<(bool, u64)> {
        let pos = self.pos;
        let code = *self.key.get(pos)?;
        if code == ZERO {
            self.pos = pos + 1;
            return Some((false, 0));
        }
        let n = usize::from(code.abs_diff(ZERO));
        if !(1..=8).contains(&n) {
            return None;
        }
        let end = pos + 1 + n;
        let word = match end.checked_sub(8).and_then(|start| self.key.get(start..end)) {
            Some(word) => u64::from_be_bytes(word.try_into().ok()?),
            // Fewer than 8 bytes before the integer's end: only at the start of a short key.
            None => {
                let mut word = [0u8; 8];
                copy_short(&mut word[8 - n..], self.key.get(pos + 1..end)?);
                u64::from_be_bytes(word)
            }
        };
        let mask = u64::MAX >> (64 - 8 * n);
        let magnitude = if code < ZERO { !word & mask } else { word & mask };
        // A magnitude of fewer bytes than the code says has a leading zero byte.
        if magnitude <= mask >> 8 {
            return None;
        }
        self.pos = end;
        Some((code < ZERO, magnitude))
    }

    /// Takes the next `n` bytes of a field.
    #[inline]
    pub(super) fn take(&mut self, n: usize, ty: &'static str) -> Result<&'de [u8]> {
        let pos = self.pos;
        let Some(bytes) = self.key.get(pos..pos + n) else {
            return Err(Error::invalid(
                ty,
                format!("the key ends {} bytes into a part of the field that needs {n}", self.key.len() - pos),
            ));
        };
        self.pos += n;
        Ok(bytes)
    }

    /// Takes the next `N` bytes of a field.
    #[inline]
    pub(super) fn take_array<const N: usize>(&mut self, ty: &'static str) -> Result<[u8; N]> {
        let mut array = [0u8; N];
        array.copy_from_slice(self.take(N, ty)?);
        Ok(array)
    }

    /// Takes an escaped byte string's body and its `00` end: every `00` inside is written
    /// `00 ff`. Borrowed when it holds no escape.
    #[inline(always)]
    pub(super) fn escaped(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        let rest = &self.key[self.pos..];
        if let Some(at) = find_byte(rest, 0)
            && rest.get(at + 1) != Some(&0xff)
        {
            self.pos += at + 1;
            return Ok(Cow::Borrowed(&rest[..at]));
        }
        self.unescape(ty)
    }

    /// [`escaped`](Self::escaped) for a value that holds an escape (or has no end): one pass
    /// to find its end, then its runs copied into a vector of its exact length.
    #[inline(never)]
    fn unescape(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        let rest = &self.key[self.pos..];
        let (mut from, mut escapes) = (0, 0);
        let end = loop {
            let Some(at) = find_byte(&rest[from..], 0).map(|i| from + i) else {
                return Err(Error::invalid(
                    ty,
                    "the key ends inside the value: it has no 00 end byte (a 00 inside the value is written 00 ff)",
                ));
            };
            if rest.get(at + 1) != Some(&0xff) {
                break at;
            }
            escapes += 1;
            from = at + 2;
        };
        let body = &rest[..end];
        let mut out = Vec::with_capacity(end - escapes);
        let mut from = 0;
        while let Some(at) = find_byte(&body[from..], 0) {
            out.extend_from_slice(&body[from..=from + at]);
            from += at + 2;
        }
        out.extend_from_slice(&body[from..]);
        self.pos += end + 1;
        Ok(Cow::Owned(out))
    }
}
