//! [`Hashed`]: a key field that holds a keyed hash (HMAC-SHA-256) of a value rather than the
//! value, and [`HashKey`], the secret it is keyed with (feature `hashed`).
//!
//! | format | bytes | example (`Hashed<8>`) |
//! |---|---|---|
//! | ordered | the hash's bytes (Bigtable `BYTES`, raw) | `b0 34 4c 61 d8 db 38 53` |
//! | delimited | lowercase hex, two digits a byte | `b0344c61d8db3853` |
//! | other formats | a byte string of the hash's bytes | |
//!
//! Row keys are read by more programs than the application: logs, monitoring, key
//! visualisers, backups. A key that must find a person's rows (by their email, say) need not
//! hold the address: the HMAC of the address under a secret only the application holds finds
//! the same rows, and reveals nothing to whoever reads the key without the secret. The price:
//! the hash keeps no order of the values, so a hashed field can only be fixed in a scan,
//! never given a range or a prefix; a key never gives the value back; and a new secret gives
//! every value a new hash, so rotating it means rewriting the table's keys.

use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use zeroize::Zeroizing;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::{ByteStrings, Encoding, FieldType, ReadField, Sink, WriteField};

/// The secret a [`Hashed`] field is keyed with.
///
/// It never prints itself (`Debug` shows `HashKey(<redacted>)`), and its bytes are overwritten
/// with zeros when it is dropped. Use a random secret of 32 bytes, kept where the
/// application keeps its other secrets: whoever holds it can test guesses of a value against a
/// key.
///
/// ```
/// use rowkey::field::HashKey;
///
/// let key = HashKey::new(b"a secret of the application's own")?;
/// assert_eq!(format!("{key:?}"), "HashKey(<redacted>)");
/// assert!(HashKey::new(b"").is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone)]
pub struct HashKey {
    secret: Zeroizing<Vec<u8>>,
}

impl HashKey {
    /// A key from the secret's bytes, copied (the copy is zeroed on drop; the caller's bytes are
    /// the caller's to clear).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for an empty secret, which would key every hash alike.
    ///
    /// ```
    /// let key = rowkey::field::HashKey::new([7u8; 32])?;
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn new(secret: impl AsRef<[u8]>) -> Result<HashKey> {
        Self::from_vec(secret.as_ref().to_vec())
    }

    /// A key that takes ownership of the secret's bytes, so that no copy is left behind.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new).
    ///
    /// ```
    /// let secret: Vec<u8> = (0..32).collect();
    /// let key = rowkey::field::HashKey::from_vec(secret)?;
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn from_vec(secret: Vec<u8>) -> Result<HashKey> {
        let secret = Zeroizing::new(secret);
        if secret.is_empty() {
            return Err(Error::argument(
                "hash key",
                "the secret is empty, so every hash would be keyed alike; give at least one byte (32 random bytes are best)",
            ));
        }
        Ok(HashKey { secret })
    }

    /// The full 32-byte HMAC-SHA-256 of `value`.
    fn mac(&self, value: &[u8]) -> [u8; 32] {
        // HMAC takes a key of any length; the state is zeroed on drop (hmac's `zeroize`).
        let mut mac =
            <Hmac<Sha256> as KeyInit>::new_from_slice(&self.secret).expect("HMAC accepts a key of any length");
        mac.update(value);
        mac.finalize().into_bytes().into()
    }
}

impl fmt::Debug for HashKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HashKey(<redacted>)")
    }
}

/// The keyed hash of a value as a key field: HMAC-SHA-256 under a [`HashKey`], truncated to
/// its first `N` bytes (16 by default, 8 to 32; another width does not compile: see
/// [`HashWidth`]).
///
/// Equal values under one key give one hash, so a lookup by the value finds its rows; the
/// value itself is never in the key, and decoding a key gives the hash, never the value.
/// Normalise the value before hashing it (lowercase an email address, say): the hash of
/// `Alice@example.com` is not the hash of `alice@example.com`.
///
/// Sixteen bytes make a collision between two values negligible for any table; eight keep
/// keys short where the number of values is small (a collision among a billion values of
/// eight bytes has a chance of about 3 in 100,000).
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::field::{HashKey, Hashed};
///
/// #[derive(RowKey)]
/// struct Account {
///     email: Hashed,
///     since: u32,
/// }
///
/// let key = HashKey::new(b"the application's secret")?;
/// let row = Account { email: Hashed::new(&key, "alice@example.com"), since: 2024 };
/// let bytes = row.to_key()?;
/// assert!(!bytes.as_bytes().windows(5).any(|w| w == b"alice"));
///
/// // The same address under the same key finds the row.
/// let found = Account::from_key(&bytes)?;
/// assert_eq!(found.email, Hashed::new(&key, "alice@example.com"));
/// let rows = Account::scan().email(Hashed::new(&key, "alice@example.com")).ranges()?;
/// assert!(rows.contains(&bytes));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hashed<const N: usize = 16>([u8; N]);

/// The widths a [`Hashed`] field can have: implemented by `Hashed<8>` to `Hashed<32>`, so that
/// any other width is a compile error that says so (HMAC-SHA-256 gives 32 bytes, and fewer
/// than 8 would let values share a hash too often).
///
/// ```
/// fn width_ok<T: rowkey::field::HashWidth>() {}
/// width_ok::<rowkey::field::Hashed<8>>();
/// width_ok::<rowkey::field::Hashed<32>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a width a keyed hash can have",
    label = "a `Hashed` field is 8 to 32 bytes wide",
    note = "HMAC-SHA-256 gives 32 bytes, and fewer than 8 let two values share a hash too often; `Hashed` alone is 16"
)]
pub trait HashWidth: sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! widths {
    ($($n:literal)*) => {$(
        impl sealed::Sealed for Hashed<$n> {}
        impl HashWidth for Hashed<$n> {}
    )*};
}

widths!(8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);

impl<const N: usize> Hashed<N>
where
    Self: HashWidth,
{
    /// The hash of `value` under `key`.
    ///
    /// ```
    /// use rowkey::field::{HashKey, Hashed};
    ///
    /// let key = HashKey::new(b"secret")?;
    /// let short: Hashed<8> = Hashed::new(&key, "alice@example.com");
    /// let long: Hashed<32> = Hashed::new(&key, "alice@example.com");
    /// assert_eq!(short.as_bytes(), &long.as_bytes()[..8]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn new(key: &HashKey, value: impl AsRef<[u8]>) -> Hashed<N> {
        let mac = key.mac(value.as_ref());
        let mut bytes = [0u8; N];
        bytes.copy_from_slice(&mac[..N]);
        Hashed(bytes)
    }

    /// A hash from its bytes, as a key holds them (a hash read from elsewhere, or a test's).
    ///
    /// ```
    /// use rowkey::field::Hashed;
    ///
    /// let hash = Hashed::from_bytes([0xab; 16]);
    /// assert_eq!(hash.as_bytes(), &[0xab; 16]);
    /// ```
    #[must_use]
    pub const fn from_bytes(bytes: [u8; N]) -> Hashed<N> {
        Hashed(bytes)
    }

    /// The hash's bytes.
    ///
    /// ```
    /// use rowkey::field::{HashKey, Hashed};
    ///
    /// let hash: Hashed = Hashed::new(&HashKey::new(b"secret")?, "x");
    /// assert_eq!(hash.as_bytes().len(), 16);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }
}

/// The hash as lowercase hex: it is not the value, so it may be shown.
impl<const N: usize> fmt::Display for Hashed<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl<const N: usize> fmt::Debug for Hashed<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hashed({self})")
    }
}

impl<const N: usize> FieldType for Hashed<N>
where
    Self: HashWidth,
{
    const ENCODING: Encoding = Encoding::ByteArray { len: N };
    const BYTE_STRING: bool = true;
}

/// A format that holds [`Hashed`] fields. By default a hash is a byte string of its `N`
/// bytes; a format with another form for it overrides the methods (the delimited format
/// writes lowercase hex, two digits a byte).
///
/// ```
/// use rowkey::field::Digests;
/// use rowkey::format::{DelimitedText, Ordered};
///
/// let mut text = Vec::new();
/// DelimitedText::write_digest(&[0xb0, 0x34], &mut text)?;
/// assert_eq!(text, b"b034");
/// assert_eq!(DelimitedText::read_digest::<2>(b"b034")?, [0xb0, 0x34]);
/// let mut bytes = Vec::new();
/// Ordered::write_digest(&[0xb0, 0x34], &mut bytes)?;
/// assert_eq!(bytes, [0xb0, 0x34]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold `Hashed` fields",
    label = "`{Self}` has no `Hashed` fields",
    note = "store the hash's bytes as `[u8; N]`"
)]
pub trait Digests: ByteStrings {
    /// The bytes a hash's field holds, when known in advance (see [`WriteField::ALPHABET`]).
    const DIGEST_ALPHABET: Option<Alphabet> = None;
    /// Whether a hash's field holds its hex digits rather than its bytes: the key's schema then
    /// says so (see [`WriteField::KEY_ENCODING`]).
    const DIGEST_AS_HEX: bool = false;

    /// Writes a hash.
    ///
    /// # Errors
    ///
    /// As the format's byte strings.
    fn write_digest<S: Sink>(bytes: &[u8], out: &mut S) -> Result<()> {
        Self::write_bytes(bytes, out)
    }

    /// Reads a hash of `N` bytes back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] when the field is not a hash of `N` bytes.
    fn read_digest<const N: usize>(input: Self::Input<'_, '_>) -> Result<[u8; N]> {
        Self::read_array(input, "Hashed")
    }
}

impl<F: Digests, const N: usize> WriteField<F> for Hashed<N>
where
    Self: HashWidth,
{
    const ALPHABET: Option<Alphabet> = F::DIGEST_ALPHABET;
    // `N` is at most 32, so the digits fit a `u8`.
    const KEY_ENCODING: Encoding =
        if F::DIGEST_AS_HEX { Encoding::Hex { digits: Some((2 * N) as u8) } } else { Encoding::ByteArray { len: N } };

    #[inline]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_digest(&self.0, out)
    }
}

impl<'de, F: Digests, const N: usize> ReadField<'de, F> for Hashed<N>
where
    Self: HashWidth,
{
    #[inline]
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_digest(input).map(Hashed)
    }
}

/// A hash's text: lowercase hex, two digits a byte.
pub(crate) fn write_digest_text<S: Sink>(bytes: &[u8], out: &mut S) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        out.write(&[DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 15)]]);
    }
}

/// Reads what [`write_digest_text`] writes, exactly `N` bytes of it.
pub(crate) fn read_digest_text<const N: usize>(text: &[u8]) -> Result<[u8; N]> {
    if text.len() != 2 * N {
        return Err(Error::invalid(
            "Hashed",
            format!("a {N}-byte hash is {} lowercase hex digits, the field has {} bytes", 2 * N, text.len()),
        ));
    }
    let mut bytes = [0u8; N];
    for (at, pair) in text.chunks_exact(2).enumerate() {
        match (nibble(pair[0]), nibble(pair[1])) {
            (Some(hi), Some(lo)) => bytes[at] = hi << 4 | lo,
            // The digit's position, not the digit: a hash is not the value, but the rule
            // that errors never quote a field's bytes is kept here too.
            _ => {
                return Err(Error::invalid(
                    "Hashed",
                    format!("digits {} and {} are not both lowercase hex digits 0-9 a-f", 2 * at, 2 * at + 1),
                ));
            }
        }
    }
    Ok(bytes)
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{DecodeText, EncodeText};

    #[test]
    fn text_is_lowercase_hex_and_reads_back_only_from_it() {
        let hash = Hashed::<8>::from_bytes([0xb0, 0x34, 0x4c, 0x61, 0xd8, 0xdb, 0x38, 0x53]);
        let mut text = Vec::new();
        hash.encode_text(&mut text).unwrap();
        assert_eq!(text, b"b0344c61d8db3853");
        assert_eq!(Hashed::<8>::decode_text(&text).unwrap(), hash);
        for bad in [&b"B0344c61d8db3853"[..], b"b0344c61d8db385", b"b0344c61d8db38533", b"b0344c61d8db38g3"] {
            assert!(Hashed::<8>::decode_text(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn debug_of_the_key_hides_the_secret() {
        let key = HashKey::new(b"very-secret-bytes").unwrap();
        assert!(!format!("{key:?}").contains("secret-bytes"));
    }
}
