//! What [`Schema::inspect`] has read of a key so far, and the salt buckets it checks, as the
//! derived `from_key` does, once the fields they are computed from are read.
//!
//! [`Schema::inspect`]: crate::schema::Schema::inspect

use crate::error::Result;
use crate::format::ordered::OrderedWriter;
use crate::key::Key;
use crate::salt::bucket::check_bucket;
use crate::salt::{Salt, SaltHash};
use crate::schema::decode::{self, Encoded};
use crate::schema::inspection::InspectedField;
use crate::schema::{FieldSchema, KeyField, SaltSchema, Value};

/// Where a salt's bucket is, and the field after which its struct's decoder checks it.
pub(super) struct SaltCheck {
    pub(super) bucket: usize,
    pub(super) last: usize,
}

/// What [`Schema::inspect`] has read so far, and the salt checks still to make.
pub(super) struct Reading {
    pub(super) out: Vec<InspectedField>,
    pub(super) buckets: Vec<FoundBucket>,
    pub(super) checks: Vec<SaltCheck>,
}

impl Reading {
    /// Adds a field, then checks every salt whose struct ends with it.
    pub(super) fn push(&mut self, field: InspectedField, delimited: bool) -> Result<()> {
        self.out.push(field);
        let index = self.out.len() - 1;
        for check in self.checks.iter().filter(|check| check.last == index) {
            if let Some(found) = self.buckets.iter().find(|found| found.position == check.bucket) {
                check_salt(found, &self.out, delimited)?;
            }
        }
        Ok(())
    }
}

/// A salt bucket as read, checked once every field is known.
pub(super) struct FoundBucket {
    /// Where it is among the key's fields ([`Schema::key_fields`]).
    pub(super) position: usize,
    /// Its field index in errors: the position, but for a store format's raw prefix, which
    /// is no field.
    pub(super) index: usize,
    pub(super) offset: usize,
    pub(super) salt: SaltSchema,
    pub(super) value: u32,
}

/// Checks a bucket the way the derived `from_key` does: its width, then the bucket its salt
/// source fields give. When a source's hashed bytes cannot be known from the schema (a custom
/// type in a delimited key), only that the bucket is below the bucket count.
fn check_salt(found: &FoundBucket, fields: &[InspectedField], delimited: bool) -> Result<()> {
    let salt = found.salt.salt()?;
    if salt.hash() == SaltHash::Modulo {
        // The value itself, as the derive computes it: a `u64`'s bytes can read as an `i64`.
        let value = source_values(found, fields).and_then(|values| match values.as_slice() {
            [Value::Int(v)] => Some(*v),
            _ => None,
        });
        return match value {
            Some(v) => check_bucket(&salt, found.value, salt.modulo_bucket(v), found.index, found.offset),
            None => Ok(()),
        };
    }
    let expected = match source_bytes(found, fields, delimited) {
        Some(sources) => {
            let mut encoded = Key::new();
            // No finish(): a salt hashes the source fields as written, without the `00 00` of a
            // key whose fields were all empty.
            let mut w = OrderedWriter::new(&mut encoded);
            for bytes in &sources {
                w.field(&Encoded(bytes))?;
            }
            Some(salt.bucket_of_encoded(&encoded)?)
        }
        None => None,
    };
    // Reading the bucket checked its form and range; with the source fields known, their
    // bucket too.
    match expected {
        Some(expected) => check_bucket(&salt, found.value, expected, found.index, found.offset),
        None => Ok(()),
    }
}

/// How a bucket shows: its number, or an MD5 salt's hex digits.
pub(super) fn bucket_value(salt: &SaltSchema, value: u32) -> Value {
    match salt.salt() {
        Ok(salt) => bucket_shown(&salt, value),
        Err(_) => Value::Int(value.into()),
    }
}

/// [`bucket_value`] of a salt already made.
pub(super) fn bucket_shown(salt: &Salt, value: u32) -> Value {
    match salt.hex_digits() {
        0 => Value::Int(value.into()),
        digits => Value::Str(format!("{value:0digits$x}")),
    }
}

/// Each salt source field's schema and value, found by name among the fields after the
/// bucket; `None` when one is missing.
fn sources<'f>(found: &FoundBucket, fields: &'f [InspectedField]) -> Option<Vec<(&'static FieldSchema, &'f Value)>> {
    found
        .salt
        .from
        .iter()
        .map(|&source| {
            fields[found.position + 1..].iter().find_map(|f| match f.field {
                KeyField::Value(schema) if schema.name == source => Some((schema, &f.value)),
                _ => None,
            })
        })
        .collect()
}

/// The value of each salt source field.
fn source_values<'f>(found: &FoundBucket, fields: &'f [InspectedField]) -> Option<Vec<&'f Value>> {
    Some(sources(found, fields)?.into_iter().map(|(_, value)| value).collect())
}

/// The hashed bytes of each salt source field.
fn source_bytes(found: &FoundBucket, fields: &[InspectedField], delimited: bool) -> Option<Vec<Vec<u8>>> {
    sources(found, fields)?.into_iter().map(|(schema, value)| decode::natural_bytes(schema, value, delimited)).collect()
}
