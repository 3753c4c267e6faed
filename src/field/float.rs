//! `f32` and `f64` as orderedcode floats (see the module docs of [`crate::field`]).

use crate::error::{Error, Result};
use crate::field::int::{decode_i64, encode_i64};
use crate::field::{DecodeField, EncodeField, FieldBytes, Sink};

/// Maps a float to an `i64` that orders like [`f64::total_cmp`], with both zeros at `0`.
#[inline]
fn f64_to_ordered(x: f64) -> i64 {
    let bits = x.to_bits().cast_signed();
    // Negative floats order backwards by their bits; reflecting them below zero fixes that
    // and sends -0.0 (bits == i64::MIN) to 0, the same key as +0.0.
    if bits < 0 { i64::MIN.wrapping_sub(bits) } else { bits }
}

#[inline]
fn ordered_to_f64(value: i64) -> Result<f64> {
    if value == i64::MIN {
        // The reflection above never produces i64::MIN: it would mean a second -0.0.
        return Err(Error::invalid("f64", "the value is not one a float encodes to"));
    }
    let bits = if value < 0 { i64::MIN.wrapping_sub(value) } else { value };
    Ok(f64::from_bits(bits.cast_unsigned()))
}

/// Widens exactly, NaN payloads included (an `as` cast need not keep them).
fn widen(x: f32) -> f64 {
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
fn narrow(y: f64) -> Option<f32> {
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

impl EncodeField for f64 {
    #[inline(always)]
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        let (buf, start) = encode_i64(f64_to_ordered(*self));
        out.write(&buf[start..]);
        Ok(())
    }
}

impl<'de> DecodeField<'de> for f64 {
    #[inline(always)]
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        ordered_to_f64(decode_i64(bytes.as_slice())?)
    }
}

impl EncodeField for f32 {
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        widen(*self).encode_field(out)
    }
}

impl<'de> DecodeField<'de> for f32 {
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        let wide = f64::decode_field(bytes)?;
        narrow(wide).ok_or_else(|| Error::invalid("f32", format!("{wide:e} is not exactly representable as f32")))
    }
}

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
