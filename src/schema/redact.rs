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
    ///
    /// It fails closed: an error that quotes a value but names no field of the key (or a
    /// field it does not have) is redacted whenever the key has a sensitive field, since the
    /// value may be that field's. Only the computed prefix and bucket are known to hold none.
    #[must_use]
    pub(crate) fn redact_error(&self, err: Error) -> Error {
        match err.location().name() {
            Some(name) if name == Schema::PREFIX_FIELD || name == Schema::BUCKET_FIELD => err,
            Some(name) => match self.field(name) {
                Some(field) if !field.sensitive => err,
                Some(field) => redact(err, Some(field)),
                None if self.has_sensitive_fields() => redact(err, None),
                None => err,
            },
            None if self.has_sensitive_fields() => redact(err, None),
            None => err,
        }
    }
}

/// What a redacted message says in place of the value it withheld. A message that holds it
/// was redacted already, and is kept: its own words say more than the general ones below.
pub(crate) const WITHHELD: &str = "(a field marked sensitive: its value is not shown)";

/// An error about `field` with nothing of its value in it when it is sensitive: the one
/// place the schema's text paths pass a field's faults through, so that a fault found deep in
/// a codec (a number over a width, a value beyond a type) never quotes that field's value.
pub(crate) fn about_field(field: &FieldSchema, err: Error) -> Error {
    let err = err.with_name(field.name);
    if field.sensitive { redact(err, Some(field)) } else { err }
}

/// The variants that quote bytes or values become ones that say only what kind of fault it
/// is; the rest quote nothing of the field and stay as they are. `field` is the sensitive
/// field, or `None` when the error may be about one but does not say which.
///
/// An [`Error::InvalidArgument`] carries no location: one about a known sensitive field loses
/// its detail, one about no known field is kept (the schema's text paths send every fault
/// about a field through [`about_field`], so what is left names fields, not values).
fn redact(err: Error, field: Option<&FieldSchema>) -> Error {
    let withheld = |detail: &str| detail.contains(WITHHELD);
    match err {
        Error::InvalidField { ref detail, .. } | Error::Unencodable { ref detail, .. } if withheld(detail) => err,
        Error::InvalidArgument { ref detail, .. } if withheld(detail) => err,
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
                "the value cannot be written in this field {WITHHELD}; see the documentation of `{ty}` and the \
                 field's attributes (a width, a range) for the values it holds"
            )),
        },
        Error::BadEscape { at, .. } => Error::Malformed {
            at,
            detail: "a 00 byte is followed by a byte that no escape of the ordered format starts with (the field is \
                     marked sensitive, so its bytes are not shown)",
        },
        Error::Delimiter { at, delimiter, .. } => Error::Unencodable {
            at,
            ty: field.map_or("value", |f| f.rust_type),
            detail: Cow::Owned(format!(
                "a byte of the value is not above the delimiter's first byte {delimiter:#04x} {WITHHELD}, so the key \
                 would not sort by its values; keep such bytes out of the value, choose a lower delimiter, or use the \
                 ordered format"
            )),
        },
        Error::InvalidArgument { what, detail } => match field {
            Some(field) => Error::InvalidArgument {
                what,
                detail: Cow::Owned(format!(
                    "`{}` is given a value that is not one of {} {WITHHELD}; check it against the field's type and \
                     attributes",
                    field.name, field.rust_type
                )),
            },
            None => Error::InvalidArgument { what, detail },
        },
        other @ (Error::Truncated { .. }
        | Error::Malformed { .. }
        | Error::NonCanonical { .. }
        | Error::TrailingBytes { .. }
        | Error::TooLong { .. }
        | Error::ReadableKey { .. }) => other,
    }
}

/// An error about `field`, named (the argument errors in their text) and with nothing of a
/// sensitive field's value in it.
pub(super) fn named(field: &FieldSchema, e: Error) -> Error {
    let e = match e {
        Error::InvalidArgument { what, detail } if !detail.starts_with(&format!("`{}`", field.name)) => {
            Error::argument(what, format!("`{}`: {detail}", field.name))
        }
        other => other,
    };
    about_field(field, e)
}
