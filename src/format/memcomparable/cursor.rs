//! [`Cursor`]: where a memcomparable field reader reads from. A field's length is known only
//! once its type is, so fields are read from the key in place rather than cut out first.

use std::borrow::Cow;

use crate::error::{Error, Location, Result};

/// The data bytes of a string group, and the group with its marker.
pub(super) const GROUP: usize = 8;
const GROUP_WITH_MARKER: usize = GROUP + 1;
/// The marker of a group that more groups follow.
pub(super) const MORE: u8 = 9;

/// A position in a memcomparable key, which field readers advance: what
/// [`Memcomparable`](super::Memcomparable) hands a [`ReadField`](crate::field::ReadField).
///
/// In a descending field the cursor inverts every byte it reads, so the field's reader sees
/// the bytes of the ascending value.
///
/// ```
/// use rowkey::field::ReadField;
/// use rowkey::format::memcomparable::{Cursor, Memcomparable};
///
/// let mut cursor = Cursor::new(&[0x00, 0x07, 0x01]);
/// let id = <u16 as ReadField<'_, Memcomparable>>::read(&mut cursor)?;
/// let flag = <bool as ReadField<'_, Memcomparable>>::read(&mut cursor)?;
/// assert_eq!((id, flag, cursor.position()), (7, true, 3));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Cursor<'de> {
    bytes: &'de [u8],
    pos: usize,
    /// `00` in an ascending field, `ff` in a descending one: XORed into every byte read.
    flip: u8,
}

impl<'de> Cursor<'de> {
    /// A cursor at the start of `bytes`, reading an ascending field.
    ///
    /// ```
    /// let cursor = rowkey::format::memcomparable::Cursor::new(b"\x01\x02");
    /// assert_eq!(cursor.remaining(), b"\x01\x02");
    /// ```
    #[must_use]
    pub fn new(bytes: &'de [u8]) -> Self {
        Cursor { bytes, pos: 0, flip: 0 }
    }

    /// Makes the next field read descending (every byte inverted) or ascending.
    pub(super) fn set_descending(&mut self, descending: bool) {
        self.flip = if descending { 0xff } else { 0 };
    }

    /// The offset of the next byte to read.
    ///
    /// ```
    /// let cursor = rowkey::format::memcomparable::Cursor::new(b"\x01");
    /// assert_eq!(cursor.position(), 0);
    /// ```
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet, as they are in the key.
    ///
    /// ```
    /// use rowkey::field::ReadField;
    /// use rowkey::format::memcomparable::{Cursor, Memcomparable};
    ///
    /// let mut cursor = Cursor::new(&[0x01, 0xaa]);
    /// let _ = <bool as ReadField<'_, Memcomparable>>::read(&mut cursor)?;
    /// assert_eq!(cursor.remaining(), [0xaa]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn remaining(&self) -> &'de [u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    /// Whether the cursor reads a descending field (and so inverts the bytes it reads).
    ///
    /// ```
    /// assert!(!rowkey::format::memcomparable::Cursor::new(b"").is_descending());
    /// ```
    #[must_use]
    pub fn is_descending(&self) -> bool {
        self.flip != 0
    }

    /// The next `N` bytes (inverted in a descending field); `what` says what they were to be,
    /// for the error when the key ends first.
    #[inline(always)]
    pub(super) fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        let pos = self.pos;
        let Some(&(mut out)) = self.bytes.get(pos..).and_then(<[u8]>::first_chunk::<N>) else {
            return Err(self.truncated(what));
        };
        if self.flip != 0 {
            for b in &mut out {
                *b = !*b;
            }
        }
        self.pos = pos + N;
        Ok(out)
    }

    /// Moves past `n` bytes the caller has checked are there.
    pub(super) fn skip(&mut self, n: usize) {
        self.pos += n;
    }

    /// The next byte (inverted in a descending field).
    #[inline(always)]
    pub(super) fn byte(&mut self, what: &'static str) -> Result<u8> {
        let Some(&b) = self.bytes.get(self.pos) else {
            return Err(self.truncated(what));
        };
        self.pos += 1;
        Ok(b ^ self.flip)
    }

    #[cold]
    fn truncated(&self, what: &'static str) -> Error {
        Error::Truncated { at: Location::at(self.bytes.len()), detail: what }
    }

    /// An error about the bytes at `offset`, for a value of type `ty`.
    #[cold]
    pub(super) fn invalid_at(offset: usize, ty: &'static str, detail: String) -> Error {
        Error::InvalidField { at: Location::at(offset), ty, detail: detail.into() }
    }

    /// Reads a string or byte string: its `00` / `01` tag, then its groups. Borrowed from the
    /// key when it is one ascending group (the data of a longer one is cut by markers).
    #[inline]
    pub(super) fn byte_string(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        if self.flip == 0
            && let Some((value, end)) = ascending_byte_string(self.bytes, self.pos)
        {
            self.pos = end;
            return Ok(value);
        }
        self.byte_string_checked(ty)
    }

    /// [`byte_string`](Self::byte_string) a group at a time, for descending fields and for
    /// bytes the fast path does not take (which include every error).
    fn byte_string_checked(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        if !self.tag(ty)? {
            return Ok(Cow::Borrowed(&[]));
        }
        let start = self.pos;
        let (group, len) = self.group(ty)?;
        if len <= GROUP {
            if self.flip == 0 {
                return Ok(Cow::Borrowed(&self.bytes[start..start + len]));
            }
            return Ok(Cow::Owned(group[..len].to_vec()));
        }
        let mut out = Vec::with_capacity(2 * GROUP);
        out.extend_from_slice(&group[..GROUP]);
        loop {
            let (group, len) = self.group(ty)?;
            out.extend_from_slice(&group[..len.min(GROUP)]);
            if len <= GROUP {
                return Ok(Cow::Owned(out));
            }
        }
    }

    /// Reads a byte string that must be exactly `N` bytes long, without allocating.
    #[inline]
    pub(super) fn byte_array<const N: usize>(&mut self, ty: &'static str) -> Result<[u8; N]> {
        let start = self.pos;
        let mut out = [0u8; N];
        let mut filled = 0;
        if self.tag(ty)? {
            loop {
                let (group, len) = self.group(ty)?;
                let data = &group[..len.min(GROUP)];
                if let Some(dst) = out.get_mut(filled..filled + data.len()) {
                    dst.copy_from_slice(data);
                }
                filled += data.len();
                if len <= GROUP {
                    break;
                }
            }
        }
        if filled != N {
            return Err(Self::invalid_at(start, ty, format!("expected a byte string of {N} bytes, it has {filled}")));
        }
        Ok(out)
    }

    /// A string's first byte: `false` for the empty string (`00`), `true` when groups follow.
    #[inline(always)]
    fn tag(&mut self, ty: &'static str) -> Result<bool> {
        let at = self.pos;
        match self.byte("a string or byte string starts with a 00 or 01 byte")? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Self::invalid_at(
                at,
                ty,
                format!("its first byte is {other:02x}; expected 00 (empty) or 01 (groups of 9 bytes follow)"),
            )),
        }
    }

    #[cold]
    fn bad_padding(at: usize, ty: &'static str, group: &[u8], len: usize) -> Error {
        let i = len + group[len..GROUP].iter().position(|&b| b != 0).unwrap_or_default();
        Self::invalid_at(
            at + i,
            ty,
            format!(
                "the last group holds {len} data bytes, so its padding must be 00, but byte {i} of the group is {:02x}",
                group[i]
            ),
        )
    }

    /// One group, ascending: its bytes, and how many are data (`1..=8`) or [`MORE`] (all 8,
    /// and another group follows). The padding after the data must be `00`.
    #[inline(always)]
    fn group(&mut self, ty: &'static str) -> Result<([u8; GROUP_WITH_MARKER], usize)> {
        let at = self.pos;
        let group: [u8; GROUP_WITH_MARKER] = self.array("a string group of 8 bytes and a marker byte")?;
        let marker = group[GROUP];
        match marker {
            1..=8 => {
                let len = usize::from(marker);
                // The padding is the low bytes of the data read as one big-endian word.
                let data = u64::from_be_bytes([
                    group[0], group[1], group[2], group[3], group[4], group[5], group[6], group[7],
                ]);
                if len < GROUP && data << (8 * len) != 0 {
                    return Err(Self::bad_padding(at, ty, &group, len));
                }
                Ok((group, len))
            }
            MORE => Ok((group, usize::from(MORE))),
            other => Err(Self::invalid_at(
                at + GROUP,
                ty,
                format!(
                    "a group's marker byte is {other:02x}; expected 01 to 08 (the last group's data bytes) or 09 (more \
                     groups follow)"
                ),
            )),
        }
    }
}

/// A well-formed ascending string or byte string at `start`: its bytes (borrowed when they are
/// one group) and where it ends. `None` for anything else, which the checked reader then
/// reads again to say what is wrong.
#[inline(always)]
fn ascending_byte_string(key: &[u8], start: usize) -> Option<(Cow<'_, [u8]>, usize)> {
    let rest = key.get(start..)?;
    match rest.first()? {
        0 => return Some((Cow::Borrowed(&[]), start + 1)),
        1 => {}
        _ => return None,
    }
    // Find the last group, checking each marker and the last group's padding.
    let mut at = 1;
    let len = loop {
        let group = rest.get(at..)?.first_chunk::<GROUP_WITH_MARKER>()?;
        at += GROUP_WITH_MARKER;
        match group[GROUP] {
            MORE => {}
            marker @ 1..=8 => {
                let len = usize::from(marker);
                let data = u64::from_be_bytes(*group.first_chunk::<GROUP>()?);
                if len < GROUP && data << (8 * len) != 0 {
                    return None;
                }
                break len;
            }
            _ => return None,
        }
    };
    let groups = (at - 1) / GROUP_WITH_MARKER;
    if groups == 1 {
        return Some((Cow::Borrowed(&rest[1..1 + len]), start + at));
    }
    // Whole groups copied (8 bytes at a time), then the last one's padding cut off.
    let mut out = Vec::with_capacity(groups * GROUP);
    for group in rest[1..at].chunks_exact(GROUP_WITH_MARKER) {
        out.extend_from_slice(&group[..GROUP]);
    }
    out.truncate((groups - 1) * GROUP + len);
    Some((Cow::Owned(out), start + at))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked reader's answer for `key`, as the fast path gives it: the value and where
    /// it ends, or `None` for an error.
    fn checked(key: &[u8]) -> Option<(Vec<u8>, usize)> {
        let mut cursor = Cursor::new(key);
        let value = cursor.byte_string_checked("Vec<u8>").ok()?;
        Some((value.into_owned(), cursor.pos))
    }

    fn fast(key: &[u8]) -> Option<(Vec<u8>, usize)> {
        ascending_byte_string(key, 0).map(|(value, end)| (value.into_owned(), end))
    }

    /// Every string the fast path reads, the checked reader reads the same; every one it
    /// passes over, the checked reader refuses (so no error is the fast path's own).
    #[test]
    fn the_fast_path_agrees_with_the_checked_reader() {
        for len in 0..=26usize {
            let value: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(37) | 1).collect();
            let mut key = Vec::new();
            crate::field::WriteField::<super::super::Memcomparable>::write(&value, &mut key).unwrap();
            key.push(0x42);
            assert_eq!(fast(&key), Some((value.clone(), key.len() - 1)), "{len}");
            let same = |bytes: &[u8]| assert_eq!(fast(bytes), checked(bytes), "{bytes:02x?}");
            for i in 0..key.len() {
                for bit in 0..8 {
                    let mut bad = key.clone();
                    bad[i] ^= 1 << bit;
                    same(&bad);
                }
                same(&key[..i]);
            }
        }
    }
}
