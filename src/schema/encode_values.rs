//! [`Schema::encode_values`]: a key from field values already parsed, for bindings (the
//! Python package) that hold native values and would otherwise print them as text for
//! [`Schema::encode`] to parse again.

use crate::error::{Error, Result};
use crate::key::Key;
use crate::schema::encode::write_key;
use crate::schema::given::{Given, value_count};
use crate::schema::{Encoding, FieldSchema, Format, KeyField, Schema, Transform, Value};

impl Schema {
    /// The key of the given values of the key's fields, in key order (those of a flattened
    /// struct in its place; the prefix and bucket left out, as they are computed): the values
    /// [`Schema::inspect`] reads from a key of this type, so that `encode_values` of them
    /// gives the key back. The same key and the same errors as [`Schema::encode`] of the
    /// values' text, a sensitive field's value kept out of them the same way, without the
    /// text and the name lookups.
    ///
    /// A value is checked against its field's Rust type where it is written; only a value the
    /// field may not hold (an integer beyond its type, a transformed field) sends the whole
    /// key through [`inspect`](Self::inspect), which names the fault as `encode` does.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a count of values other than the key's fields, and what
    /// [`Schema::encode`] returns for the values' text: a number out of its type's range, a
    /// value the field's encoding cannot hold, a key too long.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::Value;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(salt(buckets = 16, from = [device_id]))]
    /// struct Reading {
    ///     device_id: String,
    ///     ts: u8,
    /// }
    ///
    /// let key = Reading::SCHEMA.encode_values(&[Value::Str("4c410523".into()), Value::Int(7)])?;
    /// assert_eq!(key, Reading { device_id: "4c410523".into(), ts: 7 }.to_key()?);
    ///
    /// // Beyond the field's type: the error `encode` gives for the text "300".
    /// let err = Reading::SCHEMA.encode_values(&[Value::Str("4c410523".into()), Value::Int(300)]).unwrap_err();
    /// let text = Reading::SCHEMA.encode(&[("device_id", "4c410523"), ("ts", "300")]).unwrap_err();
    /// assert_eq!(err.to_string(), text.to_string());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn encode_values(&self, values: &[Value]) -> Result<Key> {
        self.encode_given(values).map_err(|e| self.redact_error(e))
    }

    fn encode_given(&self, values: &[Value]) -> Result<Key> {
        let count = value_count(self);
        if values.len() != count {
            let names: Vec<&str> =
                self.key_fields().iter().filter(|f| matches!(f, KeyField::Value(_))).map(KeyField::name).collect();
            return Err(Error::argument(
                "field values",
                format!(
                    "`{}` takes {count} values in key order ({}), not {}",
                    self.type_name,
                    names.join(", "),
                    values.len()
                ),
            ));
        }
        let key = write_key(self, &Given::Values(values))?;
        if !self.holds_all(values, &mut 0) {
            self.inspect(&key)?;
        }
        Ok(key)
    }

    /// Whether every value is one its field's Rust type holds, so that the key written needs
    /// no reading back; `at` is the index of this schema's first value.
    fn holds_all(&self, values: &[Value], at: &mut usize) -> bool {
        self.fields.iter().all(|field| match field.encoding {
            Encoding::Flattened(inner) => inner.holds_all(values, at),
            _ => {
                *at += 1;
                values.get(*at - 1).is_some_and(|value| holds(self.format, field, value))
            }
        })
    }
}

/// Whether `field`'s Rust type certainly holds `value` and the key's format writes it as the
/// type does: the common cases only; for anything else the written key is read back.
fn holds(format: Format, field: &FieldSchema, value: &Value) -> bool {
    let ty = bare_type(field.rust_type);
    let in_type = |v: &i128| int_range(ty).is_some_and(|(lo, hi)| (lo..=hi).contains(v));
    let ints = matches!(field.encoding, Encoding::Int64 | Encoding::Uint64 | Encoding::Decimal { .. });
    match (field.transform, value) {
        (Transform::None, _) => {}
        // `max - v` of a value from zero to `max` is what the type's `reverse` writes (the
        // typed path refuses a negative one); the width is checked as it is written.
        (Transform::Reverse { max }, Value::Int(v)) if ints => {
            return in_type(v) && *v >= 0 && *v <= i128::from(max);
        }
        _ => return false,
    }
    match (field.encoding, value) {
        (_, Value::Null) => field.optional,
        // HBase's text ends at U+0000, which its reader refuses inside a value.
        (Encoding::Utf8, Value::Str(text)) => ty == "String" && !(format == Format::HBase && text.contains('\0')),
        (Encoding::Int64 | Encoding::Uint64, Value::Int(v)) => in_type(v),
        // Digits of an unsigned field read back only without a sign.
        (Encoding::Decimal { signed, .. }, Value::Int(v)) => in_type(v) && (signed || *v >= 0),
        (Encoding::Float64, Value::Float(_)) => ty == "f64",
        (Encoding::Bool, Value::Bool(_)) => ty == "bool",
        (Encoding::Uuid, Value::Uuid(_)) => ty == "Uuid",
        _ => false,
    }
}

/// The type inside an `Option<...>`, without its path.
pub(crate) fn bare_type(rust_type: &str) -> &str {
    let inner = rust_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(rust_type);
    inner.rsplit(':').next().unwrap_or(inner)
}

/// The values of a primitive integer type; `None` for any other type.
pub(crate) fn int_range(ty: &str) -> Option<(i128, i128)> {
    Some(match ty {
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX.into()),
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        _ => return None,
    })
}
