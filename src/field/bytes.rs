//! Strings and byte strings on the field model, and the helpers formats use to read them
//! from a field's bytes.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::field::{ByteStrings, FieldBytes, FieldType, ReadField, Sink, Strings, WriteField, utf8};

const NOT_BORROWABLE: &str = "the field's bytes are not in the key as they are (the format escaped them, \
     inverted them for a descending field, or split them into groups), so it cannot borrow from the key; decode \
     into an owned type (`String`, `Vec<u8>`) or a `Cow` instead";

fn utf8_error(ty: &'static str, err: &std::str::Utf8Error) -> Error {
    Error::invalid(ty, format!("invalid UTF-8 at byte {} of the field", err.valid_up_to()))
}

// Written once against the model: text through the format's `Strings`, bytes through its
// `ByteStrings`. The owned and `Cow` types take what the format gives; the borrowed ones
// need the field's bytes to be in the key as they are.
macro_rules! write_via {
    ($cap:ident :: $method:ident, $bytes:expr; $($ty:ty => |$v:ident| $arg:expr),* $(,)?) => {$(
        impl FieldType for $ty {
            const BYTE_STRING: bool = $bytes;
        }

        impl<F: $cap> WriteField<F> for $ty {
            #[inline(always)]
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                let $v = self;
                F::$method($arg, out)
            }
        }
    )*};
}

write_via!(Strings::write_str, false; str => |v| v, String => |v| v.as_str(), Cow<'_, str> => |v| v);
write_via!(ByteStrings::write_bytes, true; [u8] => |v| v, Vec<u8> => |v| v.as_slice(), Cow<'_, [u8]> => |v| v);

impl FieldType for char {}

impl<F: Strings> WriteField<F> for char {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_char(*self, out)
    }
}

impl<const N: usize> FieldType for [u8; N] {
    const BYTE_STRING: bool = true;
}

impl<F: ByteStrings, const N: usize> WriteField<F> for [u8; N] {
    #[inline(always)]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_bytes(self, out)
    }
}

impl<'de, F: Strings> ReadField<'de, F> for String {
    #[inline(always)]
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_string(input, "String")
    }
}

impl<'de, F: Strings> ReadField<'de, F> for Cow<'de, str> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_str(input, "Cow<str>")
    }
}

impl<'de, F: Strings> ReadField<'de, F> for char {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_char(input)
    }
}

impl<'de, F: ByteStrings> ReadField<'de, F> for Vec<u8> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_bytes(input, "Vec<u8>").map(Cow::into_owned)
    }
}

impl<'de, F: ByteStrings> ReadField<'de, F> for Cow<'de, [u8]> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_bytes(input, "Cow<[u8]>")
    }
}

impl<'de, F: ByteStrings, const N: usize> ReadField<'de, F> for [u8; N] {
    #[inline]
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_array(input, "[u8; N]")
    }
}

impl<'de, F: Strings> ReadField<'de, F> for &'de str {
    #[inline(always)]
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        match F::read_str(input, "&str")? {
            Cow::Borrowed(text) => Ok(text),
            Cow::Owned(_) => Err(not_borrowable("&str")),
        }
    }
}

impl<'de, F: ByteStrings> ReadField<'de, F> for &'de [u8] {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        match F::read_bytes(input, "&[u8]")? {
            Cow::Borrowed(bytes) => Ok(bytes),
            Cow::Owned(_) => Err(not_borrowable("&[u8]")),
        }
    }
}

#[cold]
fn not_borrowable(ty: &'static str) -> Error {
    Error::invalid(ty, NOT_BORROWABLE)
}

/// Text from a field's bytes, borrowed when they are in the key as they are: the ordered
/// format's (and any format's with the same rule) `read_str`. `ty` names the field type in
/// the error.
#[inline(always)]
pub(crate) fn str_from<'de>(bytes: FieldBytes<'de>, ty: &'static str) -> Result<Cow<'de, str>> {
    match bytes.as_borrowed() {
        Some(b) => utf8::to_str(b).map(Cow::Borrowed).map_err(|e| utf8_error(ty, &e)),
        None => utf8::into_string(bytes.into_vec()).map(Cow::Owned).map_err(|e| utf8_error(ty, &e)),
    }
}

/// Text from a field's bytes, as an owned `String`.
#[inline(always)]
pub(crate) fn string_from(bytes: FieldBytes<'_>, ty: &'static str) -> Result<String> {
    match bytes.as_borrowed() {
        Some(b) => utf8::to_str(b).map(str::to_owned).map_err(|e| utf8_error(ty, &e)),
        None => utf8::into_string(bytes.into_vec()).map_err(|e| utf8_error(ty, &e)),
    }
}

/// The one character a field's bytes hold.
pub(crate) fn char_from(bytes: &[u8]) -> Result<char> {
    let text = std::str::from_utf8(bytes).map_err(|e| utf8_error("char", &e))?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(Error::invalid("char", format!("the field holds {} characters, not one", text.chars().count()))),
    }
}
