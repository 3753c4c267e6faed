//! The ordered format as a [`ValueFormat`]: [`Ordered`], its capabilities, and the bridge that
//! gives every [`EncodeField`]/[`DecodeField`] type the model's traits for it.
//!
//! The capabilities call the field types' ordered codecs, so a value written through the model
//! has exactly the bytes it has today.

use std::borrow::Cow;

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::field::bytes::{array_from, char_from, str_from};
use crate::field::float::{f64_to_ordered, narrow, ordered_to_f64, widen};
use crate::field::int::{decode_i64, decode_u64, encode_i64, encode_u64};
use crate::field::wide::sixteen;
use crate::field::{
    Bools, ByteStrings, DecodeField, Descending, EncodeField, Encoding, FieldBytes, FieldType, Floats, Ints, Options,
    ReadField, Sink, Strings, Uuids, ValueFormat, WriteField,
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
    type Input<'r, 'de> = FieldBytes<'de>;
}

// The bridge. `&T` and `Box<T>` are covered through their `EncodeField` impls; a second,
// generic `impl WriteField<F> for &T` would overlap this one (`&_` is fundamental), so they
// get theirs when the bridge goes.
impl<T: EncodeField + ?Sized> FieldType for T {
    const ENCODING: Encoding = T::ENCODING;
    const DESCENDING: bool = T::DESCENDING;
}

impl<T: EncodeField + ?Sized> WriteField<Ordered> for T {
    #[inline(always)]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        self.encode_field(out)
    }
}

impl<'de, T: DecodeField<'de> + FieldType> ReadField<'de, Ordered> for T {
    #[inline(always)]
    fn read(input: FieldBytes<'de>) -> Result<Self> {
        T::decode_field(input)
    }
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

/// The ordered bytes of an integer or a `bool` under the old method names, for the code that
/// embeds one and is not on the model yet (field types of later families, serde, the salt):
/// a narrow bridge that goes as they move. Only the types that left `EncodeField` have it,
/// so a call never has two traits to pick from.
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
    fn read_str<'de>(input: Self::Input<'_, 'de>, ty: &'static str) -> Result<Cow<'de, str>> {
        str_from(input, ty)
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
    fn read_bytes<'de>(input: Self::Input<'_, 'de>, _: &'static str) -> Result<Cow<'de, [u8]>> {
        Ok(match input.as_borrowed() {
            Some(b) => Cow::Borrowed(b),
            None => Cow::Owned(input.into_vec()),
        })
    }

    #[inline(always)]
    fn read_array<const N: usize>(input: FieldBytes<'_>) -> Result<[u8; N]> {
        array_from(input.as_slice())
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
    use crate::field::Desc;
    use crate::{Key, RowKey};

    /// A field type written once against the model, generic over the format: what every
    /// field type becomes when it moves onto the model.
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

    /// Carries a model field type into today's ordered writer and reader, which still take
    /// `EncodeField`/`DecodeField`.
    #[derive(Debug, PartialEq)]
    struct Via<T>(T);

    impl<T: WriteField<Ordered>> EncodeField for Via<T> {
        const DESCENDING: bool = T::DESCENDING;
        const ENCODING: Encoding = T::ENCODING;

        fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
            self.0.write(out)
        }
    }

    impl<'de, T: ReadField<'de, Ordered>> DecodeField<'de> for Via<T> {
        fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
            T::read(bytes).map(Via)
        }
    }

    fn model_bytes<T: WriteField<Ordered> + ?Sized>(value: &T) -> Vec<u8> {
        let mut out = Vec::new();
        value.write(&mut out).unwrap();
        out
    }

    #[test]
    fn bridged_types_write_their_ordered_bytes() {
        // One-field keys whose bytes hold no 00 or ff: the key is the field's bytes.
        assert_eq!(model_bytes(&14242i64), (14242i64,).to_key().unwrap().as_bytes());
        assert_eq!(model_bytes(&u64::MAX), (u64::MAX,).to_key().unwrap().as_bytes());
        assert_eq!(model_bytes("phone"), ("phone",).to_key().unwrap().as_bytes());
        assert_eq!(model_bytes(&true), (true,).to_key().unwrap().as_bytes());
        const {
            assert!(<Desc<i64> as FieldType>::DESCENDING);
            assert!(<&Desc<i64> as FieldType>::DESCENDING);
            assert!(!<Box<i64> as FieldType>::DESCENDING);
        }
        assert_eq!(<Box<std::net::Ipv4Addr> as FieldType>::ENCODING, Encoding::Ipv4);
    }

    #[test]
    fn keys_through_the_model_equal_todays_keys() {
        // The key the crate's docs give for ("bobby", 14242i64).
        assert_eq!((Via("bobby"), Via(14242i64)).to_key().unwrap().as_bytes(), b"bobby\x00\x01\xe0\x37\xa2");

        let today = ("phone", -7i32, Desc(20200501i64), 21.5f64, &b"\x00\xff"[..], 'é', 2.5f32).to_key().unwrap();
        let model = (
            Via("phone"),
            Via(-7i32),
            Via(Desc(20200501i64)),
            Via(Celsius(21.5)),
            Via(&b"\x00\xff"[..]),
            Via('é'),
            Via(2.5f32),
        )
            .to_key()
            .unwrap();
        assert_eq!(model, today);

        type Read = (Via<String>, Via<i32>, Via<Desc<i64>>, Via<Celsius>, Via<Vec<u8>>, Via<char>, Via<f32>);
        let (text, int, desc, celsius, bytes, c, small) = Read::from_key(&today).unwrap();
        assert_eq!(
            (text.0.as_str(), int.0, desc.0.0, celsius.0, bytes.0.as_slice(), c.0, small.0),
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
        assert!(Ordered::read_str(FieldBytes::borrowed(&[0xff]), "String").is_err());
    }
}
