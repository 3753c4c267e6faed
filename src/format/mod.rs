//! Key formats: how field bytes are framed into one key.
//!
//! Every format is a [`KeyFormat`] ([`key_format`] has the trait and a table of its layers),
//! and the built-in ones are:
//!
//! - [`ordered`]: the default binary format, Bigtable's `Struct.OrderedCodeBytes`; every
//!   field type, any bytes, ascending or descending.
//! - [`delimited`]: readable text keys, Bigtable's `Struct.DelimitedBytes`
//!   (`phone#4c410523#20200501`).
//! - [`fdb_tuple`]: FoundationDB's tuple layer, the keys every FoundationDB binding packs.
//! - [`hbase`]: HBase's `OrderedBytes`, the keys HBase's `Ordered*` data types and `Struct`
//!   write.
//! - [`memcomparable`]: the bytes of the `memcomparable` crate 0.2 (RisingWave's): fixed-width
//!   integers, strings in 9-byte groups, no escapes.

pub mod delimited;
mod delimited_values;
pub mod fdb_tuple;
pub(crate) mod flatten;
pub mod hbase;
pub mod key_format;
pub mod memcomparable;
pub mod ordered;
mod ordered_values;
pub(crate) mod prefix;
mod tuple;
mod tuple_shapes;

pub use delimited::{Delimited, DelimitedKey, DelimitedReader, DelimitedWriter};
pub use delimited_values::DelimitedText;
pub use fdb_tuple::{FdbKey, FdbTuple, TupleReader, TupleWriter};
pub use hbase::{HBase, HBaseKey, HBaseReader, HBaseWriter};
pub use key_format::{FormatKey, KeyFormat, KeyReader, KeyWriter, decode_key, encode_key};
pub use memcomparable::{Memcomparable, MemcomparableKey, MemcomparableReader, MemcomparableWriter};
pub use ordered::{OrderedKey, OrderedReader, OrderedWriter};
pub use ordered_values::Ordered;
pub(crate) use ordered_values::OrderedScalar;
pub(crate) use tuple_shapes::for_each_tuple;

/// The name of the prefix field in errors and in a schema's key fields (`Schema::PREFIX_FIELD`).
/// Here rather than in `schema`, because the formats and the salt name the field when they read
/// it and sit below the schema.
pub(crate) const PREFIX_FIELD: &str = "prefix";
/// The name of the bucket field, as [`PREFIX_FIELD`] (`Schema::BUCKET_FIELD`).
pub(crate) const BUCKET_FIELD: &str = "bucket";
