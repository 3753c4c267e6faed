//! [`Inspection`]: a key as [`Schema::inspect`] read it, field by field, and how it shows,
//! a sensitive field's value withheld unless revealed.
//!
//! [`Schema::inspect`]: crate::schema::Schema::inspect

use std::fmt;

use crate::schema::{Encoding, KeyField, Redacted, Transform, Value};

/// A key decoded by [`Schema::inspect`]: its fields in key order, the prefix and bucket
/// included. `Display` writes them as `name=value` pairs.
///
/// [`Schema::inspect`]: crate::schema::Schema::inspect
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    pub(super) type_name: &'static str,
    pub(super) fields: Vec<InspectedField>,
}

impl Inspection {
    /// The name of the key type whose schema decoded the key.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// Every field in key order.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::Value;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", prefix = "dev")]
    /// struct Device { kind: String, #[rowkey(hex)] id: u32 }
    ///
    /// let key = Device { kind: "phone".into(), id: 0x4c41_0523 }.to_key()?;
    /// let inspection = Device::SCHEMA.inspect(&key)?;
    /// let pairs: Vec<_> = inspection.fields().iter().map(|f| (f.name(), f.value().clone())).collect();
    /// assert_eq!(pairs, [
    ///     ("prefix", Value::Str("dev".into())),
    ///     ("kind", Value::Str("phone".into())),
    ///     ("id", Value::Int(0x4c41_0523)),
    /// ]);
    /// assert_eq!(inspection.to_string(), "prefix=dev kind=phone id=4c410523");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn fields(&self) -> &[InspectedField] {
        &self.fields
    }

    /// The value of the field named `name` (the first one, should two share it).
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|f| f.name == name).map(|f| &f.value)
    }
}

impl Inspection {
    /// The fields as `Display` writes them, but with the values of sensitive fields shown:
    /// for the one who asked to see them (the `rowkey` command's `--reveal`).
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Login { #[rowkey(sensitive)] email: String, at: u32 }
    ///
    /// let key = Login { email: "alice@example.com".into(), at: 7 }.to_key()?;
    /// let inspection = Login::SCHEMA.inspect(&key)?;
    /// assert_eq!(inspection.to_string(), "email=<redacted, 17 bytes> at=7");
    /// assert_eq!(inspection.revealed().to_string(), "email=alice@example.com at=7");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn revealed(&self) -> Revealed<'_> {
        Revealed(self)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, reveal: bool) -> fmt::Result {
        for (i, field) in self.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            field.write(f, reveal)?;
        }
        Ok(())
    }
}

/// A sensitive field's value is shown as its length: `email=<redacted, 17 bytes>`.
impl fmt::Display for Inspection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

/// An [`Inspection`] shown with the values of its sensitive fields ([`Inspection::revealed`]).
#[derive(Clone, Copy, Debug)]
pub struct Revealed<'a>(&'a Inspection);

impl fmt::Display for Revealed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, true)
    }
}

/// One field of an [`Inspection`]: where it starts in the key, what the schema says it is,
/// and its value. `Debug` and `Display` show a sensitive field's value as its length.
#[derive(Clone, PartialEq)]
pub struct InspectedField {
    pub(super) name: &'static str,
    pub(super) value: Value,
    pub(super) offset: usize,
    /// The field's bytes (unescaped, in the Bigtable formats): what a sensitive field shows in
    /// place of its value.
    pub(super) len: usize,
    pub(super) field: KeyField,
}

impl fmt::Debug for InspectedField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("InspectedField");
        out.field("name", &self.name);
        if self.is_sensitive() {
            out.field("value", &format_args!("{}", self.redacted()));
        } else {
            out.field("value", &self.value);
        }
        out.field("offset", &self.offset).field("field", &self.field).finish()
    }
}

impl InspectedField {
    /// The field's name: its key name, or [`Schema::PREFIX_FIELD`] / [`Schema::BUCKET_FIELD`].
    ///
    /// [`Schema::PREFIX_FIELD`]: crate::schema::Schema::PREFIX_FIELD
    /// [`Schema::BUCKET_FIELD`]: crate::schema::Schema::BUCKET_FIELD
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The value, with any transform undone.
    #[must_use]
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The byte offset in the key where the field starts.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What the schema says the field is.
    #[must_use]
    pub fn key_field(&self) -> KeyField {
        self.field
    }

    /// Whether the field is marked `sensitive`, so that its value is not shown.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Login { #[rowkey(sensitive)] email: String, at: u32 }
    ///
    /// let key = Login { email: "alice@example.com".into(), at: 7 }.to_key()?;
    /// let inspection = Login::SCHEMA.inspect(&key)?;
    /// let shown: Vec<bool> = inspection.fields().iter().map(|f| f.is_sensitive()).collect();
    /// assert_eq!(shown, [true, false]);
    /// assert_eq!(inspection.fields()[0].redacted().len, 17);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn is_sensitive(&self) -> bool {
        matches!(self.field, KeyField::Value(schema) if schema.sensitive)
    }

    /// What is shown in place of the value when the field is sensitive: its length.
    #[must_use]
    pub fn redacted(&self) -> Redacted {
        Redacted { len: self.len }
    }

    /// The value as text, in the form [`Schema::encode`] reads back to the same key: as
    /// `Display` shows it, without the name and the notes on how the key stores it. A float
    /// keeps its sign and NaN payload ([`Value`]'s `Display`: `NaN`, `-NaN`,
    /// `NaN:0x7ff0000000000001`); `-0.0` and `0.0` share one key, which prints as `0.0`.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Device { #[rowkey(hex)] id: u32, #[rowkey(reverse)] ts: i64 }
    ///
    /// let key = Device { id: 0x4c41_0523, ts: 7 }.to_key()?;
    /// let inspection = Device::SCHEMA.inspect(&key)?;
    /// let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
    /// assert_eq!(texts, [("id", "4c410523".to_owned()), ("ts", "7".to_owned())]);
    /// let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
    /// assert_eq!(Device::SCHEMA.encode(&pairs)?, key);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    ///
    /// [`Schema::encode`]: crate::schema::Schema::encode
    #[must_use]
    pub fn value_text(&self) -> String {
        ValueText(self.field, &self.value).to_string()
    }
}

/// A value as `InspectedField`'s `Display` writes it for a field, hex fields in hex: the text
/// [`Schema::encode`] reads back for that field.
pub(crate) struct ValueText<'a>(pub(crate) KeyField, pub(crate) &'a Value);

impl fmt::Display for ValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let KeyField::Value(schema) = self.0 else { return self.1.fmt(f) };
        match (self.1, schema.encoding) {
            (Value::Int(n), Encoding::Hex { digits }) => {
                write!(f, "{n:0width$x}", width = digits.map_or(0, usize::from))
            }
            (Value::Bytes(bytes), Encoding::Hex { .. }) => bytes.iter().try_for_each(|b| write!(f, "{b:02x}")),
            (value, _) => value.fmt(f),
        }
    }
}

/// `name=value`, hex fields in hex, then what the bytes hold instead of the value:
/// `(desc)`, `(reversed)`, `(bit-reversed)` or `(reversed domain)`.
impl fmt::Display for InspectedField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

impl InspectedField {
    fn write(&self, f: &mut fmt::Formatter<'_>, reveal: bool) -> fmt::Result {
        if self.is_sensitive() && !reveal {
            write!(f, "{}={}", self.name, self.redacted())?;
        } else {
            write!(f, "{}={}", self.name, ValueText(self.field, &self.value))?;
        }
        let KeyField::Value(schema) = self.field else { return Ok(()) };
        if schema.descending {
            f.write_str(" (desc)")?;
        }
        match schema.transform {
            Transform::None => Ok(()),
            Transform::Reverse { .. } => f.write_str(" (reversed)"),
            Transform::BitReverse { .. } => f.write_str(" (bit-reversed)"),
            Transform::ReverseDomain => f.write_str(" (reversed domain)"),
        }
    }
}
