//! `ulid::Ulid` as a key field (feature `ulid`).
//!
//! | format | bytes | example |
//! |---|---|---|
//! | ordered | the 16 bytes (Bigtable `BYTES`, raw) | `01 71 cd 88 64 00 …` |
//! | delimited | canonical Crockford base32, 26 uppercase characters | `01E76RGS001S3N8DT3N1Q2HHSZ` |
//!
//! A ULID is 48 bits of milliseconds since the epoch, then 80 random bits, so both forms sort
//! by the time it was minted: keys that lead with one are written at the end of the key space
//! (the derive's hotspot check says so), and [`ulid_range`] gives the ids of a time range.
//!
//! ```
//! use rowkey::RowKey;
//! use ulid::Ulid;
//!
//! let id = Ulid::from_parts(1_588_291_200_000, 42);
//! let key = ("orders", id).to_key()?;
//! assert_eq!(<(String, Ulid)>::from_key(&key)?.1, id);
//! let text = rowkey::format::Delimited::default().to_key(&("orders", id))?;
//! assert_eq!(text.as_bytes(), b"orders#01E76RGS00000000000000001A");
//! # Ok::<(), rowkey::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;

/// The bytes of a ULID's text: Crockford's base32 digits, uppercase.
pub(crate) const TEXT_ALPHABET: Alphabet = Alphabet { lowest: b'0', name: "Crockford base32 digits 0-9 A-Z" };

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TEXT_LEN: usize = 26;

/// The 26 characters of a ULID's 128 bits, five bits each from the top (the first character
/// holds only the top three).
pub(crate) fn write_text(value: u128) -> [u8; TEXT_LEN] {
    let mut text = [0u8; TEXT_LEN];
    for (i, slot) in text.iter_mut().enumerate() {
        let shift = 5 * (TEXT_LEN - 1 - i);
        // Five bits.
        *slot = CROCKFORD[(value >> shift & 0x1f) as usize];
    }
    text
}

/// The value of exactly the text [`write_text`] writes: uppercase, no Crockford aliases
/// (`O` for `0`, lowercase), a first character of at most `7`.
pub(crate) fn parse_text(text: &[u8], ty: &'static str) -> Result<u128> {
    if text.len() != TEXT_LEN {
        return Err(Error::invalid(
            ty,
            format!("a ULID is {TEXT_LEN} characters of Crockford base32, the field has {} bytes", text.len()),
        ));
    }
    let mut value = 0u128;
    for (at, &c) in text.iter().enumerate() {
        let Some(digit) = CROCKFORD.iter().position(|&d| d == c) else {
            return Err(Error::invalid(
                ty,
                format!("byte {at} of the ULID is {:?}, not an uppercase Crockford base32 digit", char::from(c)),
            ));
        };
        if at == 0 && digit > 7 {
            return Err(Error::invalid(ty, "a ULID starts with 0-7 (its 128 bits need only 3 of the first 5)"));
        }
        value = value << 5 | digit as u128;
    }
    Ok(value)
}

#[cfg(feature = "ulid")]
pub use with_crate::ulid_range;

/// The field impls for the crate's type.
#[cfg(feature = "ulid")]
mod with_crate {
    use super::*;
    use ::ulid::Ulid;
    use std::ops::Range;

    use crate::field::alphabet::Alphabet;
    use crate::field::instant::Timestamp;
    use crate::field::{Encoding, FieldType, ReadField, Sink, Uuids, WriteField};

    impl FieldType for Ulid {
        const ENCODING: Encoding = Encoding::Ulid;
        const BYTE_STRING: bool = true;
    }

    impl<F: Uuids> WriteField<F> for Ulid {
        const ALPHABET: Option<Alphabet> = F::ULID_ALPHABET;

        #[inline]
        fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
            F::write_ulid(&self.to_bytes(), out)
        }
    }

    impl<'de, F: Uuids> ReadField<'de, F> for Ulid {
        #[inline(always)]
        fn read(input: F::Input<'_, 'de>) -> Result<Self> {
            F::read_ulid(input).map(Ulid::from_bytes)
        }
    }

    /// The ULIDs minted in a time range: from the first id of `time.start`'s millisecond to the
    /// first of `time.end`'s, for a scan builder's `..._range` or any range over ULID keys.
    ///
    /// A ULID holds the millisecond it was minted in, so the range is exact for bounds on whole
    /// milliseconds; a bound inside a millisecond is rounded up to the next one (the ids of that
    /// millisecond may have been minted before it).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a time before 1970 or past the 48-bit milliseconds.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use rowkey::field::ulid_range;
    /// use ulid::Ulid;
    ///
    /// let t0 = UNIX_EPOCH + Duration::from_millis(1_588_291_200_000);
    /// let hour = ulid_range(t0..t0 + Duration::from_secs(3600))?;
    /// assert!(hour.contains(&Ulid::from_parts(1_588_291_200_000, 0)));
    /// assert!(hour.contains(&Ulid::from_parts(1_588_294_799_999, u128::MAX >> 48)));
    /// assert!(!hour.contains(&Ulid::from_parts(1_588_294_800_000, 0)));
    /// assert!(!hour.contains(&Ulid::from_parts(1_588_291_199_999, u128::MAX >> 48)));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn ulid_range<T: Timestamp>(time: Range<T>) -> Result<Range<Ulid>> {
        let start = crate::field::instant::ceil_millis(&time.start, "ULID")?;
        let end = crate::field::instant::ceil_millis(&time.end, "ULID")?;
        Ok(Ulid::from_parts(start, 0)..Ulid::from_parts(end, 0))
    }
}

#[cfg(all(test, feature = "ulid"))]
mod tests {
    use super::*;
    use ::ulid::Ulid;

    #[test]
    fn text_is_the_crates_canonical_form() {
        for value in [0, 1, u128::MAX, 0x0171_cf1b_1c00_0000_0000_0000_0000_002a] {
            let id = Ulid(value);
            assert_eq!(&write_text(value)[..], id.to_string().as_bytes());
            assert_eq!(parse_text(&write_text(value), "Ulid").unwrap(), value);
        }
        assert!(parse_text(b"81E76HR7000000000000000001", "Ulid").is_err());
        assert!(parse_text(b"01e76hr7000000000000000001", "Ulid").is_err());
        assert!(parse_text(b"01E76HR700000000000000000O", "Ulid").is_err());
    }
}
