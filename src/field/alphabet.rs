//! [`Alphabet`]: the bytes a text encoding can write, which decide the delimiters that keep
//! delimited keys sorted.

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
