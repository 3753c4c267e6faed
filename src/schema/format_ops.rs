//! The [`KeyOps`] of a schema's format, so that each of the schema's operations dispatches the
//! format once. The ordered and delimited formats have their own; the store formats share
//! `Ops<F>`, and a format from outside plugs in by being one more `Ops<F>`, kept in its
//! [`CustomFormat`] as an opaque reference so that the schema's data model does not name the
//! operations it is read with.

use std::any::Any;
use std::marker::PhantomData;
use std::ops::Deref;

use crate::error::Result;
use crate::format::{Delimited, FdbTuple, HBase, Memcomparable};
use crate::key::Key;
use crate::range::KeyRanges;
use crate::salt::Salt;
use crate::schema::SchemaFormat;
use crate::schema::delimited_keys::DelimitedOps;
use crate::schema::given::Given;
use crate::schema::key_ops::KeyOps;
use crate::schema::next::Next;
use crate::schema::ordered_keys::OrderedOps;
use crate::schema::reading::Reading;
use crate::schema::store::{self, Fixed, custom_format};
use crate::schema::{CustomFormat, FieldSchema, Format, KeyField, Schema, Value};

/// The operations of format `F`. `fn() -> F` keeps it `Sync` whatever `F` is.
pub(super) struct Ops<F>(PhantomData<fn() -> F>);

impl<F> Ops<F> {
    pub(super) const NEW: Ops<F> = Ops(PhantomData);
}

impl<F: SchemaFormat> KeyOps for Ops<F> {
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

/// The operations of a schema's format: static for every format but the delimited one, which
/// carries the schema's delimiter.
pub(super) enum FormatOps {
    Static(&'static dyn KeyOps),
    Delimited(DelimitedOps),
}

impl Deref for FormatOps {
    type Target = dyn KeyOps;

    fn deref(&self) -> &(dyn KeyOps + 'static) {
        match self {
            FormatOps::Static(ops) => *ops,
            FormatOps::Delimited(ops) => ops,
        }
    }
}

/// The operations of the schema's format. The errors: a delimiter the format refuses, a
/// format from outside rowkey that the schema cannot read.
pub(super) fn key_ops(schema: &Schema) -> Result<FormatOps> {
    Ok(match schema.format {
        Format::Ordered => FormatOps::Static(&OrderedOps),
        Format::Delimited(delimiter) => FormatOps::Delimited(DelimitedOps { format: Delimited::new(delimiter)? }),
        Format::FdbTuple => FormatOps::Static(&Ops::<FdbTuple>::NEW),
        Format::Memcomparable => FormatOps::Static(&Ops::<Memcomparable>::NEW),
        Format::HBase => FormatOps::Static(&Ops::<HBase>::NEW),
        Format::Custom(custom) => FormatOps::Static(ops_of(&custom).ok_or_else(|| custom_format(schema))?),
    })
}

/// The key's raw prefix and, with a salt, its bucket field: where every key of the bucket
/// starts, for the split planner.
pub(crate) fn lead(schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key> {
    key_ops(schema)?.lead(schema, bucket)
}

/// The bytes of `value` as the first field after the lead, for a split point inside a bucket.
pub(crate) fn first_field_bytes(schema: &Schema, field: &FieldSchema, value: &Value) -> Result<Vec<u8>> {
    key_ops(schema)?.first_field_bytes(schema, field, value)
}

/// The value of the first field of `point`, a split point that ends with that field.
pub(crate) fn first_field_value(schema: &Schema, field: &FieldSchema, point: &[u8]) -> Option<Value> {
    key_ops(schema).ok()?.first_field_value(schema, field, point)
}

/// The operations of a format, behind a type [`Any`] can name.
struct OpsRef(&'static dyn KeyOps);

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
pub(super) fn ops_of(custom: &CustomFormat) -> Option<&'static dyn KeyOps> {
    custom.ops.and_then(|ops| ops.downcast_ref::<OpsRef>()).map(|ops| ops.0)
}
