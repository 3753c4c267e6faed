//! [`Hex`]: integers and byte strings as lowercase hex text.

use crate::error::{Error, Result};
use crate::field::Sink;
use crate::field::decimal::{Integer, narrow};
use crate::field::text::{Alphabet, DecodeText, EncodeText};

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Lowercase hex text, two digits per byte: Bigtable's guide writes device ids this way
/// (`4c410523`).
///
/// An integer takes a fixed width, twice its size in bytes (`Hex(0x4c410523u32)` is
/// `4c410523`), so hex order is numeric order; a negative value is an
/// [`Error::Unencodable`], since two's complement would sort it after the positives. A byte
/// string takes two digits per byte and keeps byte order (`[u8; N]` is then fixed width).
/// Decoding accepts only lowercase, the form the encoder writes.
///
/// ```
/// use rowkey::field::Hex;
/// use rowkey::format::Delimited;
///
/// let hash = Delimited::default();
/// let key = hash.to_key(&("phone", Hex(0x4c410523u32), Hex([0xab, 0x01])))?;
/// assert_eq!(key.as_bytes(), b"phone#4c410523#ab01");
/// let (_, id, bytes): (&str, Hex<u32>, Hex<[u8; 2]>) = hash.from_key(&key)?;
/// assert_eq!((id.0, bytes.0), (0x4c410523, [0xab, 0x01]));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex<T>(pub T);

fn write_hex<S: Sink>(out: &mut S, bytes: &[u8]) {
    for &b in bytes {
        out.write(&[DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 15)]]);
    }
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

fn read_hex(text: &[u8], ty: &'static str) -> Result<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return Err(Error::invalid(ty, format!("hex needs two digits a byte, found {} digits", text.len())));
    }
    text.chunks_exact(2)
        .map(|pair| match (nibble(pair[0]), nibble(pair[1])) {
            (Some(hi), Some(lo)) => Ok(hi << 4 | lo),
            _ => Err(Error::invalid(ty, "expected lowercase hex digits 0-9 a-f")),
        })
        .collect()
}

impl<T: Integer> EncodeText for Hex<T> {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::HEX);

    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        let value = self.0.to_i128();
        if value < 0 {
            return Err(Error::unencodable(
                T::NAME,
                "a negative value in hex would sort after the positive ones; use the default decimal text, which orders negatives first",
            ));
        }
        let bytes = value.cast_unsigned().to_be_bytes();
        write_hex(out, &bytes[16 - size_of::<T>()..]);
        Ok(())
    }
}

impl<'de, T: Integer> DecodeText<'de> for Hex<T> {
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        let width = 2 * size_of::<T>();
        if text.len() != width {
            return Err(Error::invalid(T::NAME, format!("expected {width} hex digits, found {} bytes", text.len())));
        }
        let value = read_hex(text, T::NAME)?.iter().fold(0i128, |acc, &b| acc << 8 | i128::from(b));
        narrow(value).map(Hex)
    }
}

impl EncodeText for Hex<Vec<u8>> {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::HEX);

    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        write_hex(out, &self.0);
        Ok(())
    }
}

impl EncodeText for Hex<&[u8]> {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::HEX);

    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        write_hex(out, self.0);
        Ok(())
    }
}

impl<const N: usize> EncodeText for Hex<[u8; N]> {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::HEX);

    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        write_hex(out, &self.0);
        Ok(())
    }
}

impl<'de> DecodeText<'de> for Hex<Vec<u8>> {
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        read_hex(text, "Hex<Vec<u8>>").map(Hex)
    }
}

impl<'de, const N: usize> DecodeText<'de> for Hex<[u8; N]> {
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        let bytes = read_hex(text, "Hex<[u8; N]>")?;
        <[u8; N]>::try_from(bytes.as_slice())
            .map(Hex)
            .map_err(|_| Error::invalid("Hex<[u8; N]>", format!("expected {} hex digits, found {}", 2 * N, text.len())))
    }
}
