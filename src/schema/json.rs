//! rowkey's own description of a key design as JSON: everything a [`Schema`] says, so that a
//! program without the Rust type (the `rowkey` command, a service in another language)
//! decodes, checks and builds keys exactly as the type does.
//!
//! Bigtable's row key schema ([`Schema::to_bigtable_json`]) stays the file for Bigtable
//! itself; it cannot say `desc`, a salt, a decimal width or a Rust type's range, and this
//! file says all of them.
//!
//! # The format
//!
//! ```json
//! {
//!   "rowkey_schema": 1,
//!   "type": "Reading",
//!   "format": "delimited",
//!   "delimiter": "#",
//!   "salt": { "hash": "farmhash", "buckets": 16, "from": ["device_id"] },
//!   "max_len": 4096,
//!   "fields": [
//!     { "name": "device_type", "type": "String", "encoding": "utf8" },
//!     { "name": "ts_millis", "type": "i64", "encoding": "decimal", "width": 19, "signed": false,
//!       "reverse": { "max": 9223372036854775807 } }
//!   ]
//! }
//! ```
//!
//! - `format`: `ordered` or `delimited` (with `delimiter`); `prefix`: the constant first
//!   field as text, if any, or `prefix_hex` for bytes that are not UTF-8 (`"bd89"`); `salt`:
//!   `hash` is `farmhash`, `modulo` or `md5`; `max_len` in bytes.
//! - each field: `name`, `type` (the Rust type as written: it bounds integers, and tells an
//!   `Option` and an integer's hex from bytes' hex), `rust_name` when `rename` changed it, and
//!   `encoding`, one of `utf8`, `char`, `bytes`, `byte_array` (`len`), `int64`, `uint64`,
//!   `big_endian_int64`, `float64`, `float32`, `bool`, `timestamp_micros`, `decimal` (`width`,
//!   `signed`), `hex` (`digits`, absent for bytes of any length), `timestamp` (`nanos`,
//!   `min_secs`, `max_secs`), `date` (`min_days`, `max_days`), `uuid`, `ulid`, `ipv4`,
//!   `ipv6`, `ip`, `flattened` (`schema`, another such object) and `custom`;
//! - its attributes, each present only when set: `optional`, `desc`, `monotonic`, `sensitive`,
//!   `reverse` (`max`, the Rust type's `MAX`), `bit_reverse` (`keep_sign`), `reverse_domain`;
//! - `dynamodb`, when the keys are DynamoDB item keys: `partition` (the leading fields that
//!   make the partition key), `sort_prefix` if any, and `shards` if any: a salt's object for
//!   shards computed from fields, or `{"buckets": N, "random": true}` ([`crate::dynamodb`]).
//!
//! A file is read strictly: a key it does not know, a missing one or a value of the wrong kind
//! is an error that names its place (`fields[2].encoding`), so a typo never decodes keys
//! differently from the type.

use serde_json::{Map, Value as Json, json};

use crate::error::{Error, Result};
use crate::key_text::KeyForm;
use crate::salt::{Salt, SaltHash};
use crate::schema::{
    DateSpec, DynamoSchema, DynamoShards, Encoding, FieldSchema, Format, SaltSchema, Schema, TimeSpec, Transform,
};

/// The version of the file format, `rowkey_schema` in every file.
const VERSION: u64 = 1;

/// The store formats a file names by name alone (`"format": "hbase"`), as `Display` writes it.
const NAMED_STORES: [Format; 3] = [Format::FdbTuple, Format::Memcomparable, Format::HBase];

impl Schema {
    /// The schema as rowkey's JSON description (the [`json`](crate::schema::json) module docs give the format),
    /// pretty-printed.
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
    /// let json = Reading::SCHEMA.to_json();
    /// assert!(json.contains(r#""salt": {"#) && json.contains(r#""reverse": {"#));
    /// // Read back, it is the same schema, and decodes keys as the type does.
    /// let schema = rowkey::schema::Schema::from_json(&json)?;
    /// assert_eq!(*schema, Reading::SCHEMA);
    /// let key = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 7 }.to_key()?;
    /// assert_eq!(schema.inspect(&key)?, Reading::SCHEMA.inspect(&key)?);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn to_json(&self) -> String {
        // A `Value` of maps and numbers always serializes.
        serde_json::to_string_pretty(&self.to_json_value()).unwrap_or_default()
    }

    /// The schema as a JSON value, to embed in a larger document.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Event { source: String, #[rowkey(desc)] at: i64 }
    ///
    /// let json = Event::SCHEMA.to_json_value();
    /// assert_eq!(json["fields"][1]["desc"], true);
    /// assert_eq!(json["format"], "ordered");
    /// ```
    #[must_use]
    pub fn to_json_value(&self) -> Json {
        let mut out = Map::new();
        out.insert("rowkey_schema".into(), VERSION.into());
        out.insert("type".into(), self.type_name.into());
        match self.format {
            Format::Ordered => {
                out.insert("format".into(), "ordered".into());
            }
            Format::Delimited(delimiter) => {
                out.insert("format".into(), "delimited".into());
                out.insert("delimiter".into(), delimiter.into());
            }
            _ => {
                out.insert("format".into(), self.format.to_string().into());
            }
        }
        // Text as it is, so a schema file stays readable; other bytes as hex.
        match self.prefix.map(|p| (p, std::str::from_utf8(p))) {
            Some((_, Ok(text))) => {
                out.insert("prefix".into(), text.into());
            }
            Some((bytes, Err(_))) => {
                out.insert("prefix_hex".into(), KeyForm::Hex.format(bytes).into());
            }
            None => {}
        }
        if let Some(salt) = self.salt {
            out.insert("salt".into(), salt_json(salt));
        }
        out.insert("max_len".into(), self.max_len.into());
        out.insert("fields".into(), self.fields.iter().map(field_json).collect());
        if let Some(dynamodb) = self.dynamodb {
            let mut design = Map::new();
            design.insert("partition".into(), dynamodb.partition.into());
            if let Some(prefix) = dynamodb.sort_prefix {
                design.insert("sort_prefix".into(), prefix.into());
            }
            match dynamodb.shards {
                Some(DynamoShards::Random { buckets }) => {
                    design.insert("shards".into(), json!({ "buckets": buckets, "random": true }));
                }
                Some(DynamoShards::Computed(salt)) => {
                    design.insert("shards".into(), salt_json(salt));
                }
                None => {}
            }
            out.insert("dynamodb".into(), Json::Object(design));
        }
        Json::Object(out)
    }

    /// Reads rowkey's JSON description of a key design (the [`json`](crate::schema::json) module docs give
    /// the format) into a schema that decodes, checks and builds keys as the Rust type would.
    ///
    /// A [`Schema`] holds `&'static` text, as a derived one does, so the schema read is
    /// leaked: a few hundred bytes, once per file. Read a schema once, as a program reads its
    /// configuration, not once per key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the place in the file and what was expected there:
    /// text that is not JSON, an unknown key or encoding, a missing or mistyped value, a salt
    /// that [`Salt::new`] refuses or whose source is not a field, a flattened schema of the
    /// other format.
    ///
    /// ```
    /// use rowkey::schema::{Encoding, Schema};
    ///
    /// let schema = Schema::from_json(r##"{
    ///     "rowkey_schema": 1, "type": "Visit", "format": "delimited", "delimiter": "#",
    ///     "fields": [{ "name": "host", "type": "String", "encoding": "utf8", "reverse_domain": true },
    ///                { "name": "day", "type": "u32", "encoding": "decimal", "width": 8, "signed": false }]
    /// }"##)?;
    /// assert_eq!(schema.inspect(b"com.google.maps#20200501")?.to_string(), "host=maps.google.com (reversed domain) day=20200501");
    ///
    /// let err = Schema::from_json(r#"{ "rowkey_schema": 1, "type": "T", "format": "ordered",
    ///     "fields": [{ "name": "a", "type": "i64", "encoding": "int46" }] }"#).unwrap_err();
    /// assert!(err.to_string().contains("fields[0].encoding: \"int46\" is not an encoding"), "{err}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn from_json(text: &str) -> Result<&'static Schema> {
        let json: Json = serde_json::from_str(text).map_err(|e| {
            Error::argument("schema file", format!("not JSON ({e}); a schema file is what `Schema::to_json` writes"))
        })?;
        let schema = schema_from(&json, "")?;
        Ok(Box::leak(Box::new(schema)))
    }
}

fn field_json(field: &FieldSchema) -> Json {
    let mut out = Map::new();
    out.insert("name".into(), field.name.into());
    if field.rust_name != field.name {
        out.insert("rust_name".into(), field.rust_name.into());
    }
    out.insert("type".into(), field.rust_type.into());
    let (encoding, params): (&str, Json) = match field.encoding {
        Encoding::Utf8 => ("utf8", json!({})),
        Encoding::Char => ("char", json!({})),
        Encoding::Bytes => ("bytes", json!({})),
        Encoding::ByteArray { len } => ("byte_array", json!({ "len": len })),
        Encoding::Int64 => ("int64", json!({})),
        Encoding::Uint64 => ("uint64", json!({})),
        Encoding::BigEndianInt64 => ("big_endian_int64", json!({})),
        Encoding::Float64 => ("float64", json!({})),
        Encoding::Float32 => ("float32", json!({})),
        Encoding::Bool => ("bool", json!({})),
        Encoding::TimestampMicros => ("timestamp_micros", json!({})),
        Encoding::Decimal { width, signed } => ("decimal", json!({ "width": width, "signed": signed })),
        Encoding::Hex { digits: Some(digits) } => ("hex", json!({ "digits": digits })),
        Encoding::Hex { digits: None } => ("hex", json!({})),
        Encoding::Timestamp(spec) => {
            ("timestamp", json!({ "nanos": spec.nanos, "min_secs": spec.min_secs, "max_secs": spec.max_secs }))
        }
        Encoding::Date(spec) => ("date", json!({ "min_days": spec.min_days, "max_days": spec.max_days })),
        Encoding::Uuid => ("uuid", json!({})),
        Encoding::Ulid => ("ulid", json!({})),
        Encoding::Ipv4 => ("ipv4", json!({})),
        Encoding::Ipv6 => ("ipv6", json!({})),
        Encoding::IpAddr => ("ip", json!({})),
        Encoding::Flattened(inner) => ("flattened", json!({ "schema": inner.to_json_value() })),
        Encoding::Numeric => ("numeric", json!({})),
        Encoding::Custom => ("custom", json!({})),
    };
    out.insert("encoding".into(), encoding.into());
    if let Json::Object(params) = params {
        out.extend(params);
    }
    for (flag, set) in [
        ("optional", field.optional),
        ("desc", field.descending),
        ("monotonic", field.monotonic),
        ("sensitive", field.sensitive),
    ] {
        if set {
            out.insert(flag.into(), true.into());
        }
    }
    match field.transform {
        Transform::None => {}
        Transform::Reverse { max } => {
            out.insert("reverse".into(), json!({ "max": max }));
        }
        Transform::BitReverse { keep_sign } => {
            out.insert("bit_reverse".into(), json!({ "keep_sign": keep_sign }));
        }
        Transform::ReverseDomain => {
            out.insert("reverse_domain".into(), true.into());
        }
    }
    Json::Object(out)
}

/// An error at `place` in the file.
fn bad(place: &str, detail: impl std::fmt::Display) -> Error {
    Error::argument("schema file", format!("{place}: {detail}"))
}

/// `path.key`, or `key` at the top.
fn at(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") }
}

/// The prefix: `prefix` as text, or `prefix_hex` for bytes that are not UTF-8 (a table id, a
/// salt byte), never both and never empty, as the derive's `prefix` is.
fn prefix_from(object: &mut Object<'_>, path: &str, format: Format) -> Result<Option<&'static [u8]>> {
    let text = object.opt_str("prefix")?;
    let hex = object.opt_str("prefix_hex")?;
    let bytes = match (text, hex) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => {
            return Err(bad(&at(path, "prefix_hex"), "give `prefix` (text) or `prefix_hex` (bytes), not both"));
        }
        (Some(text), None) => text.as_bytes().to_vec(),
        (None, Some(hex)) => KeyForm::Hex
            .parse(hex)
            .map_err(|_| bad(&at(path, "prefix_hex"), "expected hex digits, two a byte (\"bd89\")"))?
            .into_vec(),
    };
    let place = at(path, if hex.is_some() { "prefix_hex" } else { "prefix" });
    if bytes.is_empty() {
        return Err(bad(&place, "the prefix is empty: give the bytes every key starts with, or leave it out"));
    }
    if let Format::Delimited(delimiter) = format
        && let Some(&first) = delimiter.as_bytes().first()
        && bytes.iter().any(|&b| b <= first)
    {
        return Err(bad(
            &place,
            format!(
                "the prefix holds a byte not above the delimiter {delimiter:?}'s first byte {first:#04x}, so keys would \
                 not sort or split correctly: leave such bytes out of the prefix, or choose another delimiter"
            ),
        ));
    }
    Ok(Some(Box::leak(bytes.into_boxed_slice())))
}

pub(super) fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// One JSON object, read key by key, refusing keys it was not asked for.
struct Object<'a> {
    path: &'a str,
    map: &'a Map<String, Json>,
    read: Vec<&'static str>,
}

impl<'a> Object<'a> {
    fn new(json: &'a Json, path: &'a str) -> Result<Object<'a>> {
        match json {
            Json::Object(map) => Ok(Object { path, map, read: Vec::new() }),
            other => {
                Err(bad(if path.is_empty() { "the file" } else { path }, format!("expected an object, found {other}")))
            }
        }
    }

    fn get(&mut self, key: &'static str) -> Option<&'a Json> {
        self.read.push(key);
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn required(&mut self, key: &'static str) -> Result<&'a Json> {
        self.get(key).ok_or_else(|| bad(&at(self.path, key), "missing"))
    }

    fn str(&mut self, key: &'static str) -> Result<&'a str> {
        let value = self.required(key)?;
        value.as_str().ok_or_else(|| bad(&at(self.path, key), format!("expected text, found {value}")))
    }

    fn opt_str(&mut self, key: &'static str) -> Result<Option<&'a str>> {
        match self.get(key) {
            None => Ok(None),
            Some(value) => value
                .as_str()
                .map(Some)
                .ok_or_else(|| bad(&at(self.path, key), format!("expected text, found {value}"))),
        }
    }

    fn flag(&mut self, key: &'static str) -> Result<bool> {
        match self.get(key) {
            None => Ok(false),
            Some(value) => value
                .as_bool()
                .ok_or_else(|| bad(&at(self.path, key), format!("expected true or false, found {value}"))),
        }
    }

    fn int<T: TryFrom<i128>>(&mut self, key: &'static str) -> Result<T> {
        let value = self.required(key)?;
        let n = value.as_i64().map(i128::from).or_else(|| value.as_u64().map(i128::from));
        n.and_then(|n| T::try_from(n).ok()).ok_or_else(|| {
            bad(
                &at(self.path, key),
                format!("expected an integer in the range of {}, found {value}", std::any::type_name::<T>()),
            )
        })
    }

    /// Refuses the keys that were not read: a typo must not pass for an absent attribute.
    fn finish(self) -> Result<()> {
        match self.map.keys().find(|key| !self.read.contains(&key.as_str())) {
            Some(key) => {
                Err(bad(&at(self.path, key), format!("not a key of this object; it takes {}", self.read.join(", "))))
            }
            None => Ok(()),
        }
    }
}

fn schema_from(json: &Json, path: &str) -> Result<Schema> {
    let mut object = Object::new(json, path)?;
    let version: u64 = object.int("rowkey_schema")?;
    if version != VERSION {
        return Err(bad(&at(path, "rowkey_schema"), format!("version {version}; this rowkey reads version {VERSION}")));
    }
    let type_name = leak(object.str("type")?);
    let format = match object.str("format")? {
        "ordered" => Format::Ordered,
        "delimited" => {
            let delimiter = object.str("delimiter")?;
            if delimiter.is_empty() {
                return Err(bad(&at(path, "delimiter"), "empty; a delimited key needs a delimiter"));
            }
            Format::Delimited(leak(delimiter))
        }
        name => match NAMED_STORES.into_iter().find(|store| store.to_string() == name) {
            Some(store) => store,
            None => {
                let stores: Vec<String> = NAMED_STORES.iter().map(Format::to_string).collect();
                return Err(bad(
                    &at(path, "format"),
                    format!("{name:?} is not a format: ordered, delimited, {}", stores.join(", ")),
                ));
            }
        },
    };
    let prefix = prefix_from(&mut object, path, format)?;
    let salt = match object.get("salt") {
        None => None,
        Some(json) => Some(salt_from(json, &at(path, "salt"))?),
    };
    let max_len = match object.get("max_len") {
        None => Schema::DEFAULT_MAX_LEN,
        Some(_) => object.int("max_len")?,
    };
    let fields_path = at(path, "fields");
    let fields = match object.required("fields")? {
        Json::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| field_from(item, &format!("{fields_path}[{i}]"), format))
            .collect::<Result<Vec<_>>>()?,
        other => return Err(bad(&fields_path, format!("expected a list of fields, found {other}"))),
    };
    let dynamodb = match object.get("dynamodb") {
        None => None,
        Some(json) => Some(dynamodb_from(json, &at(path, "dynamodb"))?),
    };
    object.finish()?;
    let schema =
        Schema { type_name, format, prefix, salt, max_len, fields: Box::leak(fields.into_boxed_slice()), dynamodb };
    if let Some(dynamodb) = dynamodb {
        crate::dynamodb::check(&schema, dynamodb.partition, dynamodb.sort_prefix)
            .map_err(|e| bad(&at(path, "dynamodb"), e))?;
        if let Some(shards) = dynamodb.shards {
            crate::dynamodb::shard::check(&schema, dynamodb.partition, shards)
                .map_err(|e| bad(&at(&at(path, "dynamodb"), "shards"), e))?;
        }
    }
    if let Some(salt) = schema.salt {
        for (i, source) in salt.from.iter().enumerate() {
            if !schema.fields.iter().any(|f| f.name == *source) {
                return Err(bad(
                    &format!("{}.from[{i}]", at(path, "salt")),
                    format!("{source:?} is not a field of {type_name}; a salt hashes fields of its own struct"),
                ));
            }
        }
    }
    Ok(schema)
}

fn dynamodb_from(json: &Json, path: &str) -> Result<DynamoSchema> {
    let mut object = Object::new(json, path)?;
    let partition_path = at(path, "partition");
    let partition = match object.required("partition")? {
        Json::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_str().map(leak).ok_or_else(|| bad(&format!("{partition_path}[{i}]"), "expected a field name"))
            })
            .collect::<Result<Vec<_>>>()?,
        other => return Err(bad(&partition_path, format!("expected a list of field names, found {other}"))),
    };
    let sort_prefix = object.opt_str("sort_prefix")?.map(leak);
    let shards_path = at(path, "shards");
    let shards = match object.get("shards") {
        None => None,
        Some(json @ Json::Object(map)) if map.contains_key("random") => {
            let mut shards = Object::new(json, &shards_path)?;
            let buckets = shards.int("buckets")?;
            if !shards.flag("random")? {
                return Err(bad(
                    &at(&shards_path, "random"),
                    "false: random shards say `\"random\": true`; shards from fields give `hash` and `from`",
                ));
            }
            shards.finish()?;
            Some(DynamoShards::Random { buckets })
        }
        Some(json) => Some(DynamoShards::Computed(salt_from(json, &shards_path)?)),
    };
    object.finish()?;
    Ok(DynamoSchema { partition: Box::leak(partition.into_boxed_slice()), sort_prefix, shards })
}

/// A salt, or shards computed as one: `{"hash": ..., "buckets": ..., "from": [...]}`.
fn salt_json(salt: SaltSchema) -> Json {
    let hash = match salt.hash {
        SaltHash::FarmHash => "farmhash",
        SaltHash::Modulo => "modulo",
        SaltHash::Md5Hex => "md5",
    };
    json!({ "hash": hash, "buckets": salt.buckets, "from": salt.from })
}

fn salt_from(json: &Json, path: &str) -> Result<SaltSchema> {
    let mut object = Object::new(json, path)?;
    let hash = match object.str("hash")? {
        "farmhash" => SaltHash::FarmHash,
        "modulo" => SaltHash::Modulo,
        "md5" => SaltHash::Md5Hex,
        other => return Err(bad(&at(path, "hash"), format!("{other:?} is not a salt hash: farmhash, modulo or md5"))),
    };
    let buckets: u32 = object.int("buckets")?;
    Salt::new(buckets, hash).map_err(|e| bad(path, e))?;
    let from_path = at(path, "from");
    let from = match object.required("from")? {
        Json::Array(items) if !items.is_empty() => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_str().map(leak).ok_or_else(|| bad(&format!("{from_path}[{i}]"), "expected a field name"))
            })
            .collect::<Result<Vec<_>>>()?,
        other => return Err(bad(&from_path, format!("expected a list of field names, found {other}"))),
    };
    object.finish()?;
    Ok(SaltSchema { buckets, hash, from: Box::leak(from.into_boxed_slice()) })
}

fn field_from(json: &Json, path: &str, format: Format) -> Result<FieldSchema> {
    let mut object = Object::new(json, path)?;
    let name = leak(object.str("name")?);
    let rust_name = object.opt_str("rust_name")?.map_or(name, leak);
    let rust_type = leak(object.str("type")?);
    let encoding = match object.str("encoding")? {
        "utf8" => Encoding::Utf8,
        "char" => Encoding::Char,
        "bytes" => Encoding::Bytes,
        "byte_array" => Encoding::ByteArray { len: object.int("len")? },
        "int64" => Encoding::Int64,
        "uint64" => Encoding::Uint64,
        "big_endian_int64" => Encoding::BigEndianInt64,
        "float64" => Encoding::Float64,
        "float32" => Encoding::Float32,
        "bool" => Encoding::Bool,
        "timestamp_micros" => Encoding::TimestampMicros,
        "decimal" => {
            let width = object.int("width")?;
            if width == 0 || usize::from(width) > crate::field::decimal::MAX_WIDTH {
                return Err(bad(
                    &at(path, "width"),
                    format!(
                        "a decimal field is 1 to {} digits wide, not {width} (an i64 needs 19, a u64 20)",
                        crate::field::decimal::MAX_WIDTH
                    ),
                ));
            }
            Encoding::Decimal { width, signed: object.flag("signed")? }
        }
        "hex" => {
            Encoding::Hex { digits: if object.get("digits").is_some() { Some(object.int("digits")?) } else { None } }
        }
        "timestamp" => Encoding::Timestamp(TimeSpec {
            nanos: object.flag("nanos")?,
            min_secs: object.int("min_secs")?,
            max_secs: object.int("max_secs")?,
        }),
        "date" => Encoding::Date(DateSpec { min_days: object.int("min_days")?, max_days: object.int("max_days")? }),
        "uuid" => Encoding::Uuid,
        "ulid" => Encoding::Ulid,
        "ipv4" => Encoding::Ipv4,
        "ipv6" => Encoding::Ipv6,
        "ip" => Encoding::IpAddr,
        "flattened" => {
            let inner_path = at(path, "schema");
            let inner = schema_from(object.required("schema")?, &inner_path)?;
            if inner.format != format {
                return Err(bad(
                    &at(&inner_path, "format"),
                    "a flattened struct is written in the format of the key it is flattened into",
                ));
            }
            Encoding::Flattened(Box::leak(Box::new(inner)))
        }
        "numeric" => Encoding::Numeric,
        "custom" => Encoding::Custom,
        other => {
            return Err(bad(
                &at(path, "encoding"),
                format!(
                    "{other:?} is not an encoding: utf8, char, bytes, byte_array, int64, uint64, big_endian_int64, \
                     float64, float32, bool, timestamp_micros, decimal, hex, timestamp, date, uuid, ulid, ipv4, ipv6, \
                     ip, flattened or custom"
                ),
            ));
        }
    };
    let optional = object.flag("optional")?;
    let descending = object.flag("desc")?;
    let monotonic = object.flag("monotonic")?;
    let sensitive = object.flag("sensitive")?;
    let mut transforms = Vec::new();
    let (reverse_path, bits_path) = (at(path, "reverse"), at(path, "bit_reverse"));
    if let Some(reverse) = object.get("reverse") {
        let mut reverse = Object::new(reverse, &reverse_path)?;
        transforms.push(Transform::Reverse { max: reverse.int("max")? });
        reverse.finish()?;
    }
    if let Some(bits) = object.get("bit_reverse") {
        let mut bits = Object::new(bits, &bits_path)?;
        transforms.push(Transform::BitReverse { keep_sign: bits.flag("keep_sign")? });
        bits.finish()?;
    }
    if object.flag("reverse_domain")? {
        transforms.push(Transform::ReverseDomain);
    }
    let transform = match transforms.as_slice() {
        [] => Transform::None,
        [one] => *one,
        _ => return Err(bad(path, "reverse, bit_reverse and reverse_domain exclude one another")),
    };
    if descending && matches!(format, Format::Delimited(_)) {
        return Err(bad(&at(path, "desc"), "a delimited key has no descending fields; use reverse on a number"));
    }
    if descending && format == Format::FdbTuple {
        return Err(bad(&at(path, "desc"), "a FoundationDB tuple has no descending fields; use reverse on a number"));
    }
    object.finish()?;
    Ok(FieldSchema { name, rust_name, rust_type, encoding, transform, optional, descending, monotonic, sensitive })
}
