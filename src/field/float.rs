//! `f32` and `f64` on the field model, and the float arithmetic that formats share: a total
//! order as an integer, and exact widening of `f32` to `f64` (NaN payloads included).

use crate::error::{Error, Result};
use crate::field::{FieldType, Floats, ReadField, Sink, WriteField};

/// Maps a float to an `i64` that orders like [`f64::total_cmp`], with both zeros at `0`.
#[inline]
pub(crate) fn f64_to_ordered(x: f64) -> i64 {
    let bits = x.to_bits().cast_signed();
    // Negative floats order backwards by their bits; reflecting them below zero fixes that
    // and sends -0.0 (bits == i64::MIN) to 0, the same key as +0.0.
    if bits < 0 { i64::MIN.wrapping_sub(bits) } else { bits }
}

#[inline]
pub(crate) fn ordered_to_f64(value: i64) -> Result<f64> {
    if value == i64::MIN {
        // The reflection above never produces i64::MIN: it would mean a second -0.0.
        return Err(Error::invalid("f64", "the value is not one a float encodes to"));
    }
    let bits = if value < 0 { i64::MIN.wrapping_sub(value) } else { value };
    Ok(f64::from_bits(bits.cast_unsigned()))
}

/// Widens exactly, NaN payloads included (an `as` cast need not keep them).
pub(crate) fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let bits = x.to_bits();
        let sign = u64::from(bits >> 31);
        let mantissa = u64::from(bits & 0x007f_ffff);
        f64::from_bits(sign << 63 | 0x7ff << 52 | mantissa << 29)
    } else {
        f64::from(x)
    }
}

/// The inverse of [`widen`]; `None` for an `f64` that no `f32` widens to.
pub(crate) fn narrow(y: f64) -> Option<f32> {
    if y.is_nan() {
        let bits = y.to_bits();
        let mantissa = bits & ((1 << 52) - 1);
        if mantissa & ((1 << 29) - 1) != 0 {
            return None;
        }
        let sign = ((bits >> 63) as u32) << 31;
        return Some(f32::from_bits(sign | 0xff << 23 | (mantissa >> 29) as u32));
    }
    #[allow(clippy::cast_possible_truncation)]
    let x = y as f32;
    (f64::from(x) == y).then_some(x)
}

// Written once against the model: every format with the capability holds them, in its own
// bytes (for the ordered format, `Ordered`'s `Floats` impls).
macro_rules! float_fields {
    ($($ty:ty),*) => {$(
        impl FieldType for $ty {}

        impl<F: Floats<$ty>> WriteField<F> for $ty {
            #[inline(always)]
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                F::write_float(*self, out)
            }
        }

        impl<'de, F: Floats<$ty>> ReadField<'de, F> for $ty {
            #[inline(always)]
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                F::read_float(input)
            }
        }
    )*};
}

float_fields!(f32, f64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_payloads_survive_widening() {
        for bits in [0x7fc0_0000u32, 0x7f80_0001, 0xffc0_1234, 0xff80_0001, 0x7fff_ffff] {
            let x = f32::from_bits(bits);
            assert_eq!(narrow(widen(x)).map(f32::to_bits), Some(bits), "{bits:#x}");
        }
    }

    #[test]
    fn narrowing_refuses_what_no_f32_widens_to() {
        assert_eq!(narrow(0.1), None);
        assert_eq!(narrow(f64::MAX), None);
        assert_eq!(narrow(f64::from_bits(0x7ff8_0000_0000_0001)), None);
        assert_eq!(narrow(1.5), Some(1.5));
        assert_eq!(narrow(f64::INFINITY), Some(f32::INFINITY));
    }

    #[test]
    fn zeros_share_a_key() {
        assert_eq!(f64_to_ordered(-0.0), f64_to_ordered(0.0));
        assert!(ordered_to_f64(i64::MIN).is_err());
    }
}
