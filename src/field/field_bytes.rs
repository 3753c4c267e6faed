//! [`FieldBytes`]: one field's bytes as a reader hands them over, borrowed from the key when
//! they can be, copied when unescaping changed them; and a fixed-length array from them.

use crate::error::{Error, Result};

/// The unescaped bytes of one field: borrowed from the key when the field needed no
/// unescaping, otherwise an owned copy (inline when short).
///
/// ```
/// use rowkey::field::FieldBytes;
///
/// let bytes = FieldBytes::borrowed(b"abc");
/// assert_eq!(bytes.as_slice(), b"abc");
/// assert_eq!(bytes.as_borrowed(), Some(&b"abc"[..]));
/// assert_eq!(FieldBytes::owned(b"abc".to_vec()).as_borrowed(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldBytes<'de>(Repr<'de>);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Repr<'de> {
    Borrowed(&'de [u8]),
    /// Unescaped bytes of a short field: most are integers and ids well under 32 bytes.
    Inline {
        len: u8,
        bytes: [u8; INLINE_FIELD],
    },
    Heap(Vec<u8>),
}

/// The longest unescaped field held without a heap allocation.
pub(crate) const INLINE_FIELD: usize = 32;

impl<'de> FieldBytes<'de> {
    /// Bytes that borrow from the key.
    #[must_use]
    pub fn borrowed(bytes: &'de [u8]) -> Self {
        FieldBytes(Repr::Borrowed(bytes))
    }

    /// Bytes that had to be copied (unescaped or negated).
    #[must_use]
    pub fn owned(bytes: Vec<u8>) -> Self {
        FieldBytes(Repr::Heap(bytes))
    }

    /// The first `len` bytes of `bytes`, copied out of a key (`len <= INLINE_FIELD`).
    #[inline]
    pub(crate) fn inline(bytes: [u8; INLINE_FIELD], len: usize) -> Self {
        debug_assert!(len <= INLINE_FIELD);
        // Callers fill at most INLINE_FIELD bytes, which fits a u8.
        FieldBytes(Repr::Inline { len: len.min(INLINE_FIELD) as u8, bytes })
    }

    /// A copy of `bytes`, inline when short.
    #[cfg(feature = "serde")]
    pub(crate) fn copied(bytes: &[u8]) -> Self {
        if bytes.len() <= INLINE_FIELD {
            let mut inline = [0; INLINE_FIELD];
            inline[..bytes.len()].copy_from_slice(bytes);
            FieldBytes::inline(inline, bytes.len())
        } else {
            FieldBytes(Repr::Heap(bytes.to_vec()))
        }
    }

    /// The bytes.
    #[must_use]
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        match &self.0 {
            Repr::Borrowed(bytes) => bytes,
            Repr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Repr::Heap(bytes) => bytes,
        }
    }

    /// The bytes with the key's lifetime, when they borrow from it.
    #[must_use]
    #[inline(always)]
    pub fn as_borrowed(&self) -> Option<&'de [u8]> {
        match self.0 {
            Repr::Borrowed(bytes) => Some(bytes),
            Repr::Inline { .. } | Repr::Heap(_) => None,
        }
    }

    /// The bytes as a vector (reusing an owned buffer when it is on the heap).
    #[must_use]
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Borrowed(bytes) => bytes.to_vec(),
            Repr::Inline { len, bytes } => bytes[..usize::from(len)].to_vec(),
            Repr::Heap(bytes) => bytes,
        }
    }

    /// The number of bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Whether the field is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
}

/// A fixed-length byte string from a field's bytes.
#[inline]
pub(crate) fn array_from<const N: usize>(bytes: &[u8], ty: &'static str) -> Result<[u8; N]> {
    match <[u8; N]>::try_from(bytes) {
        Ok(array) => Ok(array),
        Err(_) => Err(wrong_length(N, bytes.len(), ty)),
    }
}

#[cold]
pub(crate) fn wrong_length(want: usize, got: usize, ty: &'static str) -> Error {
    Error::invalid(ty, format!("expected exactly {want} bytes, the field has {got}"))
}
