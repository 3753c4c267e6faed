//! What the schema does with a store-format key (FoundationDB tuples, memcomparable, HBase,
//! or a format defined outside rowkey), behind one object: so each of the schema's
//! operations dispatches a store format once, and a format from outside plugs in by being
//! one more `Ops<F>`.

use std::marker::PhantomData;

use crate::error::Result;
use crate::format::{FdbTuple, HBase, Memcomparable};
use crate::key::Key;
use crate::range::KeyRanges;
use crate::salt::Salt;
use crate::schema::SchemaFormat;
use crate::schema::given::Given;
use crate::schema::reading::Reading;
use crate::schema::scan::{Fixed, Next, store_ranges};
use crate::schema::store::{self, custom_format, not_a_store};
use crate::schema::{FieldSchema, Format, KeyField, Schema, Value};

/// The schema's operations on keys of one store format.
pub(super) trait StoreOps: Sync {
    fn read_key(&self, schema: &Schema, fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()>;
    fn unsalted<'k>(&self, schema: &Schema, salt: &Salt, key: &'k [u8]) -> Result<&'k [u8]>;
    fn write_key(&self, schema: &Schema, given: &Given<'_>, out: &mut Key) -> Result<()>;
    fn lead(&self, schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key>;
    fn first_field_bytes(&self, schema: &Schema, field: &FieldSchema, value: &Value) -> Result<Vec<u8>>;
    fn first_field_value(&self, schema: &Schema, field: &FieldSchema, point: &[u8]) -> Option<Value>;
    fn ranges(
        &self,
        schema: &Schema,
        steps: usize,
        bucket: Option<(&Salt, u32)>,
        fixed: Fixed<'_, '_>,
        next: &Option<(&FieldSchema, Next<'_>)>,
    ) -> Result<KeyRanges>;
}

/// The operations of format `F`. `fn() -> F` keeps it `Sync` whatever `F` is.
pub(super) struct Ops<F>(PhantomData<fn() -> F>);

impl<F> Ops<F> {
    pub(super) const NEW: Ops<F> = Ops(PhantomData);
}

impl<F: SchemaFormat> StoreOps for Ops<F> {
    fn read_key(&self, schema: &Schema, fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()> {
        store::read_key::<F>(schema, fields, key, reading)
    }

    fn unsalted<'k>(&self, schema: &Schema, salt: &Salt, key: &'k [u8]) -> Result<&'k [u8]> {
        store::unsalted::<F>(schema, salt, key)
    }

    fn write_key(&self, schema: &Schema, given: &Given<'_>, out: &mut Key) -> Result<()> {
        store::write_key::<F>(schema, given, out)
    }

    fn lead(&self, schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key> {
        store::lead_in::<F>(schema, bucket)
    }

    fn first_field_bytes(&self, schema: &Schema, field: &FieldSchema, value: &Value) -> Result<Vec<u8>> {
        store::bytes_in::<F>(schema, field, value)
    }

    fn first_field_value(&self, schema: &Schema, field: &FieldSchema, point: &[u8]) -> Option<Value> {
        store::value_in::<F>(schema, field, point)
    }

    fn ranges(
        &self,
        schema: &Schema,
        steps: usize,
        bucket: Option<(&Salt, u32)>,
        fixed: Fixed<'_, '_>,
        next: &Option<(&FieldSchema, Next<'_>)>,
    ) -> Result<KeyRanges> {
        store_ranges::<F>(schema, steps, bucket, fixed, next)
    }
}

/// The store operations of the schema's format: the errors say why a key in an ordered or
/// delimited format, or in a format from outside that the schema cannot read, has none.
pub(super) fn store_ops(schema: &Schema) -> Result<&'static dyn StoreOps> {
    match schema.format {
        Format::FdbTuple => Ok(&Ops::<FdbTuple>::NEW),
        Format::Memcomparable => Ok(&Ops::<Memcomparable>::NEW),
        Format::HBase => Ok(&Ops::<HBase>::NEW),
        Format::Custom(custom) => custom.ops().ok_or_else(|| custom_format(schema)),
        Format::Ordered | Format::Delimited(_) => Err(not_a_store(schema)),
    }
}
