//! [`Hex`]: integers and byte strings as lowercase hex text.

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::decimal::{Integer, narrow};
use crate::field::{FieldType, ReadField, Sink, ValueFormat, WriteField};

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

/// Writes `bytes` as lowercase hex, two digits a byte.
pub(crate) fn write_hex<S: Sink>(out: &mut S, bytes: &[u8]) {
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

/// Reads what [`write_hex`] writes, exactly (lowercase only).
pub(crate) fn read_hex(text: &[u8], ty: &'static str) -> Result<Vec<u8>> {
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

/// A format that writes bytes as hex text: the formats where [`Hex`] is a field. Only the
/// delimited format is one; a binary format writes the integer or the bytes themselves, which
/// already sort.
///
/// ```
/// use rowkey::field::HexText;
/// use rowkey::format::DelimitedText;
///
/// let mut text = Vec::new();
/// DelimitedText::write_hex(&[0x4c, 0x41], &mut text)?;
/// assert_eq!(text, b"4c41");
/// assert_eq!(DelimitedText::read_hex(b"4c41", Some(2), "Hex<u16>")?, [0x4c, 0x41]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format has no hex text fields",
    label = "`{Self}` cannot write `Hex`",
    note = "`Hex` is a field of the delimited (text) format; in `{Self}` store the integer or the bytes themselves, \
            which already sort"
)]
pub trait HexText: ValueFormat {
    /// The bytes hex text holds (see [`WriteField::ALPHABET`]).
    const HEX_ALPHABET: Option<Alphabet> = None;

    /// Writes `bytes` as hex.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`] when the format cannot hold them.
    fn write_hex<S: Sink>(bytes: &[u8], out: &mut S) -> Result<()>;

    /// Reads hex back into bytes; with `len`, exactly that many bytes (checked before the
    /// digits). `ty` names the field type in the error.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] when the field is not lowercase hex, or not `len` bytes of it.
    fn read_hex(input: Self::Input<'_, '_>, len: Option<usize>, ty: &'static str) -> Result<Vec<u8>>;
}

impl<T: Integer> FieldType for Hex<T> {}

impl<F: HexText, T: Integer> WriteField<F> for Hex<T> {
    const ALPHABET: Option<Alphabet> = F::HEX_ALPHABET;

    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        let value = self.0.to_i128();
        if value < 0 {
            return Err(Error::unencodable(
                T::NAME,
                "a negative value in hex would sort after the positive ones; use the default decimal text, which orders negatives first",
            ));
        }
        let bytes = value.cast_unsigned().to_be_bytes();
        F::write_hex(&bytes[16 - size_of::<T>()..], out)
    }
}

impl<'de, F: HexText, T: Integer> ReadField<'de, F> for Hex<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        let bytes = F::read_hex(input, Some(size_of::<T>()), T::NAME)?;
        narrow(bytes.iter().fold(0i128, |acc, &b| acc << 8 | i128::from(b))).map(Hex)
    }
}

// Byte strings: two digits a byte, in byte order.
macro_rules! hex_bytes {
    ($([$($g:tt)*] $ty:ty),*) => {$(
        impl<$($g)*> FieldType for Hex<$ty> {}

        impl<$($g)* F: HexText> WriteField<F> for Hex<$ty> {
            const ALPHABET: Option<Alphabet> = F::HEX_ALPHABET;

            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                F::write_hex(&self.0, out)
            }
        }
    )*};
}

hex_bytes!([] Vec<u8>, ['a,] &'a [u8], [const N: usize,] [u8; N]);

impl<'de, F: HexText> ReadField<'de, F> for Hex<Vec<u8>> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_hex(input, None, "Hex<Vec<u8>>").map(Hex)
    }
}

impl<'de, F: HexText, const N: usize> ReadField<'de, F> for Hex<[u8; N]> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        let bytes = F::read_hex(input, None, "Hex<[u8; N]>")?;
        <[u8; N]>::try_from(bytes.as_slice()).map(Hex).map_err(|_| {
            Error::invalid("Hex<[u8; N]>", format!("expected {} hex digits, found {}", 2 * N, 2 * bytes.len()))
        })
    }
}
