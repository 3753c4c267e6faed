//! Keys as text: the three forms keys travel in outside a program, each read and written.
//!
//! - [`KeyForm::Cbt`]: as `cbt` prints a row key and [`Key`]'s `Display` writes it, printable
//!   ASCII as is, `\\` for a backslash and `\xNN` for every other byte.
//! - [`KeyForm::Hex`]: two lowercase hex digits a byte (uppercase is read too).
//! - [`KeyForm::Base64`]: standard base64 with padding (RFC 4648 §4), as the Bigtable Admin
//!   API's JSON writes `bytes`.
//!
//! ```
//! use rowkey::key_text::KeyForm;
//!
//! let key = KeyForm::Cbt.parse(r"01#phone\x00\xff")?;
//! assert_eq!(key.as_bytes(), b"01#phone\x00\xff");
//! assert_eq!(KeyForm::Hex.format(&key), "30312370686f6e6500ff");
//! assert_eq!(KeyForm::Base64.parse(&KeyForm::Base64.format(&key))?, key);
//! # Ok::<(), rowkey::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::key::{Key, hex_value};

/// A text form of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum KeyForm {
    /// `cbt`'s form: printable ASCII as is, `\\` and `\xNN` escapes.
    #[default]
    Cbt,
    /// Lowercase hex, two digits a byte.
    Hex,
    /// Standard base64 with `=` padding.
    Base64,
}

impl KeyForm {
    /// Reads a key written in this form.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the first character that is not of the form and its
    /// position: an escape other than `\\` and `\xNN` (cbt), an odd number of digits or a
    /// non-digit (hex), a character outside the alphabet or a bad length (base64). The error
    /// quotes none of the text: a key may hold a value that must not reach a log.
    ///
    /// ```
    /// use rowkey::key_text::KeyForm;
    ///
    /// assert_eq!(KeyForm::Hex.parse("00FF")?.as_bytes(), [0x00, 0xff]);
    /// assert_eq!(KeyForm::Base64.parse("MDEj")?, "01#");
    /// let err = KeyForm::Cbt.parse(r"a\q").unwrap_err();
    /// assert!(err.to_string().contains("at character 1"), "{err}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn parse(self, text: &str) -> Result<Key> {
        match self {
            KeyForm::Cbt => from_cbt(text),
            KeyForm::Hex => from_hex(text),
            KeyForm::Base64 => from_base64(text),
        }
    }

    /// Writes `bytes` in this form.
    ///
    /// ```
    /// use rowkey::key_text::KeyForm;
    ///
    /// assert_eq!(KeyForm::Cbt.format(b"a\\b\x00"), r"a\\b\x00");
    /// assert_eq!(KeyForm::Base64.format(b"01#"), "MDEj");
    /// ```
    #[must_use]
    pub fn format(self, bytes: &[u8]) -> String {
        match self {
            KeyForm::Cbt => Key::from(bytes).to_string(),
            KeyForm::Hex => to_hex(bytes),
            KeyForm::Base64 => to_base64(bytes),
        }
    }
}

/// `cbt`, `hex` or `base64`, as command lines name the forms.
///
/// ```
/// use rowkey::key_text::KeyForm;
///
/// assert_eq!("base64".parse::<KeyForm>()?, KeyForm::Base64);
/// assert_eq!(KeyForm::Hex.to_string(), "hex");
/// assert!("binary".parse::<KeyForm>().is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
impl FromStr for KeyForm {
    type Err = Error;

    fn from_str(name: &str) -> Result<KeyForm> {
        match name {
            "cbt" => Ok(KeyForm::Cbt),
            "hex" => Ok(KeyForm::Hex),
            "base64" => Ok(KeyForm::Base64),
            other => Err(Error::argument("key form", format!("{other:?} is not a key form: use cbt, hex or base64"))),
        }
    }
}

impl fmt::Display for KeyForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeyForm::Cbt => "cbt",
            KeyForm::Hex => "hex",
            KeyForm::Base64 => "base64",
        })
    }
}

fn from_cbt(text: &str) -> Result<Key> {
    let bad = |at: usize, what: &str| {
        Error::argument(
            "key text",
            format!(
                "{what} at character {at} of {} characters; cbt's form escapes bytes as \\xNN",
                text.chars().count()
            ),
        )
    };
    let mut out = Key::new();
    let mut chars = text.char_indices().peekable();
    let mut position = 0;
    while let Some((_, c)) = chars.next() {
        let at = position;
        position += 1;
        if c != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        position += 1;
        match chars.next().map(|(_, e)| e) {
            Some('\\') => out.push(b'\\'),
            Some('x') => {
                let digits: String = chars.by_ref().take(2).map(|(_, d)| d).collect();
                position += digits.chars().count();
                let byte = (digits.len() == 2)
                    .then(|| u8::from_str_radix(&digits, 16).ok())
                    .flatten()
                    .ok_or_else(|| bad(at, "`\\x` without two hex digits"))?;
                out.push(byte);
            }
            Some(other) => return Err(bad(at, &format!("the escape `\\{other}`"))),
            None => return Err(bad(at, "a lone `\\` at the end")),
        }
    }
    Ok(out)
}

fn from_hex(text: &str) -> Result<Key> {
    let digits = text.as_bytes();
    if let Some(at) = digits.iter().position(|&c| hex_value(c).is_none()) {
        return Err(Error::argument("key text", format!("not hex: character {at} is not a hex digit")));
    }
    if !digits.len().is_multiple_of(2) {
        return Err(Error::argument("key text", format!("not hex: {} digits, and a byte is two", digits.len())));
    }
    let mut out = Key::new();
    for pair in digits.chunks_exact(2) {
        // Checked above: both are digits.
        out.push(hex_value(pair[0]).unwrap_or(0) << 4 | hex_value(pair[1]).unwrap_or(0));
    }
    Ok(out)
}

fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding (RFC 4648 §4), as the proto3 JSON mapping writes `bytes`.
pub(crate) fn to_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(BASE64[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn from_base64(text: &str) -> Result<Key> {
    let bad = |detail: String| Error::argument("key text", format!("not base64: {detail}"));
    let body = text.trim_end_matches('=');
    let padding = text.len() - body.len();
    if !text.len().is_multiple_of(4) || padding > 2 {
        return Err(bad(format!("{} characters with {padding} `=`; base64 comes in groups of 4", text.len())));
    }
    let mut out = Key::new();
    let mut acc = 0u32;
    for (i, c) in body.bytes().enumerate() {
        let Some(value) = BASE64.iter().position(|&d| d == c) else {
            return Err(bad(format!("character {i} is not of the base64 alphabet (A-Z a-z 0-9 + /)")));
        };
        acc = acc << 6 | value as u32;
        if i % 4 == 3 {
            out.extend_from_slice(&acc.to_be_bytes()[1..]);
            acc = 0;
        }
    }
    match body.len() % 4 {
        0 => {}
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&((acc >> 2) as u16).to_be_bytes()),
        _ => return Err(bad("a group of 4 has a single character".into())),
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let vectors =
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE=")];
        for (input, expected) in vectors.into_iter().chain([("foobar", "Zm9vYmFy"), ("#", "Iw=="), ("::", "Ojo=")]) {
            assert_eq!(to_base64(input.as_bytes()), expected, "{input:?}");
            assert_eq!(from_base64(expected).unwrap(), input, "{expected:?}");
        }
        assert_eq!(to_base64(&[0xff, 0xfe, 0xfd]), "//79");
        assert!(from_base64("Zg=").is_err());
        assert!(from_base64("Z===").is_err());
        assert!(from_base64("Zm9*").is_err());
    }

    #[test]
    fn every_byte_survives_every_form() {
        let all: Vec<u8> = (0..=255).collect();
        for form in [KeyForm::Cbt, KeyForm::Hex, KeyForm::Base64] {
            for len in 0..all.len() {
                let bytes = &all[len..];
                assert_eq!(form.parse(&form.format(bytes)).unwrap(), bytes, "{form} {len}");
            }
        }
    }

    /// A key's text may hold a sensitive field's value; its parse errors say where, not what.
    #[test]
    fn errors_quote_none_of_the_text() {
        let marker = "MARKER-7f3a";
        for (form, text) in [
            (KeyForm::Cbt, format!("acme#{marker}#7\\q")),
            (KeyForm::Cbt, format!("{marker}\\x4")),
            (KeyForm::Hex, format!("{marker}00")),
            (KeyForm::Hex, "4d41524b45522d37663361f".to_owned()),
            (KeyForm::Base64, format!("{marker}=")),
            (KeyForm::Base64, format!("{marker}*")),
        ] {
            let err = form.parse(&text).unwrap_err();
            let shown = format!("{err} {err:?}");
            for piece in text.as_bytes().windows(4).map(|w| String::from_utf8_lossy(w).into_owned()) {
                assert!(!shown.contains(&piece), "{form} {text}: the error quotes {piece:?}: {shown}");
            }
        }
    }

    #[test]
    fn bad_cbt_escapes_say_where() {
        for (text, at) in [(r"ab\x4", 2), (r"\y", 0), ("abc\\", 3), (r"a\xzz", 1)] {
            let err = from_cbt(text).unwrap_err().to_string();
            assert!(err.contains(&format!("at character {at} ")), "{text}: {err}");
        }
    }
}
