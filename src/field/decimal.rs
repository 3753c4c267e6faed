//! Integers as fixed-width decimal text: the default text encoding of every integer type,
//! and [`Padded`] for a chosen width.

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::{FieldType, ReadField, Sink, ValueFormat, WriteField};

mod sealed {
    pub trait Sealed {}
}

/// The primitive integer types, as the text encodings see them. Sealed: implemented for
/// `u8`–`u64`, `usize`, `i8`–`i64` and `isize`.
///
/// ```
/// use rowkey::field::Integer;
///
/// assert_eq!(<u32 as Integer>::DIGITS, 10);
/// assert_eq!(<i64 as Integer>::DIGITS, 19);
/// ```
pub trait Integer: Copy + sealed::Sealed {
    /// The type's name, for error messages.
    const NAME: &'static str;
    /// Decimal digits of the type's largest magnitude: the default text width.
    const DIGITS: usize;
    /// Whether the type has negative values.
    const SIGNED: bool;
    /// The largest value.
    const MAX: i128;
    /// The value, widened.
    fn to_i128(self) -> i128;
    /// The value narrowed back, if it fits.
    fn from_i128(value: i128) -> Option<Self>;
}

macro_rules! integers {
    ($($ty:ty: $digits:expr, $signed:expr;)*) => {$(
        impl sealed::Sealed for $ty {}
        impl Integer for $ty {
            const NAME: &'static str = stringify!($ty);
            const DIGITS: usize = $digits;
            const SIGNED: bool = $signed;
            #[allow(clippy::cast_lossless)]
            const MAX: i128 = <$ty>::MAX as i128;
            #[inline]
            fn to_i128(self) -> i128 {
                self as i128
            }
            fn from_i128(value: i128) -> Option<Self> {
                <$ty>::try_from(value).ok()
            }
        }
    )*};
}

integers! {
    u8: 3, false; u16: 5, false; u32: 10, false; u64: 20, false; usize: 20, false;
    i8: 3, true; i16: 5, true; i32: 10, true; i64: 19, true; isize: 19, true;
}

pub(crate) fn narrow<T: Integer>(value: i128) -> Result<T> {
    T::from_i128(value).ok_or_else(|| Error::out_of_range(value, T::NAME))
}

/// The widest decimal field: `10^38 - 1` is the largest all-nines a `u128` holds, and the
/// nines' complement of an `i64`'s magnitude needs 20 digits, more than a `u64` holds.
pub(crate) const MAX_WIDTH: usize = 38;

const ZEROS: [u8; MAX_WIDTH] = [b'0'; MAX_WIDTH];

/// `10^width - 1`, the largest magnitude a width holds.
fn all_nines(width: usize) -> u128 {
    10u128.pow(u32::try_from(width.min(MAX_WIDTH)).unwrap_or(0)) - 1
}

fn too_wide(ty: &'static str, width: usize) -> Error {
    Error::unencodable(ty, format!("a decimal width of {width} digits is more than the {MAX_WIDTH} a field can have"))
}

/// Writes `value` zero-padded to `width` digits; a negative value as `-` and the nines'
/// complement of its magnitude, so that a larger magnitude sorts lower and every negative
/// sorts before every non-negative (`-` is below the digits).
pub(crate) fn encode_decimal<S: Sink>(out: &mut S, value: i128, width: usize, ty: &'static str) -> Result<()> {
    if width > MAX_WIDTH {
        return Err(too_wide(ty, width));
    }
    let limit = all_nines(width);
    let magnitude = value.unsigned_abs();
    if magnitude > limit {
        return Err(Error::unencodable(
            ty,
            format!("{value} has more digits than the field's width of {width}; widen the field"),
        ));
    }
    let digits = if value < 0 {
        out.write_byte(b'-');
        limit - magnitude
    } else {
        magnitude
    };
    // A complement can pass u64::MAX (an i64 at width 20): the digits are a u128's.
    let mut buf = itoa::Buffer::new();
    let text = buf.format(digits).as_bytes();
    out.write(&ZEROS[..width.saturating_sub(text.len())]);
    out.write(text);
    Ok(())
}

/// Reads what [`encode_decimal`] writes, exactly: the width is part of the format.
pub(crate) fn decode_decimal(text: &[u8], width: usize, signed: bool, ty: &'static str) -> Result<i128> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) if signed => (true, rest),
        _ => (false, text),
    };
    if width > MAX_WIDTH {
        return Err(too_wide(ty, width));
    }
    if digits.len() != width {
        return Err(Error::invalid(ty, format!("expected {width} decimal digits, found {} bytes", digits.len())));
    }
    let mut value = 0u128;
    for (i, &d) in digits.iter().enumerate() {
        if !d.is_ascii_digit() {
            // The error is located at the field's start: say which of its bytes it is.
            let at = i + usize::from(negative);
            return Err(Error::invalid(
                ty,
                format!("{:?} at byte {at} of the field is not a decimal digit", char::from(d)),
            ));
        }
        value = value * 10 + u128::from(d - b'0');
    }
    if !negative {
        return i128::try_from(value).map_err(|_| Error::invalid(ty, "the number is beyond the 64-bit range"));
    }
    let magnitude = all_nines(width) - value;
    if magnitude == 0 {
        return Err(Error::invalid(ty, "`-` followed by all nines would be minus zero, which no value encodes to"));
    }
    i128::try_from(magnitude).map(|m| -m).map_err(|_| Error::invalid(ty, "the number is beyond the 64-bit range"))
}

/// An integer as zero-padded decimal text of exactly `W` digits: `Padded::<u32, 8>(20200501)`
/// is `20200501`, a date a person can read in the key.
///
/// A value with more digits than `W` is an [`Error::Unencodable`] naming the value and the
/// width, never a longer field that would sort out of place. A negative value is `-` and the
/// nines' complement in `W` digits, so negatives sort first. `W` is at most 20 (19 for
/// signed types); a larger one does not compile.
///
/// ```
/// use rowkey::field::Padded;
/// use rowkey::format::Delimited;
///
/// let hash = Delimited::default();
/// assert_eq!(hash.to_key(&("phone", Padded::<u32, 8>(20200501)))?.as_bytes(), b"phone#20200501");
/// assert_eq!(hash.to_key(&(Padded::<i32, 5>(-1),))?.as_bytes(), b"-99998");
/// assert!(hash.to_key(&(Padded::<u32, 4>(12345),)).is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Padded<T, const W: usize>(pub T);

impl<T: Integer, const W: usize> Padded<T, W> {
    const VALID_WIDTH: () = assert!(
        W >= 1 && W <= if T::SIGNED { 19 } else { 20 },
        "Padded width must be 1 to 20 digits (1 to 19 for signed types)"
    );
}

/// A format that writes integers as decimal text of a chosen width: the formats where
/// [`Padded`] is a field. Only the delimited format is one; a binary format's integers sort
/// at any width.
///
/// ```
/// use rowkey::field::Decimals;
/// use rowkey::format::DelimitedText;
///
/// let mut text = Vec::new();
/// DelimitedText::write_decimal(-1, 5, "i32", &mut text)?;
/// assert_eq!(text, b"-99998");
/// assert_eq!(DelimitedText::read_decimal(b"-99998", 5, true, "i32")?, -1);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format has no decimal text fields",
    label = "`{Self}` cannot write `Padded`",
    note = "`Padded` is a field of the delimited (text) format; in `{Self}` store the integer itself, which sorts \
            at any width"
)]
pub trait Decimals: ValueFormat {
    /// The bytes the decimal text of a non-negative number holds (see
    /// [`WriteField::ALPHABET`]).
    const DIGITS_ALPHABET: Option<Alphabet> = None;
    /// The bytes the decimal text of a number that may be negative holds.
    const SIGNED_DIGITS_ALPHABET: Option<Alphabet> = None;

    /// Writes `value` in exactly `width` digits; `ty` names the field type in the error.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`] when the value has more digits than `width`.
    fn write_decimal<S: Sink>(value: i128, width: usize, ty: &'static str, out: &mut S) -> Result<()>;

    /// Reads a number of exactly `width` digits (after a `-` when `signed`).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] when the field is not such a number.
    fn read_decimal(input: Self::Input<'_, '_>, width: usize, signed: bool, ty: &'static str) -> Result<i128>;
}

impl<T: Integer, const W: usize> FieldType for Padded<T, W> {}

impl<F: Decimals, T: Integer, const W: usize> WriteField<F> for Padded<T, W> {
    const ALPHABET: Option<Alphabet> = if T::SIGNED { F::SIGNED_DIGITS_ALPHABET } else { F::DIGITS_ALPHABET };

    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        let () = Self::VALID_WIDTH;
        F::write_decimal(self.0.to_i128(), W, T::NAME, out)
    }
}

impl<'de, F: Decimals, T: Integer, const W: usize> ReadField<'de, F> for Padded<T, W> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        let () = Self::VALID_WIDTH;
        narrow(F::read_decimal(input, W, T::SIGNED, T::NAME)?).map(Padded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::DecodeText;
    use crate::field::text::text_of as text;

    #[test]
    fn design_examples() {
        assert_eq!(text(Padded::<i32, 5>(-1)), "-99998");
        assert_eq!(text(Padded::<i32, 5>(42)), "00042");
        assert_eq!(text(7u32), "0000000007");
        assert_eq!(text(i64::MIN), "-0776627963145224191");
        assert_eq!(text(u64::MAX), "18446744073709551615");
        assert_eq!(text(i8::MIN), "-871");
    }

    #[test]
    fn minus_zero_and_wrong_widths_are_refused() {
        assert!(i16::decode_text(b"-99999").is_err());
        assert!(i16::decode_text(b"0042").is_err());
        assert!(u16::decode_text(b"-0042").is_err());
        assert!(u16::decode_text(b"0004a").is_err());
        assert!(matches!(u8::decode_text(b"999"), Err(Error::OutOfRange { value: 999, .. })));
        assert!(u64::decode_text(b"99999999999999999999").is_err());
    }

    /// An `i64` at width 20: the complement of a small negative passes `u64::MAX`, and was
    /// written as `u64::MAX`'s digits (a key of another value, refused only on reading back).
    #[test]
    fn wide_signed_fields_write_their_complement_whole() {
        let write = |v: i128, width: usize| {
            let mut out = Vec::new();
            encode_decimal(&mut out, v, width, "i64").map(|()| String::from_utf8(out).unwrap())
        };
        assert_eq!(write(-5, 20).unwrap(), "-99999999999999999994");
        assert_eq!(write(i128::from(i64::MIN), 20).unwrap(), "-90776627963145224191");
        assert_eq!(write(-5, 38).unwrap(), format!("-{}4", "9".repeat(37)));
        let mut written: Vec<(i128, String)> = [i128::from(i64::MIN), -5, -1, 0, 7, i128::from(i64::MAX)]
            .iter()
            .map(|&v| (v, write(v, 20).unwrap()))
            .collect();
        for (v, text) in &written {
            assert_eq!(decode_decimal(text.as_bytes(), 20, true, "i64").unwrap(), *v, "{text}");
        }
        written.sort_by(|a, b| a.1.cmp(&b.1));
        assert!(written.windows(2).all(|w| w[0].0 < w[1].0), "{written:?}");
    }

    #[test]
    fn a_width_past_the_widest_is_an_error_not_a_panic() {
        assert!(matches!(encode_decimal(&mut Vec::new(), 5, 39, "u64"), Err(Error::Unencodable { .. })));
        assert!(decode_decimal(&[b'9'; 39], 39, false, "u64").is_err());
        assert!(decode_decimal(&[b'9'; 38], 38, false, "u64").is_ok());
    }
}
