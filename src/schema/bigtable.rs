//! Bigtable row key schema export: a [`Schema`] as the `google.bigtable.admin.v2.Type.Struct`
//! that a table's `rowKeySchema` holds, in the proto3 JSON mapping (lowerCamelCase names,
//! bytes in base64). The mapping is documented on [`ExportOptions`].

use serde_json::{Map, Value as Json, json};

use crate::error::{Error, Result};
use crate::key_text::to_base64 as base64;
use crate::schema::{Encoding, FieldSchema, Format, KeyField, Schema, Transform};

/// Bigtable's reserved names: the row key and cell timestamp columns of GoogleSQL.
const RESERVED: [&str; 2] = ["_key", "_timestamp"];
/// The longest delimiter `DelimitedBytes` takes.
const MAX_DELIMITER: usize = 50;

/// How [`Schema::to_bigtable_json_with`] treats fields that Bigtable cannot describe.
///
/// Each key field becomes one field of the row key schema, with the Bigtable type that reads
/// exactly the bytes the key holds:
///
/// | key field | Bigtable field type |
/// |---|---|
/// | the prefix | `STRING` `utf8Bytes` (`BYTES` `raw` for a byte prefix that is not UTF-8), named `prefix` |
/// | the salt bucket | ordered format: `INT64` `orderedCodeBytes`; delimited: `STRING` `utf8Bytes` (its zero-padded digits); named `bucket` |
/// | strings | `STRING` `utf8Bytes`; optional ones with `nullEscapeChar` `"\u0000"` |
/// | bytes | `BYTES` `raw`; optional ones with `escapeNulls` |
/// | integers up to `i64`, and `bool` as 0 and 1 (ordered format) | `INT64` `orderedCodeBytes` |
/// | `big_endian` integers | `INT64` `bigEndianBytes` |
/// | `SystemTime` | `TIMESTAMP` `unixMicrosInt64` `orderedCodeBytes` |
/// | a flattened struct | its own key fields, in place |
///
/// A transformed field is described as stored: a `reverse`d `i64` is the `INT64`
/// `i64::MAX - v`, a `reverse_domain` host the `STRING` `com.google.maps`.
///
/// No Bigtable encoding reads the other fields: `u64` (orderedcode uint64), floats, the
/// delimited format's decimal, hex and `false`/`true` text, optional integers and timestamps
/// (whose empty `None` is no Bigtable `NULL`), and custom field types. Each is an error that
/// names the field, unless these options describe it as `BYTES` (or text as `STRING`): the
/// schema then covers the whole key, so that GoogleSQL reads the other fields by name, and
/// the field itself reads as its raw bytes or text.
///
/// Descending fields are always an error. The ordered format writes them exactly as
/// Bigtable's `OrderedCodeBytes` struct encoding defines `DESC` fields, but the Admin API's
/// `Type.Struct.Field` has only `fieldName` and `type`: a schema file has no way to mark a
/// field `DESC`. For newest-first keys that a schema can describe, use `reverse` on an
/// integer field.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::schema::ExportOptions;
///
/// #[derive(RowKey)]
/// struct Sample { sensor: String, id: u64, reading: f64 }
///
/// assert!(Sample::SCHEMA.to_bigtable_json().is_err());
/// let options = ExportOptions::new().field_as_bytes("id").field_as_bytes("reading");
/// let json = Sample::SCHEMA.to_bigtable_json_with(&options)?;
/// assert!(json.contains(r#""fieldName": "reading""#));
/// assert_eq!(json, Sample::SCHEMA.to_bigtable_json_with(&ExportOptions::new().bytes_for_unsupported())?);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportOptions {
    unsupported_as_bytes: bool,
    text_as_string: bool,
    overrides: Vec<(String, As)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum As {
    Bytes,
    String,
}

impl ExportOptions {
    /// The strict default: a field Bigtable cannot describe is an error.
    #[must_use]
    pub fn new() -> Self {
        ExportOptions::default()
    }

    /// Describes every field that Bigtable cannot as `BYTES` `raw` (`escapeNulls` when it is
    /// optional), unless [`text_as_string`](Self::text_as_string) or a per-field choice says
    /// otherwise.
    #[must_use]
    pub fn bytes_for_unsupported(mut self) -> Self {
        self.unsupported_as_bytes = true;
        self
    }

    /// Describes the text fields of a delimited key that Bigtable has no type for (decimal
    /// and hex numbers, `false`/`true`) as `STRING`: GoogleSQL then reads `00042` as the
    /// text `"00042"`.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::ExportOptions;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Daily { device: String, #[rowkey(width = 8)] date: u32 }
    ///
    /// let json = Daily::SCHEMA.to_bigtable_json_with(&ExportOptions::new().text_as_string())?;
    /// assert_eq!(json.matches("stringType").count(), 2);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn text_as_string(mut self) -> Self {
        self.text_as_string = true;
        self
    }

    /// Describes the field named `name` as `BYTES`, whatever its encoding (a descending field
    /// still cannot be described).
    #[must_use]
    pub fn field_as_bytes(mut self, name: impl Into<String>) -> Self {
        self.overrides.push((name.into(), As::Bytes));
        self
    }

    /// Describes the field named `name` as `STRING`. Only for fields whose bytes are text:
    /// strings, the delimited format's text fields, the prefix.
    #[must_use]
    pub fn field_as_string(mut self, name: impl Into<String>) -> Self {
        self.overrides.push((name.into(), As::String));
        self
    }

    fn choice_for(&self, name: &str) -> Option<As> {
        self.overrides.iter().rev().find(|(n, _)| n == name).map(|&(_, choice)| choice)
    }
}

impl Schema {
    /// The row key schema as pretty-printed JSON: the `rowKeySchema` of a table in the Admin
    /// API, and the file that
    ///
    /// ```text
    /// gcloud beta bigtable tables update TABLE --instance=INSTANCE \
    ///     --row-key-schema-definition-file=FILE --row-key-schema-pre-encoded-bytes
    /// ```
    ///
    /// reads (the last flag says that the delimiter is base64 already, as the JSON mapping
    /// writes bytes).
    ///
    /// Once a table has the schema, GoogleSQL reads the key's fields as columns by name, and
    /// the raw key stays available as the `_key` pseudocolumn. For the ordered-format keys of
    /// `Reading { device_type: String, device_id: String, #[rowkey(reverse)] ts_millis: i64 }`
    /// salted by `device_id` (`cargo run --example schema` shows the delimited ones):
    ///
    /// ```sql
    /// SELECT bucket, device_type, device_id, 9223372036854775807 - ts_millis AS ts_millis
    /// FROM readings
    /// WHERE device_type = 'phone' AND device_id = '4c410523'
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the field, for a field Bigtable cannot describe (see
    /// [`ExportOptions`]), a descending field, a field name that Bigtable reserves
    /// (`_key`, `_timestamp`), an empty or repeated name, or a key of no fields.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Visit { host: String, page: String }
    ///
    /// assert_eq!(Visit::SCHEMA.to_bigtable_json()?, r##"{
    ///   "encoding": {
    ///     "delimitedBytes": {
    ///       "delimiter": "Iw=="
    ///     }
    ///   },
    ///   "fields": [
    ///     {
    ///       "fieldName": "host",
    ///       "type": {
    ///         "stringType": {
    ///           "encoding": {
    ///             "utf8Bytes": {}
    ///           }
    ///         }
    ///       }
    ///     },
    ///     {
    ///       "fieldName": "page",
    ///       "type": {
    ///         "stringType": {
    ///           "encoding": {
    ///             "utf8Bytes": {}
    ///           }
    ///         }
    ///       }
    ///     }
    ///   ]
    /// }"##);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_bigtable_json(&self) -> Result<String> {
        self.to_bigtable_json_with(&ExportOptions::new())
    }

    /// [`to_bigtable_json`](Self::to_bigtable_json) with [`ExportOptions`].
    ///
    /// # Errors
    ///
    /// As [`to_bigtable_json`](Self::to_bigtable_json), for the fields the options do not
    /// cover, and for options that name a field the key does not have.
    pub fn to_bigtable_json_with(&self, options: &ExportOptions) -> Result<String> {
        let value = self.to_bigtable_value_with(options)?;
        serde_json::to_string_pretty(&value).map_err(|e| Error::argument("schema", e.to_string()))
    }

    /// The row key schema as a JSON value, to embed in a larger request.
    ///
    /// # Errors
    ///
    /// As [`to_bigtable_json`](Self::to_bigtable_json).
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(salt(buckets = 8, from = [user]))]
    /// struct Event { user: String, seq: i64 }
    ///
    /// let schema = Event::SCHEMA.to_bigtable_value()?;
    /// assert_eq!(schema["encoding"], serde_json::json!({ "orderedCodeBytes": {} }));
    /// assert_eq!(schema["fields"][0]["fieldName"], "bucket");
    /// assert_eq!(schema["fields"][2]["type"]["int64Type"]["encoding"], serde_json::json!({ "orderedCodeBytes": {} }));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_bigtable_value(&self) -> Result<Json> {
        self.to_bigtable_value_with(&ExportOptions::new())
    }

    /// [`to_bigtable_value`](Self::to_bigtable_value) with [`ExportOptions`].
    ///
    /// # Errors
    ///
    /// As [`to_bigtable_json_with`](Self::to_bigtable_json_with).
    pub fn to_bigtable_value_with(&self, options: &ExportOptions) -> Result<Json> {
        if !self.format.is_bigtable() {
            return Err(Error::argument(
                "schema",
                format!(
                    "`{}` keys are in the {} format, which Bigtable's structured row keys do not have (they are \
                     ordered or delimited): derive the key in the ordered format to export it",
                    self.type_name, self.format
                ),
            ));
        }
        let key_fields = self.key_fields();
        if key_fields.is_empty() {
            return Err(Error::argument(
                "schema",
                format!("`{}` has no key fields, and a Bigtable row key schema needs at least one", self.type_name),
            ));
        }
        if let Some((name, _)) = options.overrides.iter().find(|(name, _)| !key_fields.iter().any(|f| f.name() == name))
        {
            return Err(field_error(
                name,
                format!("the export options name it, but `{}` has no such key field", self.type_name),
            ));
        }
        let delimited = matches!(self.format, Format::Delimited(_));
        let mut fields = Vec::with_capacity(key_fields.len());
        for (i, field) in key_fields.iter().enumerate() {
            let name = field.name();
            check_name(name, &key_fields[..i])?;
            let kind = field_type(field, delimited, options)?;
            // Keys in alphabetical order: the output is the same whether or not serde_json
            // keeps insertion order.
            fields.push(json!({ "fieldName": name, "type": kind }));
        }
        let encoding = match self.format {
            Format::Ordered => json!({ "orderedCodeBytes": {} }),
            Format::Delimited(delimiter) => {
                if delimiter.is_empty() || delimiter.len() > MAX_DELIMITER {
                    return Err(Error::argument(
                        "schema",
                        format!("Bigtable takes a delimiter of 1 to {MAX_DELIMITER} bytes, not {}", delimiter.len()),
                    ));
                }
                json!({ "delimitedBytes": { "delimiter": base64(delimiter.as_bytes()) } })
            }
            // Refused above.
            _ => Json::Null,
        };
        let mut root = Map::new();
        root.insert("encoding".into(), encoding);
        root.insert("fields".into(), Json::Array(fields));
        Ok(Json::Object(root))
    }
}

fn field_error(name: &str, detail: impl std::fmt::Display) -> Error {
    Error::argument("schema field", format!("`{name}`: {detail}"))
}

fn check_name(name: &str, before: &[KeyField]) -> Result<()> {
    if name.is_empty() {
        return Err(field_error(name, "Bigtable needs every row key field to have a name"));
    }
    if RESERVED.contains(&name) {
        return Err(field_error(
            name,
            "Bigtable reserves this name for GoogleSQL's row key and timestamp columns; rename the field with \
             #[rowkey(rename = \"...\")]",
        ));
    }
    if before.iter().any(|f| f.name() == name) {
        return Err(field_error(
            name,
            "two key fields have this name (a flattened struct's field or prefix, or the bucket); Bigtable reads \
             fields by name, so rename one",
        ));
    }
    Ok(())
}

fn string_type(optional: bool) -> Json {
    // `\0` as the escape character is Bigtable's way to read an empty field as NULL and keep
    // sorted mode, the same rule `Option<String>` writes by.
    let utf8 = if optional { json!({ "nullEscapeChar": "\u{0}" }) } else { json!({}) };
    json!({ "stringType": { "encoding": { "utf8Bytes": utf8 } } })
}

fn bytes_type(optional: bool) -> Json {
    let raw = if optional { json!({ "escapeNulls": true }) } else { json!({}) };
    json!({ "bytesType": { "encoding": { "raw": raw } } })
}

fn int64_type(encoding: &str) -> Json {
    json!({ "int64Type": { "encoding": { encoding: {} } } })
}

/// The Bigtable type of one key field, or why there is none.
fn field_type(field: &KeyField, delimited: bool, options: &ExportOptions) -> Result<Json> {
    let name = field.name();
    let schema = match field {
        KeyField::Prefix(prefix) => {
            // Bigtable's STRING holds UTF-8 only: a byte prefix (a table id) is BYTES.
            let text = std::str::from_utf8(prefix).is_ok();
            return match options.choice_for(name) {
                Some(As::Bytes) => Ok(bytes_type(false)),
                _ if text => Ok(string_type(false)),
                Some(As::String) => {
                    Err(field_error(name, "the prefix is bytes that are not UTF-8, which STRING cannot hold"))
                }
                None => Ok(bytes_type(false)),
            };
        }
        KeyField::Bucket(salt) => {
            return match options.choice_for(name) {
                Some(As::Bytes) => Ok(bytes_type(false)),
                // An MD5 salt's bucket is hex text in both formats.
                _ if delimited || salt.hash == crate::salt::SaltHash::Md5Hex => Ok(string_type(false)),
                Some(As::String) => {
                    Err(field_error(name, "the ordered format writes the bucket as an integer, not text"))
                }
                None => Ok(int64_type("orderedCodeBytes")),
            };
        }
        KeyField::Value(schema) => *schema,
    };
    if schema.descending {
        return Err(field_error(
            name,
            "it is descending (`desc`): the ordered format writes it as Bigtable's DESC struct fields are encoded, \
             but the Admin API's Struct.Field has only fieldName and type, so a schema file cannot mark it DESC; \
             use `reverse` on an integer field for newest-first keys that a schema can describe",
        ));
    }
    let text = delimited
        && matches!(
            schema.encoding,
            Encoding::Decimal { .. }
                | Encoding::Hex { .. }
                | Encoding::Bool
                | Encoding::Timestamp(_)
                | Encoding::Date(_)
        );
    match (options.choice_for(name), native_type(schema, delimited)) {
        (Some(As::Bytes), _) => Ok(bytes_type(schema.optional)),
        (Some(As::String), _) if text || matches!(schema.encoding, Encoding::Utf8 | Encoding::Char) => {
            Ok(string_type(schema.optional))
        }
        (Some(As::String), _) => Err(field_error(name, format!("its {} bytes are not text", schema.encoding))),
        (None, Ok(kind)) => Ok(kind),
        (None, Err(_)) if text && options.text_as_string => Ok(string_type(schema.optional)),
        (None, Err(_)) if options.unsupported_as_bytes => Ok(bytes_type(schema.optional)),
        (None, Err(why)) => Err(field_error(
            name,
            format!(
                "{why}, so Bigtable has no type that reads it; describe it as raw bytes with \
                 ExportOptions::field_as_bytes(\"{name}\") or bytes_for_unsupported(){}",
                if text { ", or as text with text_as_string()" } else { "" }
            ),
        )),
    }
}

/// The Bigtable type that reads exactly the bytes `schema` writes, or why there is none.
fn native_type(schema: &FieldSchema, delimited: bool) -> Result<Json, String> {
    let ty = schema.rust_type;
    let nullable = |kind: Json| {
        if schema.optional {
            Err(format!(
                "`{ty}` writes None as an empty field, which Bigtable's {} encoding does not read as NULL",
                schema.encoding
            ))
        } else {
            Ok(kind)
        }
    };
    let reversed = matches!(schema.transform, Transform::Reverse { .. });
    match schema.encoding {
        Encoding::Utf8 | Encoding::Char => Ok(string_type(schema.optional)),
        Encoding::Uuid | Encoding::Ulid | Encoding::Ipv4 | Encoding::Ipv6 | Encoding::IpAddr if delimited => {
            Ok(string_type(schema.optional))
        }
        Encoding::Uuid | Encoding::Ulid | Encoding::Ipv4 | Encoding::Ipv6 | Encoding::IpAddr => {
            Ok(bytes_type(schema.optional))
        }
        Encoding::Timestamp(spec) if !delimited && !spec.nanos && reversed => nullable(int64_type("orderedCodeBytes")),
        Encoding::Timestamp(spec) if !delimited && !spec.nanos => {
            nullable(json!({ "timestampType": { "encoding": { "unixMicrosInt64": { "orderedCodeBytes": {} } } } }))
        }
        Encoding::Timestamp(spec) if spec.nanos => {
            Err(format!("`{ty}` keeps nanoseconds (`nanos`), finer than the microseconds of Bigtable's TIMESTAMP"))
        }
        Encoding::Timestamp(_) if reversed => Err(format!("`{ty}` is written as 19 decimal digits of MAX - micros")),
        Encoding::Timestamp(_) => Err(format!("`{ty}` is written as RFC 3339 text")),
        Encoding::Date(_) if delimited => Err(format!("`{ty}` is written as YYYY-MM-DD text")),
        Encoding::Date(_) => Err(format!(
            "`{ty}` is written as days since 1970 (an orderedcode int64), and Bigtable's key types have no DATE"
        )),
        Encoding::Bytes | Encoding::ByteArray { .. } => Ok(bytes_type(schema.optional)),
        Encoding::Int64 | Encoding::Bool if !delimited => nullable(int64_type("orderedCodeBytes")),
        Encoding::BigEndianInt64 if !delimited => nullable(int64_type("bigEndianBytes")),
        Encoding::TimestampMicros if !delimited => {
            nullable(json!({ "timestampType": { "encoding": { "unixMicrosInt64": { "orderedCodeBytes": {} } } } }))
        }
        Encoding::Uint64 => Err(format!(
            "`{ty}` is written as orderedcode uint64 (a length byte, then big-endian bytes), which is not Bigtable's \
             INT64 encoding"
        )),
        Encoding::Float64 | Encoding::Float32 => {
            Err(format!("`{ty}` is written as an orderedcode float, which Bigtable has no encoding for"))
        }
        Encoding::Decimal { width, .. } => Err(format!("`{ty}` is written as {width} decimal digits of text")),
        Encoding::Hex { .. } => Err(format!("`{ty}` is written as hex text")),
        Encoding::Bool => Err(format!("`{ty}` is written as the words false and true")),
        Encoding::Custom => Err(format!("`{ty}` is a type whose encoding the schema cannot see")),
        Encoding::Numeric => Err(format!("`{ty}` is HBase's `numeric`, which no Bigtable encoding writes")),
        Encoding::Int64 | Encoding::BigEndianInt64 | Encoding::TimestampMicros | Encoding::Flattened(_) => {
            Err(format!("the {} encoding does not occur in this key format", schema.encoding))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_null_escape_is_a_nul_character() {
        let json = serde_json::to_string(&string_type(true)).unwrap();
        assert_eq!(json, r#"{"stringType":{"encoding":{"utf8Bytes":{"nullEscapeChar":"\u0000"}}}}"#);
    }
}
