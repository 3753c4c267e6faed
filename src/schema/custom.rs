//! A key format defined outside rowkey, as a key's schema sees it: [`CustomFormat`], in
//! [`Format::Custom`](crate::schema::Format::Custom), and [`SchemaFormat`], what such a
//! format implements for the schema to read and write its keys (`inspect`, `encode`, scans
//! and split points), as it does the store formats'.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::error::Result;
use crate::field::{Addrs, Bools, Floats, Instants, Ints, Options, Sink, Uuids};
use crate::format::KeyFormat;
use crate::scan::StoreFormat;
use crate::schema::store_ops::{Ops, StoreOps};
use crate::schema::store_value::custom;
use crate::schema::{FieldSchema, Value};

/// A format whose keys a [`Schema`](crate::schema::Schema) reads and writes without their Rust
/// type: it holds every family of values a key field can have, each field ends where its
/// bytes do ([`StoreFormat`]), a prefix is raw bytes before the fields and a salt's bucket is
/// a `u16` (an MD5 salt's, its hex text). The store formats ([`FdbTuple`], [`Memcomparable`],
/// [`HBase`]) implement it; a format of your own that does sets
/// [`KeyFormat::SCHEMA_FORMAT`] to [`CustomFormat::of::<Self>()`](CustomFormat::of).
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

/// A format defined outside rowkey, in a key's schema: its name, and when it is a
/// [`SchemaFormat`], how the schema reads and writes its keys.
///
/// ```
/// use rowkey::schema::CustomFormat;
///
/// let legacy = CustomFormat::named("legacy");
/// assert_eq!(legacy.name(), "legacy");
/// assert!(!legacy.reads_keys());
/// ```
#[derive(Clone, Copy)]
pub struct CustomFormat {
    name: &'static str,
    ops: Option<&'static dyn StoreOps>,
}

/// The operations of a format, as a `'static` reference a constant can hold.
trait OpsOf {
    const OPS: &'static dyn StoreOps;
}

impl<F: SchemaFormat> OpsOf for F {
    const OPS: &'static dyn StoreOps = &Ops::<F>::NEW;
}

impl CustomFormat {
    /// A format the schema names and does not read: `inspect`, `encode` and schema scans
    /// of its keys are errors that say to use the key type's own methods.
    #[must_use]
    pub const fn named(name: &'static str) -> CustomFormat {
        CustomFormat { name, ops: None }
    }

    /// Format `F`, whose keys the schema reads and writes.
    #[must_use]
    pub const fn of<F: SchemaFormat>() -> CustomFormat {
        CustomFormat { name: F::NAME, ops: Some(<F as OpsOf>::OPS) }
    }

    /// The format's [`KeyFormat::NAME`].
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Whether the schema reads and writes keys of this format.
    #[must_use]
    pub const fn reads_keys(&self) -> bool {
        self.ops.is_some()
    }

    pub(super) fn ops(&self) -> Option<&'static dyn StoreOps> {
        self.ops
    }
}

/// Formats are told apart by name.
impl PartialEq for CustomFormat {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for CustomFormat {}

impl Hash for CustomFormat {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl fmt::Debug for CustomFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomFormat").field("name", &self.name).field("reads_keys", &self.reads_keys()).finish()
    }
}

impl fmt::Display for CustomFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
