//! [`Error`], [`Result`] and [`Location`], where in a key an error happened.

use std::borrow::Cow;
use std::fmt;

/// The result type of every fallible operation in this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in a key an error happened: the field (its 0-based position and, when the key type
/// knows it, its name) and the byte offset in the key.
///
/// Field encoders do not know their position; the key writer or reader fills it in, so an
/// error that reaches the caller names the field whenever the key type has fields.
///
/// ```
/// use rowkey::RowKey;
///
/// // Field 1 holds 300, which does not fit a `u8`.
/// let err = <(String, u8)>::from_key(b"a\x00\x01\xc1\x2c").unwrap_err();
/// assert_eq!(err.location().field(), Some(1));
/// assert_eq!(err.location().offset(), Some(3));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Location {
    field: Option<usize>,
    name: Option<&'static str>,
    offset: Option<usize>,
}

impl Location {
    /// A location that names nothing yet.
    pub(crate) const UNKNOWN: Location = Location { field: None, name: None, offset: None };

    /// A location at a byte offset, outside any particular field: for the errors a format's
    /// reader gives about the key as a whole ([`Error::TrailingBytes`] has its own offset).
    ///
    /// ```
    /// let e = rowkey::Error::Truncated { at: rowkey::Location::at(4), detail: "the key ends inside a field" };
    /// assert_eq!(e.location().offset(), Some(4));
    /// ```
    #[must_use]
    pub const fn at(offset: usize) -> Location {
        Location { field: None, name: None, offset: Some(offset) }
    }

    /// The field's 0-based position in the key, when known.
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// let err = <(i8,)>::from_key(b"\xc1\x2c").unwrap_err();   // 300 does not fit an i8
    /// assert_eq!(err.location().field(), Some(0));
    /// ```
    #[must_use]
    pub fn field(&self) -> Option<usize> {
        self.field
    }

    /// The field's name, when the key type has names (derived keys do, tuples do not).
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// let err = <(i8,)>::from_key(b"\xc1\x2c").unwrap_err();
    /// assert_eq!(err.location().name(), None);
    /// ```
    #[must_use]
    pub fn name(&self) -> Option<&'static str> {
        self.name
    }

    /// The byte offset in the key: where the problem was found, or for a field whose value is
    /// invalid, where that field starts.
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// let err = <(String, String)>::from_key(b"a\x00\x01b\x00\x01c").unwrap_err();
    /// assert_eq!(err.location().offset(), Some(4));
    /// ```
    #[must_use]
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// The same location with the field's name, when it has none yet.
    pub(crate) fn with_name(self, name: &'static str) -> Location {
        Location { name: self.name.or(Some(name)), ..self }
    }

    /// Fills in what is not known yet, keeping what is.
    pub(crate) fn fill(self, field: usize, name: Option<&'static str>, offset: usize) -> Location {
        Location { field: self.field.or(Some(field)), name: self.name.or(name), offset: self.offset.or(Some(offset)) }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.field, self.name) {
            (Some(i), Some(name)) => write!(f, "in field {i} (`{name}`)")?,
            (Some(i), None) => write!(f, "in field {i}")?,
            (None, Some(name)) => write!(f, "in field `{name}`")?,
            (None, None) => f.write_str("in the key")?,
        }
        if let Some(offset) = self.offset {
            write!(f, " at byte {offset}")?;
        }
        Ok(())
    }
}

/// The `at` of the variants about one field, by reference or by mutable reference as `$error`
/// is: listed once, with no wildcard, so a new variant must say which kind it is.
macro_rules! field_location {
    ($error:expr) => {
        match $error {
            Error::Truncated { at, .. }
            | Error::BadEscape { at, .. }
            | Error::Delimiter { at, .. }
            | Error::Malformed { at, .. }
            | Error::NonCanonical { at, .. }
            | Error::InvalidField { at, .. }
            | Error::OutOfRange { at, .. }
            | Error::Unencodable { at, .. } => Some(at),
            Error::TrailingBytes { .. }
            | Error::TooLong { .. }
            | Error::ReadableKey { .. }
            | Error::InvalidArgument { .. } => None,
        }
    };
}

/// Everything that can go wrong when encoding or decoding a key.
///
/// Each message says what was wrong, where ([`Location`]) and what to do about it. Match on
/// the variant to react programmatically; new variants may be added.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The key ends before the field it was reading is complete, or before a field that every
    /// key of this type has (a descending field always ends in its separator).
    #[error("key ends early {at}: {detail}; it was cut short or is not a key of this type")]
    Truncated {
        /// Where the bytes ran out.
        at: Location,
        /// What was still expected.
        detail: &'static str,
    },

    /// A `00` byte in an ordered key is followed by a byte that no escape starts with.
    #[error(
        "invalid escape {at}: byte 00 is followed by {byte:02x}, but the ordered format only \
         writes 00 ff (a NUL byte), 00 01 (a field separator) and 00 00 (an empty field); \
         these bytes are not an ordered key"
    )]
    BadEscape {
        /// Where the `00` byte is.
        at: Location,
        /// The byte after it.
        byte: u8,
    },

    /// The bytes break the key format's framing in a way no escape explains.
    #[error("malformed key {at}: {detail}; these bytes are not a key of this format")]
    Malformed {
        /// Where the framing breaks.
        at: Location,
        /// What was expected there.
        detail: &'static str,
    },

    /// The bytes decode, but the encoder never writes them (for example an empty trailing
    /// field that it would have dropped, or an integer with a redundant length). Accepting
    /// them would let two different keys hold the same value, and a scan for that value
    /// would miss one of them.
    #[error("{at}: {detail}; the encoder never writes these bytes, so the key was built by other code or is corrupt")]
    NonCanonical {
        /// Where the non-canonical bytes start.
        at: Location,
        /// What is not canonical.
        detail: &'static str,
    },

    /// Bytes follow the last field the key type has.
    #[error(
        "{len} unexpected bytes after the last field, at byte {offset}: the key has more \
         fields than this type; decode it with the type that wrote it"
    )]
    TrailingBytes {
        /// Where the extra bytes start.
        offset: usize,
        /// How many there are.
        len: usize,
    },

    /// A field is framed correctly but its bytes are not a value of its type.
    #[error("{at}: not a valid {ty}: {detail}")]
    InvalidField {
        /// The field and where it starts.
        at: Location,
        /// The Rust type that was expected.
        ty: &'static str,
        /// What is wrong with the bytes.
        detail: Cow<'static, str>,
    },

    /// A field decodes to an integer that does not fit the requested type, such as `300`
    /// read as an `i8`. Never wrapped or truncated.
    #[error("{at}: value {value} does not fit in {ty}; decode into a wider type (the key was written from one)")]
    OutOfRange {
        /// The field and where it starts.
        at: Location,
        /// The decoded value.
        value: i128,
        /// The type that was requested.
        ty: &'static str,
    },

    /// A value cannot be encoded without breaking the key's order or its round trip, such
    /// as a negative integer as [`BigEndian`](crate::BigEndian).
    #[error("{at}: cannot encode this {ty}: {detail}")]
    Unencodable {
        /// The field being encoded.
        at: Location,
        /// The Rust type of the value.
        ty: &'static str,
        /// Why, and what to do instead.
        detail: Cow<'static, str>,
    },

    /// A key is longer than the key type allows: one it would write, or one given to its
    /// `from_key` (which it could not write again, so it is not a key of the type).
    #[error(
        "key is {len} bytes, over the limit of {max} bytes; shorten the fields or raise the key type's `max_len` \
         (it bounds the keys the type reads as well as those it writes)"
    )]
    TooLong {
        /// The key's length.
        len: usize,
        /// The limit.
        max: usize,
    },

    /// A delimited key's field holds a byte at or below the delimiter's first byte. Written,
    /// it would sort the key out of place (a `#` in a tenant name puts that tenant's keys
    /// inside another tenant's range) or split it wrongly when read.
    #[error(
        "{at}: byte {byte:#04x} is not above the delimiter's first byte {delimiter:#04x}, so the key would not \
         sort by its values; keep such bytes out of the value, choose a lower delimiter, or use the ordered \
         format, which takes any bytes"
    )]
    Delimiter {
        /// The field and the byte's offset in the key.
        at: Location,
        /// The offending byte.
        byte: u8,
        /// The delimiter's first byte.
        delimiter: u8,
    },

    /// An argument is outside what the function accepts: a malformed domain name or URL, a
    /// bucket count out of range, a delimiter that cannot keep keys sorted.
    #[error("invalid {what}: {detail}")]
    InvalidArgument {
        /// What the argument is (`"domain name"`, `"bucket count"`, ...).
        what: &'static str,
        /// What is wrong with it and what to do instead.
        detail: Cow<'static, str>,
    },

    /// Text given to [`Key::from_readable`](crate::Key::from_readable) is not a readable key.
    #[error("readable key text, at character {offset}: {detail}")]
    ReadableKey {
        /// The byte offset of the offending character in the text.
        offset: usize,
        /// What is wrong and how to write it instead.
        detail: &'static str,
    },
}

impl Error {
    /// Where the error happened. Errors that concern the key as a whole give
    /// [`Location::default`] plus an offset when there is one.
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// let err = <(u32,)>::from_key(b"\x80\x00\x01\x81").unwrap_err();
    /// assert_eq!(err.location().offset(), Some(1));
    /// ```
    #[must_use]
    pub fn location(&self) -> Location {
        match self {
            Error::TrailingBytes { offset, .. } | Error::ReadableKey { offset, .. } => Location::at(*offset),
            other => other.location_in_field().copied().unwrap_or(Location::UNKNOWN),
        }
    }

    /// The location of an error about one field, which the key writers and readers fill in;
    /// `None` for the errors about a key as a whole.
    fn location_in_field(&self) -> Option<&Location> {
        field_location!(self)
    }

    /// [`location_in_field`](Self::location_in_field), to change: the one place that knows
    /// which variants carry a field's location.
    pub(crate) fn location_mut(&mut self) -> Option<&mut Location> {
        field_location!(self)
    }

    /// Fills in the field's position, name and start offset where the error does not have
    /// them yet. Key writers and readers call this on what a field's codec returns, so a
    /// format of your own locates its errors as the built-in ones do.
    ///
    /// ```
    /// let e = rowkey::Error::invalid("u32", "the field is 3 bytes, not 4").in_field(2, Some("day"), 9);
    /// assert_eq!((e.location().field(), e.location().name(), e.location().offset()), (Some(2), Some("day"), Some(9)));
    /// ```
    #[must_use]
    pub fn in_field(mut self, field: usize, name: Option<&'static str>, offset: usize) -> Error {
        if let Some(at) = self.location_mut() {
            *at = at.fill(field, name, offset);
        }
        self
    }

    /// The error with the field's name in its location, when it has a location and no name
    /// yet: so that a key's schema can tell which field it is about (and redact it).
    #[must_use]
    pub(crate) fn with_name(mut self, name: &'static str) -> Error {
        if let Some(at) = self.location_mut() {
            *at = at.with_name(name);
        }
        self
    }

    /// An [`Error::InvalidField`] about a field of type `ty`, whose location the key's reader
    /// fills in ([`in_field`](Self::in_field)).
    ///
    /// ```
    /// let e = rowkey::Error::invalid("bool", "the byte is 07, not 00 or 01");
    /// assert!(e.to_string().contains("07, not 00 or 01"));
    /// ```
    #[must_use]
    pub fn invalid(ty: &'static str, detail: impl Into<Cow<'static, str>>) -> Error {
        Error::InvalidField { at: Location::UNKNOWN, ty, detail: detail.into() }
    }

    /// An [`Error::Unencodable`]: a value of type `ty` that the format cannot write in order;
    /// the key's writer fills in the location.
    ///
    /// ```
    /// let e = rowkey::Error::unencodable("f64", "NaN has no place in the order");
    /// assert!(e.to_string().contains("NaN"));
    /// ```
    #[must_use]
    pub fn unencodable(ty: &'static str, detail: impl Into<Cow<'static, str>>) -> Error {
        Error::Unencodable { at: Location::UNKNOWN, ty, detail: detail.into() }
    }

    /// An [`Error::InvalidArgument`].
    pub(crate) fn argument(what: &'static str, detail: impl Into<Cow<'static, str>>) -> Error {
        Error::InvalidArgument { what, detail: detail.into() }
    }

    /// An [`Error::OutOfRange`]: a value read back that does not fit `ty`; the key's reader
    /// fills in the location.
    ///
    /// ```
    /// let e = rowkey::Error::out_of_range(300, "u8");
    /// assert!(e.to_string().contains("300"));
    /// ```
    #[must_use]
    pub fn out_of_range(value: i128, ty: &'static str) -> Error {
        Error::OutOfRange { at: Location::UNKNOWN, value, ty }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_field_and_the_fix() {
        let err = Error::out_of_range(300, "i8").in_field(2, Some("count"), 14);
        assert_eq!(
            err.to_string(),
            "in field 2 (`count`) at byte 14: value 300 does not fit in i8; decode into a wider type (the key was written from one)"
        );
        let err = Error::invalid("String", "invalid UTF-8").in_field(0, None, 0);
        assert_eq!(err.to_string(), "in field 0 at byte 0: not a valid String: invalid UTF-8");
    }

    #[test]
    fn filling_keeps_a_more_precise_offset() {
        let err = Error::BadEscape { at: Location::at(7), byte: 0x42 }.in_field(1, None, 3);
        assert_eq!(err.location().offset(), Some(7));
        assert_eq!(err.location().field(), Some(1));
    }
}
