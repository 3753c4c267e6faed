//! `uuid::Uuid` as a key field (feature `uuid`).
//!
//! | format | bytes | example |
//! |---|---|---|
//! | ordered | the 16 bytes (Bigtable `BYTES`, raw) | `67 e5 50 44 10 b4 …` |
//! | delimited | hyphenated lowercase hex, 36 bytes | `67e55044-10b4-426f-9247-bb680e5fe0c8` |
//!
//! Both sort as the 16 bytes do. Which order that is depends on the version: a v4 UUID is
//! random, so v4 keys spread writes over the whole key space (Spanner's advice for a first key
//! column); v1, v6 and v7 put a timestamp in front (v1 its low bits first, so v1 keys are not
//! in time order, while v6 and v7 are), so keys that lead with them are written at one end of
//! the key space, like timestamps. [`uuid_v7_range`](crate::field::uuid_v7_range) gives the
//! bounds of the v7 ids minted in a time range.
//!
//! ```
//! use rowkey::RowKey;
//! use uuid::Uuid;
//!
//! let id = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap();
//! let key = (id, "index.html").to_key()?;
//! assert_eq!(&key.as_bytes()[..4], b"\x67\xe5\x50\x44");
//! assert_eq!(<(Uuid, String)>::from_key(&key)?.0, id);
//!
//! let text = rowkey::format::Delimited::default().to_key(&(id, "index.html"))?;
//! assert_eq!(text.as_bytes(), b"67e55044-10b1-426f-9247-bb680e5fe0c8#index.html");
//! # Ok::<(), rowkey::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;

/// The bytes of a UUID's text: lowercase hex digits and `-`.
pub(crate) const TEXT_ALPHABET: Alphabet = Alphabet { lowest: b'-', name: "lowercase hex digits and '-'" };

/// Where the hyphens of the text form go.
const HYPHENS: [usize; 4] = [8, 13, 18, 23];
const TEXT_LEN: usize = 36;
const HEX: &[u8; 16] = b"0123456789abcdef";

/// The hyphenated lowercase text of 16 bytes.
pub(crate) fn write_text(bytes: &[u8; 16]) -> [u8; TEXT_LEN] {
    let mut text = [b'-'; TEXT_LEN];
    let mut at = 0;
    for byte in bytes {
        if HYPHENS.contains(&at) {
            at += 1;
        }
        text[at] = HEX[usize::from(byte >> 4)];
        text[at + 1] = HEX[usize::from(byte & 0xf)];
        at += 2;
    }
    text
}

/// The 16 bytes of exactly the text [`write_text`] writes; an error points at the first byte
/// that differs from that form.
pub(crate) fn parse_text(text: &[u8], ty: &'static str) -> Result<[u8; 16]> {
    if text.len() != TEXT_LEN {
        return Err(Error::invalid(
            ty,
            format!("a UUID is {TEXT_LEN} bytes of hyphenated hex, the field has {}", text.len()),
        ));
    }
    let mut bytes = [0u8; 16];
    let mut digit = 0;
    for (at, &c) in text.iter().enumerate() {
        let expected = if HYPHENS.contains(&at) {
            if c == b'-' {
                continue;
            }
            "'-'"
        } else {
            match c {
                b'0'..=b'9' | b'a'..=b'f' => {
                    let value = if c <= b'9' { c - b'0' } else { c - b'a' + 10 };
                    bytes[digit / 2] |= if digit % 2 == 0 { value << 4 } else { value };
                    digit += 1;
                    continue;
                }
                _ => "a lowercase hex digit",
            }
        };
        return Err(Error::invalid(ty, format!("byte {at} of the UUID is {:?}, not {expected}", char::from(c))));
    }
    Ok(bytes)
}

#[cfg(feature = "uuid")]
pub use with_crate::uuid_v7_range;

/// The field impls for the crate's type.
#[cfg(feature = "uuid")]
mod with_crate {
    use super::*;

    use ::uuid::Uuid;

    use crate::field::alphabet::Alphabet;
    use crate::field::{Encoding, FieldType, ReadField, Sink, Uuids, WriteField};

    impl FieldType for Uuid {
        const ENCODING: Encoding = Encoding::Uuid;
        const BYTE_STRING: bool = true;
    }

    impl<F: Uuids> WriteField<F> for Uuid {
        const ALPHABET: Option<Alphabet> = F::UUID_ALPHABET;

        #[inline]
        fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
            F::write_id(self.as_bytes(), out)
        }
    }

    impl<'de, F: Uuids> ReadField<'de, F> for Uuid {
        #[inline(always)]
        fn read(input: F::Input<'_, 'de>) -> Result<Self> {
            F::read_id(input, "Uuid").map(Uuid::from_bytes)
        }
    }

    /// The first UUID whose 48 leading bits are `millis`: the least v7 id minted in that
    /// millisecond (a v7 UUID's version and random bits all follow the milliseconds).
    fn first_at(millis: u64) -> Uuid {
        let mut bytes = [0u8; 16];
        bytes[..6].copy_from_slice(&millis.to_be_bytes()[2..]);
        Uuid::from_bytes(bytes)
    }

    /// The version 7 UUIDs minted in a time range: from the first id of `time.start`'s
    /// millisecond to the first of `time.end`'s, for a scan builder's `..._range` or any range
    /// over UUID keys. A v7 UUID starts with the milliseconds it was minted in (RFC 9562), so the
    /// range is exact for bounds on whole milliseconds; a bound inside a millisecond is rounded up
    /// to the next one.
    ///
    /// Only v7 (and v6-style ids that lead with Unix milliseconds) sort by time; a v4 UUID is
    /// random, and a v1 UUID puts the low bits of its time first.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a time before 1970 or past the 48-bit milliseconds.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use rowkey::field::uuid_v7_range;
    /// use uuid::Uuid;
    ///
    /// let t0 = UNIX_EPOCH + Duration::from_millis(1_588_291_200_000);
    /// let second = uuid_v7_range(t0..t0 + Duration::from_secs(1))?;
    /// let minted = Uuid::parse_str("0171cd88-6400-7000-8000-000000000000").unwrap(); // at t0
    /// assert_eq!(minted.get_version_num(), 7);
    /// assert!(second.contains(&minted));
    /// assert!(!second.contains(&Uuid::parse_str("0171cd88-67e8-7000-8000-000000000000").unwrap())); // t0 + 1 s
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn uuid_v7_range<T: crate::field::Timestamp>(time: std::ops::Range<T>) -> Result<std::ops::Range<Uuid>> {
        let start = crate::field::instant::ceil_millis(&time.start, "UUID v7")?;
        let end = crate::field::instant::ceil_millis(&time.end, "UUID v7")?;
        Ok(first_at(start)..first_at(end))
    }
}

#[cfg(all(test, feature = "uuid"))]
mod tests {
    use super::*;
    use ::uuid::Uuid;

    #[test]
    fn text_is_the_hyphenated_form() {
        let id = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap();
        assert_eq!(&write_text(id.as_bytes())[..], id.hyphenated().to_string().as_bytes());
        assert_eq!(parse_text(&write_text(id.as_bytes()), "Uuid").unwrap(), *id.as_bytes());
        for bad in [
            "67E55044-10b1-426f-9247-bb680e5fe0c8",
            "67e55044_10b1-426f-9247-bb680e5fe0c8",
            "67e5504410b1426f9247bb680e5fe0c8",
            "67e55044-10b1-426f-9247-bb680e5fe0cg",
        ] {
            assert!(parse_text(bad.as_bytes(), "Uuid").is_err(), "{bad}");
        }
    }
}
