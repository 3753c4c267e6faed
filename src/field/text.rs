//! Text field encodings, for the delimited format ([`crate::format::delimited`]).
//!
//! A text field is written without escaping, so what keeps a delimited key sorted is
//! Bigtable's sorted-mode rule: every byte of every field is above the delimiter's first
//! byte. Each encoding declares its [`Alphabet`] when it is known in advance (digits, hex,
//! `false`/`true`), so a delimiter that breaks the rule is refused before any key is written;
//! strings and bytes, whose alphabet is open, are checked value by value.
//!
//! | value | text | example |
//! |---|---|---|
//! | `str`, `String`, `Cow<str>`, `char`, `[u8]`, `Vec<u8>` | as is | `phone` |
//! | unsigned integers | zero-padded decimal, the width of the type's maximum | `7u32` → `0000000007` |
//! | signed integers | the same, negatives as `-` and the nines' complement | `-1i16` → `-99998` |
//! | [`Padded<T, W>`](crate::field::Padded) | decimal of width `W` | `Padded::<u32, 8>(20200501)` → `20200501` |
//! | [`Hex<T>`](crate::field::Hex) | lowercase hex, two digits a byte | `Hex(0x4c410523u32)` → `4c410523` |
//! | [`Reversed<T>`](crate::field::Reversed) | decimal of `MAX - v` | `Reversed(1588291200000i64)` → `9223370448563575807` |
//! | `bool` | `false` / `true` | |
//! | `u128`, `i128` | 39 digits, as the other integers | |
//! | [`Duration`](std::time::Duration) | 20 digits of seconds, `.`, 9 of nanoseconds | `00000000000000000090.500000000` |
//! | [`Ipv4Addr`](std::net::Ipv4Addr) | each part 3 digits | `010.000.000.001` |
//! | [`Ipv6Addr`](std::net::Ipv6Addr) | every group 4 lowercase hex digits | `2001:0db8:0000:0000:0000:0000:0000:0001` |
//! | [`IpAddr`](std::net::IpAddr) | `4-` or `6-`, then the address's text | `4-010.000.000.001` |
//! | chrono, time and jiff instants | RFC 3339 in UTC, 6 fraction digits (9 with [`Nanos`](crate::field::Nanos)) | `2020-05-01T00:00:00.500000Z` |
//! | chrono, time and jiff dates | `YYYY-MM-DD` | `2020-05-01` |
//! | `uuid::Uuid` | hyphenated lowercase | `67e55044-10b1-426f-9247-bb680e5fe0c8` |
//! | `ulid::Ulid` | Crockford base32, uppercase | `01E76RGS00000000000000001A` |
//! | `Hashed<N>` (feature `hashed`) | the hash in lowercase hex, `2N` digits | `b0344c61d8db3853` |
//! | `Option<T>` | `None` is the empty field, which sorts first | |

use std::borrow::Cow;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZero;
use std::time::Duration;

use crate::error::Result;
use crate::field::{
    BigEndian, Encoding, FieldType, Hex, Integer, Nanos, Padded, ReadField, Reversed, Sink, Timestamp, WriteField,
};
use crate::format::DelimitedText;
use crate::salt::BucketField;
use crate::transform::{BitReversed, ReversedDomain, ReversedUrl};

/// The bytes a text encoding can produce, when known in advance: the lowest one decides
/// which delimiters keep keys sorted.
///
/// ```
/// use rowkey::field::{Alphabet, EncodeText};
///
/// assert_eq!(u32::ALPHABET, Some(Alphabet::DIGITS));
/// assert_eq!(<String as EncodeText>::ALPHABET, None); // any byte: checked per value
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alphabet {
    /// The lowest byte the encoding writes.
    pub lowest: u8,
    /// A name for error messages.
    pub name: &'static str,
}

impl Alphabet {
    /// `0`–`9`.
    pub const DIGITS: Alphabet = Alphabet { lowest: b'0', name: "decimal digits 0-9" };
    /// `-` and `0`–`9`.
    pub const SIGNED_DIGITS: Alphabet = Alphabet { lowest: b'-', name: "'-' and decimal digits 0-9" };
    /// `0`–`9` and `a`–`f`.
    pub const HEX: Alphabet = Alphabet { lowest: b'0', name: "lowercase hex digits 0-9 a-f" };
    /// The letters of `false` and `true`.
    pub const BOOL: Alphabet = Alphabet { lowest: b'a', name: "the letters of false/true" };
}

/// A value that can be one field of a delimited (text) key.
///
/// ```
/// use rowkey::field::EncodeText;
///
/// let mut text = Vec::new();
/// 42u16.encode_text(&mut text)?;
/// assert_eq!(text, b"00042");
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait EncodeText {
    /// The bytes this encoding can write, or `None` when any byte can appear (each value is
    /// then checked against the delimiter as it is written).
    const ALPHABET: Option<Alphabet>;

    /// What the field's text is, for the key's [`Schema`](crate::field::description::Schema), as
    /// [`FieldType::ENCODING`](crate::field::FieldType::ENCODING) says for the ordered format.
    ///
    /// ```
    /// use rowkey::field::{EncodeText, Encoding};
    ///
    /// assert_eq!(<std::net::IpAddr as EncodeText>::ENCODING, Encoding::IpAddr);
    /// assert_eq!(<String as EncodeText>::ENCODING, Encoding::Custom); // the derive knows strings by name
    /// ```
    const ENCODING: Encoding = Encoding::Custom;

    /// Writes the field's text.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`] when the value does not fit the encoding (a number wider than
    /// its field, a negative value where only non-negative ones keep order).
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()>;
}

/// A value that can be read back from one field of a delimited key.
///
/// ```
/// use rowkey::field::DecodeText;
///
/// assert_eq!(i16::decode_text(b"-99998")?, -1);
/// assert!(u8::decode_text(b"7").is_err()); // the width is 3: `007`
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait DecodeText<'de>: Sized {
    /// Decodes the value from the field's text, which borrows from the key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] when the text is not this encoding's,
    /// [`Error::OutOfRange`] when the value does not fit the type.
    fn decode_text(text: &'de [u8]) -> Result<Self>;
}

impl<T: EncodeText + ?Sized> EncodeText for &T {
    const ALPHABET: Option<Alphabet> = T::ALPHABET;
    const ENCODING: Encoding = T::ENCODING;

    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        (**self).encode_text(out)
    }
}

// Field types on the field model: their text is the one `DelimitedText` writes for their kind
// of value, so these impls only pass it on, for the keys, scans and schemas that still name
// `EncodeText` / `DecodeText`.
macro_rules! text_from_model {
    ($de:lifetime; $($ty:ty),*) => {$(
        impl EncodeText for $ty {
            const ALPHABET: Option<Alphabet> = <$ty as WriteField<DelimitedText>>::ALPHABET;
            const ENCODING: Encoding = <$ty as FieldType>::ENCODING;

            #[inline(always)]
            fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
                WriteField::<DelimitedText>::write(self, out)
            }
        }
    )*};
}

macro_rules! text_to_model {
    ($de:lifetime; $($ty:ty),*) => {$(
        impl<$de> DecodeText<$de> for $ty {
            #[inline(always)]
            fn decode_text(text: &$de [u8]) -> Result<Self> {
                <$ty as ReadField<$de, DelimitedText>>::read(text)
            }
        }
    )*};
}

text_from_model!('de; u8, u16, u32, u64, usize, u128, i8, i16, i32, i64, isize, i128, bool, char);
text_from_model!('de; str, String, Cow<'_, str>, [u8], Vec<u8>, Cow<'_, [u8]>);
text_from_model!('de; NonZero<u8>, NonZero<u16>, NonZero<u32>, NonZero<u64>, NonZero<u128>, NonZero<usize>);
text_from_model!('de; NonZero<i8>, NonZero<i16>, NonZero<i32>, NonZero<i64>, NonZero<i128>, NonZero<isize>);
text_from_model!('de; BitReversed<i64>, BitReversed<u64>);
text_from_model!('de; BucketField);
text_to_model!('de; u8, u16, u32, u64, usize, u128, i8, i16, i32, i64, isize, i128, bool, char);
text_to_model!('de; &'de str, String, Cow<'de, str>, &'de [u8], Vec<u8>, Cow<'de, [u8]>);
text_to_model!('de; NonZero<u8>, NonZero<u16>, NonZero<u32>, NonZero<u64>, NonZero<u128>, NonZero<usize>);
text_to_model!('de; NonZero<i8>, NonZero<i16>, NonZero<i32>, NonZero<i64>, NonZero<i128>, NonZero<isize>);
text_to_model!('de; BitReversed<i64>, BitReversed<u64>);

impl<T: Integer> EncodeText for Reversed<T> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

impl<'de, T: Integer> DecodeText<'de> for Reversed<T> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

impl<T: Integer, const W: usize> EncodeText for Padded<T, W> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

impl<'de, T: Integer, const W: usize> DecodeText<'de> for Padded<T, W> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

impl<T: Integer> EncodeText for Hex<T> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

impl<'de, T: Integer> DecodeText<'de> for Hex<T> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

impl<const N: usize> EncodeText for Hex<[u8; N]> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

impl<'de, const N: usize> DecodeText<'de> for Hex<[u8; N]> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

text_from_model!('de; Hex<Vec<u8>>, Hex<&[u8]>);
text_to_model!('de; Hex<Vec<u8>>);
text_from_model!('de; Ipv4Addr, Ipv6Addr, IpAddr, Duration);
text_to_model!('de; Ipv4Addr, Ipv6Addr, IpAddr, Duration);
#[cfg(feature = "chrono")]
text_from_model!('de; ::chrono::DateTime<::chrono::Utc>, ::chrono::DateTime<::chrono::FixedOffset>, ::chrono::NaiveDateTime, ::chrono::NaiveDate);
#[cfg(feature = "chrono")]
text_to_model!('de; ::chrono::DateTime<::chrono::Utc>, ::chrono::DateTime<::chrono::FixedOffset>, ::chrono::NaiveDateTime, ::chrono::NaiveDate);
#[cfg(feature = "chrono")]
text_from_model!('de; Reversed<::chrono::DateTime<::chrono::Utc>>, Reversed<::chrono::DateTime<::chrono::FixedOffset>>, Reversed<::chrono::NaiveDateTime>, Reversed<::chrono::NaiveDate>);
#[cfg(feature = "chrono")]
text_to_model!('de; Reversed<::chrono::DateTime<::chrono::Utc>>, Reversed<::chrono::DateTime<::chrono::FixedOffset>>, Reversed<::chrono::NaiveDateTime>, Reversed<::chrono::NaiveDate>);
#[cfg(feature = "time")]
text_from_model!('de; ::time::OffsetDateTime, ::time::UtcDateTime, ::time::PrimitiveDateTime, ::time::Date);
#[cfg(feature = "time")]
text_to_model!('de; ::time::OffsetDateTime, ::time::UtcDateTime, ::time::PrimitiveDateTime, ::time::Date);
#[cfg(feature = "time")]
text_from_model!('de; Reversed<::time::OffsetDateTime>, Reversed<::time::UtcDateTime>, Reversed<::time::PrimitiveDateTime>, Reversed<::time::Date>);
#[cfg(feature = "time")]
text_to_model!('de; Reversed<::time::OffsetDateTime>, Reversed<::time::UtcDateTime>, Reversed<::time::PrimitiveDateTime>, Reversed<::time::Date>);
#[cfg(feature = "jiff")]
text_from_model!('de; ::jiff::Timestamp, ::jiff::civil::DateTime, ::jiff::civil::Date);
#[cfg(feature = "jiff")]
text_to_model!('de; ::jiff::Timestamp, ::jiff::civil::DateTime, ::jiff::civil::Date);
#[cfg(feature = "jiff")]
text_from_model!('de; Reversed<::jiff::Timestamp>, Reversed<::jiff::civil::DateTime>, Reversed<::jiff::civil::Date>);
#[cfg(feature = "jiff")]
text_to_model!('de; Reversed<::jiff::Timestamp>, Reversed<::jiff::civil::DateTime>, Reversed<::jiff::civil::Date>);

impl<T: Timestamp> EncodeText for Nanos<T> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;
    const ENCODING: Encoding = <Self as FieldType>::ENCODING;

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

impl<'de, T: Timestamp> DecodeText<'de> for Nanos<T> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

#[cfg(feature = "uuid")]
text_from_model!('de; ::uuid::Uuid);
#[cfg(feature = "uuid")]
text_to_model!('de; ::uuid::Uuid);
#[cfg(feature = "ulid")]
text_from_model!('de; ::ulid::Ulid);
#[cfg(feature = "ulid")]
text_to_model!('de; ::ulid::Ulid);

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
impl<T: WriteField<DelimitedText>> EncodeText for Option<T> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;
    const ENCODING: Encoding = <Self as FieldType>::ENCODING;

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

impl<'de, T: ReadField<'de, DelimitedText>> DecodeText<'de> for Option<T> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

// The 8 raw bytes, as in the ordered format. Their bytes are open, so in a sorted delimited
// key most values are refused (any byte at or below the delimiter); this exists for keys
// that Java code wrote with `Bytes.toBytes(long)` through
// [`Delimited::unchecked`](crate::format::Delimited::unchecked).
text_from_model!('de; BigEndian<i8>, BigEndian<i16>, BigEndian<i32>, BigEndian<i64>, BigEndian<isize>);
text_from_model!('de; BigEndian<u8>, BigEndian<u16>, BigEndian<u32>, BigEndian<u64>, BigEndian<usize>);
text_to_model!('de; BigEndian<i8>, BigEndian<i16>, BigEndian<i32>, BigEndian<i64>, BigEndian<isize>);
text_to_model!('de; BigEndian<u8>, BigEndian<u16>, BigEndian<u32>, BigEndian<u64>, BigEndian<usize>);

// Host names and URLs reversed, through the format's text.
impl<S: AsRef<str>> EncodeText for ReversedDomain<S> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;

    #[inline(always)]
    fn encode_text<W: Sink>(&self, out: &mut W) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

impl<S: AsRef<str>> EncodeText for ReversedUrl<S> {
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;

    #[inline(always)]
    fn encode_text<W: Sink>(&self, out: &mut W) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

text_to_model!('de; ReversedDomain<String>, ReversedUrl<String>);

impl<'de> DecodeText<'de> for ReversedDomain<&str> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

impl<'de> DecodeText<'de> for ReversedUrl<&str> {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

#[cfg(feature = "hashed")]
impl<const N: usize> EncodeText for crate::field::Hashed<N>
where
    Self: crate::field::HashWidth,
{
    const ALPHABET: Option<Alphabet> = <Self as WriteField<DelimitedText>>::ALPHABET;
    // The text is the hash's hex digits, not its bytes. `N` is at most 32, so they fit a `u8`.
    const ENCODING: Encoding = Encoding::Hex { digits: Some((2 * N) as u8) };

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

#[cfg(feature = "hashed")]
impl<'de, const N: usize> DecodeText<'de> for crate::field::Hashed<N>
where
    Self: crate::field::HashWidth,
{
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <Self as ReadField<'de, DelimitedText>>::read(text)
    }
}

/// A value's text, for the unit tests of the text encodings.
#[cfg(test)]
pub(crate) fn text_of<T: EncodeText>(value: T) -> String {
    let mut out = Vec::new();
    value.encode_text(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}
