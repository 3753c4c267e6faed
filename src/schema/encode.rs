//! [`Schema::encode`]: a key built from field values given as text, with nothing but its
//! [`Schema`]: the reverse of [`Schema::inspect`], for shells, tests in other languages and
//! tools that never see the Rust type.

use std::collections::HashMap;
use std::net::IpAddr;

use crate::error::{Error, Result};
use crate::field::calendar::{write_date, write_instant};
use crate::field::decimal::encode_decimal;
use crate::field::instant::{REVERSED_DATE_MAX, REVERSED_TIME_MAX, reversed_text};
use crate::field::{Desc, EncodeText};
use crate::format::Delimited;
use crate::format::ordered::OrderedWriter;
use crate::key::Key;
use crate::key_text::KeyForm;
use crate::schema::decode::{Encoded, natural_bytes};
use crate::schema::given::{Given, Part, walk};
use crate::schema::redact::about_field;
use crate::schema::store_ops::store_ops;
use crate::schema::stored::{out_of_range, stored};
use crate::schema::{Encoding, FieldSchema, Format, Schema, Value};

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
        Format::FdbTuple | Format::Memcomparable | Format::HBase | Format::Custom(_) => {
            store_ops(schema)?.write_key(schema, given, &mut key)?;
        }
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
