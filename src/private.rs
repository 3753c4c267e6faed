//! What generated code calls. Not public API: it changes without notice.
//!
//! `#[derive(RowKey)]` expands to code in the user's crate that names only items of this
//! module (through `::rowkey::__private`, or the path given with `crate = "..."`), so the
//! public modules can move without breaking derived keys.

pub use std::borrow::Cow;
pub use std::ops::{Bound, RangeBounds};
pub use std::string::String;
pub use std::vec::Vec;

pub use crate::error::{Error, Location, Result};
pub use crate::field::{
    Alphabet, BigEndian, DecodeText, Desc, EncodeText, FieldType, Hex, Integer, Nanos, Numeric, Padded, ReadField,
    Reversed, WriteField,
};
pub use crate::format::delimited::Delimited;
pub use crate::format::flatten::{FlattenKey, assert_flatten, flat_alphabet, flat_fields, prefix_fields};
pub use crate::format::{
    DelimitedText, FdbTuple, FormatKey, HBase, KeyFormat, KeyReader, KeyWriter, Memcomparable, Ordered,
};
pub use crate::key::Key;
pub use crate::range::KeyRanges;
pub use crate::row_key::{RowKey, decode_derived, encode_derived, scan_error};
pub use crate::salt::bucket::{bucket, check_bucket, read_bucket_field, write_bucket_field};
pub use crate::salt::store::{read_store_bucket_field, write_store_bucket};
pub use crate::salt::{BucketField, Salt, SaltHash};
pub use crate::scan::{KeyScan, ScanFormat};
pub use crate::schema::{
    DynamoSchema, DynamoShards, Encoding, FieldSchema, Format, KeySchema, SaltSchema, Schema, Transform,
};
pub use crate::transform::{BitReversed, ReversedDomain};

/// What `hash = "md5"` in a derive stands on: rowkey's `md5` feature. Without the feature the
/// derive would compile and every key would then fail at run time, so the generated code
/// calls [`require_md5`] and the missing feature is a compile error with the fix in it.
pub struct Md5Feature;

/// Implemented by [`Md5Feature`] only when rowkey is built with its `md5` feature.
#[diagnostic::on_unimplemented(
    message = "`hash = \"md5\"` needs rowkey's `md5` feature",
    label = "an MD5 salt, but rowkey is built without its `md5` feature",
    note = "enable it where rowkey is a dependency: `rowkey = {{ version = \"...\", features = [\"md5\"] }}` in Cargo.toml"
)]
pub trait Md5Enabled {}

#[cfg(feature = "md5")]
impl Md5Enabled for Md5Feature {}

/// Compiles only when `T` is [`Md5Feature`] and the `md5` feature is on.
pub const fn require_md5<T: Md5Enabled>() {}

/// What the scan builder's `<field>_range` and `<field>_starts_with` of a [`Hashed`] field ask
/// of their argument, and no type gives: a hash keeps no order of the values it hashes, so a
/// range or a prefix of values has no range of keys. The methods exist so that a call names
/// the reason instead of "no method found".
///
/// [`Hashed`]: https://docs.rs/rowkey/latest/rowkey/field/struct.Hashed.html
#[diagnostic::on_unimplemented(
    message = "a `Hashed` field takes no range and no prefix: a keyed hash has no order relation to the value it hashes",
    label = "the keys of a range of values are spread over the whole key space",
    note = "fix the field to one value's hash instead (`.field(Hashed::new(&key, value))`), or key by a field that holds the values \
            to scan them in order"
)]
pub trait HashedHasNoOrder {}
