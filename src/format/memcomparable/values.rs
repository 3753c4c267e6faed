//! The memcomparable format's capabilities: the bytes of each family of values.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use super::Memcomparable;
use super::cursor::{Cursor, GROUP, MORE};
use crate::error::{Error, Result};
use crate::field::{
    Addrs, Bools, ByteStrings, Descending, Durations, Floats, Instants, Ints, Options, ReadField, Sink, Strings,
    SystemTimes, Uuids, WriteField, utf8,
};

// Unsigned integers: their big-endian bytes.
macro_rules! unsigned {
    ($($ty:ty, $n:literal);*) => {$(
        impl Ints<$ty> for Memcomparable {
            #[inline(always)]
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                out.write(&value.to_be_bytes());
                Ok(())
            }

            #[inline(always)]
            fn read_int(input: &mut Cursor<'_>) -> Result<$ty> {
                input.array::<$n>(concat!("a ", stringify!($ty), " field is ", $n, " bytes")).map(<$ty>::from_be_bytes)
            }
        }
    )*};
}

unsigned!(u8, 1; u16, 2; u32, 4; u64, 8; u128, 16);

// Signed integers: the unsigned type of the same width with the sign bit flipped, so that
// negative values come first.
macro_rules! signed {
    ($($ty:ty, $uty:ty, $n:literal);*) => {$(
        impl Ints<$ty> for Memcomparable {
            #[inline(always)]
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                out.write(&(value.cast_unsigned() ^ (1 << (<$uty>::BITS - 1))).to_be_bytes());
                Ok(())
            }

            #[inline(always)]
            fn read_int(input: &mut Cursor<'_>) -> Result<$ty> {
                let bytes = input.array::<$n>(concat!("an ", stringify!($ty), " field is ", $n, " bytes"))?;
                Ok((<$uty>::from_be_bytes(bytes) ^ (1 << (<$uty>::BITS - 1))).cast_signed())
            }
        }
    )*};
}

signed!(i8, u8, 1; i16, u16, 2; i32, u32, 4; i64, u64, 8; i128, u128, 16);

// The pointer-sized integers are what serde hands a serializer for them: a u64 and an i64.
impl Ints<usize> for Memcomparable {
    fn write_int<S: Sink>(value: usize, out: &mut S) -> Result<()> {
        let wide = u64::try_from(value).map_err(|_| Error::unencodable("usize", "it is wider than 64 bits"))?;
        <Memcomparable as Ints<u64>>::write_int(wide, out)
    }

    fn read_int(input: &mut Cursor<'_>) -> Result<usize> {
        let wide = <Memcomparable as Ints<u64>>::read_int(input)?;
        usize::try_from(wide).map_err(|_| Error::out_of_range(i128::from(wide), "usize"))
    }
}

impl Ints<isize> for Memcomparable {
    fn write_int<S: Sink>(value: isize, out: &mut S) -> Result<()> {
        let wide = i64::try_from(value).map_err(|_| Error::unencodable("isize", "it is wider than 64 bits"))?;
        <Memcomparable as Ints<i64>>::write_int(wide, out)
    }

    fn read_int(input: &mut Cursor<'_>) -> Result<isize> {
        let wide = <Memcomparable as Ints<i64>>::read_int(input)?;
        isize::try_from(wide).map_err(|_| Error::out_of_range(i128::from(wide), "isize"))
    }
}

// A float is the unsigned integer of its bits, the sign bit set for a positive float and
// every bit inverted for a negative one. NaN and -0.0 are first replaced as the crate does,
// so only the one NaN and +0.0 are ever written, and only they are read.
macro_rules! float {
    ($ty:ty, $uty:ty, $n:literal) => {
        impl Floats<$ty> for Memcomparable {
            #[inline(always)]
            fn write_float<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                const SIGN: $uty = 1 << (<$uty>::BITS - 1);
                let value = if value.is_nan() {
                    <$ty>::NAN
                } else if value == 0.0 {
                    0.0
                } else {
                    value
                };
                let bits = value.to_bits();
                let ordered = if bits & SIGN == 0 { bits | SIGN } else { !bits };
                out.write(&ordered.to_be_bytes());
                Ok(())
            }

            #[inline(always)]
            fn read_float(input: &mut Cursor<'_>) -> Result<$ty> {
                const SIGN: $uty = 1 << (<$uty>::BITS - 1);
                let at = input.position();
                let ordered = <$uty>::from_be_bytes(input.array::<$n>(concat!(
                    "an ",
                    stringify!($ty),
                    " field is ",
                    $n,
                    " bytes"
                ))?);
                let bits = if ordered & SIGN != 0 { ordered & !SIGN } else { !ordered };
                let value = <$ty>::from_bits(bits);
                if value.is_nan() && bits != <$ty>::NAN.to_bits() {
                    return Err(Cursor::invalid_at(
                        at,
                        stringify!($ty),
                        format!(
                            "the bytes hold the NaN {bits:#x}, but the format writes every NaN as {:#x}",
                            <$ty>::NAN.to_bits()
                        ),
                    ));
                }
                if bits == SIGN {
                    return Err(Cursor::invalid_at(
                        at,
                        stringify!($ty),
                        "the bytes hold -0.0, which the format writes as 0.0".to_owned(),
                    ));
                }
                Ok(value)
            }
        }
    };
}

float!(f32, u32, 4);
float!(f64, u64, 8);

impl Bools for Memcomparable {
    #[inline(always)]
    fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()> {
        out.write_byte(u8::from(value));
        Ok(())
    }

    #[inline(always)]
    fn read_bool(input: &mut Cursor<'_>) -> Result<bool> {
        let at = input.position();
        match input.byte("a bool field is 1 byte")? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Cursor::invalid_at(at, "bool", format!("the byte is {other:02x}; expected 00 or 01"))),
        }
    }
}

/// Writes a string's or byte string's tag and groups.
#[inline]
fn write_groups<S: Sink>(value: &[u8], out: &mut S) {
    let Some(before_last) = value.len().checked_sub(1) else {
        out.write_byte(0);
        return;
    };
    out.write_byte(1);
    // Every group but the last holds 8 bytes and says that more follow.
    let (full, last) = value.split_at(before_last / GROUP * GROUP);
    for data in full.chunks_exact(GROUP) {
        let mut group = [MORE; GROUP + 1];
        group[..GROUP].copy_from_slice(data);
        out.write(&group);
    }
    // 1 to 8 bytes: copied one by one, cheaper than a call to copy so few.
    let mut group = [0u8; GROUP + 1];
    for (to, from) in group.iter_mut().zip(last) {
        *to = *from;
    }
    group[GROUP] = last.len() as u8;
    out.write(&group);
}

fn utf8_error(ty: &'static str, err: &std::str::Utf8Error) -> Error {
    Error::invalid(ty, format!("invalid UTF-8 at byte {} of the text", err.valid_up_to()))
}

impl Strings for Memcomparable {
    #[inline(always)]
    fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()> {
        write_groups(value.as_bytes(), out);
        Ok(())
    }

    // A char is its scalar value as a u32, as the crate writes it.
    fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()> {
        out.write(&u32::from(value).to_be_bytes());
        Ok(())
    }

    #[inline]
    fn read_str<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, str>> {
        match input.byte_string(ty)? {
            Cow::Borrowed(b) => utf8::to_str(b).map(Cow::Borrowed).map_err(|e| utf8_error(ty, &e)),
            Cow::Owned(v) => utf8::into_string(v).map(Cow::Owned).map_err(|e| utf8_error(ty, &e)),
        }
    }

    #[inline]
    fn read_string(input: &mut Cursor<'_>, ty: &'static str) -> Result<String> {
        utf8::into_string(input.owned_byte_string(ty)?).map_err(|e| utf8_error(ty, &e))
    }

    fn read_char(input: &mut Cursor<'_>) -> Result<char> {
        let at = input.position();
        let value = u32::from_be_bytes(input.array::<4>("a char field is 4 bytes")?);
        char::from_u32(value).ok_or_else(|| {
            Cursor::invalid_at(
                at,
                "char",
                format!("{value:#x} is not a char; expected a Unicode scalar value (at most 10ffff, not d800 to dfff)"),
            )
        })
    }
}

impl ByteStrings for Memcomparable {
    #[inline(always)]
    fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()> {
        write_groups(value, out);
        Ok(())
    }

    #[inline]
    fn read_bytes<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        input.byte_string(ty)
    }

    #[inline]
    fn read_array<const N: usize>(input: &mut Cursor<'_>, ty: &'static str) -> Result<[u8; N]> {
        input.byte_array(ty)
    }
}

impl Options for Memcomparable {
    #[inline]
    fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()> {
        match value {
            None => {
                out.write_byte(0);
                Ok(())
            }
            Some(value) => {
                out.write_byte(1);
                value.write(out)
            }
        }
    }

    #[inline]
    fn read_option<'de, T: ReadField<'de, Self>>(input: &mut Cursor<'de>) -> Result<Option<T>> {
        let at = input.position();
        match input.byte("an Option field starts with a 00 or 01 byte")? {
            0 => Ok(None),
            1 => T::read(input).map(Some),
            other => Err(Cursor::invalid_at(
                at,
                "Option",
                format!("its first byte is {other:02x}; expected 00 (None) or 01 (Some, then the value)"),
            )),
        }
    }
}

// The key writer inverts a descending field's bytes and the reader's cursor inverts them
// back, as the crate's reverse mode does for a field serialized on its own.
impl Descending for Memcomparable {}

// Instants and dates as the provided i64 / i128 integers.
impl Instants for Memcomparable {}
impl SystemTimes for Memcomparable {}

// 16 bytes as a byte string: what `uuid::Uuid`'s serde impl hands a binary serializer.
impl Uuids for Memcomparable {
    #[inline]
    fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        write_groups(value, out);
        Ok(())
    }

    #[inline]
    fn read_id(input: &mut Cursor<'_>, ty: &'static str) -> Result<[u8; 16]> {
        input.byte_array(ty)
    }
}

// serde's `Duration` is a struct of the seconds (u64) and the nanoseconds (u32), which the
// crate writes as those two integers: the same 12 bytes as the provided form, without groups.
impl crate::field::ReversedInts for Memcomparable {}
#[cfg(feature = "hashed")]
impl crate::field::Digests for Memcomparable {}

impl Durations for Memcomparable {
    fn write_duration<S: Sink>(value: Duration, out: &mut S) -> Result<()> {
        out.write(&crate::field::duration::to_bytes(value));
        Ok(())
    }

    fn read_duration(input: &mut Cursor<'_>) -> Result<Duration> {
        let bytes = input.array::<12>("a Duration field is 12 bytes (seconds, then nanoseconds)")?;
        crate::field::duration::from_bytes(bytes)
    }
}

// serde's addresses, in a binary serializer: the octets as a tuple of u8 (so as they are),
// and an `IpAddr` as its variant index (V4 is 0, V6 is 1) and then the octets.
impl Addrs for Memcomparable {
    fn write_ipv4<S: Sink>(value: Ipv4Addr, out: &mut S) -> Result<()> {
        out.write(&value.octets());
        Ok(())
    }

    fn read_ipv4(input: &mut Cursor<'_>) -> Result<Ipv4Addr> {
        input.array::<4>("an Ipv4Addr field is 4 bytes").map(Ipv4Addr::from)
    }

    fn write_ipv6<S: Sink>(value: Ipv6Addr, out: &mut S) -> Result<()> {
        out.write(&value.octets());
        Ok(())
    }

    fn read_ipv6(input: &mut Cursor<'_>) -> Result<Ipv6Addr> {
        input.array::<16>("an Ipv6Addr field is 16 bytes").map(Ipv6Addr::from)
    }

    fn write_ip<S: Sink>(value: IpAddr, out: &mut S) -> Result<()> {
        match value {
            IpAddr::V4(v4) => {
                out.write_byte(0);
                Self::write_ipv4(v4, out)
            }
            IpAddr::V6(v6) => {
                out.write_byte(1);
                Self::write_ipv6(v6, out)
            }
        }
    }

    fn read_ip(input: &mut Cursor<'_>) -> Result<IpAddr> {
        let at = input.position();
        match input.byte("an IpAddr field starts with a 00 (V4) or 01 (V6) byte")? {
            0 => Self::read_ipv4(input).map(IpAddr::V4),
            1 => Self::read_ipv6(input).map(IpAddr::V6),
            other => Err(Cursor::invalid_at(
                at,
                "IpAddr",
                format!("its first byte is {other:02x}; expected 00 (an IPv4 address follows) or 01 (IPv6)"),
            )),
        }
    }
}
