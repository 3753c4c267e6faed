//! [`SchemaFormat`]: what a format implements for a key's schema to read and write its keys
//! without their Rust type (`inspect`, `encode`, scans and split points). The store formats
//! implement it, and so can a format defined outside rowkey.

use crate::error::{Error, Result};
use crate::field::{Addrs, Bools, Floats, Instants, Ints, Options, Sink, Uuids};
use crate::format::KeyFormat;
use crate::scan::StoreFormat;
use crate::schema::{FieldSchema, Value};

/// A format whose keys a [`Schema`](crate::schema::Schema) reads and writes without their Rust
/// type: it holds every family of values a key field can have, each field ends where its
/// bytes do ([`StoreFormat`]), a prefix is raw bytes before the fields and a salt's bucket is
/// a `u16` (an MD5 salt's, its hex text). The store formats ([`FdbTuple`], [`Memcomparable`],
/// [`HBase`]) implement it; a format of your own that does sets
/// [`KeyFormat::SCHEMA_FORMAT`] to [`CustomFormat::of::<Self>()`](crate::schema::CustomFormat::of).
///
/// `tests/custom_format.rs` in the repository implements it.
///
/// [`FdbTuple`]: crate::format::FdbTuple
/// [`Memcomparable`]: crate::format::Memcomparable
/// [`HBase`]: crate::format::HBase
pub trait SchemaFormat:
    KeyFormat<Values = Self>
    + StoreFormat
    + Options
    + Bools
    + Instants
    + Uuids
    + Addrs
    + Floats<f32>
    + Floats<f64>
    + Ints<i8>
    + Ints<i16>
    + Ints<i32>
    + Ints<isize>
    + Ints<u8>
    + Ints<u16>
    + Ints<u32>
    + Ints<u64>
    + Ints<usize>
    + Ints<u128>
{
    /// Whether the format writes descending fields (`desc`), as its writer and reader say
    /// by [`FieldType::DESCENDING`](crate::field::FieldType::DESCENDING). `false` by default.
    const DESCENDING: bool = false;

    /// A reader of `key`, a key of `fields` fields (its raw prefix not counted), with the
    /// format's default settings: the schema holds no format value.
    fn schema_reader(key: &[u8], fields: usize) -> Self::Reader<'static, '_>;

    /// Reads a field of [`Encoding::Custom`](crate::schema::Encoding::Custom) or
    /// [`Encoding::Numeric`](crate::schema::Encoding::Numeric): a field type only
    /// this format knows how to read (HBase's `numeric` fields). By default an error that
    /// names the field.
    ///
    /// # Errors
    ///
    /// That the field's type is unknown, or what its decoder returns.
    fn read_custom(r: &mut Self::Reader<'static, '_>, field: &FieldSchema, ty: &'static str) -> Result<Option<Value>> {
        let _ = (r, ty);
        Err(custom(field))
    }

    /// Writes a field of [`Encoding::Custom`](crate::schema::Encoding::Custom) or
    /// [`Encoding::Numeric`](crate::schema::Encoding::Numeric), as
    /// [`read_custom`](Self::read_custom) reads it.
    ///
    /// # Errors
    ///
    /// That the field's type is unknown, or what its encoder returns.
    fn write_custom<S: Sink>(field: &FieldSchema, stored: &Value, out: &mut S) -> Result<()> {
        let _ = (stored, out);
        Err(custom(field))
    }
}

/// The error for a field whose bytes the schema cannot know.
pub(super) fn custom(field: &FieldSchema) -> Error {
    Error::argument(
        "schema field",
        format!(
            "`{}` is a `{}`, a type the schema cannot see into (custom encoding); a store format does not \
             delimit its fields, so only the key type reads and writes such a key (`T::from_key`, `to_key`)",
            field.name, field.rust_type
        ),
    )
}
