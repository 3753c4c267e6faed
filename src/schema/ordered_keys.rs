//! The schema's operations on keys of the ordered format: read by [`OrderedReader`], written by
//! [`OrderedWriter`], scanned by [`OrderedScan`], as the derived key's own methods do.

use std::borrow::Cow;
use std::ops::Bound;

use crate::error::{Error, Result};
use crate::field::{Desc, FieldType, Sink, WriteField};
use crate::format::Ordered;
use crate::format::ordered::{OrderedReader, OrderedWriter};
use crate::format::prefix::check_prefix;
use crate::key::Key;
use crate::range::KeyRanges;
use crate::salt::Salt;
use crate::salt::bucket::read_bucket;
use crate::scan::OrderedScan;
use crate::schema::decode::{self, Encoded, natural_bytes};
use crate::schema::given::{Given, Part, walk};
use crate::schema::inspection::InspectedField;
use crate::schema::key_ops::{KeyOps, lead_scan};
use crate::schema::next::Next;
use crate::schema::reading::{FoundBucket, Reading, bucket_value};
use crate::schema::redact::about_field;
use crate::schema::store::Fixed;
use crate::schema::stored::{out_of_range, stored};
use crate::schema::{Encoding, FieldSchema, KeyField, Schema, Value, prefix_value};

/// The ordered format's operations.
pub(super) struct OrderedOps;

impl KeyOps for OrderedOps {
    fn lead(&self, schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key> {
        let mut key = Key::new();
        let mut w = OrderedWriter::new(&mut key);
        if let Some(prefix) = schema.prefix {
            w.named_field(Schema::PREFIX_FIELD, prefix)?;
        }
        if let Some((salt, bucket)) = bucket {
            w.named_field(Schema::BUCKET_FIELD, &salt.bucket_field(bucket))?;
        }
        // No `finish`: a key of no fields would become `00 00`, and the lead of an unsalted key
        // without a prefix is empty.
        Ok(key)
    }

    fn read_key(&self, _: &Schema, fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()> {
        read_ordered(fields, key, reading)
    }

    fn unsalted<'k>(&self, schema: &Schema, salt: &Salt, key: &'k [u8]) -> Result<&'k [u8]> {
        let mut r = OrderedReader::new(key, schema.field_count());
        if let Some(prefix) = schema.prefix {
            check_prefix(&r.named_field::<Cow<'_, [u8]>>(Schema::PREFIX_FIELD)?, prefix, 0, 0)?;
        }
        let offset = r.position();
        let bucket = r.named_field::<Cow<'_, [u8]>>(Schema::BUCKET_FIELD)?;
        read_bucket(salt, &bucket, false, usize::from(schema.prefix.is_some()), offset)?;
        Ok(&key[r.position()..])
    }

    fn write_key(&self, schema: &Schema, given: &Given<'_>, out: &mut Key) -> Result<()> {
        let mut w = OrderedWriter::new(out);
        write_ordered(schema, given, &mut w)?;
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
        let mut scan = lead_scan(OrderedScan::new, schema, steps, bucket)?;
        for (field, value) in fixed {
            let fix = |scan: &mut OrderedScan| -> Result<()> {
                let bytes = ordered_bytes(field, value.as_ref().unwrap_or(&Value::Null))?;
                if field.descending {
                    scan.fix(&Desc(Encoded(&bytes)))?;
                } else {
                    scan.fix(&Encoded(&bytes))?;
                }
                Ok(())
            };
            fix(&mut scan).map_err(|e| about_field(field, e))?;
        }
        let (field, lo, hi) = match &next {
            None => return Ok(scan.ranges()),
            Some((_, Next::StartsWith(prefix))) => return scan.starts_with(*prefix),
            Some((_, Next::Host(host))) => return scan.host_and_subdomains(host),
            Some((field, Next::Range(lo, hi))) => (field, lo, hi),
        };
        let encode = |b: &Bound<Value>| -> Result<Bound<Vec<u8>>> {
            Ok(match b {
                Bound::Included(v) => Bound::Included(ordered_bytes(field, v)?),
                Bound::Excluded(v) => Bound::Excluded(ordered_bytes(field, v)?),
                Bound::Unbounded => Bound::Unbounded,
            })
        };
        // Bounds are in value order; a reversed or descending field's keys run the
        // other way (both: the value's way), so its upper bound starts the range,
        // as the scan builder orders them.
        let range = || {
            let (start, end) =
                if field.reverses_order() { (encode(hi)?, encode(lo)?) } else { (encode(lo)?, encode(hi)?) };
            if field.descending {
                let (start, end) = (desc_bound(&start), desc_bound(&end));
                scan.range(start.as_ref(), end.as_ref())
            } else {
                let (start, end) = (encoded_bound(&start), encoded_bound(&end));
                scan.range(start.as_ref(), end.as_ref())
            }
        };
        range().map_err(|e| about_field(field, e))
    }
}

fn read_ordered(fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()> {
    let mut r = OrderedReader::new(key, fields.len());
    for (index, &field) in fields.iter().enumerate() {
        let offset = r.position();
        let name = field.name();
        let located = |e: Error| e.in_field(index, Some(name), offset);
        // Shown only for a sensitive field, which is always a value field.
        let mut len = 0;
        let value = match field {
            KeyField::Prefix(prefix) => {
                check_prefix(&r.named_field::<Vec<u8>>(name)?, prefix, index, offset)?;
                prefix_value(prefix)
            }
            KeyField::Bucket(salt) => {
                let bytes = r.named_field::<Vec<u8>>(name)?;
                let value = read_bucket(&salt.salt().map_err(located)?, &bytes, false, index, offset)?;
                reading.buckets.push(FoundBucket { position: index, index, offset, salt, value });
                bucket_value(&salt, value)
            }
            KeyField::Value(schema) => {
                let bytes: Vec<u8> =
                    if schema.descending { r.named_field::<Desc<Vec<u8>>>(name)?.0 } else { r.named_field(name)? };
                len = bytes.len();
                decode::binary(schema, bytes).map_err(located)?
            }
        };
        reading.push(InspectedField { name, value, offset, len, field }, false)?;
    }
    r.finish()
}

fn write_ordered(schema: &Schema, given: &Given<'_>, w: &mut OrderedWriter<'_>) -> Result<()> {
    walk(schema, given, true, &mut |part| {
        match part {
            Part::Prefix(prefix) => w.named_field(Schema::PREFIX_FIELD, prefix)?,
            Part::Bucket(salt, bucket) => w.named_field(Schema::BUCKET_FIELD, &salt.bucket_field(bucket))?,
            Part::Field(field, value) => {
                let value = FieldBytes { field, value };
                if field.descending {
                    w.named_field(field.name, &Desc(value))?
                } else {
                    w.named_field(field.name, &value)?
                }
            }
        };
        Ok(())
    })
}

/// A field's value, made into its bytes when the key's writer writes it: a fault of the value
/// is then found in key order and located at its field and byte, as the derived type's
/// writer finds and locates it.
pub(super) struct FieldBytes<'a> {
    pub(super) field: &'a FieldSchema,
    pub(super) value: &'a Value,
}

impl FieldType for FieldBytes<'_> {}

impl WriteField<Ordered> for FieldBytes<'_> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        out.write(&ordered_bytes(self.field, self.value)?);
        Ok(())
    }
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

fn encoded_bound(b: &Bound<Vec<u8>>) -> Bound<Encoded<'_>> {
    match b {
        Bound::Included(v) => Bound::Included(Encoded(v)),
        Bound::Excluded(v) => Bound::Excluded(Encoded(v)),
        Bound::Unbounded => Bound::Unbounded,
    }
}

fn desc_bound(b: &Bound<Vec<u8>>) -> Bound<Desc<Encoded<'_>>> {
    match b {
        Bound::Included(v) => Bound::Included(Desc(Encoded(v))),
        Bound::Excluded(v) => Bound::Excluded(Desc(Encoded(v))),
        Bound::Unbounded => Bound::Unbounded,
    }
}
