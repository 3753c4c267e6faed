//! The storage behind [`Key`](crate::Key): bytes inline up to [`INLINE`], then a `Vec`.
//!
//! Encoders append a few short pieces per field (a type name, an id, a separator). A general
//! vector pays a library `memcpy` call and a capacity check for each; here a piece of up to
//! 16 bytes is checked for `00` and copied with a couple of fixed-size word moves, which is
//! what keeps encoding near a hand-written loop.

/// Bytes held without a heap allocation: 78 keeps the whole buffer at 80 bytes (see
/// [`INLINE_CAPACITY`](crate::key::INLINE_CAPACITY) for why).
pub(crate) const INLINE: usize = 78;

#[derive(Clone)]
pub(crate) enum KeyBuf {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Vec<u8>),
}

/// Whether any byte of `word` is zero (the classic bit trick; no false positives for the
/// "any" question).
#[inline(always)]
fn word_has_nul(word: u64) -> bool {
    word.wrapping_sub(0x0101_0101_0101_0101) & !word & 0x8080_8080_8080_8080 != 0
}

#[inline(always)]
fn half_has_nul(half: u32) -> bool {
    half.wrapping_sub(0x0101_0101) & !half & 0x8080_8080 != 0
}

#[inline(always)]
pub(crate) fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default())
}

#[inline(always)]
pub(crate) fn half(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[..4].try_into().unwrap_or_default())
}

/// Whether `src` holds a `00` byte: word-at-a-time for short inputs.
#[inline(always)]
pub(crate) fn has_nul(src: &[u8]) -> bool {
    let n = src.len();
    match n {
        0 => false,
        1..=3 => src[0] == 0 || src[n / 2] == 0 || src[n - 1] == 0,
        4..=7 => half_has_nul(half(src)) || half_has_nul(half(&src[n - 4..])),
        8..=16 => word_has_nul(word(src)) || word_has_nul(word(&src[n - 8..])),
        _ => src.contains(&0),
    }
}

/// The offset of the first byte equal to `target` (`00`, or `ff` in a descending field),
/// eight bytes at a time. A tail shorter than a word is checked with one overlapping load
/// instead of a byte loop: the bytes it re-reads hold no match, and a borrow only flags
/// bytes above a true match, so the lowest flagged byte is still the first match.
#[inline]
pub(crate) fn find_byte(src: &[u8], target: u8) -> Option<usize> {
    let n = src.len();
    if n < 8 {
        return find_in_short(src, target);
    }
    let spread = u64::from(target) * 0x0101_0101_0101_0101;
    let flagged = |at: usize| {
        let w = word(&src[at..]) ^ spread;
        w.wrapping_sub(0x0101_0101_0101_0101) & !w & 0x8080_8080_8080_8080
    };
    let mut offset = 0;
    while offset + 8 <= n {
        let found = flagged(offset);
        if found != 0 {
            return Some(offset + (found.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    if offset < n {
        let found = flagged(n - 8);
        if found != 0 {
            return Some(n - 8 + (found.trailing_zeros() / 8) as usize);
        }
    }
    None
}

/// [`find_byte`] for fewer than eight bytes: two overlapping four-byte loads.
#[inline(always)]
fn find_in_short(src: &[u8], target: u8) -> Option<usize> {
    let n = src.len();
    if n < 4 {
        return src.iter().position(|&b| b == target);
    }
    let spread = u32::from(target) * 0x0101_0101;
    for at in [0, n - 4] {
        let w = half(&src[at..]) ^ spread;
        let found = w.wrapping_sub(0x0101_0101) & !w & 0x8080_8080;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
    }
    None
}

/// Copies `src` into `dst` (of equal length) with fixed-size moves for short inputs: two
/// overlapping words cover 8 to 16 bytes without a loop or a call, two 16-byte moves 17 to 32.
#[inline(always)]
pub(crate) fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    match n {
        0 => {}
        1..=3 => {
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
        4..=7 => {
            dst[..4].copy_from_slice(&src[..4]);
            dst[n - 4..].copy_from_slice(&src[n - 4..]);
        }
        8..=16 => {
            dst[..8].copy_from_slice(&src[..8]);
            dst[n - 8..].copy_from_slice(&src[n - 8..]);
        }
        17..=32 => {
            dst[..16].copy_from_slice(&src[..16]);
            dst[n - 16..].copy_from_slice(&src[n - 16..]);
        }
        _ => dst.copy_from_slice(src),
    }
}

impl KeyBuf {
    pub(crate) const fn new() -> Self {
        KeyBuf::Inline { len: 0, bytes: [0; INLINE] }
    }

    pub(crate) fn with_capacity(capacity: usize) -> Self {
        if capacity <= INLINE { KeyBuf::new() } else { KeyBuf::Heap(Vec::with_capacity(capacity)) }
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            KeyBuf::Inline { len, bytes } => &bytes[..usize::from(*len)],
            KeyBuf::Heap(v) => v,
        }
    }

    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        match self {
            KeyBuf::Inline { len, bytes } => &mut bytes[..usize::from(*len)],
            KeyBuf::Heap(v) => v,
        }
    }

    /// The length alone: cheaper than `as_slice().len()`, which also bounds-checks the
    /// inline length to build a slice that encoders never look at.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        match self {
            KeyBuf::Inline { len, .. } => usize::from(*len),
            KeyBuf::Heap(v) => v.len(),
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        match self {
            KeyBuf::Inline { .. } => INLINE,
            KeyBuf::Heap(v) => v.capacity(),
        }
    }

    pub(crate) fn spilled(&self) -> bool {
        matches!(self, KeyBuf::Heap(_))
    }

    /// Empties the buffer, keeping a heap allocation for reuse.
    #[inline]
    pub(crate) fn clear(&mut self) {
        match self {
            KeyBuf::Inline { len, .. } => *len = 0,
            KeyBuf::Heap(v) => v.clear(),
        }
    }

    pub(crate) fn truncate(&mut self, new_len: usize) {
        match self {
            KeyBuf::Inline { len, .. } => {
                if new_len < usize::from(*len) {
                    // new_len < len <= INLINE, so it fits a u8.
                    *len = new_len as u8;
                }
            }
            KeyBuf::Heap(v) => v.truncate(new_len),
        }
    }

    /// Moves the bytes to the heap with room for `additional` more.
    #[cold]
    fn spill(&mut self, additional: usize) -> &mut Vec<u8> {
        if let KeyBuf::Inline { len, bytes } = self {
            let len = usize::from(*len);
            let mut heap = Vec::with_capacity((len + additional).max(2 * INLINE));
            heap.extend_from_slice(&bytes[..len]);
            *self = KeyBuf::Heap(heap);
        }
        match self {
            KeyBuf::Heap(v) => v,
            KeyBuf::Inline { .. } => unreachable!("spilled just above"),
        }
    }

    pub(crate) fn reserve(&mut self, additional: usize) {
        match self {
            KeyBuf::Inline { len, .. } if usize::from(*len) + additional <= INLINE => {}
            KeyBuf::Inline { .. } => {
                self.spill(additional);
            }
            KeyBuf::Heap(v) => v.reserve(additional),
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, byte: u8) {
        match self {
            KeyBuf::Inline { len, bytes } if usize::from(*len) < INLINE => {
                bytes[usize::from(*len)] = byte;
                *len += 1;
            }
            KeyBuf::Inline { .. } => self.spill(1).push(byte),
            KeyBuf::Heap(v) => v.push(byte),
        }
    }

    #[inline(always)]
    pub(crate) fn extend_from_slice(&mut self, src: &[u8]) {
        match self {
            KeyBuf::Inline { len, bytes } if usize::from(*len) + src.len() <= INLINE => {
                let at = usize::from(*len);
                copy_short(&mut bytes[at..at + src.len()], src);
                // The guard keeps the new length within INLINE, which fits a u8.
                *len = (at + src.len()) as u8;
            }
            KeyBuf::Inline { .. } => self.spill(src.len()).extend_from_slice(src),
            KeyBuf::Heap(v) => v.extend_from_slice(src),
        }
    }

    /// Appends `sep` (empty, or a separator of two bytes) and then `src` when `src` holds no
    /// `00` byte, with one capacity check; otherwise writes nothing and returns false.
    #[inline(always)]
    pub(crate) fn extend_separated_if_no_nul(&mut self, sep: &[u8], src: &[u8]) -> bool {
        if has_nul(src) {
            return false;
        }
        match self {
            KeyBuf::Inline { len, bytes } if usize::from(*len) + sep.len() + src.len() <= INLINE => {
                let at = usize::from(*len);
                let body = at + sep.len();
                if !sep.is_empty() {
                    bytes[at..body].copy_from_slice(&sep[..2]);
                }
                copy_short(&mut bytes[body..body + src.len()], src);
                // The guard keeps the new length within INLINE, which fits a u8.
                *len = (body + src.len()) as u8;
            }
            _ => {
                if !sep.is_empty() {
                    self.extend_from_slice(sep);
                }
                self.extend_from_slice(src);
            }
        }
        true
    }

    /// Appends `head`, `src` and `tail` with one capacity check: a field between a header
    /// byte and a terminator (HBase's text).
    #[inline(always)]
    pub(crate) fn extend_framed(&mut self, head: u8, src: &[u8], tail: u8) {
        match self {
            KeyBuf::Inline { len, bytes } if usize::from(*len) + src.len() + 2 <= INLINE => {
                let at = usize::from(*len);
                bytes[at] = head;
                copy_short(&mut bytes[at + 1..at + 1 + src.len()], src);
                bytes[at + 1 + src.len()] = tail;
                // The guard keeps the new length within INLINE, which fits a u8.
                *len = (at + 2 + src.len()) as u8;
            }
            _ => {
                self.push(head);
                self.extend_from_slice(src);
                self.push(tail);
            }
        }
    }

    /// Appends `src` when it holds no `00` byte; otherwise writes nothing and returns false.
    #[inline(always)]
    pub(crate) fn extend_if_no_nul(&mut self, src: &[u8]) -> bool {
        if has_nul(src) {
            return false;
        }
        self.extend_from_slice(src);
        true
    }

    pub(crate) fn into_vec(self) -> Vec<u8> {
        match self {
            KeyBuf::Inline { len, bytes } => bytes[..usize::from(len)].to_vec(),
            KeyBuf::Heap(v) => v,
        }
    }

    pub(crate) fn from_vec(v: Vec<u8>) -> Self {
        if v.len() <= INLINE { KeyBuf::from_slice(&v) } else { KeyBuf::Heap(v) }
    }

    /// A copy of `src`, built in place: scan bounds make two of these per range.
    #[inline]
    pub(crate) fn from_slice(src: &[u8]) -> Self {
        if src.len() > INLINE {
            return KeyBuf::Heap(src.to_vec());
        }
        let mut bytes = [0; INLINE];
        copy_short(&mut bytes[..src.len()], src);
        // At most INLINE bytes, which fits a u8.
        KeyBuf::Inline { len: src.len() as u8, bytes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_detection_is_exact_for_every_length_and_position() {
        for n in 0..40 {
            let clean = vec![0x5a_u8; n];
            assert!(!has_nul(&clean), "{n}");
            for at in 0..n {
                let mut dirty = clean.clone();
                dirty[at] = 0;
                assert!(has_nul(&dirty), "{n} {at}");
                // Bytes that confuse naive tricks: 0x80 and 0x01 next to the zero.
                dirty[at] = 0x80;
                assert!(!has_nul(&dirty), "{n} {at}");
            }
        }
    }

    #[test]
    fn find_byte_finds_the_first_match() {
        for n in 0..40 {
            for target in [0x00, 0xff] {
                let clean = vec![0x01_u8; n];
                assert_eq!(find_byte(&clean, target), None);
                for at in 0..n {
                    let mut v = clean.clone();
                    v[at] = target;
                    if at + 1 < n {
                        v[at + 1] = target; // a second match after the first
                    }
                    assert_eq!(find_byte(&v, target), Some(at), "{n} {at} {target}");
                }
            }
        }
    }

    #[test]
    fn short_copies_are_exact_for_every_length() {
        for n in 0..=40 {
            let src: Vec<u8> = (1..=n as u8).collect();
            let mut buf = KeyBuf::new();
            buf.push(9);
            buf.extend_from_slice(&src);
            assert_eq!(&buf.as_slice()[1..], &src[..], "{n}");
        }
    }

    #[test]
    fn spills_keep_the_bytes() {
        let mut buf = KeyBuf::new();
        for i in 0..200u8 {
            buf.push(i);
        }
        assert!(buf.spilled());
        assert_eq!(buf.as_slice(), (0..200u8).collect::<Vec<_>>());
        buf.clear();
        assert!(buf.capacity() >= 200, "clearing keeps the allocation");
    }
}
