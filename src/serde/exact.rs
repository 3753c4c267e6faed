//! [`from_key_exact`]: decoding that also refuses the keys of sets the encoder never writes.

use serde::de::Deserialize;
use serde::ser::Serialize;

use crate::error::{Error, Location, Result};

/// Decodes a key as [`from_key`](super::from_key) does, then encodes the value again and
/// refuses the key unless it is exactly the bytes read: every key it accepts is the one key
/// of its value.
///
/// [`from_key`](super::from_key) alone refuses every key the encoder would not write except
/// the keys of sets with repeated or unsorted elements. To serde a set is a sequence, and
/// the decoder cannot tell a `BTreeSet` (whose elements the encoder writes sorted, each
/// once) from a `Vec` (whose elements may repeat in any order): it hands the elements over,
/// and the set keeps each once, in order. Use this function where a key may come from other
/// code and two keys for one value would matter (a scan that must find every key of a
/// value, a deduplication by key); it costs one encoding of the value.
///
/// # Errors
///
/// What [`from_key`](super::from_key) returns, or [`Error::NonCanonical`] at the first byte
/// where the value's key differs from `bytes`.
///
/// ```
/// use std::collections::BTreeSet;
///
/// let key = rowkey::to_key(&(BTreeSet::from(["a"]),))?;
/// assert_eq!(key.as_bytes(), b"a\x00\xff\x01");
///
/// // The element twice: `from_key` keeps it once, so the value's key is not these bytes.
/// let twice = b"a\x00\xff\x01a\x00\xff\x01";
/// assert_eq!(rowkey::from_key::<(BTreeSet<String>,)>(twice)?.0.len(), 1);
/// let err = rowkey::serde::from_key_exact::<(BTreeSet<String>,)>(twice).unwrap_err();
/// assert_eq!(err.location().offset(), Some(4));
///
/// assert_eq!(rowkey::serde::from_key_exact::<(BTreeSet<String>,)>(&key)?.0, BTreeSet::from(["a".to_owned()]));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn from_key_exact<'de, T: Deserialize<'de> + Serialize>(bytes: &'de [u8]) -> Result<T> {
    let value: T = super::from_key(bytes)?;
    let again = super::to_key(&value)?;
    if again.as_bytes() == bytes {
        return Ok(value);
    }
    let at = again.as_bytes().iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(again.len().min(bytes.len()));
    Err(Error::NonCanonical {
        at: Location::at(at),
        detail: "the key decodes, but its value's key differs from here on (a set with a repeated or unsorted \
                 element, which the set keeps once, in order)",
    })
}
