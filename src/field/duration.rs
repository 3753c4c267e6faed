//! [`Duration`] as a key field: whole seconds, then nanoseconds, both fixed-width.
//!
//! | format | bytes | example (90.5 s) |
//! |---|---|---|
//! | ordered | seconds as 8 big-endian bytes, nanoseconds as 4 | `00 … 00 5a 1d cd 65 00` |
//! | delimited | 20 digits of seconds, `.`, 9 digits of nanoseconds | `00000000000000000090.500000000` |
//!
//! ```
//! use std::time::Duration;
//! use rowkey::RowKey;
//!
//! let key = ("job-7", Duration::from_millis(90_500)).to_key()?;
//! assert!(key < ("job-7", Duration::from_secs(91)).to_key()?);
//! assert_eq!(<(String, Duration)>::from_key(&key)?.1, Duration::from_millis(90_500));
//! # Ok::<(), rowkey::Error>(())
//! ```

use std::time::Duration;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::{Durations, FieldType, ReadField, Sink, WriteField};

const BYTES: usize = 12;
const SECS_DIGITS: usize = 20;
const TEXT_LEN: usize = SECS_DIGITS + 1 + 9;
const NANOS_PER_SEC: u32 = 1_000_000_000;

/// The 12 bytes of a duration: whole seconds, then nanoseconds, both big-endian.
pub(crate) fn to_bytes(value: Duration) -> [u8; BYTES] {
    let mut bytes = [0u8; BYTES];
    bytes[..8].copy_from_slice(&value.as_secs().to_be_bytes());
    bytes[8..].copy_from_slice(&value.subsec_nanos().to_be_bytes());
    bytes
}

/// The duration of 12 bytes that [`to_bytes`] writes.
pub(crate) fn from_bytes(bytes: [u8; BYTES]) -> Result<Duration> {
    let (secs, nanos) = bytes.split_at(8);
    let secs = u64::from_be_bytes(secs.try_into().unwrap_or_default());
    let nanos = u32::from_be_bytes(nanos.try_into().unwrap_or_default());
    if nanos >= NANOS_PER_SEC {
        return Err(Error::invalid("Duration", format!("{nanos} nanoseconds is a second or more")));
    }
    Ok(Duration::new(secs, nanos))
}

impl FieldType for Duration {
    const BYTE_STRING: bool = true;
}

impl<F: Durations> WriteField<F> for Duration {
    const ALPHABET: Option<Alphabet> = F::DURATION_ALPHABET;

    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_duration(*self, out)
    }
}

impl<'de, F: Durations> ReadField<'de, F> for Duration {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_duration(input)
    }
}

/// The bytes of a duration's text.
pub(crate) const TEXT_ALPHABET: Alphabet = Alphabet { lowest: b'.', name: "decimal digits and '.'" };

/// A duration's text: 20 digits of whole seconds, `.`, 9 of nanoseconds.
pub(crate) fn write_text<S: Sink>(value: Duration, out: &mut S) {
    let mut secs = itoa::Buffer::new();
    let secs = secs.format(value.as_secs()).as_bytes();
    let mut nanos = itoa::Buffer::new();
    let nanos = nanos.format(value.subsec_nanos()).as_bytes();
    let mut text = [b'0'; TEXT_LEN];
    text[SECS_DIGITS - secs.len()..SECS_DIGITS].copy_from_slice(secs);
    text[SECS_DIGITS] = b'.';
    text[TEXT_LEN - nanos.len()..].copy_from_slice(nanos);
    out.write(&text);
}

/// Reads what [`write_text`] writes, exactly.
pub(crate) fn from_text(text: &[u8]) -> Result<Duration> {
    let bad = || {
        Error::invalid(
            "Duration",
            format!("expected {SECS_DIGITS} digits of seconds, '.', and 9 digits of nanoseconds ({TEXT_LEN} bytes)"),
        )
    };
    if text.len() != TEXT_LEN || text[SECS_DIGITS] != b'.' {
        return Err(bad());
    }
    let number = |digits: &[u8]| {
        digits.iter().try_fold(0u64, |acc, &d| {
            if d.is_ascii_digit() { acc.checked_mul(10)?.checked_add(u64::from(d - b'0')) } else { None }
        })
    };
    let secs = number(&text[..SECS_DIGITS]).ok_or_else(bad)?;
    let nanos = number(&text[SECS_DIGITS + 1..]).ok_or_else(bad)?;
    // Nine digits: below one billion.
    Ok(Duration::new(secs, nanos as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{DecodeText, EncodeText};

    #[test]
    fn text_and_bytes_are_fixed_width() {
        let mut text = Vec::new();
        Duration::from_millis(90_500).encode_text(&mut text).unwrap();
        assert_eq!(text, b"00000000000000000090.500000000");
        let max = Duration::MAX;
        let mut text = Vec::new();
        max.encode_text(&mut text).unwrap();
        assert_eq!(Duration::decode_text(&text).unwrap(), max);
        assert!(Duration::decode_text(b"99999999999999999999.000000000").is_err());
        let mut bytes = vec![0; 8];
        bytes.extend_from_slice(&NANOS_PER_SEC.to_be_bytes());
        assert!(from_bytes(bytes.try_into().unwrap()).is_err());
    }
}
