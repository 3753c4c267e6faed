//! The HBase format's field values: how each kind of value the field model knows is written
//! as an `OrderedBytes` encoding, and read back from an [`HBaseReader`].

use std::borrow::Cow;

use super::{
    BLOB_COPY, BLOB_VAR, FLOAT32, FLOAT64, HBase, HBaseReader, INT8, INT16, INT32, INT64, NULL, TERM, TEXT, numeric,
};
use crate::error::{Error, Location, Result};
use crate::field::numeric::Numerics;
use crate::field::option::write_some;
use crate::field::{
    Addrs, Bools, ByteStrings, Descending, Durations, Floats, Instants, Ints, Options, ReadField, Sink, Strings,
    SystemTimes, Uuids, WriteField, utf8,
};
use crate::key_buf::has_nul;

/// The bytes an `OrderedBlobVar` body holds (everything after its header): 7 bits a byte, the
/// high bit set on every byte but the last; the padding bits of the last byte are zero.
fn blob_var_bytes(body: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len() * 7 / 8);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, &b) in body.iter().enumerate() {
        let last = i + 1 == body.len();
        if (b & 0x80 == 0) != last {
            return Err(Error::invalid("byte string", "its 7-bit groups do not end at its last byte"));
        }
        acc = acc << 7 | u32::from(b & 0x7f);
        bits += 7;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if acc != 0 {
        return Err(Error::invalid("byte string", "the padding bits of its last byte are not zero"));
    }
    Ok(out)
}

fn put_blob_var<S: Sink>(value: &[u8], out: &mut S) {
    out.write_byte(BLOB_VAR);
    if value.is_empty() {
        out.write_byte(TERM);
        return;
    }
    let groups = (value.len() * 8).div_ceil(7);
    let (mut acc, mut bits, mut written) = (0u32, 0u32, 0);
    let mut emit = |out: &mut S, group: u32| {
        written += 1;
        let more = if written < groups { 0x80 } else { 0 };
        out.write_byte(group as u8 | more);
    };
    for &b in value {
        acc = acc << 8 | u32::from(b);
        bits += 8;
        while bits >= 7 {
            bits -= 7;
            emit(out, acc >> bits & 0x7f);
        }
        acc &= (1 << bits) - 1;
    }
    if bits > 0 {
        emit(out, acc << (7 - bits) & 0x7f);
    }
}

macro_rules! fixed_ints {
    ($($ty:ty => $header:expr, $wide:ty);* $(;)?) => {$(
        impl Ints<$ty> for HBase {
            #[inline(always)]
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                let wide = <$wide>::try_from(value).map_err(|_| Error::unencodable(stringify!($ty), "it is wider than 64 bits"))?;
                // The header and the value in one write: one capacity check, not two.
                let mut field = [$header; 1 + std::mem::size_of::<$wide>()];
                field[1..].copy_from_slice(&(wide.cast_unsigned() ^ (1 << (<$wide>::BITS - 1))).to_be_bytes());
                out.write(&field);
                Ok(())
            }

            #[inline(always)]
            fn read_int(input: &mut HBaseReader<'_>) -> Result<$ty> {
                input.header($header, stringify!($ty), concat!("a fixed-width ", stringify!($wide)))?;
                let bytes = input.take(stringify!($ty))?;
                let wide = (<$wide>::from_be_bytes(bytes).cast_unsigned() ^ (1 << (<$wide>::BITS - 1))).cast_signed();
                <$ty>::try_from(wide).map_err(|_| Error::out_of_range(i128::from(wide), stringify!($ty)))
            }
        }
    )*};
}

fixed_ints! {
    i8 => INT8, i8;
    i16 => INT16, i16;
    i32 => INT32, i32;
    i64 => INT64, i64;
    isize => INT64, i64;
    u8 => INT16, i16;
    u16 => INT32, i32;
    u32 => INT64, i64;
}

macro_rules! numeric_ints {
    ($($ty:ty),*) => {$(
        impl Ints<$ty> for HBase {
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                #[allow(unused_comparisons)]
                let negative = value < 0;
                #[allow(clippy::cast_sign_loss, clippy::cast_possible_wrap)]
                let magnitude = if negative { (value as i128).unsigned_abs() } else { value as u128 };
                HBase::write_decimal_int(negative, magnitude, out)
            }

            fn read_int(input: &mut HBaseReader<'_>) -> Result<$ty> {
                let (negative, magnitude) = HBase::read_decimal_int(input, stringify!($ty))?;
                let value = if negative {
                    0i128.checked_sub_unsigned(magnitude).and_then(|v| <$ty>::try_from(v).ok())
                } else {
                    <$ty>::try_from(magnitude).ok()
                };
                value.ok_or_else(|| {
                    let shown = i128::try_from(magnitude).map_or(i128::MAX, |m| if negative { -m } else { m });
                    Error::out_of_range(shown, stringify!($ty))
                })
            }
        }
    )*};
}

numeric_ints!(u64, usize, u128, i128);

impl Numerics for HBase {
    fn write_decimal_int<S: Sink>(negative: bool, magnitude: u128, out: &mut S) -> Result<()> {
        let mut bytes = Vec::with_capacity(24);
        numeric::put_int(&mut bytes, negative, magnitude);
        out.write(&bytes);
        Ok(())
    }

    fn write_decimal_float<S: Sink>(value: f64, out: &mut S) -> Result<()> {
        let mut bytes = Vec::with_capacity(24);
        numeric::put_float(&mut bytes, value);
        out.write(&bytes);
        Ok(())
    }

    fn read_decimal_int(input: &mut HBaseReader<'_>, ty: &'static str) -> Result<(bool, u128)> {
        let (number, len) = numeric::get(&input.bytes[input.pos..], input.flip)?;
        let int = number.to_int().ok_or_else(|| {
            Error::invalid(ty, "the number is not an integer of at most 128 bits (a fraction, infinity or NaN)")
        })?;
        input.pos += len;
        Ok(int)
    }

    fn read_decimal_float(input: &mut HBaseReader<'_>) -> Result<f64> {
        let (number, len) = numeric::get(&input.bytes[input.pos..], input.flip)?;
        let value = number.to_f64();
        let mut again = Vec::with_capacity(len);
        numeric::put_float(&mut again, value);
        let read = &input.bytes[input.pos..input.pos + len];
        let canonical = again.len() == len && again.iter().zip(read).all(|(a, b)| *a == b ^ input.flip);
        // Java 18 and older wrote other digits for some doubles, and HBase tables hold both:
        // exactly those digits are read too, as the double they stand for.
        let older = !canonical && {
            again.clear();
            numeric::put_jdk18_float(&mut again, value).is_some()
                && again.len() == len
                && again.iter().zip(read).all(|(a, b)| *a == b ^ input.flip)
        };
        if !(canonical || older) {
            return Err(Error::NonCanonical {
                at: Location::default(),
                detail: "the number is not a double's decimal digits as Java writes them (JDK 19 and later, or JDK 18 \
                         and older, for the double they round to)",
            });
        }
        input.pos += len;
        Ok(value)
    }
}

macro_rules! floats {
    ($($ty:ty => $header:expr, $bits:ty, $nan:expr);*) => {$(
        impl Floats<$ty> for HBase {
            #[inline(always)]
            fn write_float<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                let bits = if value.is_nan() { $nan } else { value.to_bits() };
                let sign = 1 << (<$bits>::BITS - 1);
                let ordered = if bits & sign != 0 { !bits } else { bits | sign };
                let mut field = [$header; 1 + std::mem::size_of::<$bits>()];
                field[1..].copy_from_slice(&ordered.to_be_bytes());
                out.write(&field);
                Ok(())
            }

            #[inline]
            fn read_float(input: &mut HBaseReader<'_>) -> Result<$ty> {
                input.header($header, stringify!($ty), concat!("a fixed-width ", stringify!($ty)))?;
                let ordered = <$bits>::from_be_bytes(input.take(stringify!($ty))?);
                let sign = 1 << (<$bits>::BITS - 1);
                let bits = if ordered & sign != 0 { ordered ^ sign } else { !ordered };
                let value = <$ty>::from_bits(bits);
                if value.is_nan() && bits != $nan {
                    return Err(Error::NonCanonical {
                        at: Location::default(),
                        detail: "a NaN other than the one NaN Java writes",
                    });
                }
                Ok(value)
            }
        }
    )*};
}

floats!(f32 => FLOAT32, u32, 0x7fc0_0000; f64 => FLOAT64, u64, 0x7ff8_0000_0000_0000);

// A bool is HBase's Int8 0 or 1: HBase has no bool of its own.
impl Bools for HBase {
    #[inline(always)]
    fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()> {
        <HBase as Ints<i8>>::write_int(i8::from(value), out)
    }

    #[inline]
    fn read_bool(input: &mut HBaseReader<'_>) -> Result<bool> {
        match <HBase as Ints<i8>>::read_int(input)? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Error::out_of_range(i128::from(other), "bool")),
        }
    }
}

#[cold]
fn not_utf8(ty: &'static str, e: &std::str::Utf8Error) -> Error {
    Error::invalid(ty, format!("invalid UTF-8 at byte {} of the text", e.valid_up_to()))
}

impl Strings for HBase {
    #[inline(always)]
    fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()> {
        if has_nul(value.as_bytes()) {
            return Err(Error::unencodable(
                "text",
                "HBase's OrderedString ends at a 00 byte, so it cannot hold U+0000; store the text as bytes",
            ));
        }
        out.write_framed(TEXT, value.as_bytes(), TERM);
        Ok(())
    }

    #[inline]
    fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()> {
        Self::write_str(value.encode_utf8(&mut [0; 4]), out)
    }

    #[inline(always)]
    fn read_str<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, str>> {
        input.header(TEXT, ty, "text")?;
        let text = match input.until_term(ty)? {
            Cow::Borrowed(b) => utf8::to_str(b).map(Cow::Borrowed),
            Cow::Owned(v) => utf8::into_string(v).map(Cow::Owned),
        };
        text.map_err(|e| not_utf8(ty, &e))
    }

    #[inline(always)]
    fn read_string(input: &mut HBaseReader<'_>, ty: &'static str) -> Result<String> {
        input.header(TEXT, ty, "text")?;
        let text = match input.until_term(ty)? {
            Cow::Borrowed(b) => utf8::to_str(b).map(str::to_owned),
            Cow::Owned(v) => utf8::into_string(v),
        };
        text.map_err(|e| not_utf8(ty, &e))
    }

    fn read_char(input: &mut HBaseReader<'_>) -> Result<char> {
        let text = Self::read_str(input, "char")?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Error::invalid("char", format!("the field holds {} characters, not one", text.chars().count()))),
        }
    }
}

impl ByteStrings for HBase {
    #[inline(always)]
    fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()> {
        if out.ends_key() {
            // The last field of a key holds its bytes as they are (HBase's `OrderedBlob`).
            out.write_byte(BLOB_COPY);
            out.write(value);
        } else {
            put_blob_var(value, out);
        }
        Ok(())
    }

    #[inline]
    fn read_bytes<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        if input.is_last() {
            input.header(BLOB_COPY, ty, "the last field's bytes, HBase's OrderedBlob")?;
            if input.flip == 0 {
                let rest = &input.bytes[input.pos..];
                input.pos = input.bytes.len();
                return Ok(Cow::Borrowed(rest));
            }
            return input.until_term(ty);
        }
        input.header(BLOB_VAR, ty, "a byte string that is not the last field, HBase's OrderedBlobVar")?;
        let rest = &input.bytes[input.pos..];
        let Some(end) = rest.iter().position(|&b| (b ^ input.flip) & 0x80 == 0) else {
            return Err(Error::invalid(ty, "the byte string's 7-bit groups run to the end of the key"));
        };
        let body: Vec<u8> = rest[..=end].iter().map(|b| b ^ input.flip).collect();
        input.pos += end + 1;
        if body == [TERM] {
            return Ok(Cow::Owned(Vec::new()));
        }
        let bytes = blob_var_bytes(&body).map_err(|_| Error::invalid(ty, "its 7-bit groups are malformed"))?;
        // One value, one encoding: the group count must be the one the bytes need.
        if bytes.is_empty() || (bytes.len() * 8).div_ceil(7) != body.len() {
            return Err(Error::NonCanonical {
                at: Location::default(),
                detail: "the byte string has extra 7-bit groups",
            });
        }
        Ok(Cow::Owned(bytes))
    }

    #[inline]
    fn read_array<const N: usize>(input: &mut HBaseReader<'_>, ty: &'static str) -> Result<[u8; N]> {
        // The last field's bytes are the rest of the key: copied straight into the array.
        if input.is_last() && input.flip == 0 {
            input.header(BLOB_COPY, ty, "the last field's bytes, HBase's OrderedBlob")?;
            let rest = &input.bytes[input.pos..];
            let array = rest.try_into().map_or_else(|_| crate::field::field_bytes::array_from(rest, ty), Ok)?;
            input.pos = input.bytes.len();
            return Ok(array);
        }
        crate::field::field_bytes::array_from(&Self::read_bytes(input, ty)?, ty)
    }
}

impl Options for HBase {
    #[inline(always)]
    fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()> {
        match value {
            Some(v) => write_some(v, out, NULL, "HBase"),
            // HBase's `OrderedBlob` ends a descending null with the terminator its values
            // have, where every other type's null is the one byte. The writer drops the `00`
            // again when the field is ascending, as HBase does.
            None if T::BYTE_STRING && out.ends_key() => {
                out.write(&[NULL, TERM]);
                Ok(())
            }
            None => {
                out.write_byte(NULL);
                Ok(())
            }
        }
    }

    #[inline(always)]
    fn read_option<'de, T: ReadField<'de, Self>>(input: &mut HBaseReader<'de>) -> Result<Option<T>> {
        if input.peek() == Some(NULL) {
            input.pos += 1;
            if T::BYTE_STRING && input.flip != 0 && input.is_last() {
                if input.peek() != Some(TERM) {
                    return Err(Error::invalid(
                        "Option of a byte string",
                        "a descending null in the last field is fa ff for a byte string (HBase's OrderedBlob), \
                         and the ff is missing",
                    ));
                }
                input.pos += 1;
            }
            return Ok(None);
        }
        T::read(input).map(Some)
    }
}

// A descending field is its ascending bytes inverted: the writer and reader do it.
impl Descending for HBase {}

// UUIDs, ULIDs, addresses and durations are byte strings; instants and dates int64s.
impl Uuids for HBase {
    fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        Self::write_bytes(value, out)
    }

    fn read_id(input: &mut HBaseReader<'_>, ty: &'static str) -> Result<[u8; 16]> {
        Self::read_array(input, ty)
    }
}

impl Instants for HBase {}
impl SystemTimes for HBase {}
impl Durations for HBase {}
#[cfg(feature = "hashed")]
impl crate::field::Digests for HBase {}
impl crate::field::ReversedInts for HBase {}
impl Addrs for HBase {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_var_round_trips_every_length() {
        for len in 0..20usize {
            let value: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let mut out = Vec::new();
            put_blob_var(&value, &mut out);
            assert_eq!(out.len(), 1 + if len == 0 { 1 } else { (len * 8).div_ceil(7) }, "{len}");
            if len > 0 {
                assert_eq!(blob_var_bytes(&out[1..]).unwrap(), value, "{len}");
            }
        }
    }

    #[test]
    fn the_last_byte_string_is_copied_and_others_are_grouped() {
        let key = HBase.to_key(&(vec![0x66u8, 0x6f, 0x6f], vec![0x66u8, 0x6f, 0x6f])).unwrap();
        assert_eq!(key.as_bytes(), [0x37, 0xb3, 0x9b, 0xed, 0x70, 0x38, 0x66, 0x6f, 0x6f]);
        let (a, b): (Vec<u8>, Vec<u8>) = HBase.from_key(key.as_bytes()).unwrap();
        assert_eq!((a.as_slice(), b.as_slice()), (&b"foo"[..], &b"foo"[..]));
    }
}
