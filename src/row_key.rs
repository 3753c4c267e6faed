//! The [`RowKey`] trait, and its implementations for tuples.

use crate::error::{Error, Result};
use crate::format::key_format::{FormatKey, KeyFormat, decode_key, encode_key};
use crate::key::Key;
use crate::schema::KeySchema;

/// A type that is a row key: it encodes to a [`Key`] and decodes from one.
///
/// `'de` is the lifetime of the bytes `from_key` reads, which lets a key type hold `&str` or
/// `&[u8]` fields that borrow from them, as serde's `Deserialize<'de>` does. For a key type
/// that owns its data, bound on [`RowKeyOwned`] in generic code.
///
/// Tuples of 1 to 12 [field types](crate::field) are row keys in the ordered format:
///
/// ```
/// use rowkey::RowKey;
///
/// let key = ("phone", "4c410523", 20200501i64).to_key()?;
/// assert_eq!(key.to_string(), r"phone\x00\x014c410523\x00\x01\xf14<5");
///
/// let (kind, id, day) = <(String, String, i64)>::from_key(&key)?;
/// assert_eq!((kind.as_str(), id.as_str(), day), ("phone", "4c410523", 20200501));
///
/// // Borrowing decode: no allocation for the strings.
/// let (kind, _, _): (&str, &str, i64) = RowKey::from_key(&key)?;
/// assert_eq!(kind, "phone");
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait RowKey<'de>: Sized {
    /// Clears `out`, then writes this key into it. Reusing one `Key` across calls avoids
    /// any allocation for keys that fit inline (and any reallocation for longer ones).
    ///
    /// On error `out` is left empty.
    ///
    /// # Errors
    ///
    /// When a field cannot be encoded without breaking order, or the key is too long for
    /// its type; the error names the field.
    ///
    /// ```
    /// use rowkey::{Key, RowKey};
    ///
    /// let mut buf = Key::new();
    /// for id in 0..3u32 {
    ///     ("device", id).encode_into(&mut buf)?;
    ///     assert_eq!(<(String, u32)>::from_key(&buf)?.1, id);
    /// }
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    fn encode_into(&self, out: &mut Key) -> Result<()>;

    /// Encodes this key into a new [`Key`].
    ///
    /// # Errors
    ///
    /// As [`encode_into`](Self::encode_into).
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// assert_eq!(("bobby", 14242i64).to_key()?.as_bytes(), b"bobby\x00\x01\xe0\x37\xa2");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    fn to_key(&self) -> Result<Key> {
        let mut key = Key::new();
        self.encode_into(&mut key)?;
        Ok(key)
    }

    /// Decodes a key. Any bytes are accepted: ones that are not a key of this type give an
    /// error with the offset and the field.
    ///
    /// # Errors
    ///
    /// When the bytes are not a key of this type (see [`Error`](crate::Error)'s variants).
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// assert_eq!(<(String, i64)>::from_key(b"bobby\x00\x01\xe0\x37\xa2")?, ("bobby".to_owned(), 14242));
    /// assert!(<(String, i64)>::from_key(b"bobby\x00\x01\xe0\x37").is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    fn from_key(bytes: &'de [u8]) -> Result<Self>;
}

/// A [`RowKey`] that owns its data, so it decodes from bytes of any lifetime. The bound for
/// generic code that decodes keys it does not keep.
///
/// ```
/// use rowkey::RowKeyOwned;
///
/// fn decode_all<K: RowKeyOwned>(keys: &[rowkey::Key]) -> rowkey::Result<Vec<K>> {
///     keys.iter().map(|k| K::from_key(k)).collect()
/// }
/// # use rowkey::RowKey;
/// let keys = vec![("a", 1u8).to_key()?, ("b", 2u8).to_key()?];
/// assert_eq!(decode_all::<(String, u8)>(&keys)?[1], ("b".to_owned(), 2));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait RowKeyOwned: for<'de> RowKey<'de> {}

impl<T> RowKeyOwned for T where T: for<'de> RowKey<'de> {}

// What a derived key's `RowKey` impl calls: the whole key, then its length limit. An error
// goes through the key's schema, which takes out what it quotes of a `sensitive` field.

/// An error of a key of type `T`, with what it quotes of a `sensitive` field taken out; as
/// it is, at no cost, for a key without one (the test is made at compile time).
#[inline(always)]
fn redacted<T: KeySchema>(error: Error) -> Error {
    if const { T::SCHEMA.has_sensitive_fields() } { redact_cold::<T>(error) } else { error }
}

#[cold]
#[inline(never)]
fn redact_cold<T: KeySchema>(error: Error) -> Error {
    T::SCHEMA.redact_error(error)
}

/// An error of a derived scan builder of key type `T`, about its field `name` (or the
/// prefix or bucket): named, so that it says which field, and redacted as the key's own
/// errors are, since the builder encodes the same values `to_key` does.
#[cold]
#[inline(never)]
pub fn scan_error<T: KeySchema>(error: Error, name: &'static str) -> Error {
    redacted::<T>(error.with_name(name))
}

/// `RowKey::encode_into` of a derived key, in every format: the whole key, then the length
/// limit.
///
/// # Errors
///
/// What a field's encoder returns, or [`Error::TooLong`]; `out` is then empty.
#[inline]
pub fn encode_derived<'de, F: KeyFormat, T: FormatKey<'de, F> + KeySchema>(
    format: &F,
    value: &T,
    out: &mut Key,
    max_len: usize,
) -> Result<()> {
    encode_key(format, value, out).map_err(redacted::<T>)?;
    check_len(out, max_len)
}

/// `RowKey::from_key` of a derived key, in every format: the length limit, then the whole key.
///
/// # Errors
///
/// [`Error::TooLong`], or what the format's reader or a field's decoder returns.
#[inline]
pub fn decode_derived<'de, F: KeyFormat, T: FormatKey<'de, F> + KeySchema>(
    format: &F,
    bytes: &'de [u8],
    max_len: usize,
) -> Result<T> {
    check_read_len(bytes, max_len)?;
    decode_key(format, bytes).map_err(redacted::<T>)
}

/// Refuses a key longer than its type writes: its value could not be encoded again, so
/// accepting it would give a value whose key is not the one it was read from.
#[inline]
fn check_read_len(bytes: &[u8], max_len: usize) -> Result<()> {
    if bytes.len() > max_len { Err(Error::TooLong { len: bytes.len(), max: max_len }) } else { Ok(()) }
}

/// Refuses (and clears) a key longer than `max_len`.
fn check_len(out: &mut Key, max_len: usize) -> Result<()> {
    if out.len() <= max_len {
        return Ok(());
    }
    let len = out.len();
    out.clear();
    Err(Error::TooLong { len, max: max_len })
}
