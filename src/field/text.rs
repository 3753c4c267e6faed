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

use crate::error::Result;
use crate::field::{Encoding, ReadField, Sink, WriteField};
use crate::format::DelimitedText;

pub use super::alphabet::Alphabet;

/// A value that can be one field of a delimited (text) key: every field type the delimited
/// format holds ([`WriteField<DelimitedText>`](crate::field::WriteField)), by the name the
/// delimited key API has always used. Implemented for all of them; a type of your own becomes
/// one by implementing the field model's traits.
///
/// ```
/// use rowkey::field::EncodeText;
///
/// let mut text = Vec::new();
/// 42u16.encode_text(&mut text)?;
/// assert_eq!(text, b"00042");
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait EncodeText: WriteField<DelimitedText> {
    /// The bytes this field's text can hold, or `None` when any byte can appear (each value
    /// is then checked against the delimiter as it is written): the delimited format's
    /// [`WriteField::ALPHABET`].
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
    const ENCODING: Encoding;

    /// Writes the field's text.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the value does not fit the
    /// encoding (a number wider than its field, a negative value where only non-negative
    /// ones keep order).
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()>;
}

impl<T: WriteField<DelimitedText> + ?Sized> EncodeText for T {
    const ALPHABET: Option<Alphabet> = <T as WriteField<DelimitedText>>::ALPHABET;
    const ENCODING: Encoding = <T as WriteField<DelimitedText>>::KEY_ENCODING;

    #[inline(always)]
    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        WriteField::<DelimitedText>::write(self, out)
    }
}

/// A value that can be read back from one field of a delimited key: every field type the
/// delimited format reads ([`ReadField<'de, DelimitedText>`](crate::field::ReadField)).
///
/// ```
/// use rowkey::field::DecodeText;
///
/// assert_eq!(i16::decode_text(b"-99998")?, -1);
/// assert!(u8::decode_text(b"7").is_err()); // the width is 3: `007`
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait DecodeText<'de>: ReadField<'de, DelimitedText> {
    /// Decodes the value from the field's text, which borrows from the key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the text is not this
    /// encoding's, [`Error::OutOfRange`](crate::Error::OutOfRange) when the value does not
    /// fit the type.
    fn decode_text(text: &'de [u8]) -> Result<Self>;
}

impl<'de, T: ReadField<'de, DelimitedText>> DecodeText<'de> for T {
    #[inline(always)]
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        <T as ReadField<'de, DelimitedText>>::read(text)
    }
}

/// A value's text, for the unit tests of the text encodings.
#[cfg(test)]
pub(crate) fn text_of<T: EncodeText>(value: T) -> String {
    let mut out = Vec::new();
    value.encode_text(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}
