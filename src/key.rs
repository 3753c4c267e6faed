//! [`Key`], the owned bytes of one row key.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::key_buf::{INLINE, KeyBuf};

/// How many bytes a [`Key`] holds before it moves to the heap.
///
/// 78 makes `size_of::<Key>()` 80 bytes and covers the composite keys most schemas use: a
/// device key of type, hex id and timestamp is about 25 bytes; one of a name, four numbers
/// and 16 random bytes about 65, which at 62 spilled to the heap, so that every later piece
/// written went through a library `memcpy` (a seventh of that key's encoding). Keys are
/// moved by value less often than they are built, so the wider buffer pays for itself.
pub const INLINE_CAPACITY: usize = INLINE;

/// An owned row key: the raw bytes a store sorts by.
///
/// Keys of up to [`INLINE_CAPACITY`] bytes live inline, so building one needs no heap
/// allocation. A `Key` dereferences to `[u8]`, orders and hashes like its bytes, and prints
/// readably: printable ASCII as is, every other byte as `\xNN`, and a backslash as `\\`, so
/// the text can be parsed back with [`str::parse`].
///
/// ```
/// use rowkey::Key;
///
/// let key = Key::from(&b"phone#\x00\xff"[..]);
/// assert_eq!(key.len(), 8);
/// assert_eq!(key.to_string(), r"phone#\x00\xff");
/// assert_eq!(r"phone#\x00\xff".parse::<Key>().unwrap(), key);
/// assert!(Key::from("a") < Key::from("ab"));
/// ```
#[derive(Clone)]
pub struct Key {
    bytes: KeyBuf,
}

impl Default for Key {
    fn default() -> Self {
        Key::new()
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl Key {
    /// An empty key, without allocating.
    ///
    /// ```
    /// assert!(rowkey::Key::new().is_empty());
    /// ```
    #[must_use]
    #[inline]
    pub const fn new() -> Self {
        Key { bytes: KeyBuf::new() }
    }

    /// An empty key with room for `capacity` bytes (inline when it fits).
    ///
    /// ```
    /// let key = rowkey::Key::with_capacity(200);
    /// assert!(key.capacity() >= 200);
    /// ```
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Key { bytes: KeyBuf::with_capacity(capacity) }
    }

    /// The key's bytes.
    ///
    /// ```
    /// assert_eq!(rowkey::Key::from("ab").as_bytes(), b"ab");
    /// ```
    #[must_use]
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_slice()
    }

    /// The number of bytes (the same as `as_bytes().len()`, without building the slice).
    ///
    /// ```
    /// assert_eq!(rowkey::Key::from("ab").len(), 2);
    /// ```
    #[must_use]
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the key has no bytes.
    ///
    /// ```
    /// assert!(rowkey::Key::new().is_empty());
    /// ```
    #[must_use]
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.bytes.len() == 0
    }

    /// How many bytes the key can hold without reallocating.
    ///
    /// ```
    /// assert_eq!(rowkey::Key::new().capacity(), rowkey::key::INLINE_CAPACITY);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.bytes.capacity()
    }

    /// Whether the bytes have moved to the heap (longer than [`INLINE_CAPACITY`] at some point).
    ///
    /// ```
    /// assert!(!rowkey::Key::from("short").spilled());
    /// assert!(rowkey::Key::from(vec![0u8; 100]).spilled());
    /// ```
    #[must_use]
    pub fn spilled(&self) -> bool {
        self.bytes.spilled()
    }

    /// Removes every byte, keeping the allocation for reuse.
    ///
    /// ```
    /// let mut key = rowkey::Key::from("abc");
    /// key.clear();
    /// assert!(key.is_empty());
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Shortens the key to `len` bytes; does nothing when it is already shorter.
    ///
    /// ```
    /// let mut key = rowkey::Key::from("abc");
    /// key.truncate(1);
    /// assert_eq!(key, "a");
    /// ```
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.bytes.truncate(len);
    }

    /// Appends one byte.
    ///
    /// ```
    /// let mut key = rowkey::Key::from("a");
    /// key.push(0xff);
    /// assert_eq!(key.as_bytes(), b"a\xff");
    /// ```
    #[inline]
    pub fn push(&mut self, byte: u8) {
        self.bytes.push(byte);
    }

    /// Clears the key and runs `write` on it; when `write` fails the key is left empty, so
    /// a reused buffer never holds half a key.
    #[inline(always)]
    pub(crate) fn rewrite(&mut self, write: impl FnOnce(&mut Key) -> Result<()>) -> Result<()> {
        self.clear();
        let written = write(self);
        if written.is_err() {
            self.clear();
        }
        written
    }

    /// [`extend_if_no_nul`](Self::extend_if_no_nul) after `sep` (the separator that goes
    /// before a field, or nothing), with one capacity check for both.
    #[inline(always)]
    pub(crate) fn extend_separated_if_no_nul(&mut self, sep: &[u8], bytes: &[u8]) -> bool {
        self.bytes.extend_separated_if_no_nul(sep, bytes)
    }

    /// Appends `bytes` when none of them is `00`; otherwise appends nothing and returns
    /// false. The ordered format's escaping takes this fast path for most fields.
    #[inline(always)]
    pub(crate) fn extend_if_no_nul(&mut self, bytes: &[u8]) -> bool {
        self.bytes.extend_if_no_nul(bytes)
    }

    /// Appends `head`, `bytes` and `tail`, with one capacity check for the three.
    #[inline(always)]
    pub(crate) fn extend_framed(&mut self, head: u8, bytes: &[u8], tail: u8) {
        self.bytes.extend_framed(head, bytes, tail);
    }

    /// Appends bytes.
    ///
    /// ```
    /// let mut key = rowkey::Key::from("a");
    /// key.extend_from_slice(b"bc");
    /// assert_eq!(key, "abc");
    /// ```
    #[inline(always)]
    pub fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Reserves room for at least `additional` more bytes.
    ///
    /// ```
    /// let mut key = rowkey::Key::new();
    /// key.reserve(100);
    /// assert!(key.capacity() >= 100);
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.bytes.reserve(additional);
    }

    /// The bytes as a `Vec<u8>`, reusing the heap buffer when there is one.
    ///
    /// ```
    /// assert_eq!(rowkey::Key::from("ab").into_vec(), b"ab".to_vec());
    /// ```
    #[must_use]
    pub fn into_vec(self) -> Vec<u8> {
        self.bytes.into_vec()
    }

    /// Mutable access to the bytes, for transforms that rewrite a key in place.
    ///
    /// ```
    /// let mut key = rowkey::Key::from("ab");
    /// key.as_mut_bytes()[0] = b'x';
    /// assert_eq!(key, "xb");
    /// ```
    #[inline]
    pub fn as_mut_bytes(&mut self) -> &mut [u8] {
        self.bytes.as_mut_slice()
    }

    /// Renders the key readably; see the type's docs for the escaping rules.
    ///
    /// ```
    /// assert_eq!(rowkey::Key::from(&b"a\\b\x01"[..]).to_readable(), r"a\\b\x01");
    /// ```
    #[must_use]
    pub fn to_readable(&self) -> String {
        self.to_string()
    }

    /// Parses the readable form that `Display` writes back into a key.
    ///
    /// Accepts printable ASCII, `\xNN` (two hex digits, either case) and `\\`. Anything else is
    /// an [`Error::ReadableKey`] with the offset of the offending character.
    ///
    /// ```
    /// let key = rowkey::Key::from_readable(r"user\x001").unwrap();
    /// assert_eq!(key.as_bytes(), b"user\x001");
    /// assert!(rowkey::Key::from_readable(r"bad\x0").is_err());
    /// ```
    pub fn from_readable(text: &str) -> Result<Key> {
        let bytes = text.as_bytes();
        let mut key = Key::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'\\' {
                match bytes.get(i + 1) {
                    Some(b'\\') => {
                        key.push(b'\\');
                        i += 2;
                    }
                    Some(b'x') => {
                        let hex = bytes.get(i + 2..i + 4).and_then(|h| Some(hex_value(h[0])? << 4 | hex_value(h[1])?));
                        let Some(byte) = hex else {
                            return Err(readable_error(i, "`\\x` must be followed by two hex digits"));
                        };
                        key.push(byte);
                        i += 4;
                    }
                    _ => {
                        return Err(readable_error(
                            i,
                            "a backslash starts `\\xNN` or `\\\\`; write a literal backslash as `\\\\`",
                        ));
                    }
                }
            } else if is_plain(b) {
                key.push(b);
                i += 1;
            } else {
                return Err(readable_error(i, "only printable ASCII may appear as is; write other bytes as `\\xNN`"));
            }
        }
        Ok(key)
    }
}

fn readable_error(offset: usize, detail: &'static str) -> Error {
    Error::ReadableKey { offset, detail }
}

/// The value of one hex digit, either case.
pub(crate) fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Printable ASCII other than the backslash, which starts an escape.
fn is_plain(b: u8) -> bool {
    (0x20..0x7f).contains(&b) && b != b'\\'
}

/// Writes bytes the way [`Key`]'s `Display` does; `quote` also escapes `"` for `Debug`.
pub(crate) fn write_readable(f: &mut fmt::Formatter<'_>, bytes: &[u8], quote: bool) -> fmt::Result {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if is_plain(b) && !(quote && b == b'"') {
            continue;
        }
        // Printable runs go out in one call: most keys are mostly text.
        f.write_str(std::str::from_utf8(&bytes[run..i]).map_err(|_| fmt::Error)?)?;
        if b == b'\\' {
            f.write_str("\\\\")?;
        } else {
            let esc = [b'\\', b'x', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]];
            f.write_str(std::str::from_utf8(&esc).map_err(|_| fmt::Error)?)?;
        }
        run = i + 1;
    }
    f.write_str(std::str::from_utf8(&bytes[run..]).map_err(|_| fmt::Error)?)
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_readable(f, self.as_bytes(), false)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(\"")?;
        write_readable(f, self.as_bytes(), true)?;
        f.write_str("\")")
    }
}

impl FromStr for Key {
    type Err = Error;

    fn from_str(s: &str) -> Result<Key> {
        Key::from_readable(s)
    }
}

impl Hash for Key {
    // Must hash exactly like `[u8]` so that `Borrow<[u8]>` lookups in hash maps work.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl Deref for Key {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        self.bytes.as_slice()
    }
}

impl AsRef<[u8]> for Key {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_slice()
    }
}

impl Borrow<[u8]> for Key {
    fn borrow(&self) -> &[u8] {
        self.bytes.as_slice()
    }
}

impl Extend<u8> for Key {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, iter: I) {
        for byte in iter {
            self.bytes.push(byte);
        }
    }
}

impl From<&[u8]> for Key {
    #[inline]
    fn from(bytes: &[u8]) -> Self {
        Key { bytes: KeyBuf::from_slice(bytes) }
    }
}

impl<const N: usize> From<&[u8; N]> for Key {
    fn from(bytes: &[u8; N]) -> Self {
        Key::from(&bytes[..])
    }
}

impl From<&str> for Key {
    fn from(text: &str) -> Self {
        Key::from(text.as_bytes())
    }
}

impl From<Vec<u8>> for Key {
    /// Keeps a short vector inline, and a long one's heap buffer as it is.
    fn from(bytes: Vec<u8>) -> Self {
        Key { bytes: KeyBuf::from_vec(bytes) }
    }
}

impl From<Key> for Vec<u8> {
    fn from(key: Key) -> Self {
        key.into_vec()
    }
}

impl PartialEq<[u8]> for Key {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_bytes() == other
    }
}

impl PartialEq<&[u8]> for Key {
    fn eq(&self, other: &&[u8]) -> bool {
        self.as_bytes() == *other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Key {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_bytes() == other
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for Key {
    fn eq(&self, other: &&[u8; N]) -> bool {
        self.as_bytes() == *other
    }
}

impl PartialEq<Vec<u8>> for Key {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_bytes() == other.as_slice()
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<Key> for [u8] {
    fn eq(&self, other: &Key) -> bool {
        self == other.as_bytes()
    }
}

impl PartialEq<Key> for Vec<u8> {
    fn eq(&self, other: &Key) -> bool {
        self.as_slice() == other.as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_the_inline_capacity_and_little_else() {
        assert_eq!(size_of::<Key>(), INLINE_CAPACITY + 2, "Key is {} bytes", size_of::<Key>());
    }

    #[test]
    fn inline_up_to_capacity() {
        assert!(!Key::from(vec![7u8; INLINE_CAPACITY]).spilled());
        assert!(Key::from(vec![7u8; INLINE_CAPACITY + 1]).spilled());
    }

    #[test]
    fn readable_escapes_everything_but_printable_ascii() {
        let key = Key::from(&b"a \x00\x1f\x7f\x80\xff\\\"~"[..]);
        assert_eq!(key.to_string(), r#"a \x00\x1f\x7f\x80\xff\\"~"#);
        assert_eq!(format!("{key:?}"), r#"Key("a \x00\x1f\x7f\x80\xff\\\x22~")"#);
    }

    #[test]
    fn readable_round_trips_every_byte() {
        let all: Vec<u8> = (0..=255).collect();
        let key = Key::from(all);
        assert_eq!(Key::from_readable(&key.to_string()).unwrap(), key);
        assert_eq!(Key::from_readable(r"\xFF\xfe").unwrap(), b"\xff\xfe");
    }

    #[test]
    fn readable_parse_errors_point_at_the_character() {
        for (text, offset) in [(r"ab\x0", 2), (r"ab\q", 2), ("ab\u{e9}", 2), (r"\xg0", 0), ("a\tb", 1)] {
            match Key::from_readable(text) {
                Err(Error::ReadableKey { offset: got, .. }) => assert_eq!(got, offset, "{text:?}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn hashes_like_its_bytes() {
        use std::collections::HashSet;
        let set: HashSet<Key> = [Key::from("a"), Key::from("b")].into_iter().collect();
        assert!(set.contains(&b"a"[..]));
        assert!(!set.contains(&b"c"[..]));
    }
}
