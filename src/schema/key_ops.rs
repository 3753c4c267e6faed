//! The schema's operations on the keys of one format: read one, write one, strip its salt
//! bucket, bound a scan, and for the store formats find split points. Each format's
//! implementation lives with the format's schema code (`ordered_keys.rs`, `delimited_keys.rs`,
//! `store.rs`); `format_ops.rs` picks a schema's.

use crate::error::Result;
use crate::key::Key;
use crate::range::KeyRanges;
use crate::salt::{Buckets, Salt};
use crate::scan::KeyScan;
use crate::schema::given::Given;
use crate::schema::next::Next;
use crate::schema::reading::Reading;
use crate::schema::store::{Fixed, not_a_store};
use crate::schema::{FieldSchema, KeyField, Schema, Value};

/// The schema's operations on keys of one format.
pub(super) trait KeyOps: Sync {
    fn read_key(&self, schema: &Schema, fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()>;
    fn unsalted<'k>(&self, schema: &Schema, salt: &Salt, key: &'k [u8]) -> Result<&'k [u8]>;
    fn write_key(&self, schema: &Schema, given: &Given<'_>, out: &mut Key) -> Result<()>;
    fn ranges(
        &self,
        schema: &Schema,
        steps: usize,
        bucket: Option<(&Salt, u32)>,
        fixed: Fixed<'_, '_>,
        next: &Option<(&FieldSchema, Next<'_>)>,
    ) -> Result<KeyRanges>;

    /// The prefix and bucket fields of a key, as written before its first field (the ordered
    /// format's without the separator that would follow): where the split planner's points
    /// start.
    fn lead(&self, schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key>;

    fn first_field_bytes(&self, schema: &Schema, _: &FieldSchema, _: &Value) -> Result<Vec<u8>> {
        Err(not_a_store(schema))
    }

    fn first_field_value(&self, _: &Schema, _: &FieldSchema, _: &[u8]) -> Option<Value> {
        None
    }
}

/// A Bigtable format's scan builder for a schema query of `steps` fields, with the key's prefix
/// and bucket fixed, as the key writes them first. A query that stops before the last field
/// takes a builder of no field limit (`new(usize::MAX)`).
pub(super) fn lead_scan<V: Buckets, S: KeyScan<V>>(
    new: impl FnOnce(usize) -> S,
    schema: &Schema,
    steps: usize,
    bucket: Option<(&Salt, u32)>,
) -> Result<S> {
    let fields = if steps < schema.fields.len() { usize::MAX } else { schema.field_count() };
    let mut scan = new(fields);
    if let Some(prefix) = schema.prefix {
        scan.prefix(prefix)?;
    }
    if let Some((salt, bucket)) = bucket {
        scan.fix(&salt.bucket_field(bucket))?;
    }
    Ok(scan)
}
