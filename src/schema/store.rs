//! Store-format keys (FoundationDB tuples, memcomparable, HBase) read and written from a
//! [`Schema`] alone, for [`Schema::inspect`], [`Schema::unsalted`], [`Schema::encode`] and the
//! schema scans: the prefix, the bucket and the fields in key order, each field read and
//! written as its Rust type (`store_value`).

use std::marker::PhantomData;
use std::ops::Bound;

use crate::error::{Error, Result};
use crate::field::{ValueFormat, WriteField};
use crate::format::KeyReader;
use crate::key::Key;
use crate::range::KeyRanges;
use crate::salt::Salt;
use crate::salt::store::read_store_bucket;
use crate::scan::{StoreFormat, StoreScan};
use crate::schema::SchemaFormat;
use crate::schema::given::{Given, Part, walk};
use crate::schema::inspection::InspectedField;
use crate::schema::next::Next;
use crate::schema::reading::{FoundBucket, Reading, bucket_value};
use crate::schema::redact::about_field;
use crate::schema::store_value::{Backwards, FieldValue, SchemaReader, read_value};
use crate::schema::{FieldSchema, KeyField, Schema, Value, prefix_value};

/// The key fields of a store-format key: its raw prefixes are not among them.
pub(super) fn field_count(schema: &Schema) -> usize {
    schema.key_fields().iter().filter(|f| !matches!(f, KeyField::Prefix(_))).count()
}

/// Reads a store bucket field: the salt's `u16`, or an MD5 salt's hex digits as text.
fn read_bucket<F: SchemaFormat>(r: &mut SchemaReader<'_, F>, salt: &Salt) -> Result<u32> {
    let (index, offset) = (r.field_index(), r.position());
    let (number, text) = if salt.hex_digits() == 0 {
        (Some(r.named_field::<u16>(Schema::BUCKET_FIELD)?), None)
    } else {
        (None, Some(r.named_field::<String>(Schema::BUCKET_FIELD)?))
    };
    read_store_bucket(salt, number, text.as_deref(), index, offset)
}

/// [`Schema::inspect`] of a store-format key: field by field as the derived `read_fields`.
pub(super) fn read_key<F: SchemaFormat>(
    schema: &Schema,
    fields: &[KeyField],
    key: &[u8],
    reading: &mut Reading,
) -> Result<()> {
    let mut r = F::schema_reader(key, field_count(schema));
    for (position, &field) in fields.iter().enumerate() {
        let (index, offset, name) = (r.field_index(), r.position(), field.name());
        let value = match field {
            KeyField::Prefix(prefix) => {
                r.prefix(prefix)?;
                prefix_value(prefix)
            }
            KeyField::Bucket(salt) => {
                let value = read_bucket::<F>(&mut r, &salt.salt().map_err(|e| e.in_field(index, Some(name), offset))?)?;
                reading.buckets.push(FoundBucket { position, index, offset, salt, value });
                bucket_value(&salt, value)
            }
            KeyField::Value(schema) => read_value::<F>(&mut r, schema)?,
        };
        let len = r.position() - offset;
        reading.push(InspectedField { name, value, offset, len, field }, false)?;
    }
    r.finish()
}

/// [`Schema::unsalted`] of a store-format key: the bytes after its prefix and bucket.
pub(super) fn unsalted<'k, F: SchemaFormat>(schema: &Schema, salt: &Salt, key: &'k [u8]) -> Result<&'k [u8]> {
    let mut r = F::schema_reader(key, field_count(schema));
    if let Some(prefix) = schema.prefix {
        r.prefix(prefix)?;
    }
    read_bucket::<F>(&mut r, salt)?;
    Ok(&key[r.position()..])
}

/// [`Schema::encode`] of a store-format key, from the given values' text.
pub(super) fn write_key<F: SchemaFormat>(schema: &Schema, given: &Given<'_>, out: &mut Key) -> Result<()> {
    let mut w = KeyWriter::<F> { out, index: 0, fields: field_count(schema), format: PhantomData };
    walk(schema, given, true, &mut |part| match part {
        Part::Prefix(prefix) => {
            w.raw(prefix);
            Ok(())
        }
        Part::Bucket(salt, bucket) => w.field(Schema::BUCKET_FIELD, &salt.store_bucket(bucket)),
        Part::Field(field, value) => add_field(&mut w, field, value),
    })
}

/// Where a key's fields go: the key being encoded, or a scan's fixed fields.
pub(super) trait FieldSink<F: ValueFormat> {
    fn raw(&mut self, bytes: &[u8]);
    fn field<T: WriteField<F> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<()>;
}

struct KeyWriter<'a, F> {
    out: &'a mut Key,
    index: usize,
    fields: usize,
    format: PhantomData<F>,
}

impl<F: StoreFormat> FieldSink<F> for KeyWriter<'_, F> {
    fn raw(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    fn field<T: WriteField<F> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<()> {
        let (index, offset) = (self.index, self.out.len());
        F::append(self.out, index, self.fields, value).map_err(|e| e.in_field(index, Some(name), offset))?;
        self.index += 1;
        Ok(())
    }
}

impl<F: StoreFormat> FieldSink<F> for StoreScan<F> {
    fn raw(&mut self, bytes: &[u8]) {
        self.raw_prefix(bytes);
    }

    fn field<T: WriteField<F> + ?Sized>(&mut self, _: &'static str, value: &T) -> Result<()> {
        self.fix(value).map(|_| ())
    }
}

/// Adds `value` of `field`, descending where the field is.
pub(super) fn add_field<F: SchemaFormat>(
    sink: &mut impl FieldSink<F>,
    field: &FieldSchema,
    value: &Value,
) -> Result<()> {
    let value = FieldValue { field, value };
    if field.descending { sink.field(field.name, &Backwards(value)) } else { sink.field(field.name, &value) }
}

/// The keys of `scan` whose next field is within `start` and `end`, given in the order of
/// the field's bytes.
pub(super) fn range<F: SchemaFormat>(
    scan: &StoreScan<F>,
    field: &FieldSchema,
    start: Bound<&Value>,
    end: Bound<&Value>,
) -> Result<KeyRanges> {
    let (start, end) = (start.map(|value| FieldValue { field, value }), end.map(|value| FieldValue { field, value }));
    if field.descending {
        let (start, end) = (start.map(Backwards), end.map(Backwards));
        scan.range(start.as_ref(), end.as_ref())
    } else {
        scan.range(start.as_ref(), end.as_ref())
    }
}

/// The lead of a key in format `F`: its raw prefix and bucket field.
pub(super) fn lead_in<F: SchemaFormat>(schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key> {
    let mut key = Key::new();
    let mut w = KeyWriter::<F> { out: &mut key, index: 0, fields: field_count(schema), format: PhantomData };
    if let Some(prefix) = schema.prefix {
        w.raw(prefix);
    }
    if let Some((salt, bucket)) = bucket {
        w.field(Schema::BUCKET_FIELD, &salt.store_bucket(bucket))?;
    }
    Ok(key)
}

/// The bytes of `value` as the first field after the lead, in format `F`.
pub(super) fn bytes_in<F: SchemaFormat>(schema: &Schema, field: &FieldSchema, value: &Value) -> Result<Vec<u8>> {
    let mut key = Key::new();
    let index = usize::from(schema.salt.is_some());
    let mut w = KeyWriter::<F> { out: &mut key, index, fields: field_count(schema), format: PhantomData };
    add_field(&mut w, field, value)?;
    Ok(key.into_vec())
}

/// The value of the first field of `point`, in format `F`.
pub(super) fn value_in<F: SchemaFormat>(schema: &Schema, field: &FieldSchema, point: &[u8]) -> Option<Value> {
    let mut r = F::schema_reader(point, field_count(schema));
    if let Some(prefix) = schema.prefix {
        r.prefix(prefix).ok()?;
    }
    if let Some(salt) = schema.salt {
        read_bucket::<F>(&mut r, &salt.salt().ok()?).ok()?;
    }
    let value = read_value::<F>(&mut r, field).ok()?;
    (r.position() == point.len()).then_some(value)
}

/// What the schema says of a key in a format defined outside rowkey: it knows the format's
/// name, not how its fields are framed.
#[cold]
pub(crate) fn custom_format(schema: &Schema) -> Error {
    Error::argument(
        "schema",
        format!(
            "`{}` keys are in the `{}` format, defined outside rowkey: the schema describes their fields but \
             cannot read or write their bytes; use `{}::to_key`, `from_key` and `scan()`",
            schema.type_name, schema.format, schema.type_name
        ),
    )
}

pub(super) fn not_a_store(schema: &Schema) -> Error {
    Error::argument(
        "schema",
        format!("`{}` is a key of the {} format, not of a store format", schema.type_name, schema.format),
    )
}

/// The fixed fields of a schema scan and their values, in key order.
pub(super) type Fixed<'a, 'v> = &'a mut dyn Iterator<Item = (&'v &'static FieldSchema, &'v Option<Value>)>;

/// The ranges of a store-format scan, built on [`StoreScan`] as the derived `scan()` builds
/// them: the raw prefix, the bucket, the fixed fields, then the query on the next field.
pub(super) fn store_ranges<F: SchemaFormat>(
    schema: &Schema,
    steps: usize,
    bucket: Option<(&Salt, u32)>,
    fixed: Fixed<'_, '_>,
    next: &Option<(&FieldSchema, Next<'_>)>,
) -> Result<KeyRanges> {
    // Fixing stops at a flattened field, so fields follow the fixed ones there.
    let fields = if steps < schema.fields.len() { usize::MAX } else { field_count(schema) };
    let mut scan = StoreScan::<F>::new(fields);
    if let Some(prefix) = schema.prefix {
        scan.raw_prefix(prefix);
    }
    if let Some((salt, bucket)) = bucket {
        scan.fix(&salt.store_bucket(bucket))?;
    }
    for (field, value) in fixed {
        add_field(&mut scan, field, value.as_ref().unwrap_or(&Value::Null)).map_err(|e| about_field(field, e))?;
    }
    let (field, lo, hi) = match next {
        None => return Ok(scan.ranges()),
        Some((_, Next::StartsWith(prefix))) => return scan.starts_with(prefix),
        Some((_, Next::Host(host))) => return scan.host_and_subdomains(host),
        Some((field, Next::Range(lo, hi))) => (*field, lo, hi),
    };
    // Bounds are in value order; a reversed or descending field's keys run the other way.
    let (start, end) = if field.reverses_order() { (hi, lo) } else { (lo, hi) };
    range(&scan, field, start.as_ref(), end.as_ref()).map_err(|e| about_field(field, e))
}
