//! Strings and byte strings: their bytes as they are.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::field::{DecodeField, EncodeField, FieldBytes, Sink, utf8};

const NOT_BORROWABLE: &str = "the field contains an escaped 00 byte or is descending, so it cannot borrow \
     from the key; decode into an owned type (`String`, `Vec<u8>`) or a `Cow` instead";

fn utf8_error(ty: &'static str, err: &std::str::Utf8Error) -> Error {
    Error::invalid(ty, format!("invalid UTF-8 at byte {} of the field", err.valid_up_to()))
}

impl EncodeField for str {
    #[inline(always)]
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self.as_bytes());
        Ok(())
    }
}

impl EncodeField for String {
    #[inline(always)]
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self.as_bytes());
        Ok(())
    }
}

impl EncodeField for Cow<'_, str> {
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self.as_bytes());
        Ok(())
    }
}

impl EncodeField for char {
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }
}

impl EncodeField for [u8] {
    #[inline]
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self);
        Ok(())
    }
}

impl EncodeField for Vec<u8> {
    #[inline]
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self);
        Ok(())
    }
}

impl<const N: usize> EncodeField for [u8; N] {
    #[inline(always)]
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self);
        Ok(())
    }
}

impl EncodeField for Cow<'_, [u8]> {
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self);
        Ok(())
    }
}

impl<'de> DecodeField<'de> for String {
    #[inline(always)]
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        match bytes.as_borrowed() {
            Some(b) => utf8::to_str(b).map(str::to_owned).map_err(|e| utf8_error("String", &e)),
            None => utf8::into_string(bytes.into_vec()).map_err(|e| utf8_error("String", &e)),
        }
    }
}

impl<'de> DecodeField<'de> for &'de str {
    #[inline(always)]
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        let b = bytes.as_borrowed().ok_or_else(|| Error::invalid("&str", NOT_BORROWABLE))?;
        utf8::to_str(b).map_err(|e| utf8_error("&str", &e))
    }
}

impl<'de> DecodeField<'de> for Cow<'de, str> {
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        match bytes.as_borrowed() {
            Some(b) => utf8::to_str(b).map(Cow::Borrowed).map_err(|e| utf8_error("Cow<str>", &e)),
            None => utf8::into_string(bytes.into_vec()).map(Cow::Owned).map_err(|e| utf8_error("Cow<str>", &e)),
        }
    }
}

impl<'de> DecodeField<'de> for char {
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        let text = std::str::from_utf8(bytes.as_slice()).map_err(|e| utf8_error("char", &e))?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Error::invalid("char", format!("the field holds {} characters, not one", text.chars().count()))),
        }
    }
}

impl<'de> DecodeField<'de> for Vec<u8> {
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        Ok(bytes.into_vec())
    }
}

impl<'de> DecodeField<'de> for &'de [u8] {
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        bytes.as_borrowed().ok_or_else(|| Error::invalid("&[u8]", NOT_BORROWABLE))
    }
}

impl<'de> DecodeField<'de> for Cow<'de, [u8]> {
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        Ok(match bytes.as_borrowed() {
            Some(b) => Cow::Borrowed(b),
            None => Cow::Owned(bytes.into_vec()),
        })
    }
}

impl<'de, const N: usize> DecodeField<'de> for [u8; N] {
    #[inline]
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        match <[u8; N]>::try_from(bytes.as_slice()) {
            Ok(array) => Ok(array),
            Err(_) => Err(wrong_length(N, bytes.len())),
        }
    }
}

#[cold]
fn wrong_length(want: usize, got: usize) -> Error {
    Error::invalid("[u8; N]", format!("expected exactly {want} bytes, the field has {got}"))
}
