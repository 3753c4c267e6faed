//! The schema's operations on keys of the delimited format: fields as text, read by
//! [`DelimitedReader`], written by [`DelimitedWriter`], scanned by [`DelimitedScan`], as the
//! derived key's own methods do.

use std::net::IpAddr;
use std::ops::Bound;

use crate::error::{Error, Location, Result};
use crate::field::calendar::{write_date, write_instant};
use crate::field::decimal::encode_decimal;
use crate::field::instant::{REVERSED_DATE_MAX, REVERSED_TIME_MAX, reversed_text};
use crate::field::{EncodeText, FieldType, Sink, WriteField};
use crate::format::prefix::check_prefix;
use crate::format::{Delimited, DelimitedReader, DelimitedText, DelimitedWriter};
use crate::key::Key;
use crate::key_text::KeyForm;
use crate::range::KeyRanges;
use crate::salt::Salt;
use crate::salt::bucket::read_bucket;
use crate::scan::DelimitedScan;
use crate::schema::decode;
use crate::schema::given::{Given, Part, walk};
use crate::schema::inspection::InspectedField;
use crate::schema::key_ops::{KeyOps, lead_scan};
use crate::schema::next::Next;
use crate::schema::reading::{FoundBucket, Reading, bucket_value};
use crate::schema::redact::{about_field, named};
use crate::schema::store::Fixed;
use crate::schema::stored::{out_of_range, stored};
use crate::schema::{Encoding, FieldSchema, KeyField, Schema, Value, prefix_value};

/// The delimited format's operations, with the schema's delimiter.
pub(super) struct DelimitedOps {
    pub(super) format: Delimited,
}

impl KeyOps for DelimitedOps {
    fn lead(&self, schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key> {
        let mut key = Key::new();
        let delimiter = self.format.delimiter();
        if let Some(prefix) = schema.prefix {
            key.extend_from_slice(prefix);
            key.extend_from_slice(delimiter);
        }
        if let Some((salt, bucket)) = bucket {
            salt.bucket_field(bucket).encode_text(&mut key)?;
            key.extend_from_slice(delimiter);
        }
        Ok(key)
    }

    fn read_key(&self, _: &Schema, fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()> {
        read_delimited(&self.format, fields, key, reading)
    }

    fn unsalted<'k>(&self, schema: &Schema, salt: &Salt, key: &'k [u8]) -> Result<&'k [u8]> {
        let skip = usize::from(schema.prefix.is_some()) + 1;
        let delimiter = self.format.delimiter();
        let mut at = 0;
        for index in 0..skip {
            let name = if index + 1 == skip { Schema::BUCKET_FIELD } else { Schema::PREFIX_FIELD };
            let Some(end) = key[at..].windows(delimiter.len()).position(|w| w == delimiter) else {
                return Err(Error::Truncated {
                    at: Location::at(key.len()),
                    detail: "the field's delimiter is missing",
                }
                .in_field(index, Some(name), at));
            };
            let text = &key[at..at + end];
            if index + 1 == skip {
                read_bucket(salt, text, true, index, at)?;
            } else if let Some(prefix) = schema.prefix {
                check_prefix(text, prefix, index, at)?;
            }
            at += end + delimiter.len();
        }
        Ok(&key[at..])
    }

    fn write_key(&self, schema: &Schema, given: &Given<'_>, out: &mut Key) -> Result<()> {
        let mut w = DelimitedWriter::new(&self.format, out);
        walk(schema, given, true, &mut |part| {
            match part {
                Part::Prefix(prefix) => w.named_field(Schema::PREFIX_FIELD, prefix)?,
                Part::Bucket(salt, bucket) => w.named_field(Schema::BUCKET_FIELD, &salt.bucket_field(bucket))?,
                Part::Field(field, value) => w.named_field(field.name, &FieldText { field, value })?,
            };
            Ok(())
        })?;
        w.finish();
        Ok(())
    }

    fn ranges(
        &self,
        schema: &Schema,
        steps: usize,
        bucket: Option<(&Salt, u32)>,
        fixed: Fixed<'_, '_>,
        next: &Option<(&FieldSchema, Next<'_>)>,
    ) -> Result<KeyRanges> {
        let mut scan = lead_scan(|fields| DelimitedScan::new(&self.format, fields), schema, steps, bucket)?;
        for (field, value) in fixed {
            let text = text_bytes(field, value.as_ref().unwrap_or(&Value::Null)).map_err(|e| named(field, e))?;
            scan.fix(text.as_slice()).map_err(|e| about_field(field, e))?;
        }
        let (field, lo, hi) = match &next {
            None => return Ok(scan.ranges()),
            Some((_, Next::StartsWith(prefix))) => return scan.starts_with(*prefix),
            Some((_, Next::Host(host))) => return scan.host_and_subdomains(host),
            Some((field, Next::Range(lo, hi))) => (field, lo, hi),
        };
        let encode = |b: &Bound<Value>| -> Result<Bound<Vec<u8>>> {
            Ok(match b {
                Bound::Included(v) => Bound::Included(text_bytes(field, v).map_err(|e| named(field, e))?),
                Bound::Excluded(v) => Bound::Excluded(text_bytes(field, v).map_err(|e| named(field, e))?),
                Bound::Unbounded => Bound::Unbounded,
            })
        };
        let range = || {
            let (start, end) =
                if field.reverses_order() { (encode(hi)?, encode(lo)?) } else { (encode(lo)?, encode(hi)?) };
            scan.range(start.as_ref().map(Vec::as_slice), end.as_ref().map(Vec::as_slice))
        };
        range().map_err(|e| about_field(field, e))
    }
}

fn read_delimited(format: &Delimited, fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()> {
    let mut r = DelimitedReader::new(format, key, fields.len());
    let mut offset = 0;
    for (index, &field) in fields.iter().enumerate() {
        let name = field.name();
        let located = |e: Error| e.in_field(index, Some(name), offset);
        let text: &[u8] = r.named_field(name)?;
        let value = match field {
            KeyField::Prefix(prefix) => {
                check_prefix(text, prefix, index, offset)?;
                prefix_value(prefix)
            }
            KeyField::Bucket(salt) => {
                let value = read_bucket(&salt.salt().map_err(located)?, text, true, index, offset)?;
                reading.buckets.push(FoundBucket { position: index, index, offset, salt, value });
                bucket_value(&salt, value)
            }
            KeyField::Value(schema) => decode::text(schema, text).map_err(located)?,
        };
        reading.push(InspectedField { name, value, offset, len: text.len(), field }, true)?;
        offset += text.len() + format.delimiter().len();
    }
    r.finish()
}

/// A field's value, made into its text when the key's writer writes it: a fault of the value
/// is then found in key order and located at its field and byte, as the derived type's
/// writer finds and locates it.
pub(super) struct FieldText<'a> {
    pub(super) field: &'a FieldSchema,
    pub(super) value: &'a Value,
}

impl FieldType for FieldText<'_> {}

impl WriteField<DelimitedText> for FieldText<'_> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(&text_bytes(self.field, self.value)?);
        Ok(())
    }
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
