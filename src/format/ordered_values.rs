//! The ordered format as a [`ValueFormat`]: [`Ordered`] and its capabilities.
//!
//! The capabilities call the field types' ordered codecs, so a value written through the model
//! has exactly the bytes it has today.

use std::borrow::Cow;

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::field::bytes::{char_from, str_from, string_from};
use crate::field::field_bytes::array_from;
use crate::field::float::{f64_to_ordered, narrow, ordered_to_f64, widen};
use crate::field::int::{decode_i64, decode_u64, encode_i64, encode_u64};
use crate::field::wide::sixteen;
use crate::field::{
    Addrs, Bools, ByteStrings, Descending, Durations, FieldBytes, Floats, Instants, Ints, Options, ReadField, Sink,
    Strings, SystemTimes, Uuids, ValueFormat, WriteField,
};

/// The ordered format (Bigtable's `Struct.OrderedCodeBytes`) as a type parameter of the field
/// model: [`WriteField<Ordered>`] and [`ReadField<'de, Ordered>`] are the ordered format's
/// field types, and it holds every value family.
///
/// ```
/// use rowkey::field::{FieldBytes, ReadField, WriteField};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// WriteField::<Ordered>::write("phone", &mut bytes)?;
/// let text: String = ReadField::<'_, Ordered>::read(FieldBytes::borrowed(&bytes))?;
/// assert_eq!(text, "phone");
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ordered;

impl ValueFormat for Ordered {
    type Input<'r, 'de>
        = FieldBytes<'de>
    where
        'de: 'r;
}

// Signed and narrow unsigned types: widened to an orderedcode int64 on the way in, checked
// on the way out.
macro_rules! ordered_ints_via_i64 {
    ($($ty:ty),*) => {$(
        impl Ints<$ty> for Ordered {
            #[inline(always)]
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                let (buf, start) = encode_i64(i64::from(value));
                out.write(&buf[start..]);
                Ok(())
            }

            #[inline(always)]
            fn read_int(input: FieldBytes<'_>) -> Result<$ty> {
                let wide = decode_i64(input.as_slice())?;
                <$ty>::try_from(wide).map_err(|_| Error::out_of_range(i128::from(wide), stringify!($ty)))
            }
        }
    )*};
}

ordered_ints_via_i64!(i8, i16, i32, i64, u8, u16, u32);

impl Ints<isize> for Ordered {
    fn write_int<S: Sink>(value: isize, out: &mut S) -> Result<()> {
        // isize is at most 64 bits on every platform Rust supports.
        let wide = i64::try_from(value).map_err(|_| Error::unencodable("isize", "it is wider than 64 bits"))?;
        <Ordered as Ints<i64>>::write_int(wide, out)
    }

    fn read_int(input: FieldBytes<'_>) -> Result<isize> {
        let wide = decode_i64(input.as_slice())?;
        isize::try_from(wide).map_err(|_| Error::out_of_range(i128::from(wide), "isize"))
    }
}

impl Ints<u64> for Ordered {
    #[inline]
    fn write_int<S: Sink>(value: u64, out: &mut S) -> Result<()> {
        let (buf, n) = encode_u64(value);
        out.write(&buf[..n]);
        Ok(())
    }

    fn read_int(input: FieldBytes<'_>) -> Result<u64> {
        decode_u64(input.as_slice())
    }
}

impl Ints<usize> for Ordered {
    fn write_int<S: Sink>(value: usize, out: &mut S) -> Result<()> {
        let wide = u64::try_from(value).map_err(|_| Error::unencodable("usize", "it is wider than 64 bits"))?;
        <Ordered as Ints<u64>>::write_int(wide, out)
    }

    fn read_int(input: FieldBytes<'_>) -> Result<usize> {
        let wide = decode_u64(input.as_slice())?;
        usize::try_from(wide).map_err(|_| Error::out_of_range(i128::from(wide), "usize"))
    }
}

// The 128-bit integers are 16 big-endian bytes, the signed one with its sign bit flipped so
// that negative values come first.
const SIGN_BIT: u128 = 1 << 127;

impl Ints<u128> for Ordered {
    #[inline]
    fn write_int<S: Sink>(value: u128, out: &mut S) -> Result<()> {
        out.write(&value.to_be_bytes());
        Ok(())
    }

    fn read_int(input: FieldBytes<'_>) -> Result<u128> {
        sixteen(input.as_slice(), "u128").map(u128::from_be_bytes)
    }
}

impl Ints<i128> for Ordered {
    #[inline]
    fn write_int<S: Sink>(value: i128, out: &mut S) -> Result<()> {
        out.write(&(value.cast_unsigned() ^ SIGN_BIT).to_be_bytes());
        Ok(())
    }

    fn read_int(input: FieldBytes<'_>) -> Result<i128> {
        sixteen(input.as_slice(), "i128").map(|b| (u128::from_be_bytes(b) ^ SIGN_BIT).cast_signed())
    }
}

/// Shorthand for a scalar's ordered bytes, for the crate's code that writes or reads one
/// outside a key writer (the schema's decoder, serde, the salt): `x.encode_field(out)` rather
/// than `WriteField::<Ordered>::write(&x, out)`.
pub(crate) trait OrderedScalar: Sized {
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()>;
    fn decode_field(bytes: FieldBytes<'_>) -> Result<Self>;
}

macro_rules! ordered_scalar {
    ($($ty:ty),*) => {$(
        impl OrderedScalar for $ty {
            #[inline(always)]
            fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
                WriteField::<Ordered>::write(self, out)
            }

            #[inline(always)]
            fn decode_field(bytes: FieldBytes<'_>) -> Result<Self> {
                <$ty as ReadField<'_, Ordered>>::read(bytes)
            }
        }
    )*};
}

ordered_scalar!(i8, i16, i32, i64, isize, i128, u8, u16, u32, u64, usize, u128, bool, f32, f64, char, String);
ordered_scalar!(std::net::Ipv4Addr, std::net::Ipv6Addr, std::net::IpAddr);

// A float is the int64 that orders like `total_cmp` with both zeros at 0; an f32 is widened
// to the f64 of the same value first, so both types share their keys.
impl Floats<f64> for Ordered {
    #[inline(always)]
    fn write_float<S: Sink>(value: f64, out: &mut S) -> Result<()> {
        let (buf, start) = encode_i64(f64_to_ordered(value));
        out.write(&buf[start..]);
        Ok(())
    }

    #[inline(always)]
    fn read_float(input: FieldBytes<'_>) -> Result<f64> {
        ordered_to_f64(decode_i64(input.as_slice())?)
    }
}

impl Floats<f32> for Ordered {
    fn write_float<S: Sink>(value: f32, out: &mut S) -> Result<()> {
        <Ordered as Floats<f64>>::write_float(widen(value), out)
    }

    fn read_float(input: FieldBytes<'_>) -> Result<f32> {
        let wide = <Ordered as Floats<f64>>::read_float(input)?;
        narrow(wide).ok_or_else(|| Error::invalid("f32", format!("{wide:e} is not exactly representable as f32")))
    }
}

// A bool is the int64 0 or 1.
impl Bools for Ordered {
    #[inline(always)]
    fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()> {
        out.write_byte(if value { 0x81 } else { 0x80 });
        Ok(())
    }

    #[inline(always)]
    fn read_bool(input: FieldBytes<'_>) -> Result<bool> {
        // The two canonical encodings first; anything else gets the integer decoder's error.
        match input.as_slice() {
            [0x80] => return Ok(false),
            [0x81] => return Ok(true),
            _ => {}
        }
        match decode_i64(input.as_slice())? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Error::out_of_range(i128::from(other), "bool")),
        }
    }
}

// Text and bytes are written as they are; the writer escapes them.
impl Strings for Ordered {
    #[inline(always)]
    fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()> {
        out.write(value.as_bytes());
        Ok(())
    }

    #[inline(always)]
    fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()> {
        out.write(value.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }

    #[inline(always)]
    fn read_str<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, str>> {
        str_from(input, ty)
    }

    #[inline(always)]
    fn read_string(input: FieldBytes<'_>, ty: &'static str) -> Result<String> {
        string_from(input, ty)
    }

    fn read_char(input: FieldBytes<'_>) -> Result<char> {
        char_from(input.as_slice())
    }
}

impl ByteStrings for Ordered {
    #[inline(always)]
    fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()> {
        out.write(value);
        Ok(())
    }

    #[inline(always)]
    fn read_bytes<'r, 'de: 'r>(input: Self::Input<'r, 'de>, _: &'static str) -> Result<Cow<'de, [u8]>> {
        Ok(match input.as_borrowed() {
            Some(b) => Cow::Borrowed(b),
            None => Cow::Owned(input.into_vec()),
        })
    }

    #[inline(always)]
    fn read_array<const N: usize>(input: FieldBytes<'_>, ty: &'static str) -> Result<[u8; N]> {
        array_from(input.as_slice(), ty)
    }
}

// None is the empty field; a value whose bytes are empty or all 00 gets one more 00, so that
// it is neither None nor another value.
impl Options for Ordered {
    fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()> {
        let Some(value) = value else { return Ok(()) };
        // The marker depends on all of the value's bytes, so they are staged first.
        let mut staged = SmallVec::<[u8; 48]>::new();
        value.write(&mut staged)?;
        out.write(&staged);
        if staged.iter().all(|&b| b == 0) {
            out.write_byte(0);
        }
        Ok(())
    }

    fn read_option<'de, T: ReadField<'de, Self>>(input: FieldBytes<'de>) -> Result<Option<T>> {
        let slice = input.as_slice();
        if slice.is_empty() {
            return Ok(None);
        }
        if slice.iter().all(|&b| b == 0) {
            let inner = match input.as_borrowed() {
                Some(b) => FieldBytes::borrowed(&b[1..]),
                None => FieldBytes::owned(slice[1..].to_vec()),
            };
            return T::read(inner).map(Some);
        }
        T::read(input).map(Some)
    }
}

// The writer negates a descending field's framed bytes.
impl Descending for Ordered {}

// Instants, dates, durations and addresses in the provided forms: an int64 of microseconds
// (Bigtable's TIMESTAMP key bytes) or days, an int of nanoseconds, octets.
impl Instants for Ordered {}
impl SystemTimes for Ordered {}
impl Durations for Ordered {}
#[cfg(feature = "hashed")]
impl crate::field::Digests for Ordered {}
impl crate::field::ReversedInts for Ordered {}
impl Addrs for Ordered {}

impl Uuids for Ordered {
    #[inline(always)]
    fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        out.write(value);
        Ok(())
    }

    #[inline(always)]
    fn read_id(input: FieldBytes<'_>, ty: &'static str) -> Result<[u8; 16]> {
        sixteen(input.as_slice(), ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{Desc, Encoding, FieldType};
    use crate::{Key, RowKey};

    /// A field type of a user's own, written once against the model.
    #[derive(Debug, PartialEq)]
    struct Celsius(f64);

    impl FieldType for Celsius {
        const ENCODING: Encoding = Encoding::Float64;
    }

    impl<F: Floats<f64>> WriteField<F> for Celsius {
        fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
            F::write_float(self.0, out)
        }
    }

    impl<'de, F: Floats<f64>> ReadField<'de, F> for Celsius {
        fn read(input: F::Input<'_, 'de>) -> Result<Self> {
            F::read_float(input).map(Celsius)
        }
    }

    fn model_bytes<T: WriteField<Ordered> + ?Sized>(value: &T) -> Vec<u8> {
        let mut out = Vec::new();
        value.write(&mut out).unwrap();
        out
    }

    #[test]
    fn field_types_write_their_ordered_bytes() {
        // One-field keys whose bytes hold no 00 or ff: the key is the field's bytes.
        assert_eq!(model_bytes(&14242i64), (14242i64,).to_key().unwrap().as_bytes());
        assert_eq!(model_bytes(&u64::MAX), (u64::MAX,).to_key().unwrap().as_bytes());
        assert_eq!(model_bytes("phone"), ("phone",).to_key().unwrap().as_bytes());
        assert_eq!(model_bytes(&true), (true,).to_key().unwrap().as_bytes());
        // A user's type delegating to f64 has f64's bytes.
        assert_eq!(model_bytes(&Celsius(21.5)), model_bytes(&21.5f64));
        const {
            assert!(<Desc<i64> as FieldType>::DESCENDING);
            assert!(<&Desc<i64> as FieldType>::DESCENDING);
            assert!(!<Box<i64> as FieldType>::DESCENDING);
        }
        assert_eq!(<Box<std::net::Ipv4Addr> as FieldType>::ENCODING, Encoding::Ipv4);
    }

    #[test]
    fn a_users_field_type_is_a_key_field() {
        // The key the crate's docs give for ("bobby", 14242i64).
        assert_eq!(("bobby", 14242i64).to_key().unwrap().as_bytes(), b"bobby\x00\x01\xe0\x37\xa2");

        let plain = ("phone", -7i32, Desc(20200501i64), 21.5f64, &b"\x00\xff"[..], 'é', 2.5f32).to_key().unwrap();
        let custom =
            ("phone", -7i32, Desc(20200501i64), Celsius(21.5), &b"\x00\xff"[..], 'é', 2.5f32).to_key().unwrap();
        assert_eq!(custom, plain);

        type Read = (String, i32, Desc<i64>, Celsius, Vec<u8>, char, f32);
        let (text, int, desc, celsius, bytes, c, small) = Read::from_key(&plain).unwrap();
        assert_eq!(
            (text.as_str(), int, desc.0, celsius, bytes.as_slice(), c, small),
            ("phone", -7, 20200501, Celsius(21.5), &b"\x00\xff"[..], 'é', 2.5)
        );
    }

    #[test]
    fn capabilities_write_and_read_the_field_types_bytes() {
        let mut out = Key::new();
        <Ordered as Ints<u16>>::write_int(300, &mut out).unwrap();
        assert_eq!(out.as_bytes(), model_bytes(&300u16));
        assert_eq!(<Ordered as Ints<u16>>::read_int(FieldBytes::borrowed(out.as_bytes())).unwrap(), 300);
        // Narrowing is the field type's: out of range, never a wrap.
        assert!(<Ordered as Ints<u8>>::read_int(FieldBytes::borrowed(out.as_bytes())).is_err());

        let mut out = Vec::new();
        Ordered::write_char('€', &mut out).unwrap();
        assert_eq!(Ordered::read_char(FieldBytes::borrowed(&out)).unwrap(), '€');
        assert_eq!(Ordered::read_str(FieldBytes::owned(out.clone()), "String").unwrap(), "€");
        assert!(
            matches!(Ordered::read_bytes(FieldBytes::borrowed(&out), "Vec<u8>").unwrap(), Cow::Borrowed(b) if b == out)
        );
        let err = Ordered::read_str(FieldBytes::borrowed(&[0xff]), "String").unwrap_err();
        assert!(err.to_string().contains("String"), "{err}");
    }
}
