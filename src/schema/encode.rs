//! [`Schema::encode`]: a key built from field values given as text, with nothing but its
//! [`Schema`]: the reverse of [`Schema::inspect`], for shells, tests in other languages and
//! tools that never see the Rust type.

use std::collections::HashMap;
use std::net::IpAddr;

use crate::error::{Error, Result};
use crate::field::calendar::{civil_from_days, days_from_civil, parse_date, write_date, write_instant};
use crate::field::decimal::encode_decimal;
use crate::field::instant::{REVERSED_DATE_MAX, REVERSED_TIME_MAX, reversed_text};
use crate::field::{Desc, EncodeText};
use crate::format::ordered::OrderedWriter;
use crate::format::{Delimited, FdbTuple, HBase, Memcomparable};
use crate::key::Key;
use crate::key_text::KeyForm;
use crate::salt::{Salt, SaltHash};
use crate::schema::decode::{Encoded, natural_bytes};
use crate::schema::encode_values::value_count;
use crate::schema::redact::{WITHHELD, about_field};
use crate::schema::store;
use crate::schema::value::parse_float;
use crate::schema::{Encoding, FieldSchema, Format, Schema, Transform, Value};
use crate::transform::{bit_reverse, bit_reverse_u64, reverse_domain};

impl Schema {
    /// The key of the given field values, each as text in the form [`Inspection`]'s
    /// `Display` prints it (`name=value` without the name): so `encode` of what `inspect`
    /// printed gives the key back. The prefix and bucket are computed; given, they must match.
    ///
    /// The forms: text as is, or quoted (`"two words"`) with Rust's escapes; `null` for the
    /// `None` of an optional field; integers in decimal (hex fields in hex); floats as Rust
    /// prints them (`1.5`, `-0.0`, `1e300`, `inf`, `-inf`), a NaN as `NaN` (`f64::NAN`),
    /// `-NaN` (its negation) or `NaN:0x` and the 16 hex digits of its `f64` bits, so that its
    /// sign and payload reach the key (an `f32` field takes the bits of the `f64` it widens
    /// to); bytes as `b"..."` with `\xNN` escapes, or as cbt prints them (hex fields in hex);
    /// instants in RFC 3339 UTC (`2020-05-01T00:00:00.5Z`), dates `YYYY-MM-DD`, years
    /// outside 0000 to 9999 with a sign (`+10000-01-01`); UUIDs hyphenated, ULIDs in
    /// Crockford base32, IP addresses as usual; a transformed field takes the value before
    /// its transform (the host, not the reversed domain).
    ///
    /// [`Inspection`]: crate::schema::Inspection
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the field and the form it takes, for a missing or
    /// unknown field or a value that does not parse; what encoding the value returns (a
    /// number out of its type's range, a byte below the delimiter).
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
    /// let key = Reading::SCHEMA.encode(&[("device_type", "phone"), ("device_id", "4c410523"), ("ts_millis", "1588291200000")])?;
    /// assert_eq!(key, Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 }.to_key()?);
    ///
    /// let err = Reading::SCHEMA.encode(&[("device_type", "phone"), ("device_id", "4c410523"), ("ts_millis", "soon")]).unwrap_err();
    /// assert!(err.to_string().contains("`ts_millis`"), "{err}");
    ///
    /// // A NaN's payload, printed by `inspect`, reaches the key.
    /// #[derive(RowKey)]
    /// struct Sample { sensor: String, value: f64 }
    ///
    /// let nan = Sample { sensor: "t1".into(), value: f64::from_bits(0x7ff0_0000_0000_0001) }.to_key()?;
    /// assert_eq!(Sample::SCHEMA.inspect(&nan)?.to_string(), "sensor=t1 value=NaN:0x7ff0000000000001");
    /// assert_eq!(Sample::SCHEMA.encode(&[("sensor", "t1"), ("value", "NaN:0x7ff0000000000001")])?, nan);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn encode(&self, values: &[(&str, &str)]) -> Result<Key> {
        self.encode_texts(values).map_err(|e| self.redact_error(e))
    }

    fn encode_texts(&self, values: &[(&str, &str)]) -> Result<Key> {
        let mut given: HashMap<&str, &str> = HashMap::new();
        for &(name, text) in values {
            // A flattened struct's prefix and bucket repeat the names; computed, they are
            // checked only where given first, the key's own.
            let computed = name == Schema::PREFIX_FIELD || name == Schema::BUCKET_FIELD;
            if given.contains_key(name) && !computed {
                return Err(Error::argument("field value", format!("`{name}` is given twice")));
            }
            given.entry(name).or_insert(text);
        }
        let names: Vec<&str> = self.key_fields().iter().map(|f| f.name()).collect();
        if let Some((name, _)) = values.iter().find(|(name, _)| !names.contains(name)) {
            return Err(Error::argument(
                "field value",
                format!("`{}` has no field `{name}`; its fields are {}", self.type_name, names.join(", ")),
            ));
        }
        let key = write_key(self, &Given::Text(&given))?;
        // The decoder checks what the text forms cannot: a value of the Rust type's range.
        self.inspect(&key)?;
        Ok(key)
    }
}

/// The values a key is encoded from: text by field name (`Schema::encode`), or values in key
/// order (`Schema::encode_values`), the prefix and bucket left out.
pub(super) enum Given<'g> {
    Text(&'g HashMap<&'g str, &'g str>),
    Values(&'g [Value]),
}

/// The key of the given values in the schema's format, no longer than its maximum; not yet
/// checked against the Rust types' ranges.
pub(super) fn write_key(schema: &Schema, given: &Given<'_>) -> Result<Key> {
    let mut key = Key::new();
    match schema.format {
        Format::Ordered => {
            let mut w = OrderedWriter::new(&mut key);
            write_ordered(schema, given, &mut w)?;
            w.finish();
        }
        Format::FdbTuple => store::write_key::<FdbTuple>(schema, given, &mut key)?,
        Format::Memcomparable => store::write_key::<Memcomparable>(schema, given, &mut key)?,
        Format::HBase => store::write_key::<HBase>(schema, given, &mut key)?,
        Format::Delimited(delimiter) => {
            let format = Delimited::new(delimiter)?;
            let mut fields = Vec::new();
            text_fields(schema, given, &mut fields)?;
            let mut w = crate::format::DelimitedWriter::new(&format, &mut key);
            for (name, text) in &fields {
                w.named_field(name, text.as_slice())?;
            }
            w.finish();
        }
    }
    if key.len() > schema.max_len {
        return Err(Error::TooLong { len: key.len(), max: schema.max_len });
    }
    Ok(key)
}

/// The values of a schema's own fields (not its flattened ones'), parsed.
fn values_of(schema: &Schema, given: &Given<'_>) -> Result<Vec<Option<Value>>> {
    let given = match given {
        Given::Text(given) => given,
        Given::Values(values) => {
            let mut at = 0;
            return schema
                .fields
                .iter()
                .map(|field| match field.encoding {
                    Encoding::Flattened(inner) => {
                        at += value_count(inner);
                        Ok(None)
                    }
                    _ => {
                        at += 1;
                        match values.get(at - 1) {
                            // Text has no such value: `null` is text to a field that is no `Option`.
                            Some(Value::Null) if !field.optional => Err(Error::argument(
                                "field value",
                                format!(
                                    "`{}` is not optional ({}): give it a value (null is only an Option's None)",
                                    field.name, field.rust_type
                                ),
                            )),
                            value => Ok(value.cloned()),
                        }
                    }
                })
                .collect();
        }
    };
    schema
        .fields
        .iter()
        .map(|field| match field.encoding {
            Encoding::Flattened(_) => Ok(None),
            _ => {
                let text = given.get(field.name).ok_or_else(|| {
                    Error::argument(
                        "field value",
                        format!("`{}` is missing: give it as {}=VALUE", field.name, field.name),
                    )
                })?;
                parse_value(schema.format, field, text).map(Some).map_err(|e| about_field(field, e))
            }
        })
        .collect()
}

/// The salt bucket of a schema's values, checked against a given `bucket=`.
pub(super) fn bucket_of(
    schema: &Schema,
    values: &[Option<Value>],
    given: &HashMap<&str, &str>,
    outer: bool,
) -> Result<Option<u32>> {
    let Some(salt_schema) = schema.salt else { return Ok(None) };
    let salt = salt_schema.salt()?;
    let source = |name: &str| {
        schema
            .fields
            .iter()
            .zip(values)
            .find_map(|(f, v)| (f.name == name).then_some((f, v.as_ref())))
            .and_then(|(f, v)| Some((f, v?)))
    };
    let bucket = if salt.hash() == SaltHash::Modulo {
        match salt_schema.from.first().and_then(|name| source(name)) {
            Some((_, Value::Int(v))) => salt.modulo_bucket(*v),
            _ => return Err(Error::argument("salt", "a modulo salt takes one integer field")),
        }
    } else {
        let mut encoded = Key::new();
        let mut w = OrderedWriter::new(&mut encoded);
        for name in salt_schema.from {
            let (field, value) =
                source(name).ok_or_else(|| Error::argument("salt", format!("the salt source `{name}` is no field")))?;
            let bytes =
                natural_bytes(field, value, matches!(schema.format, Format::Delimited(_))).ok_or_else(|| {
                    Error::argument(
                        "salt",
                        format!("`{name}` is of a custom type, whose hashed bytes the schema does not know"),
                    )
                })?;
            w.field(&Encoded(&bytes))?;
        }
        salt.bucket_of_encoded(&encoded)?
    };
    if let Some(text) = given.get(Schema::BUCKET_FIELD).filter(|_| outer) {
        let shown = match salt.hex_digits() {
            0 => bucket.to_string(),
            digits => format!("{bucket:0digits$x}"),
        };
        if *text != shown {
            return Err(Error::argument(
                "field value",
                format!("bucket={text} is given, but the salt source fields give bucket {shown}; leave bucket out"),
            ));
        }
    }
    Ok(Some(bucket))
}

fn check_prefix(schema: &Schema, given: &HashMap<&str, &str>) -> Result<()> {
    match (schema.prefix, given.get(Schema::PREFIX_FIELD)) {
        // As given, or quoted as `inspect` prints a prefix that is not bare text.
        (Some(prefix), Some(text)) if *text != prefix && unquote(text).as_deref() != Some(prefix) => {
            Err(Error::argument(
                "field value",
                format!("prefix={text} is given, but every key of {} starts with {prefix}", schema.type_name),
            ))
        }
        _ => Ok(()),
    }
}

/// One part of a key being encoded, in key order.
pub(super) enum Part<'v> {
    Prefix(&'static str),
    Bucket(Salt, u32),
    Field(&'static FieldSchema, &'v Value),
}

/// Hands `visit` the parts of the key of the given values, in key order: the prefix, the
/// bucket computed from its source fields, then each field (a flattened struct's parts in
/// its place); each key format writes them its own way.
pub(super) fn walk(
    schema: &Schema,
    given: &Given<'_>,
    outer: bool,
    visit: &mut dyn FnMut(Part<'_>) -> Result<()>,
) -> Result<()> {
    let no_text = HashMap::new();
    let text = match given {
        Given::Text(text) => text,
        Given::Values(_) => &no_text,
    };
    if outer {
        check_prefix(schema, text)?;
    }
    let values = values_of(schema, given)?;
    if let Some(prefix) = schema.prefix {
        visit(Part::Prefix(prefix))?;
    }
    if let Some(bucket) = bucket_of(schema, &values, text, outer)? {
        let salt = schema.salt.map(|s| s.salt()).transpose()?.ok_or_else(|| Error::argument("salt", "no salt"))?;
        visit(Part::Bucket(salt, bucket))?;
    }
    let mut at = 0;
    for (field, value) in schema.fields.iter().zip(&values) {
        match (field.encoding, value) {
            (Encoding::Flattened(inner), _) => {
                match given {
                    Given::Text(_) => walk(inner, given, false, visit)?,
                    Given::Values(all) => walk(inner, &Given::Values(&all[at.min(all.len())..]), false, visit)?,
                }
                at += value_count(inner);
            }
            (_, Some(value)) => {
                visit(Part::Field(field, value)).map_err(|e| about_field(field, e))?;
                at += 1;
            }
            (_, None) => at += 1,
        }
    }
    Ok(())
}

fn write_ordered(schema: &Schema, given: &Given<'_>, w: &mut OrderedWriter<'_>) -> Result<()> {
    walk(schema, given, true, &mut |part| {
        match part {
            Part::Prefix(prefix) => w.named_field(Schema::PREFIX_FIELD, prefix)?,
            Part::Bucket(salt, bucket) => w.named_field(Schema::BUCKET_FIELD, &salt.bucket_field(bucket))?,
            Part::Field(field, value) => {
                let bytes = ordered_bytes(field, value)?;
                if field.descending {
                    w.named_field(field.name, &Desc(Encoded(&bytes)))?
                } else {
                    w.named_field(field.name, &Encoded(&bytes))?
                }
            }
        };
        Ok(())
    })
}

fn text_fields(schema: &Schema, given: &Given<'_>, out: &mut Vec<(&'static str, Vec<u8>)>) -> Result<()> {
    walk(schema, given, true, &mut |part| {
        match part {
            Part::Prefix(prefix) => out.push((Schema::PREFIX_FIELD, prefix.as_bytes().to_vec())),
            Part::Bucket(salt, bucket) => {
                let mut text = Vec::new();
                salt.bucket_field(bucket).encode_text(&mut text)?;
                out.push((Schema::BUCKET_FIELD, text));
            }
            Part::Field(field, value) => out.push((field.name, text_bytes(field, value)?)),
        }
        Ok(())
    })
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

/// The value a field stores for `value`: its transform applied.
pub(super) fn stored(field: &FieldSchema, value: &Value) -> Result<Value> {
    Ok(match (field.transform, value) {
        (_, Value::Null) => Value::Null,
        (Transform::Reverse { max }, Value::Int(v)) => Value::Int(i128::from(max) - v),
        (Transform::BitReverse { keep_sign: true }, Value::Int(v)) => {
            let v = i64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            Value::Int(bit_reverse(v, true).into())
        }
        (Transform::BitReverse { keep_sign: false }, Value::Int(v)) => {
            let v = u64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            Value::Int(bit_reverse_u64(v).into())
        }
        (Transform::ReverseDomain, Value::Str(host)) => Value::Str(reverse_domain(host)?),
        (Transform::Reverse { .. }, Value::Timestamp(micros)) => Value::Int(i128::from(REVERSED_TIME_MAX - micros)),
        (Transform::Reverse { .. }, Value::Date(days)) => Value::Int(i128::from(REVERSED_DATE_MAX - days)),
        (_, value) => value.clone(),
    })
}

pub(super) fn out_of_range(field: &FieldSchema, v: i128) -> Error {
    let value = if field.sensitive { format!("the value {WITHHELD}") } else { v.to_string() };
    Error::argument("field value", format!("`{}`: {value} is out of the range of {}", field.name, field.rust_type))
}

/// The bytes of an ordered field, before the format escapes them.
pub(super) fn ordered_bytes(field: &FieldSchema, value: &Value) -> Result<Vec<u8>> {
    let stored = stored(field, value)?;
    let bytes = match (field.encoding, &stored) {
        (_, Value::Null) => Some(Vec::new()),
        (Encoding::BigEndianInt64, Value::Int(v)) => {
            let v = i64::try_from(*v).ok().filter(|v| *v >= 0).ok_or_else(|| out_of_range(field, *v))?;
            let mut bytes = v.to_be_bytes().to_vec();
            // `Option`'s marker, as `natural_bytes` adds it to the others.
            if field.optional && v == 0 {
                bytes.push(0);
            }
            Some(bytes)
        }
        // A reversed instant or date stores an int64, which the field writes as such.
        (Encoding::Timestamp(_) | Encoding::Date(_), Value::Int(v)) => {
            let v = i64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            natural_bytes(&crate::schema::FieldSchema { rust_type: "i64", ..*field }, &Value::Int(v.into()), false)
        }
        (Encoding::Uint64, Value::Int(v)) => {
            let v = u64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            natural_bytes(&crate::schema::FieldSchema { rust_type: "u64", ..*field }, &Value::Int(v.into()), false)
        }
        (Encoding::Int64, Value::Int(v)) => {
            let v = i64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            natural_bytes(&crate::schema::FieldSchema { rust_type: "i64", ..*field }, &Value::Int(v.into()), false)
        }
        (_, stored) => natural_bytes(field, stored, false),
    };
    bytes
        .ok_or_else(|| Error::argument("field value", format!("`{}`: the value does not fit its encoding", field.name)))
}

/// The text of a delimited field.
pub(super) fn text_bytes(field: &FieldSchema, value: &Value) -> Result<Vec<u8>> {
    let stored = stored(field, value)?;
    let ty = field.rust_type;
    let mut out = Vec::new();
    match (field.encoding, &stored) {
        (_, Value::Null) => {}
        (Encoding::Hex { digits }, Value::Int(v)) => {
            let digits = digits.map_or(0, usize::from);
            out.extend_from_slice(format!("{v:0digits$x}").as_bytes());
        }
        (Encoding::Hex { .. }, Value::Bytes(bytes)) => out.extend_from_slice(KeyForm::Hex.format(bytes).as_bytes()),
        (Encoding::Decimal { width, .. }, Value::Int(v)) => encode_decimal(&mut out, *v, width.into(), ty)?,
        (Encoding::Timestamp(_), Value::Int(v)) => {
            let v = i64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            reversed_text(&mut out, v, REVERSED_TIME_MAX, ty)?;
        }
        (Encoding::Date(_), Value::Int(v)) => {
            let v = i64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            reversed_text(&mut out, v, REVERSED_DATE_MAX, ty)?;
        }
        (Encoding::Timestamp(_), Value::Timestamp(micros)) => {
            write_instant(&mut out, micros.div_euclid(1_000_000), (micros.rem_euclid(1_000_000) * 1000) as u32, 6, ty)?;
        }
        (Encoding::Timestamp(_), Value::TimestampNanos(nanos)) => {
            let secs = i64::try_from(nanos.div_euclid(1_000_000_000)).map_err(|_| out_of_range(field, *nanos))?;
            write_instant(&mut out, secs, nanos.rem_euclid(1_000_000_000) as u32, 9, ty)?;
        }
        (Encoding::Date(_), Value::Date(days)) => write_date(&mut out, *days, ty)?,
        (_, Value::Str(text)) => out.extend_from_slice(text.as_bytes()),
        (_, Value::Bytes(bytes)) => out.extend_from_slice(bytes),
        (_, Value::Bool(b)) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        (_, Value::Uuid(bytes)) => out.extend_from_slice(&crate::field::uuid::write_text(bytes)),
        (_, Value::Ulid(v)) => out.extend_from_slice(&crate::field::ulid::write_text(*v)),
        (Encoding::IpAddr, Value::Ip(ip)) => ip.encode_text(&mut out)?,
        (_, Value::Ip(IpAddr::V4(ip))) => ip.encode_text(&mut out)?,
        (_, Value::Ip(IpAddr::V6(ip))) => ip.encode_text(&mut out)?,
        (encoding, value) => {
            return Err(Error::argument(
                "field value",
                format!("{value} does not fit the {encoding} encoding of a delimited key"),
            ));
        }
    }
    // As the typed path refuses it: an optional field's `None` is the empty field, so a value
    // written as no text would read back as `None`.
    if field.optional && out.is_empty() && stored != Value::Null {
        return Err(Error::unencodable(
            "Option",
            "Some of an empty value would read back as None in a delimited key; use the ordered format, which tells \
             them apart, or a non-empty value (`null` is the field's None)",
        ));
    }
    Ok(out)
}

/// A field's value from its text, in the forms [`Schema::encode`] lists, for a key in `format`.
pub(crate) fn parse_value(format: Format, field: &FieldSchema, text: &str) -> Result<Value> {
    if field.optional && text == "null" {
        return Ok(Value::Null);
    }
    let bad = |form: &str| {
        // A sensitive field's text is not echoed back.
        let given = if field.sensitive { format!("the value given {WITHHELD}") } else { format!("{text:?}") };
        Error::argument(
            "field value",
            format!("`{}` is {} ({}): {given} is not {form}", field.name, field.rust_type, field.encoding),
        )
    };
    let int = |text: &str| text.parse::<i128>().map_err(|_| bad("a decimal integer"));
    Ok(match field.encoding {
        Encoding::Utf8 | Encoding::Char => Value::Str(unquote(text).ok_or_else(|| bad("text, or quoted text"))?),
        Encoding::Hex { .. } if is_int_type(field.rust_type) => {
            Value::Int(i128::from_str_radix(text, 16).map_err(|_| bad("hex digits"))?)
        }
        Encoding::Hex { .. } => Value::Bytes(KeyForm::Hex.parse(text).map_err(|_| bad("hex digits"))?.into_vec()),
        // HBase's `numeric` fields and a store format's `i128`, whose values the schema knows.
        Encoding::Custom | Encoding::Numeric if !format.is_bigtable() && store::numeric(field).is_some() => {
            match store::numeric(field) {
                Some(store::Number::Int) => Value::Int(int(text)?),
                _ => Value::Float(parse_float(text).ok_or_else(|| bad("a number, inf, -inf, NaN"))?),
            }
        }
        Encoding::Bytes | Encoding::ByteArray { .. } | Encoding::Custom | Encoding::Numeric => {
            let inner = text.strip_prefix("b\"").and_then(|t| t.strip_suffix('"')).unwrap_or(text);
            let unquoted = inner.replace("\\\"", "\"");
            Value::Bytes(
                KeyForm::Cbt
                    .parse(&unquoted)
                    .map_err(|_| bad("bytes (b\"...\" or cbt text, \\xNN escapes)"))?
                    .into_vec(),
            )
        }
        Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. } => {
            Value::Int(int(text)?)
        }
        Encoding::Float64 | Encoding::Float32 => Value::Float(
            parse_float(text)
                .ok_or_else(|| bad("a number, inf, -inf, NaN, -NaN or NaN:0x and a NaN's 16 hex digits"))?,
        ),
        Encoding::Bool => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(bad("true or false")),
        },
        Encoding::TimestampMicros | Encoding::Timestamp(_) => {
            let (secs, nanos) = parse_rfc3339(text).ok_or_else(|| bad("an RFC 3339 time in UTC"))?;
            let nanos = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
            match field.encoding {
                Encoding::Timestamp(spec) if spec.nanos => Value::TimestampNanos(nanos),
                _ if nanos % 1000 != 0 => return Err(bad("an instant in whole microseconds")),
                _ => Value::Timestamp(
                    i64::try_from(nanos / 1000).map_err(|_| bad("an instant within i64 microseconds of 1970"))?,
                ),
            }
        }
        Encoding::Date(_) => Value::Date(parse_day(text).ok_or_else(|| bad("a date YYYY-MM-DD"))?),
        Encoding::Uuid => Value::Uuid(
            crate::field::uuid::parse_text(text.as_bytes(), field.rust_type)
                .map_err(|_| bad("a hyphenated lowercase UUID"))?,
        ),
        Encoding::Ulid => Value::Ulid(
            crate::field::ulid::parse_text(text.as_bytes(), field.rust_type)
                .map_err(|_| bad("a ULID in Crockford base32"))?,
        ),
        Encoding::Ipv4 | Encoding::Ipv6 | Encoding::IpAddr => {
            Value::Ip(text.parse().map_err(|_| bad("an IP address"))?)
        }
        Encoding::Flattened(_) => return Err(bad("a value: a flattened struct's fields are given one by one")),
    })
}

fn is_int_type(rust_type: &str) -> bool {
    let inner = rust_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(rust_type);
    let last = inner.rsplit(':').next().unwrap_or(inner);
    matches!(last, "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize")
}

/// Text as `Value`'s `Display` writes it: bare, or quoted with Rust's escapes.
fn unquote(text: &str) -> Option<String> {
    let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
        return Some(text.to_owned());
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            'u' => {
                let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let code = u32::from_str_radix(rest.strip_prefix('{')?, 16).ok()?;
                out.push(char::from_u32(code)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// `YYYY-MM-DD`, or with ISO 8601's expanded year (`+10000-01-01`, `-0001-12-31`) as `Value`
/// prints years outside 0000 to 9999, into days from the epoch.
fn parse_day(date: &str) -> Option<i64> {
    let Some(unsigned) = date.strip_prefix(['+', '-']) else {
        return parse_date(date.as_bytes(), "date").ok();
    };
    let mut parts = unsigned.splitn(3, '-');
    let (year, month, day): (u32, u32, u32) =
        (parts.next()?.parse().ok()?, parts.next()?.parse().ok()?, parts.next()?.parse().ok()?);
    // Beyond every date and time type's range, and near enough that seconds stay within i64.
    if year > 1_000_000_000 || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let year = if date.starts_with('-') { -i64::from(year) } else { i64::from(year) };
    let days = days_from_civil(year, month, day);
    // A day the month does not have (02-30) would count on into the next month.
    (civil_from_days(days) == (year, month, day)).then_some(days)
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` into seconds and nanoseconds from the epoch.
fn parse_rfc3339(text: &str) -> Option<(i64, u32)> {
    let (date, time) = text.split_once('T')?;
    let days = parse_day(date)?;
    let time = time.strip_suffix('Z')?;
    let (hms, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut parts = hms.split(':').map(|p| (p.len() == 2).then(|| p.parse::<i64>().ok()).flatten());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    if parts.next().is_some() || h > 23 || m > 59 || s > 59 || fraction.len() > 9 {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let nanos = if fraction.is_empty() { 0 } else { format!("{fraction:0<9}").parse().ok()? };
    Some((days * 86_400 + h * 3600 + m * 60 + s, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expanded_years_read_back_and_impossible_dates_are_refused() {
        assert_eq!(parse_day("1970-01-01"), Some(0));
        assert_eq!(parse_day("+10000-01-01"), Some(2_932_897));
        assert_eq!(parse_day("-0001-12-31"), Some(-719_529));
        assert_eq!(parse_day("+2021-02-30"), None);
        assert_eq!(parse_day("+2021-13-01"), None);
        assert_eq!(parse_day("+2021-4294967295-01"), None);
        assert_eq!(parse_day("-99999999999-01-01"), None);
        // The first and last microseconds of i64, as `Value` prints them.
        assert_eq!(parse_rfc3339("-290308-12-21T19:59:05.224192Z"), Some((-9_223_372_036_855, 224_192_000)));
        assert_eq!(parse_rfc3339("+294247-01-10T04:00:54.775807Z"), Some((9_223_372_036_854, 775_807_000)));
        assert_eq!(parse_rfc3339("+1000000000-12-31T23:59:59Z").map(|(s, _)| s > 0), Some(true));
    }
}
