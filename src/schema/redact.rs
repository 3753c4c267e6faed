//! Fields marked `sensitive`: what is shown in place of their values, and errors about them
//! with every quoted byte of the value taken out.
//!
//! A key's bytes travel further than the application: into logs, monitoring, error reports
//! and the terminals of whoever runs the `rowkey` command. A field that holds personal data
//! (`#[rowkey(sensitive)]`, [`FieldSchema::sensitive`]) is shown as `<redacted, 17 bytes>`,
//! and an error about it keeps the field's name, its offset and what kind of fault it is, but
//! no byte or value of it.

use std::borrow::Cow;
use std::fmt;

use crate::error::Error;
use crate::schema::{FieldSchema, Schema};

/// What is shown in place of a sensitive field's value: its length in the key, in bytes.
///
/// ```
/// use rowkey::schema::Redacted;
///
/// assert_eq!(Redacted { len: 17 }.to_string(), "<redacted, 17 bytes>");
/// assert_eq!(Redacted { len: 1 }.to_string(), "<redacted, 1 byte>");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Redacted {
    /// The length of the field's bytes (unescaped, as its codec reads them).
    pub len: usize,
}

impl fmt::Display for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.len == 1 { "byte" } else { "bytes" };
        write!(f, "<redacted, {} {unit}>", self.len)
    }
}

impl Schema {
    /// Whether any field of the key (a flattened one's included) is marked `sensitive`: then
    /// a key's bytes, shown whole, would show that field's value.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Login { #[rowkey(sensitive)] email: String, at: u64 }
    ///
    /// #[derive(RowKey)]
    /// struct Visit { page: String, at: u64 }
    ///
    /// assert!(Login::SCHEMA.has_sensitive_fields());
    /// assert!(!Visit::SCHEMA.has_sensitive_fields());
    /// ```
    #[must_use]
    pub const fn has_sensitive_fields(&self) -> bool {
        // A `const fn`, so that a derived key without such a field skips redaction at compile
        // time (a `map_err` on every decode cost 4 to 12 % of a short key's decode).
        let mut i = 0;
        while i < self.fields.len() {
            let field = &self.fields[i];
            if field.sensitive {
                return true;
            }
            if let crate::schema::Encoding::Flattened(inner) = field.encoding
                && inner.has_sensitive_fields()
            {
                return true;
            }
            i += 1;
        }
        false
    }

    /// `err` with what it quotes of a sensitive field's value taken out, when the field it
    /// names is one; otherwise `err` as it is. Key readers and writers name the field they
    /// were at, so this finds it by that name.
    #[must_use]
    pub(crate) fn redact_error(&self, err: Error) -> Error {
        match err.location().name().and_then(|name| self.field(name)) {
            Some(field) if field.sensitive => redact(err, field),
            _ => err,
        }
    }
}

/// The variants that quote bytes or values become ones that say only what kind of fault it
/// is; the rest quote nothing of the field and stay as they are.
fn redact(err: Error, field: &FieldSchema) -> Error {
    const WITHHELD: &str = "(the field is marked sensitive, so its bytes are not shown)";
    match err {
        Error::InvalidField { at, ty, .. } => Error::InvalidField {
            at,
            ty,
            detail: Cow::Owned(format!(
                "its bytes are not a value of the type {WITHHELD}; the key was written by another type or is corrupt"
            )),
        },
        Error::OutOfRange { at, ty, .. } => Error::InvalidField {
            at,
            ty,
            detail: Cow::Owned(format!(
                "the value does not fit {ty} {WITHHELD}; decode into a wider type (the key was written from one)"
            )),
        },
        Error::Unencodable { at, ty, .. } => Error::Unencodable {
            at,
            ty,
            detail: Cow::Owned(format!(
                "the value has no bytes in this field that keep order {WITHHELD}; see the documentation of `{ty}` for \
                 the values it holds"
            )),
        },
        Error::BadEscape { at, .. } => Error::Malformed {
            at,
            detail: "a 00 byte is followed by a byte that no escape of the ordered format starts with (the field is \
                     marked sensitive, so its bytes are not shown)",
        },
        Error::Delimiter { at, delimiter, .. } => Error::Unencodable {
            at,
            ty: field.rust_type,
            detail: Cow::Owned(format!(
                "a byte of the value is not above the delimiter's first byte {delimiter:#04x} {WITHHELD}, so the key \
                 would not sort by its values; keep such bytes out of the value, choose a lower delimiter, or use the \
                 ordered format"
            )),
        },
        Error::InvalidArgument { what, .. } => Error::InvalidArgument {
            what,
            detail: Cow::Owned(format!("`{}` is not a value of {} {WITHHELD}", field.name, field.rust_type)),
        },
        other @ (Error::Truncated { .. }
        | Error::Malformed { .. }
        | Error::NonCanonical { .. }
        | Error::TrailingBytes { .. }
        | Error::TooLong { .. }
        | Error::ReadableKey { .. }) => other,
    }
}
