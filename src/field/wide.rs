//! `u128` and `i128`: 16 big-endian bytes in the ordered format (the sign bit of an `i128`
//! flipped, so negatives sort first), 39 zero-padded digits in the delimited format.
//!
//! The orderedcode integers stop at 64 bits, so a 128-bit value takes the fixed-width form
//! that ids such as UUIDs already use: fixed width needs no length, and big-endian bytes
//! compare as the numbers do.
//!
//! | value | ordered bytes | text |
//! |---|---|---|
//! | `0u128` | `00` × 16 | `000…000` (39 digits) |
//! | `i128::MIN` | `00` × 16 | `-829…271` (`-`, then the nines' complement) |
//! | `-1i128` | `7f ff … ff` | `-999…998` |
//! | `0i128` | `80 00 … 00` | `000…000` |

use crate::error::{Error, Result};
use crate::field::Sink;

/// Decimal digits of `u128::MAX` and of `i128::MIN`'s magnitude.
const DIGITS: usize = 39;
const SIGN_BIT: u128 = 1 << 127;

/// The 16 bytes of a fixed-width 128-bit field, or an error naming `ty` when the field has
/// another length.
#[inline(always)]
pub(crate) fn sixteen(bytes: &[u8], ty: &'static str) -> Result<[u8; 16]> {
    match <[u8; 16]>::try_from(bytes) {
        Ok(array) => Ok(array),
        Err(_) => Err(not_sixteen(bytes.len(), ty)),
    }
}

#[cold]
fn not_sixteen(len: usize, ty: &'static str) -> Error {
    Error::invalid(ty, format!("the field holds 16 bytes, found {len}"))
}

/// Writes `magnitude` as 39 digits, each replaced by its nines' complement when `negative`.
fn write_digits<S: Sink>(out: &mut S, magnitude: u128, negative: bool) {
    let mut text = [b'0'; DIGITS];
    let mut rest = magnitude;
    for slot in text.iter_mut().rev() {
        // A digit.
        let digit = (rest % 10) as u8;
        *slot = if negative { b'9' - digit } else { b'0' + digit };
        rest /= 10;
    }
    if negative {
        out.write_byte(b'-');
    }
    out.write(&text);
}

/// Reads 39 digits, undoing the nines' complement when `negative`; `None` on a non-digit or a
/// value beyond `u128`.
fn read_digits(text: &[u8], negative: bool) -> Option<u128> {
    text.iter().try_fold(0u128, |acc, &b| {
        let digit = if b.is_ascii_digit() { b - b'0' } else { return None };
        let digit = if negative { 9 - digit } else { digit };
        acc.checked_mul(10)?.checked_add(u128::from(digit))
    })
}

fn wrong_width(ty: &'static str, len: usize) -> Error {
    Error::invalid(ty, format!("expected {DIGITS} decimal digits, found {len} bytes"))
}

/// A `u128`'s text: 39 digits.
pub(crate) fn write_u128_text<S: Sink>(value: u128, out: &mut S) {
    write_digits(out, value, false);
}

/// Reads what [`write_u128_text`] writes, exactly.
pub(crate) fn read_u128_text(text: &[u8]) -> Result<u128> {
    if text.len() != DIGITS {
        return Err(wrong_width("u128", text.len()));
    }
    read_digits(text, false).ok_or_else(|| Error::invalid("u128", "expected decimal digits of at most u128::MAX"))
}

/// An `i128`'s text: 39 digits, a negative one after `-` as their nines' complement.
pub(crate) fn write_i128_text<S: Sink>(value: i128, out: &mut S) {
    write_digits(out, value.unsigned_abs(), value < 0);
}

/// Reads what [`write_i128_text`] writes, exactly.
pub(crate) fn read_i128_text(text: &[u8]) -> Result<i128> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.len() != DIGITS {
        return Err(wrong_width("i128", digits.len()));
    }
    let magnitude =
        read_digits(digits, negative).ok_or_else(|| Error::invalid("i128", "expected decimal digits of an i128"))?;
    let value = match (negative, magnitude) {
        (true, 0) => {
            return Err(Error::invalid(
                "i128",
                "`-` followed by all nines would be minus zero, which no value encodes to",
            ));
        }
        (true, m) if m == SIGN_BIT => Some(i128::MIN),
        (true, m) => i128::try_from(m).ok().map(|m| -m),
        (false, m) => i128::try_from(m).ok(),
    };
    value.ok_or_else(|| Error::invalid("i128", "the number is beyond the range of an i128"))
}

#[cfg(test)]
mod tests {
    use crate::field::text::text_of as text;
    use crate::field::{DecodeText, WriteField};

    #[test]
    fn edges() {
        assert_eq!(text(u128::MAX), "340282366920938463463374607431768211455");
        assert_eq!(text(-1i128), format!("-{}8", "9".repeat(38)));
        assert_eq!(i128::decode_text(text(i128::MIN).as_bytes()).unwrap(), i128::MIN);
        assert_eq!(i128::decode_text(text(i128::MAX).as_bytes()).unwrap(), i128::MAX);
        assert!(i128::decode_text(format!("-{}", "9".repeat(39)).as_bytes()).is_err());
        assert!(u128::decode_text("9".repeat(39).as_bytes()).is_err());
        let mut bytes = Vec::new();
        WriteField::<crate::format::Ordered>::write(&i128::MIN, &mut bytes).unwrap();
        assert_eq!(bytes, [0; 16]);
    }
}
