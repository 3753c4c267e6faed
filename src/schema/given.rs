//! The values a key is encoded from, walked in key order: the prefix, the bucket computed
//! from its source fields, then each field, a flattened struct's in its place. Each key
//! format writes the parts its own way ([`Schema::encode`], [`Schema::encode_values`], the
//! schema scans).
//!
//! [`Schema::encode`]: crate::schema::Schema::encode
//! [`Schema::encode_values`]: crate::schema::Schema::encode_values

use std::borrow::Cow;
use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::format::ordered::OrderedWriter;
use crate::key::Key;
use crate::salt::{Salt, SaltHash};
use crate::schema::decode::{Encoded, natural_bytes};
use crate::schema::parse::{parse_bytes, parse_value, unquote};
use crate::schema::redact::about_field;
use crate::schema::{Encoding, FieldSchema, Format, SaltSchema, Schema, Value, prefix_value};

/// The values a key is encoded from: text by field name (`Schema::encode`), or values in key
/// order (`Schema::encode_values`), the prefix and bucket left out.
pub(super) enum Given<'g> {
    Text(&'g HashMap<&'g str, &'g str>),
    Values(&'g [Value]),
}

/// The values of a schema's own fields (not its flattened ones'), parsed; values given as
/// values are borrowed, not copied.
fn values_of<'g>(schema: &Schema, given: &Given<'g>) -> Result<Vec<Option<Cow<'g, Value>>>> {
    let given = match given {
        Given::Text(given) => given,
        Given::Values(values) => {
            let mut at = 0;
            return schema
                .fields
                .iter()
                .map(|field| match field.encoding {
                    Encoding::Flattened(inner) => {
                        at += value_count(inner);
                        Ok(None)
                    }
                    _ => {
                        at += 1;
                        match values.get(at - 1) {
                            // Text has no such value: `null` is text to a field that is no `Option`.
                            Some(Value::Null) if !field.optional => Err(Error::argument(
                                "field value",
                                format!(
                                    "`{}` is not optional ({}): give it a value (null is only an Option's None)",
                                    field.name, field.rust_type
                                ),
                            )),
                            value => Ok(value.map(Cow::Borrowed)),
                        }
                    }
                })
                .collect();
        }
    };
    schema
        .fields
        .iter()
        .map(|field| match field.encoding {
            Encoding::Flattened(_) => Ok(None),
            _ => {
                let text = given.get(field.name).ok_or_else(|| {
                    Error::argument(
                        "field value",
                        format!("`{}` is missing: give it as {}=VALUE", field.name, field.name),
                    )
                })?;
                parse_value(schema.format, field, text).map(|v| Some(Cow::Owned(v))).map_err(|e| about_field(field, e))
            }
        })
        .collect()
}

/// The salt bucket of a schema's values, checked against a given `bucket=`.
pub(super) fn bucket_of(
    schema: &Schema,
    values: &[Option<Cow<'_, Value>>],
    given: &HashMap<&str, &str>,
    outer: bool,
) -> Result<Option<u32>> {
    let Some(salt_schema) = schema.salt else { return Ok(None) };
    let salt = salt_schema.salt()?;
    let bucket = salt_bucket(schema, &salt_schema, |name| {
        schema
            .fields
            .iter()
            .zip(values)
            .find_map(|(f, v)| (f.name == name).then_some((f, v.as_deref())))
            .and_then(|(f, v)| Some((f, v?)))
    })?;
    if let Some(text) = given.get(Schema::BUCKET_FIELD).filter(|_| outer) {
        let shown = match salt.hex_digits() {
            0 => bucket.to_string(),
            digits => format!("{bucket:0digits$x}"),
        };
        if *text != shown {
            return Err(Error::argument(
                "field value",
                format!("bucket={text} is given, but the salt source fields give bucket {shown}; leave bucket out"),
            ));
        }
    }
    Ok(Some(bucket))
}

/// The bucket a salt of `schema`'s fields gives the values `source` finds by field name: one
/// integer modulo the bucket count, or the hash of the sources' ordered encoding, as the derive
/// computes it.
pub(crate) fn salt_bucket<'v>(
    schema: &Schema,
    salt_schema: &SaltSchema,
    source: impl Fn(&str) -> Option<(&'v FieldSchema, &'v Value)>,
) -> Result<u32> {
    let salt = salt_schema.salt()?;
    if salt.hash() == SaltHash::Modulo {
        return match salt_schema.from.first().and_then(|name| source(name)) {
            Some((_, Value::Int(v))) => Ok(salt.modulo_bucket(*v)),
            _ => Err(Error::argument("salt", "a modulo salt takes one integer field")),
        };
    }
    let mut encoded = Key::new();
    let mut w = OrderedWriter::new(&mut encoded);
    for name in salt_schema.from {
        let (field, value) =
            source(name).ok_or_else(|| Error::argument("salt", format!("the salt source `{name}` is no field")))?;
        let bytes = natural_bytes(field, value, matches!(schema.format, Format::Delimited(_))).ok_or_else(|| {
            Error::argument(
                "salt",
                format!("`{name}` is of a custom type, whose hashed bytes the schema does not know"),
            )
        })?;
        w.field(&Encoded(&bytes))?;
    }
    salt.bucket_of_encoded(&encoded)
}

fn check_prefix(schema: &Schema, given: &HashMap<&str, &str>) -> Result<()> {
    match (schema.prefix, given.get(Schema::PREFIX_FIELD)) {
        // As given, or as `inspect` prints a prefix: quoted when it is not bare text, as
        // `b"..."` when it is not text at all.
        (Some(prefix), Some(text))
            if text.as_bytes() != prefix
                && unquote(text).is_none_or(|t| t.as_bytes() != prefix)
                && parse_bytes(text).is_none_or(|b| b != prefix) =>
        {
            Err(Error::argument(
                "field value",
                format!(
                    "prefix={text} is given, but every key of {} starts with {}",
                    schema.type_name,
                    prefix_value(prefix)
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// One part of a key being encoded, in key order.
pub(super) enum Part<'v> {
    Prefix(&'static [u8]),
    Bucket(Salt, u32),
    Field(&'static FieldSchema, &'v Value),
}

/// Hands `visit` the parts of the key of the given values, in key order: the prefix, the
/// bucket computed from its source fields, then each field (a flattened struct's parts in
/// its place); each key format writes them its own way.
pub(super) fn walk(
    schema: &Schema,
    given: &Given<'_>,
    outer: bool,
    visit: &mut dyn FnMut(Part<'_>) -> Result<()>,
) -> Result<()> {
    let no_text = HashMap::new();
    let text = match given {
        Given::Text(text) => text,
        Given::Values(_) => &no_text,
    };
    if outer {
        check_prefix(schema, text)?;
    }
    let values = values_of(schema, given)?;
    if let Some(prefix) = schema.prefix {
        visit(Part::Prefix(prefix))?;
    }
    if let Some(bucket) = bucket_of(schema, &values, text, outer)? {
        let salt = schema.salt.map(|s| s.salt()).transpose()?.ok_or_else(|| Error::argument("salt", "no salt"))?;
        visit(Part::Bucket(salt, bucket))?;
    }
    let mut at = 0;
    for (field, value) in schema.fields.iter().zip(&values) {
        match (field.encoding, value) {
            (Encoding::Flattened(inner), _) => {
                match given {
                    Given::Text(_) => walk(inner, given, false, visit)?,
                    Given::Values(all) => walk(inner, &Given::Values(&all[at.min(all.len())..]), false, visit)?,
                }
                at += value_count(inner);
            }
            (_, Some(value)) => {
                visit(Part::Field(field, value)).map_err(|e| about_field(field, e))?;
                at += 1;
            }
            (_, None) => at += 1,
        }
    }
    Ok(())
}

/// How many values a schema's key holds, its flattened structs' included, prefixes and
/// buckets not.
pub(super) fn value_count(schema: &Schema) -> usize {
    schema
        .fields
        .iter()
        .map(|field| match field.encoding {
            Encoding::Flattened(inner) => value_count(inner),
            _ => 1,
        })
        .sum()
}
