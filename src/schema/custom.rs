//! A key format defined outside rowkey, as a key's schema sees it: [`CustomFormat`], in
//! [`Format::Custom`](crate::schema::Format::Custom), and [`SchemaFormat`], what such a
//! format implements for the schema to read and write its keys (`inspect`, `encode`, scans
//! and split points), as it does the store formats'.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::field::{Addrs, Bools, Floats, Instants, Ints, Options, Uuids};
use crate::format::KeyFormat;
use crate::scan::StoreFormat;
use crate::schema::store_ops::{Ops, StoreOps};
use crate::schema::store_value::StoreSchema;

/// A format whose keys a [`Schema`](crate::schema::Schema) reads and writes without their Rust
/// type: it holds every family of values a key field can have, each field ends where its
/// bytes do ([`StoreFormat`]), a prefix is raw bytes before the fields and a salt's bucket is
/// a `u16` (an MD5 salt's, its hex text), as in the store formats. Set
/// [`KeyFormat::SCHEMA_FORMAT`] to [`CustomFormat::of::<Self>()`](CustomFormat::of) to use it.
///
/// `tests/custom_format.rs` in the repository implements it.
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

    /// A reader of `key`, a key of `fields` fields, with the format's default settings: the
    /// schema holds no format value.
    fn schema_reader(key: &[u8], fields: usize) -> Self::Reader<'static, '_>;
}

impl<F: SchemaFormat> StoreSchema for F {
    type Reader<'de> = <F as KeyFormat>::Reader<'static, 'de>;
    const DESCENDING: bool = <F as SchemaFormat>::DESCENDING;

    fn reader(key: &[u8], fields: usize) -> Self::Reader<'_> {
        F::schema_reader(key, fields)
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
