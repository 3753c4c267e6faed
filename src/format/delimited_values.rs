//! The delimited format as a [`ValueFormat`]: [`DelimitedText`] and the text it writes for
//! each kind of value, with that text's [`Alphabet`] when it is known in advance.
//!
//! The field types say what value they are; this file says how the delimited format writes
//! it. The capabilities call the text codecs beside the field types, so a value written
//! through the model has exactly the text it had before.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::decimal::{Integer, decode_decimal, encode_decimal, narrow};
use crate::field::hex::{read_hex, write_hex};
use crate::field::instant::{self, CalendarDate, Timestamp};
use crate::field::ip::{
    IP_ALPHABET, V4_ALPHABET, V6_ALPHABET, parse_ip_text, parse_v4, parse_v6, write_ip_text, write_v4, write_v6,
};
use crate::field::wide::{read_i128_text, read_u128_text, write_i128_text, write_u128_text};
use crate::field::{
    Addrs, Bools, ByteStrings, Decimals, Durations, HexText, Instants, Ints, Options, ReadField, ReversedInts, Sink,
    Strings, Uuids, ValueFormat, WriteField, duration, ulid, uuid,
};

/// The delimited (text) format, Bigtable's `Struct.DelimitedBytes`, as a type parameter of
/// the field model: [`WriteField<DelimitedText>`](crate::field::WriteField) and
/// [`ReadField<'de, DelimitedText>`](crate::field::ReadField) are its field types.
///
/// A field reader gets the field's text, already cut from the key at its delimiters. The
/// delimiter itself, and the check that no field holds a byte at or below it, stay with
/// [`Delimited`](crate::format::Delimited).
///
/// ```
/// use rowkey::field::{ReadField, WriteField};
/// use rowkey::format::DelimitedText;
///
/// let mut text = Vec::new();
/// WriteField::<DelimitedText>::write(&-1i16, &mut text)?;
/// assert_eq!(text, b"-99998");
/// assert_eq!(<i16 as ReadField<'_, DelimitedText>>::read(b"-99998")?, -1);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DelimitedText;

impl ValueFormat for DelimitedText {
    type Input<'r, 'de>
        = &'de [u8]
    where
        'de: 'r;
}

// Zero-padded decimal, the width of the type's largest value; a negative value is `-` and
// the nines' complement, so that it sorts before every non-negative one.
macro_rules! decimal_ints {
    ($($ty:ty),*) => {$(
        impl Ints<$ty> for DelimitedText {
            const ALPHABET: Option<Alphabet> =
                Some(if <$ty as Integer>::SIGNED { Alphabet::SIGNED_DIGITS } else { Alphabet::DIGITS });

            #[inline]
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                encode_decimal(out, value.to_i128(), <$ty as Integer>::DIGITS, <$ty as Integer>::NAME)
            }

            #[inline]
            fn read_int(text: &[u8]) -> Result<$ty> {
                let (digits, signed) = (<$ty as Integer>::DIGITS, <$ty as Integer>::SIGNED);
                narrow(decode_decimal(text, digits, signed, <$ty as Integer>::NAME)?)
            }
        }
    )*};
}

decimal_ints!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

// 39 digits, as the narrower integers but beyond the 64 bits their codec holds.
impl Ints<u128> for DelimitedText {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::DIGITS);

    fn write_int<S: Sink>(value: u128, out: &mut S) -> Result<()> {
        write_u128_text(value, out);
        Ok(())
    }

    fn read_int(text: &[u8]) -> Result<u128> {
        read_u128_text(text)
    }
}

impl Ints<i128> for DelimitedText {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::SIGNED_DIGITS);

    fn write_int<S: Sink>(value: i128, out: &mut S) -> Result<()> {
        write_i128_text(value, out);
        Ok(())
    }

    fn read_int(text: &[u8]) -> Result<i128> {
        read_i128_text(text)
    }
}

impl Bools for DelimitedText {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::BOOL);

    #[inline]
    fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()> {
        out.write(if value { b"true" } else { b"false" });
        Ok(())
    }

    fn read_bool(text: &[u8]) -> Result<bool> {
        match text {
            b"false" => Ok(false),
            b"true" => Ok(true),
            _ => Err(Error::invalid("bool", "expected `false` or `true`")),
        }
    }
}

fn utf8<'de>(ty: &'static str, text: &'de [u8]) -> Result<&'de str> {
    crate::field::utf8::to_str(text)
        .map_err(|e| Error::invalid(ty, format!("invalid UTF-8 at byte {} of the field", e.valid_up_to())))
}

// Text as it is: its bytes are open, so the writer checks each value against the delimiter.
impl Strings for DelimitedText {
    #[inline]
    fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()> {
        out.write(value.as_bytes());
        Ok(())
    }

    fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()> {
        out.write(value.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }

    #[inline]
    fn read_str<'r, 'de: 'r>(text: &'de [u8], ty: &'static str) -> Result<Cow<'de, str>> {
        utf8(ty, text).map(Cow::Borrowed)
    }

    #[inline]
    fn read_string(text: &[u8], ty: &'static str) -> Result<String> {
        utf8(ty, text).map(str::to_owned)
    }

    fn read_char(text: &[u8]) -> Result<char> {
        let s = utf8("char", text)?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Error::invalid("char", format!("the field holds {} characters, not one", s.chars().count()))),
        }
    }
}

// Bytes as they are, checked value by value as text is.
impl ByteStrings for DelimitedText {
    #[inline]
    fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()> {
        out.write(value);
        Ok(())
    }

    #[inline]
    fn read_bytes<'r, 'de: 'r>(text: &'de [u8], _ty: &'static str) -> Result<Cow<'de, [u8]>> {
        Ok(Cow::Borrowed(text))
    }

    fn read_array<const N: usize>(text: &[u8], ty: &'static str) -> Result<[u8; N]> {
        crate::field::field_bytes::array_from(text, ty)
    }
}

// Decimal of a chosen width (`Padded`), written as the integers are.
impl Decimals for DelimitedText {
    const DIGITS_ALPHABET: Option<Alphabet> = Some(Alphabet::DIGITS);
    const SIGNED_DIGITS_ALPHABET: Option<Alphabet> = Some(Alphabet::SIGNED_DIGITS);

    #[inline]
    fn write_decimal<S: Sink>(value: i128, width: usize, ty: &'static str, out: &mut S) -> Result<()> {
        encode_decimal(out, value, width, ty)
    }

    #[inline]
    fn read_decimal(text: &[u8], width: usize, signed: bool, ty: &'static str) -> Result<i128> {
        decode_decimal(text, width, signed, ty)
    }
}

// Lowercase hex, two digits a byte; an integer's width is checked before its digits.
impl HexText for DelimitedText {
    const HEX_ALPHABET: Option<Alphabet> = Some(Alphabet::HEX);

    #[inline]
    fn write_hex<S: Sink>(bytes: &[u8], out: &mut S) -> Result<()> {
        write_hex(out, bytes);
        Ok(())
    }

    fn read_hex(text: &[u8], len: Option<usize>, ty: &'static str) -> Result<Vec<u8>> {
        if let Some(len) = len
            && text.len() != 2 * len
        {
            return Err(Error::invalid(ty, format!("expected {} hex digits, found {} bytes", 2 * len, text.len())));
        }
        read_hex(text, ty)
    }
}

// `MAX - v` in the decimal width of the type, never negative: the text Java services write
// with `Long.MAX_VALUE - ts`.
impl ReversedInts for DelimitedText {
    const REVERSED_ALPHABET: Option<Alphabet> = Some(Alphabet::DIGITS);

    fn write_reversed<T: Integer, S: Sink>(stored: i128, out: &mut S) -> Result<()> {
        encode_decimal(out, stored, T::DIGITS, T::NAME)
    }

    fn read_reversed<T: Integer>(text: &[u8]) -> Result<i128> {
        decode_decimal(text, T::DIGITS, false, T::NAME)
    }
}

// Hyphenated lowercase hex for a UUID, uppercase Crockford base32 for a ULID.
impl Uuids for DelimitedText {
    const UUID_ALPHABET: Option<Alphabet> = Some(uuid::TEXT_ALPHABET);
    const ULID_ALPHABET: Option<Alphabet> = Some(ulid::TEXT_ALPHABET);

    fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        out.write(&uuid::write_text(value));
        Ok(())
    }

    fn read_id(text: &[u8], ty: &'static str) -> Result<[u8; 16]> {
        uuid::parse_text(text, ty)
    }

    fn write_ulid<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        out.write(&ulid::write_text(u128::from_be_bytes(*value)));
        Ok(())
    }

    fn read_ulid(text: &[u8]) -> Result<[u8; 16]> {
        ulid::parse_text(text, "Ulid").map(u128::to_be_bytes)
    }
}

// 20 digits of seconds, `.`, 9 of nanoseconds.
impl Durations for DelimitedText {
    const DURATION_ALPHABET: Option<Alphabet> = Some(duration::TEXT_ALPHABET);

    fn write_duration<S: Sink>(value: Duration, out: &mut S) -> Result<()> {
        duration::write_text(value, out);
        Ok(())
    }

    fn read_duration(text: &[u8]) -> Result<Duration> {
        duration::from_text(text)
    }
}

// Every part of an address at its full width (`010.000.000.001`, four hex digits a group), so
// that text order is address order; an `IpAddr` leads with `4-` or `6-`.
impl Addrs for DelimitedText {
    const IPV4_ALPHABET: Option<Alphabet> = Some(V4_ALPHABET);
    const IPV6_ALPHABET: Option<Alphabet> = Some(V6_ALPHABET);
    const IP_ALPHABET: Option<Alphabet> = Some(IP_ALPHABET);

    fn write_ipv4<S: Sink>(value: Ipv4Addr, out: &mut S) -> Result<()> {
        out.write(&write_v4(value));
        Ok(())
    }

    fn read_ipv4(text: &[u8]) -> Result<Ipv4Addr> {
        parse_v4(text, "Ipv4Addr")
    }

    fn write_ipv6<S: Sink>(value: Ipv6Addr, out: &mut S) -> Result<()> {
        out.write(&write_v6(value));
        Ok(())
    }

    fn read_ipv6(text: &[u8]) -> Result<Ipv6Addr> {
        parse_v6(text, "Ipv6Addr")
    }

    fn write_ip<S: Sink>(value: IpAddr, out: &mut S) -> Result<()> {
        write_ip_text(value, out);
        Ok(())
    }

    fn read_ip(text: &[u8]) -> Result<IpAddr> {
        parse_ip_text(text)
    }
}

// RFC 3339 in UTC with six fraction digits (nine for `Nanos`), a date as `YYYY-MM-DD`; a
// reversed one as the decimal of its stored value, 19 digits for instants and 10 for dates.
impl Instants for DelimitedText {
    const TIME_ALPHABET: Option<Alphabet> = Some(instant::TIME_ALPHABET);
    const REVERSED_TIME_ALPHABET: Option<Alphabet> = Some(Alphabet::DIGITS);

    fn write_instant<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        instant::encode_micros_text(value, out)
    }

    fn read_instant<T: Timestamp>(text: &[u8]) -> Result<T> {
        instant::decode_micros_text(text)
    }

    fn write_nanos<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        instant::encode_nanos_text(value, out)
    }

    fn read_nanos<T: Timestamp>(text: &[u8]) -> Result<T> {
        instant::decode_nanos_text(text)
    }

    fn write_date<T: CalendarDate, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        instant::encode_date_text(value, out)
    }

    fn read_date<T: CalendarDate>(text: &[u8]) -> Result<T> {
        instant::decode_date_text(text)
    }

    fn write_reversed_instant<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        instant::encode_reversed_micros_text(value, out)
    }

    fn read_reversed_instant<T: Timestamp>(text: &[u8]) -> Result<T> {
        instant::decode_reversed_micros_text(text)
    }

    fn write_reversed_date<T: CalendarDate, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        instant::encode_reversed_days_text(value, out)
    }

    fn read_reversed_date<T: CalendarDate>(text: &[u8]) -> Result<T> {
        instant::decode_reversed_days_text(text)
    }
}

// Lowercase hex, two digits a byte, as `Hex` writes bytes.
#[cfg(feature = "hashed")]
impl crate::field::Digests for DelimitedText {
    const DIGEST_AS_HEX: bool = true;
    const DIGEST_ALPHABET: Option<Alphabet> = Some(Alphabet::HEX);

    fn write_digest<S: Sink>(bytes: &[u8], out: &mut S) -> Result<()> {
        crate::field::hashed::write_digest_text(bytes, out);
        Ok(())
    }

    fn read_digest<const N: usize>(text: &[u8]) -> Result<[u8; N]> {
        crate::field::hashed::read_digest_text(text)
    }
}

/// `None` is the empty field, which sorts before every value. `Some` of a value whose text is
/// empty (an empty string) would read back as `None`, so it is refused.
///
/// ```
/// use rowkey::format::Delimited;
///
/// let hash = Delimited::default();
/// assert_eq!(hash.to_key(&("a", None::<u8>, "b"))?.as_bytes(), b"a##b");
/// assert_eq!(hash.to_key(&("a", Some(7u8), "b"))?.as_bytes(), b"a#007#b");
/// assert!(hash.to_key(&(Some(""),)).is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
impl Options for DelimitedText {
    const NONE_IS_EMPTY: bool = true;

    fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()> {
        let Some(value) = value else { return Ok(()) };
        let mut counted = Counting { inner: out, written: 0 };
        value.write(&mut counted)?;
        if counted.written == 0 {
            return Err(Error::unencodable(
                "Option",
                "Some of an empty value would read back as None in a delimited key; \
                 use the ordered format, which tells them apart, or a non-empty value",
            ));
        }
        Ok(())
    }

    fn read_option<'de, T: ReadField<'de, Self>>(text: &'de [u8]) -> Result<Option<T>> {
        if text.is_empty() { Ok(None) } else { T::read(text).map(Some) }
    }
}

/// Passes bytes through, counting them.
struct Counting<'a, S> {
    inner: &'a mut S,
    written: usize,
}

impl<S: Sink> Sink for Counting<'_, S> {
    fn write(&mut self, bytes: &[u8]) {
        self.written += bytes.len();
        self.inner.write(bytes);
    }

    fn ends_key(&self) -> bool {
        self.inner.ends_key()
    }

    fn descending(&self) -> bool {
        self.inner.descending()
    }
}
