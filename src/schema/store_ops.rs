//! What the schema does with a store-format key (FoundationDB tuples, memcomparable, HBase,
//! or a format defined outside rowkey), behind one object: so each of the schema's
//! operations dispatches a store format once, and a format from outside plugs in by being
//! one more `Ops<F>`, kept in its [`CustomFormat`] as an opaque reference so that the
//! schema's data model does not name the operations it is read with.

use std::any::Any;
use std::marker::PhantomData;

use crate::error::Result;
use crate::format::{FdbTuple, HBase, Memcomparable};
use crate::key::Key;
use crate::range::KeyRanges;
use crate::salt::Salt;
use crate::schema::SchemaFormat;
use crate::schema::given::Given;
use crate::schema::next::Next;
use crate::schema::reading::Reading;
use crate::schema::store::{self, Fixed, custom_format, not_a_store};
use crate::schema::{CustomFormat, FieldSchema, Format, KeyField, Schema, Value};

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
        store::store_ranges::<F>(schema, steps, bucket, fixed, next)
    }
}

/// The store operations of the schema's format: the errors say why a key in an ordered or
/// delimited format, or in a format from outside that the schema cannot read, has none.
pub(super) fn store_ops(schema: &Schema) -> Result<&'static dyn StoreOps> {
    match schema.format {
        Format::FdbTuple => Ok(&Ops::<FdbTuple>::NEW),
        Format::Memcomparable => Ok(&Ops::<Memcomparable>::NEW),
        Format::HBase => Ok(&Ops::<HBase>::NEW),
        Format::Custom(custom) => ops_of(&custom).ok_or_else(|| custom_format(schema)),
        Format::Ordered | Format::Delimited(_) => Err(not_a_store(schema)),
    }
}

/// The key's raw prefix and, with a salt, its bucket field: where every key of the bucket
/// starts, for the split planner.
pub(crate) fn lead(schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key> {
    store_ops(schema)?.lead(schema, bucket)
}

/// The bytes of `value` as the first field after the lead, for a split point inside a bucket.
pub(crate) fn first_field_bytes(schema: &Schema, field: &FieldSchema, value: &Value) -> Result<Vec<u8>> {
    store_ops(schema)?.first_field_bytes(schema, field, value)
}

/// The value of the first field of `point`, a split point that ends with that field.
pub(crate) fn first_field_value(schema: &Schema, field: &FieldSchema, point: &[u8]) -> Option<Value> {
    store_ops(schema).ok()?.first_field_value(schema, field, point)
}

/// The operations of a format, behind a type [`Any`] can name.
struct OpsRef(&'static dyn StoreOps);

/// The operations of format `F`, as a `'static` reference a constant can hold.
trait OpsOf {
    const OPS: &'static (dyn Any + Send + Sync);
}

impl<F: SchemaFormat> OpsOf for F {
    const OPS: &'static (dyn Any + Send + Sync) = &OpsRef(&Ops::<F>::NEW);
}

impl CustomFormat {
    /// Format `F`, whose keys the schema reads and writes (`inspect`, `encode`, `unsalted`,
    /// scans and split points): what [`KeyFormat::SCHEMA_FORMAT`] is set to for a
    /// [`SchemaFormat`].
    ///
    /// ```
    /// use rowkey::schema::CustomFormat;
    ///
    /// // A built-in store format, to show it: its schema has a `Format` of its own.
    /// let hbase = CustomFormat::of::<rowkey::format::HBase>();
    /// assert_eq!(hbase.name(), "hbase");
    /// assert!(hbase.reads_keys());
    /// ```
    ///
    /// [`KeyFormat::SCHEMA_FORMAT`]: crate::format::KeyFormat::SCHEMA_FORMAT
    #[must_use]
    pub const fn of<F: SchemaFormat>() -> CustomFormat {
        CustomFormat { name: F::NAME, ops: Some(<F as OpsOf>::OPS) }
    }
}

/// The operations a custom format's schema reads its keys with, if it has them.
pub(super) fn ops_of(custom: &CustomFormat) -> Option<&'static dyn StoreOps> {
    custom.ops.and_then(|ops| ops.downcast_ref::<OpsRef>()).map(|ops| ops.0)
}
