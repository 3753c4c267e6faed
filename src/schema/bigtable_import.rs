//! Bigtable row key schema import: the `rowKeySchema` of a table (a
//! `google.bigtable.admin.v2.Type.Struct` in the proto3 JSON mapping) read back as a
//! [`Schema`], so that keys of a table described only by Bigtable can be inspected, built and
//! scanned with rowkey's own code.
//!
//! The reading is the inverse of the export table on [`ExportOptions`]: each Bigtable field
//! type becomes the rowkey encoding that reads the same bytes.
//!
//! | Bigtable field type | rowkey field |
//! |---|---|
//! | `STRING` `utf8Bytes` (or the older `utf8Raw`) | `String`, [`Utf8`](Encoding::Utf8); with `nullEscapeChar` `"\u0000"`, `Option<String>` |
//! | `BYTES` `raw` | `Vec<u8>`, [`Bytes`](Encoding::Bytes); with `escapeNulls`, `Option<Vec<u8>>` |
//! | `INT64` `orderedCodeBytes` (ordered keys) | `i64`, [`Int64`](Encoding::Int64) |
//! | `INT64` `bigEndianBytes` (ordered keys) | `i64`, [`BigEndianInt64`](Encoding::BigEndianInt64) |
//! | `TIMESTAMP` `unixMicrosInt64` `orderedCodeBytes` (ordered keys) | `SystemTime`, [`TimestampMicros`](Encoding::TimestampMicros) |
//!
//! A row key schema says nothing of salts, prefixes or transforms: a salt bucket or a prefix
//! exported by rowkey comes back as a plain field of that name (given and checked like any
//! other field, its value not recomputed), and a transformed field as its stored value (a
//! `reverse`d time as the integer `i64::MAX - micros`).
//!
//! [`ExportOptions`]: crate::schema::ExportOptions

use serde_json::{Map, Value as Json};

use crate::error::{Error, Result};
use crate::key_text::KeyForm;
use crate::schema::json::leak;
use crate::schema::{Encoding, FieldSchema, Format, Schema};

/// The type name of a schema read without a table name.
const UNNAMED: &str = "RowKeySchema";

impl Schema {
    /// Reads a Bigtable row key schema: the JSON that
    /// [`to_bigtable_json`](Schema::to_bigtable_json) writes, or a whole table as the Admin
    /// API returns it (`gcloud bigtable tables describe TABLE --format=json`), whose
    /// `rowKeySchema` it reads and whose table id becomes the type name.
    ///
    /// The schema decodes the keys Bigtable's GoogleSQL reads by it, field by field (the
    /// mapping is in the table of the [module](self)); it builds and scans keys as a schema
    /// from [`from_json`](Schema::from_json) does. Like that one, it is leaked: read a file
    /// once, not once a key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the place in the file: text that is not JSON, an
    /// encoding other than `orderedCodeBytes` and `delimitedBytes` (a `singleton` key is one
    /// field's bytes unframed, which no rowkey format writes), a delimiter that is not UTF-8,
    /// a field type no rowkey encoding reads (floats, dates, structs, integers in a delimited
    /// key), a `nullEscapeChar` other than `"\u0000"`, or a field without a name.
    ///
    /// ```
    /// use rowkey::schema::Schema;
    ///
    /// let schema = Schema::from_bigtable_json(r#"{
    ///     "encoding": { "orderedCodeBytes": {} },
    ///     "fields": [
    ///         { "fieldName": "user", "type": { "stringType": { "encoding": { "utf8Bytes": {} } } } },
    ///         { "fieldName": "seq", "type": { "int64Type": { "encoding": { "orderedCodeBytes": {} } } } }
    ///     ]
    /// }"#)?;
    /// let key = schema.encode(&[("user", "ada"), ("seq", "7")])?;
    /// assert_eq!(schema.inspect(&key)?.to_string(), "user=ada seq=7");
    ///
    /// let err = Schema::from_bigtable_json(r#"{ "encoding": { "orderedCodeBytes": {} },
    ///     "fields": [{ "fieldName": "score", "type": { "float64Type": {} } }] }"#).unwrap_err();
    /// assert!(err.to_string().contains("fields[0] (`score`): float64Type"), "{err}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn from_bigtable_json(text: &str) -> Result<&'static Schema> {
        let json: Json = serde_json::from_str(text).map_err(|e| bad("the file", format!("not JSON ({e})")))?;
        let schema = Schema::from_bigtable_value(&json)?;
        Ok(Box::leak(Box::new(schema)))
    }

    /// [`from_bigtable_json`](Schema::from_bigtable_json) of a JSON value already parsed.
    ///
    /// # Errors
    ///
    /// As [`from_bigtable_json`](Schema::from_bigtable_json).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::Schema;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Visit { host: String, page: String }
    ///
    /// let table = serde_json::json!({
    ///     "name": "projects/p/instances/i/tables/visits",
    ///     "rowKeySchema": Visit::SCHEMA.to_bigtable_value()?,
    /// });
    /// let schema = Schema::from_bigtable_value(&table)?;
    /// assert_eq!(schema.type_name, "visits");
    /// assert_eq!(schema.inspect(b"example.com#/about")?.to_string(), "host=example.com page=/about");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn from_bigtable_value(json: &Json) -> Result<Schema> {
        let root = object(json, "the file")?;
        let (root, path, type_name) = match root.get("rowKeySchema") {
            Some(inner) => {
                let name = root.get("name").and_then(Json::as_str).and_then(|n| n.rsplit('/').next());
                (object(inner, "rowKeySchema")?, "rowKeySchema.", name.filter(|n| !n.is_empty()).unwrap_or(UNNAMED))
            }
            None => (root, "", UNNAMED),
        };
        let encoding = root.get("encoding").ok_or_else(|| {
            bad(
                &format!("{path}encoding"),
                "missing; a row key schema has an encoding (orderedCodeBytes or delimitedBytes) and fields",
            )
        })?;
        let format = format_from(encoding, &format!("{path}encoding"))?;
        let fields_path = format!("{path}fields");
        let fields = match root.get("fields") {
            Some(Json::Array(items)) if !items.is_empty() => items
                .iter()
                .enumerate()
                .map(|(i, item)| field_from(item, &format!("{fields_path}[{i}]"), format))
                .collect::<Result<Vec<_>>>()?,
            Some(other) => return Err(bad(&fields_path, format!("expected a list of fields, found {other}"))),
            None => return Err(bad(&fields_path, "missing; a row key schema lists its fields")),
        };
        Ok(Schema {
            type_name: leak(type_name),
            format,
            prefix: None,
            salt: None,
            max_len: Schema::DEFAULT_MAX_LEN,
            fields: Box::leak(fields.into_boxed_slice()),
            dynamodb: None,
        })
    }
}

fn bad(place: &str, detail: impl std::fmt::Display) -> Error {
    Error::argument("Bigtable row key schema", format!("{place}: {detail}"))
}

fn object<'a>(json: &'a Json, place: &str) -> Result<&'a Map<String, Json>> {
    json.as_object().ok_or_else(|| bad(place, format!("expected an object, found {json}")))
}

/// The one member of a proto `oneof` written as an object: its name and value.
fn one_of<'a>(json: &'a Json, place: &str, choices: &str) -> Result<(&'a str, &'a Json)> {
    let map = object(json, place)?;
    let mut members = map.iter().filter(|(_, v)| !v.is_null());
    match (members.next(), members.next()) {
        (Some((name, value)), None) => Ok((name, value)),
        (None, _) => Err(bad(place, format!("empty; expected one of {choices}"))),
        (Some((a, _)), Some((b, _))) => Err(bad(place, format!("both {a} and {b}; expected one of {choices}"))),
    }
}

fn format_from(json: &Json, place: &str) -> Result<Format> {
    match one_of(json, place, "orderedCodeBytes, delimitedBytes")? {
        ("orderedCodeBytes", _) => Ok(Format::Ordered),
        ("delimitedBytes", inner) => {
            let place = format!("{place}.delimitedBytes.delimiter");
            let text = object(inner, &place)?.get("delimiter").and_then(Json::as_str).ok_or_else(|| {
                bad(&place, "missing; a delimited key names its delimiter (base64, as the JSON mapping writes bytes)")
            })?;
            let bytes = KeyForm::Base64.parse(text).map_err(|e| bad(&place, format!("{text:?} is not base64: {e}")))?;
            let delimiter = std::str::from_utf8(&bytes)
                .ok()
                .filter(|d| !d.is_empty())
                .ok_or_else(|| bad(&place, format!("{bytes} is not UTF-8 text; rowkey's delimiters are text")))?;
            Ok(Format::Delimited(leak(delimiter)))
        }
        ("singleton", _) => Err(bad(
            place,
            "singleton: the key is one field's bytes with no framing, which neither rowkey format writes; \
             describe it as orderedCodeBytes or delimitedBytes",
        )),
        (other, _) => {
            Err(bad(place, format!("{other} is not an encoding rowkey reads: orderedCodeBytes or delimitedBytes")))
        }
    }
}

fn field_from(json: &Json, place: &str, format: Format) -> Result<FieldSchema> {
    let map = object(json, place)?;
    let name =
        map.get("fieldName").and_then(Json::as_str).filter(|n| !n.is_empty()).ok_or_else(|| {
            bad(&format!("{place}.fieldName"), "missing; rowkey reads the fields of a row key by name")
        })?;
    let place = format!("{place} (`{name}`)");
    let kind = map.get("type").ok_or_else(|| bad(&place, "no type"))?;
    let ordered = format == Format::Ordered;
    let only_ordered = |what: &str| {
        bad(
            &place,
            format!(
                "{what} in a delimited key: rowkey's delimited keys write numbers and times as text; \
                 describe the field as stringType"
            ),
        )
    };
    let (type_name, inner) = one_of(kind, &place, "stringType, bytesType, int64Type, timestampType")?;
    let encoding = |inner: &Json, choices: &str| -> Result<(String, Json)> {
        let encoding = object(inner, &place)?
            .get("encoding")
            .ok_or_else(|| bad(&place, format!("{type_name} has no encoding; expected one of {choices}")))?;
        let (name, params) = one_of(encoding, &format!("{place}: {type_name}.encoding"), choices)?;
        Ok((name.to_owned(), params.clone()))
    };
    let (rust_type, field_encoding, optional) = match type_name {
        "stringType" => {
            let (name, params) = encoding(inner, "utf8Bytes")?;
            if name != "utf8Bytes" && name != "utf8Raw" {
                return Err(bad(&place, format!("stringType encoding {name} is not one rowkey reads: utf8Bytes")));
            }
            match params.get("nullEscapeChar").and_then(Json::as_str) {
                None => ("String", Encoding::Utf8, false),
                Some("\u{0}") => ("Option<String>", Encoding::Utf8, true),
                Some(other) => {
                    return Err(bad(
                        &place,
                        format!(
                            "nullEscapeChar {other:?}: rowkey writes None as an empty field, which Bigtable reads as \
                             NULL with the escape character \"\\u0000\" only"
                        ),
                    ));
                }
            }
        }
        "bytesType" => {
            let (name, params) = encoding(inner, "raw")?;
            if name != "raw" {
                return Err(bad(&place, format!("bytesType encoding {name} is not one rowkey reads: raw")));
            }
            if params.get("escapeNulls").and_then(Json::as_bool) == Some(true) {
                ("Option<Vec<u8>>", Encoding::Bytes, true)
            } else {
                ("Vec<u8>", Encoding::Bytes, false)
            }
        }
        "int64Type" if !ordered => return Err(only_ordered("int64Type")),
        "int64Type" => match encoding(inner, "orderedCodeBytes, bigEndianBytes")?.0.as_str() {
            "orderedCodeBytes" => ("i64", Encoding::Int64, false),
            "bigEndianBytes" => ("i64", Encoding::BigEndianInt64, false),
            other => {
                return Err(bad(
                    &place,
                    format!("int64Type encoding {other} is not one rowkey reads: orderedCodeBytes or bigEndianBytes"),
                ));
            }
        },
        "timestampType" if !ordered => return Err(only_ordered("timestampType")),
        "timestampType" => {
            let (name, params) = encoding(inner, "unixMicrosInt64")?;
            let by = params.as_object().and_then(|p| p.keys().next().cloned());
            if name != "unixMicrosInt64" || by.as_deref() != Some("orderedCodeBytes") {
                return Err(bad(
                    &place,
                    format!(
                        "timestampType encoding {name} {}is not one rowkey reads: unixMicrosInt64 orderedCodeBytes",
                        by.map(|b| format!("{b} ")).unwrap_or_default()
                    ),
                ));
            }
            ("SystemTime", Encoding::TimestampMicros, false)
        }
        other => {
            return Err(bad(
                &place,
                format!(
                    "{other} is not a type rowkey reads in a row key: stringType, bytesType, int64Type or \
                     timestampType; describe the field as bytesType to read its raw bytes"
                ),
            ));
        }
    };
    let mut field = FieldSchema::new(leak(name), rust_type, field_encoding);
    field.optional = optional;
    Ok(field)
}
