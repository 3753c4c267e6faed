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
    /// key when it is one ascending group (the data of a longer one is cut by markers, and a
    /// descending one's bytes are inverted).
    #[inline]
    pub(super) fn byte_string(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        let fast = if self.flip == 0 { self.fast_borrowed() } else { self.fast_descending() };
        match fast {
            Some(value) => Ok(value),
            None => self.byte_string_checked(ty),
        }
    }

    /// [`byte_string`](Self::byte_string) into a vector of its own, for `String`: copied
    /// straight out of the key, with no `Cow` between.
    #[inline]
    pub(super) fn owned_byte_string(&mut self, ty: &'static str) -> Result<Vec<u8>> {
        let fast = if self.flip == 0 { self.fast_owned::<0>() } else { self.fast_owned::<0xff>() };
        match fast {
            Some(value) => Ok(value),
            None => self.byte_string_checked(ty).map(Cow::into_owned),
        }
    }

    /// A well-formed ascending string, borrowed when it is one group; `None` (and the cursor
    /// unmoved) for anything else.
    #[inline(always)]
    fn fast_borrowed(&mut self) -> Option<Cow<'de, [u8]>> {
        let rest = self.remaining();
        let (groups, len) = find_groups::<0>(rest)?;
        let end = string_end(groups);
        self.pos += end;
        if groups <= 1 {
            return Some(Cow::Borrowed(&rest[1..1 + len]));
        }
        Some(Cow::Owned(copy_groups::<0>(&rest[1..end], groups, len)))
    }

    /// A well-formed descending string, copied out but for the empty one, which is borrowed
    /// (as `&str` and `&[u8]` fields need it to be); `None` for anything else.
    #[inline(always)]
    fn fast_descending(&mut self) -> Option<Cow<'de, [u8]>> {
        let value = self.fast_owned::<0xff>()?;
        Some(if value.is_empty() { Cow::Borrowed(&[]) } else { Cow::Owned(value) })
    }

    /// A well-formed string whose bytes are XORed with `FLIP`, copied out; `None` (and the
    /// cursor unmoved) for anything else.
    #[inline(always)]
    fn fast_owned<const FLIP: u8>(&mut self) -> Option<Vec<u8>> {
        let rest = self.remaining();
        let (groups, len) = find_groups::<FLIP>(rest)?;
        let end = string_end(groups);
        self.pos += end;
        Some(copy_groups::<FLIP>(&rest[1..end], groups, len))
    }

    /// [`byte_string`](Self::byte_string) a group at a time, for the bytes the fast path
    /// does not take (which are every error), so that the error says what is wrong. Out of
    /// line and cold, so that the inlined fast paths around its call stay small.
    #[cold]
    #[inline(never)]
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

/// A well-formed string or byte string at the start of `rest`, its bytes XORed with `FLIP`
/// (`ff` in a descending field): how many groups it has (none for the empty string) and how
/// many bytes of data it holds. `None` for anything else, which the checked reader then reads
/// again to say what is wrong.
///
/// Only the markers and the last group's padding are read here, so that the data is then
/// copied once into a vector allocated at its size.
#[inline(always)]
fn find_groups<const FLIP: u8>(rest: &[u8]) -> Option<(usize, usize)> {
    match rest.first()? ^ FLIP {
        0 => return Some((0, 0)),
        1 => {}
        _ => return None,
    }
    let mut groups = 0;
    for group in rest[1..].chunks_exact(GROUP_WITH_MARKER) {
        groups += 1;
        match group[GROUP] ^ FLIP {
            MORE => {}
            marker @ 1..=8 => {
                let last = usize::from(marker);
                let data = u64::from_be_bytes(*group.first_chunk::<GROUP>()?) ^ u64::from_ne_bytes([FLIP; GROUP]);
                if last < GROUP && data << (8 * last) != 0 {
                    return None;
                }
                return Some((groups, (groups - 1) * GROUP + last));
            }
            _ => return None,
        }
    }
    // The key ends before the last group does.
    None
}

/// Where a string of `groups` groups ends, from its tag on.
#[inline(always)]
fn string_end(groups: usize) -> usize {
    1 + groups * GROUP_WITH_MARKER
}

/// The first `len` data bytes of the `count` groups in `groups` (whole groups with their
/// markers), XORed with `FLIP`. Each group is copied as one 8-byte word, a fixed-size store
/// rather than a call to copy a few bytes; the capacity is every group's 8 bytes, so nothing
/// reallocates, and the last group's padding is then cut off.
#[inline(always)]
fn copy_groups<const FLIP: u8>(groups: &[u8], count: usize, len: usize) -> Vec<u8> {
    let data = |group: &[u8]| {
        let mut word = [0; GROUP];
        word.copy_from_slice(&group[..GROUP]);
        (u64::from_ne_bytes(word) ^ u64::from_ne_bytes([FLIP; GROUP])).to_ne_bytes()
    };
    // Most fields are one group: a constant capacity spares the store its room check.
    let mut out = if count == 1 {
        let mut out = Vec::with_capacity(GROUP);
        out.extend_from_slice(&data(groups));
        out
    } else {
        let mut out = Vec::with_capacity(count * GROUP);
        for group in groups.chunks_exact(GROUP_WITH_MARKER) {
            out.extend_from_slice(&data(group));
        }
        out
    };
    out.truncate(len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cursor over `key`, reading a field in the direction given.
    fn cursor(key: &[u8], descending: bool) -> Cursor<'_> {
        let mut cursor = Cursor::new(key);
        cursor.set_descending(descending);
        cursor
    }

    /// The checked reader's answer for `key`, as the fast paths give it: the value and where
    /// it ends, or `None` for an error.
    fn checked(key: &[u8], descending: bool) -> Option<(Vec<u8>, usize)> {
        let mut cursor = cursor(key, descending);
        let value = cursor.byte_string_checked("Vec<u8>").ok()?;
        Some((value.into_owned(), cursor.pos))
    }

    /// The fast paths' answers: for a `Cow`, and for a vector of its own.
    fn fast(key: &[u8], descending: bool) -> [Option<(Vec<u8>, usize)>; 2] {
        let mut c = cursor(key, descending);
        let cow = if descending { c.fast_descending() } else { c.fast_borrowed() };
        let cow = cow.map(|value| (value.into_owned(), c.pos));
        let mut c = cursor(key, descending);
        let owned = if descending { c.fast_owned::<0xff>() } else { c.fast_owned::<0>() };
        [cow, owned.map(|value| (value, c.pos))]
    }

    /// Every string the fast paths read, the checked reader reads the same; every one they
    /// pass over, the checked reader refuses (so no error is the fast paths' own). Both
    /// directions: a descending key is the ascending one with every byte inverted.
    #[test]
    fn the_fast_paths_agree_with_the_checked_reader() {
        for descending in [false, true] {
            for len in 0..=26usize {
                let value: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(37) | 1).collect();
                let mut key = Vec::new();
                crate::field::WriteField::<super::super::Memcomparable>::write(&value, &mut key).unwrap();
                if descending {
                    key.iter_mut().for_each(|b| *b = !*b);
                }
                key.push(0x42);
                let read = Some((value.clone(), key.len() - 1));
                assert_eq!(fast(&key, descending), [read.clone(), read], "{len} {descending}");
                let same = |bytes: &[u8]| {
                    let checked = checked(bytes, descending);
                    assert_eq!(fast(bytes, descending), [checked.clone(), checked], "{bytes:02x?} {descending}");
                };
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

    /// The fast paths borrow what the checked reader borrows: a `&str` or `&[u8]` field
    /// reads the strings of one ascending group, and the empty string in either direction.
    #[test]
    fn the_fast_paths_borrow_what_the_checked_reader_borrows() {
        for descending in [false, true] {
            for len in [0, 1, 8, 9] {
                let mut key = Vec::new();
                crate::field::WriteField::<super::super::Memcomparable>::write(&vec![b'x'; len][..], &mut key).unwrap();
                if descending {
                    key.iter_mut().for_each(|b| *b = !*b);
                }
                let mut c = cursor(&key, descending);
                let fast = matches!(c.byte_string("&[u8]").unwrap(), Cow::Borrowed(_));
                let checked =
                    matches!(cursor(&key, descending).byte_string_checked("&[u8]").unwrap(), Cow::Borrowed(_));
                assert_eq!(fast, checked, "{len} {descending}");
            }
        }
    }

    /// A string read into a vector of its own is copied once, into a vector of its groups'
    /// data: nothing reallocates as the groups are read.
    #[test]
    fn an_owned_string_is_allocated_once() {
        for descending in [false, true] {
            for len in 1..=40usize {
                let value = vec![b'a'; len];
                let mut key = Vec::new();
                crate::field::WriteField::<super::super::Memcomparable>::write(&value[..], &mut key).unwrap();
                if descending {
                    key.iter_mut().for_each(|b| *b = !*b);
                }
                let read = cursor(&key, descending).owned_byte_string("Vec<u8>").unwrap();
                assert_eq!(read, value);
                assert_eq!(read.capacity(), len.div_ceil(GROUP) * GROUP, "{len} {descending}");
            }
        }
    }
}
