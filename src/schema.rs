//! [`Schema`]: a static description of a key type, for schema export and key inspection.
//!
//! `#[derive(RowKey)]` gives every key struct a `SCHEMA` constant (also reachable through the
//! [`KeySchema`] trait in generic code). It says what the key's bytes are, field by field, so
//! that code which never sees the Rust type can still make sense of a key: export the row key
//! schema to Bigtable, render a raw key as `device_type=phone device_id=4c410523 ...`, or
//! point at the byte where a key stops matching its type.
//!
//! A key is, in order: the constant [`prefix`](Schema::prefix) if any, the salt
//! [bucket](Schema::salt) if any, then the [`fields`](Schema::fields) (a
//! [flattened](Encoding::Flattened) field contributes all of its own).
//!
//! ```
//! use rowkey::RowKey;
//! use rowkey::schema::{Encoding, Format, KeyField, Transform};
//!
//! #[derive(RowKey)]
//! #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
//! struct Reading {
//!     device_type: String,
//!     device_id: String,
//!     #[rowkey(reverse)]
//!     ts_millis: i64,
//! }
//!
//! let schema = Reading::SCHEMA;
//! assert_eq!(schema.format, Format::Delimited("#"));
//! assert_eq!(schema.salt.unwrap().buckets, 16);
//! let ts = schema.field("ts_millis").unwrap();
//! assert_eq!(ts.encoding, Encoding::Decimal { width: 19, signed: false });
//! assert_eq!(ts.transform, Transform::Reverse { max: i64::MAX as u64 });
//!
//! // The bucket, then the three fields: what a key of this type holds, in order.
//! let names: Vec<_> = schema.key_fields().iter().map(KeyField::name).collect();
//! assert_eq!(names, ["bucket", "device_type", "device_id", "ts_millis"]);
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::error::Result;
use crate::salt::{Salt, SaltHash};

#[cfg(feature = "bigtable-schema")]
mod bigtable;
#[cfg(feature = "bigtable-schema")]
pub mod bigtable_import;
mod decode;
mod delimited_keys;
mod encode;
mod encode_values;
pub(crate) mod format_ops;
mod given;
mod inspect;
mod inspection;
#[cfg(feature = "schema-json")]
pub mod json;
mod key_ops;
mod next;
mod ordered_keys;
mod parse;
mod plan;
mod reading;
mod redact;
mod scan;
mod schema_format;
mod store;
mod store_value;
mod stored;
mod value;

#[cfg(feature = "bigtable-schema")]
pub use bigtable::ExportOptions;
pub(crate) use encode_values::{bare_type, int_range};
pub(crate) use given::salt_bucket;
pub(crate) use inspection::ValueText;
pub use inspection::{InspectedField, Inspection, Revealed};
pub use next::ScanNext;
pub(crate) use parse::parse_value;
pub use plan::KeyPlan;
pub use redact::Redacted;
pub(crate) use redact::WITHHELD;
pub use scan::EmptyScan;
pub use schema_format::SchemaFormat;
pub use value::Value;

// The description's types are defined at the bottom of the crate, so that the field types,
// which state their encoding, name them without importing this module (`field::description`).
#[doc(inline)]
pub use crate::field::description::{
    CustomFormat, DateSpec, DynamoSchema, DynamoShards, Encoding, FieldSchema, Format, SaltSchema, Schema, TimeSpec,
    Transform,
};

/// A key type with a static [`Schema`]. `#[derive(RowKey)]` implements it; the derive also
/// puts the same value in an inherent `SCHEMA` constant, so `T::SCHEMA` works without this
/// trait in scope.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::schema::KeySchema;
///
/// #[derive(RowKey)]
/// struct Visit {
///     host: String,
///     page: String,
/// }
///
/// fn field_names<K: KeySchema>() -> Vec<&'static str> {
///     K::SCHEMA.fields.iter().map(|f| f.name).collect()
/// }
/// assert_eq!(field_names::<Visit>(), ["host", "page"]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no key schema",
    label = "`{Self}` does not derive `RowKey`",
    note = "add `#[derive(RowKey)]` to `{Self}`: a key schema describes a derived key struct"
)]
pub trait KeySchema {
    /// The description of the key.
    const SCHEMA: Schema;
}

impl Schema {
    /// Bigtable's row key limit, 4 KiB: the `max_len` of a derived key unless it says
    /// otherwise.
    pub const DEFAULT_MAX_LEN: usize = 4096;
    /// The name of the prefix field, in errors and in [`key_fields`](Self::key_fields).
    pub const PREFIX_FIELD: &'static str = crate::format::PREFIX_FIELD;
    /// The name of the bucket field, in errors and in [`key_fields`](Self::key_fields).
    pub const BUCKET_FIELD: &'static str = crate::format::BUCKET_FIELD;

    /// The number of fields in a key of this type: the prefix, the bucket, and every field
    /// with flattened ones counted as their own fields. Equal to the key type's `FIELDS`.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Device { kind: String, id: u32 }
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(prefix = "r")]
    /// struct Reading {
    ///     #[rowkey(flatten)]
    ///     device: Device,
    ///     ts: i64,
    /// }
    /// assert_eq!(Reading::SCHEMA.field_count(), 4); // prefix, kind, id, ts
    /// ```
    #[must_use]
    pub const fn field_count(&self) -> usize {
        let mut count = 0;
        if self.prefix.is_some() {
            count += 1;
        }
        if self.salt.is_some() {
            count += 1;
        }
        let mut i = 0;
        while i < self.fields.len() {
            count += match self.fields[i].encoding {
                Encoding::Flattened(inner) => inner.field_count(),
                _ => 1,
            };
            i += 1;
        }
        count
    }

    /// The field named `name` (its key name, after any `rename`), looking into flattened
    /// fields too. The prefix and bucket are not [`FieldSchema`]s: see
    /// [`key_fields`](Self::key_fields).
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Event {
    ///     #[rowkey(rename = "src")]
    ///     source: String,
    ///     #[rowkey(desc)]
    ///     at: i64,
    /// }
    /// let at = Event::SCHEMA.field("at").unwrap();
    /// assert!(at.descending);
    /// assert_eq!(Event::SCHEMA.field("src").unwrap().rust_name, "source");
    /// assert!(Event::SCHEMA.field("source").is_none());
    /// ```
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&'static FieldSchema> {
        self.fields.iter().find_map(|field| match field.encoding {
            _ if field.name == name => Some(field),
            Encoding::Flattened(inner) => inner.field(name),
            _ => None,
        })
    }

    /// Every field of a key of this type, in key order: the prefix, the bucket, then the
    /// fields, with flattened ones replaced by their own key fields.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::KeyField;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(prefix = "web", salt(buckets = 4, from = [host]))]
    /// struct Page { host: String, path: String }
    ///
    /// let fields = Page::SCHEMA.key_fields();
    /// assert_eq!(fields[0], KeyField::Prefix(b"web"));
    /// assert!(matches!(fields[1], KeyField::Bucket(salt) if salt.buckets == 4));
    /// assert_eq!(fields[3].name(), "path");
    /// ```
    #[must_use]
    pub fn key_fields(&self) -> Vec<KeyField> {
        let mut out = Vec::with_capacity(self.field_count());
        self.push_key_fields(&mut out);
        out
    }

    fn push_key_fields(&self, out: &mut Vec<KeyField>) {
        if let Some(prefix) = self.prefix {
            out.push(KeyField::Prefix(prefix));
        }
        if let Some(salt) = self.salt {
            out.push(KeyField::Bucket(salt));
        }
        for field in self.fields {
            match field.encoding {
                Encoding::Flattened(inner) => inner.push_key_fields(out),
                _ => out.push(KeyField::Value(field)),
            }
        }
    }
}

/// Lists the key's fields one a line, as `name: type [encoding, transform, direction]`.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
/// struct Reading {
///     device_type: String,
///     device_id: String,
///     #[rowkey(reverse)]
///     ts_millis: i64,
/// }
///
/// assert_eq!(Reading::SCHEMA.to_string(), "\
/// Reading: delimited \"#\"
///   bucket: 16 buckets, farmhash of device_id
///   device_type: String [utf8]
///   device_id: String [utf8]
///   ts_millis: i64 [decimal(19), reverse]");
/// ```
impl fmt::Display for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.type_name, self.format)?;
        if self.max_len != Schema::DEFAULT_MAX_LEN {
            write!(f, ", at most {} bytes", self.max_len)?;
        }
        for field in self.key_fields() {
            write!(f, "\n  {field}")?;
        }
        Ok(())
    }
}

/// The value of a prefix field, as inspection reports it: text when the bytes are UTF-8, bytes
/// otherwise (a table id such as `bd 89`).
pub(crate) fn prefix_value(prefix: &[u8]) -> Value {
    match std::str::from_utf8(prefix) {
        Ok(text) => Value::Str(text.to_owned()),
        Err(_) => Value::Bytes(prefix.to_vec()),
    }
}

impl SaltSchema {
    /// The [`Salt`] that computes the bucket.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) for a bucket count outside 1
    /// to 65536 (never for a derived key: the derive checks it).
    pub fn salt(&self) -> Result<Salt> {
        Salt::new(self.buckets, self.hash)
    }
}

/// `16 buckets, farmhash of device_id`; an MD5 salt shows its hex digits:
/// `65536 buckets, md5 hex(4) of ip`.
///
/// ```
/// use rowkey::salt::SaltHash;
/// use rowkey::schema::SaltSchema;
///
/// let salt = SaltSchema { buckets: 65_536, hash: SaltHash::Md5Hex, from: &["ip"] };
/// assert_eq!(salt.to_string(), "65536 buckets, md5 hex(4) of ip");
/// ```
impl fmt::Display for SaltSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hash = match self.hash {
            SaltHash::FarmHash => "farmhash".into(),
            SaltHash::Modulo => "modulo".into(),
            // The digit count is what a reader of the key sees; a hand-written schema with
            // another count shows none rather than a wrong one.
            SaltHash::Md5Hex => match crate::salt::bucket::md5_digits(self.buckets) {
                Some(digits) => Cow::Owned(format!("md5 hex({digits})")),
                None => "md5 hex".into(),
            },
        };
        write!(f, "{} buckets, {hash} of {}", self.buckets, self.from.join(", "))
    }
}

impl FieldSchema {
    /// An ascending, non-optional field without a transform, whose Rust name is `name`.
    ///
    /// ```
    /// use rowkey::schema::{Encoding, FieldSchema};
    ///
    /// const ID: FieldSchema = FieldSchema::new("id", "u64", Encoding::Uint64);
    /// assert_eq!(ID.to_string(), "id: u64 [uint64]");
    /// ```
    #[must_use]
    pub const fn new(name: &'static str, rust_type: &'static str, encoding: Encoding) -> FieldSchema {
        FieldSchema {
            name,
            rust_name: name,
            rust_type,
            encoding,
            transform: Transform::None,
            optional: false,
            descending: false,
            monotonic: false,
            sensitive: false,
        }
    }
}

/// One field of a key in key order, as [`Schema::key_fields`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyField {
    /// The constant prefix field and its bytes.
    Prefix(&'static [u8]),
    /// The salt bucket field.
    Bucket(SaltSchema),
    /// A field of the key struct (or of a struct flattened into it).
    Value(&'static FieldSchema),
}

impl KeyField {
    /// The field's name: [`Schema::PREFIX_FIELD`], [`Schema::BUCKET_FIELD`], or the
    /// field's key name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            KeyField::Prefix(_) => Schema::PREFIX_FIELD,
            KeyField::Bucket(_) => Schema::BUCKET_FIELD,
            KeyField::Value(field) => field.name,
        }
    }
}

impl fmt::Display for KeyField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyField::Prefix(prefix) => match prefix_value(prefix) {
                Value::Str(text) => write!(f, "{}: {text:?}", Schema::PREFIX_FIELD),
                bytes => write!(f, "{}: {bytes}", Schema::PREFIX_FIELD),
            },
            KeyField::Bucket(salt) => write!(f, "{}: {salt}", Schema::BUCKET_FIELD),
            KeyField::Value(field) => field.fmt(f),
        }
    }
}
