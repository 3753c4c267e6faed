//! `rowkey._declare`: a key declared in Python (`@rowkey.key`), given as the Rust struct it
//! stands for, checked by the derive's own model and rules (`rowkey-derive-core`), and made
//! the `Schema` the derive would give that struct. Every error and warning is the derive's.

use std::collections::HashMap;

use pyo3::prelude::*;
use rowkey::field::{EncodeText, FieldType, Nanos};
use rowkey::salt::SaltHash;
use rowkey::schema::{DynamoSchema, DynamoShards, Encoding, FieldSchema, Format, SaltSchema, Transform};
use rowkey_derive_core::declare::{
    Design, EncodingChoice, FieldDesign, FormatChoice, SaltChoice, ShardChoice, TransformChoice, declare,
};

use crate::BadSchemaError;
use crate::schema::Schema;

/// A derive warning: its kind (`PersonalDataInKey`, `SensitiveModuloSalt`), the field, the message.
type Warning = (&'static str, String, String);

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// The schema of the struct in `source` and the derive's warnings on it (`(kind, field,
/// message)`), where `flattened` gives the schema of each flattened field's type by its name.
/// Every rule the struct breaks is one line of the `BadSchemaError`.
#[pyfunction]
#[pyo3(name = "_declare")]
pub(crate) fn declare_key(
    py: Python<'_>,
    source: &str,
    flattened: HashMap<String, Py<Schema>>,
) -> PyResult<(Schema, Vec<Warning>)> {
    let design = declare(source).map_err(|errors| BadSchemaError::new_err(errors.join("\n")))?;
    let flattened: HashMap<String, &'static rowkey::schema::Schema> =
        flattened.into_iter().map(|(name, schema)| (name, schema.get().inner)).collect();
    let schema = schema_of(&design, &flattened).map_err(BadSchemaError::new_err)?;
    let warnings = design.warnings.into_iter().map(|w| (w.kind, w.field, w.message)).collect();
    Ok((Schema::new(py, Box::leak(Box::new(schema))), warnings))
}

fn schema_of(
    design: &Design,
    flattened: &HashMap<String, &'static rowkey::schema::Schema>,
) -> Result<rowkey::schema::Schema, String> {
    let format = match &design.format {
        FormatChoice::Ordered => Format::Ordered,
        FormatChoice::Delimited(delimiter) => Format::Delimited(leak(delimiter)),
        FormatChoice::FdbTuple => Format::FdbTuple,
        FormatChoice::Memcomparable => Format::Memcomparable,
        FormatChoice::HBase => Format::HBase,
        FormatChoice::Custom(path) => {
            return Err(format!("`format = {path}` is a Rust type; a key declared in Python takes a built-in format"));
        }
    };
    let salt_schema = |salt: &SaltChoice| SaltSchema {
        buckets: salt.buckets,
        hash: match salt.hash {
            "modulo" => SaltHash::Modulo,
            "md5" => SaltHash::Md5Hex,
            _ => SaltHash::FarmHash,
        },
        from: Box::leak(salt.from.iter().map(|name| leak(name)).collect::<Vec<_>>().into_boxed_slice()),
    };
    let salt = design.salt.as_ref().map(salt_schema);
    let fields =
        design.fields.iter().map(|field| field_schema(field, format, flattened)).collect::<Result<Vec<_>, String>>()?;
    Ok(rowkey::schema::Schema {
        type_name: leak(&design.type_name),
        format,
        prefix: design.prefix.as_ref().map(|p| &*Box::leak(p.clone().into_boxed_slice())),
        salt,
        max_len: design.max_len,
        fields: Box::leak(fields.into_boxed_slice()),
        dynamodb: design.dynamodb.as_ref().map(|dynamodb| DynamoSchema {
            partition: Box::leak(
                dynamodb.partition.iter().map(|name| leak(name)).collect::<Vec<_>>().into_boxed_slice(),
            ),
            sort_prefix: dynamodb.sort_prefix.as_deref().map(leak),
            shards: dynamodb.shards.as_ref().map(|shards| match shards {
                ShardChoice::Random { buckets } => DynamoShards::Random { buckets: *buckets },
                ShardChoice::Computed(salt) => DynamoShards::Computed(salt_schema(salt)),
            }),
        }),
    })
}

fn field_schema(
    field: &FieldDesign,
    format: Format,
    flattened: &HashMap<String, &'static rowkey::schema::Schema>,
) -> Result<FieldSchema, String> {
    let encoding = match &field.encoding {
        EncodingChoice::Named(name) => named(name).ok_or_else(|| format!("no encoding `{name}`"))?,
        EncodingChoice::Decimal { width, signed } => Encoding::Decimal { width: *width, signed: *signed },
        EncodingChoice::Hex { digits } => Encoding::Hex { digits: *digits },
        EncodingChoice::ByteArray { len: Some(len) } => Encoding::ByteArray { len: *len as usize },
        EncodingChoice::ByteArray { len: None } => {
            return Err(format!("`{}`: a byte array's length is a number, as in `[u8; 16]`", field.name));
        }
        EncodingChoice::OfType { .. } => of_type(field, matches!(format, Format::Delimited(_))).ok_or_else(|| {
            format!(
                "`{}` is a `{}`, whose encoding a declared key cannot name: use a str, int, float, bool, bytes, \
                     uuid.UUID, datetime type, ipaddress address, rowkey integer width or rowkey time type",
                field.name, field.inner_type
            )
        })?,
        EncodingChoice::Flattened => {
            let inner = flattened
                .get(&field.inner_type)
                .ok_or_else(|| format!("`{}`: no declared key `{}` to flatten", field.name, field.inner_type))?;
            if std::mem::discriminant(&inner.format) != std::mem::discriminant(&format) {
                return Err(format!(
                    "`{}` cannot be flattened into a `{}` key: it is a {} key; declare it in the same format",
                    field.inner_type, format, inner.format
                ));
            }
            Encoding::Flattened(inner)
        }
    };
    Ok(FieldSchema {
        name: leak(&field.name),
        rust_name: leak(&field.rust_name),
        rust_type: leak(&field.rust_type),
        encoding,
        transform: match field.transform {
            TransformChoice::None => Transform::None,
            TransformChoice::Reverse { max } => Transform::Reverse { max },
            TransformChoice::BitReverse { keep_sign } => Transform::BitReverse { keep_sign },
            TransformChoice::ReverseDomain => Transform::ReverseDomain,
        },
        optional: field.optional,
        descending: field.descending,
        monotonic: field.monotonic,
        sensitive: field.sensitive,
    })
}

/// A unit variant of `Encoding` by its name, as the derive's `SCHEMA` names it.
fn named(name: &str) -> Option<Encoding> {
    Some(match name {
        "Numeric" => Encoding::Numeric,
        "BigEndianInt64" => Encoding::BigEndianInt64,
        "Uint64" => Encoding::Uint64,
        "Int64" => Encoding::Int64,
        "Utf8" => Encoding::Utf8,
        "Char" => Encoding::Char,
        "Bytes" => Encoding::Bytes,
        "Bool" => Encoding::Bool,
        "Float32" => Encoding::Float32,
        "Float64" => Encoding::Float64,
        "TimestampMicros" => Encoding::TimestampMicros,
        "Custom" => Encoding::Custom,
        _ => return None,
    })
}

/// What `T` says its bytes are: `EncodeText::ENCODING` in a delimited key, else `FieldType::ENCODING`.
fn pick<T: FieldType + EncodeText>(delimited: bool) -> Encoding {
    if delimited { <T as EncodeText>::ENCODING } else { <T as FieldType>::ENCODING }
}

/// What a type the derive leaves to the type says of itself (`FieldType::ENCODING`, in a
/// delimited key `EncodeText::ENCODING`; of `Nanos<T>` for `nanos`), for the types a Python
/// value stands for, told apart by the type's text (`chrono::DateTime<chrono::Utc>`).
fn of_type(field: &FieldDesign, delimited: bool) -> Option<Encoding> {
    fn instant<T>(nanos: bool, delimited: bool) -> Encoding
    where
        T: FieldType + EncodeText,
        Nanos<T>: FieldType + EncodeText,
    {
        if nanos { pick::<Nanos<T>>(delimited) } else { pick::<T>(delimited) }
    }
    let nanos = matches!(field.encoding, EncodingChoice::OfType { nanos: true });
    let text = field.inner_type.as_str();
    let jiff = text.contains("jiff") || text.contains("civil");
    let encoding = match field.inner_name.as_deref()? {
        "Uuid" => pick::<uuid::Uuid>(delimited),
        "Ulid" => pick::<ulid::Ulid>(delimited),
        "Ipv4Addr" => pick::<std::net::Ipv4Addr>(delimited),
        "Ipv6Addr" => pick::<std::net::Ipv6Addr>(delimited),
        "IpAddr" => pick::<std::net::IpAddr>(delimited),
        "i128" => pick::<i128>(delimited),
        "u128" => pick::<u128>(delimited),
        "DateTime" if jiff => instant::<jiff::civil::DateTime>(nanos, delimited),
        "DateTime" if text.contains("FixedOffset") => {
            instant::<chrono::DateTime<chrono::FixedOffset>>(nanos, delimited)
        }
        "DateTime" if text.contains("Utc") => instant::<chrono::DateTime<chrono::Utc>>(nanos, delimited),
        "NaiveDateTime" => instant::<chrono::NaiveDateTime>(nanos, delimited),
        "OffsetDateTime" => instant::<time::OffsetDateTime>(nanos, delimited),
        "UtcDateTime" => instant::<time::UtcDateTime>(nanos, delimited),
        "PrimitiveDateTime" => instant::<time::PrimitiveDateTime>(nanos, delimited),
        "Timestamp" => instant::<jiff::Timestamp>(nanos, delimited),
        "NaiveDate" if !nanos => pick::<chrono::NaiveDate>(delimited),
        "Duration" => pick::<std::time::Duration>(delimited),
        "Hashed" => hashed(hashed_width(text)?, delimited)?,
        name if name.starts_with("NonZero") => nonzero(name, text, delimited)?,
        "Date" if !nanos && jiff => pick::<jiff::civil::Date>(delimited),
        "Date" if !nanos && text.contains("time") => pick::<time::Date>(delimited),
        _ => return None,
    };
    Some(encoding)
}

/// The width of `Hashed` or `Hashed<N>`, as written.
fn hashed_width(text: &str) -> Option<usize> {
    match text.split_once('<') {
        None => Some(16),
        Some((_, width)) => width.strip_suffix('>')?.trim().parse().ok(),
    }
}

/// What `Hashed<N>` says of itself, for the widths it has (8 to 32).
fn hashed(width: usize, delimited: bool) -> Option<Encoding> {
    use rowkey::field::Hashed;
    macro_rules! widths {
        ($($n:literal)*) => {
            match width {
                $($n => Some(pick::<Hashed<$n>>(delimited)),)*
                _ => None,
            }
        };
    }
    widths!(8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}

/// What a `NonZero` integer says of itself, spelled `NonZeroU32` or `NonZero<u32>`.
fn nonzero(name: &str, text: &str, delimited: bool) -> Option<Encoding> {
    use std::num::NonZero;
    let int = match name.strip_prefix("NonZero")? {
        "" => text.split_once('<')?.1.strip_suffix('>')?.trim().to_ascii_lowercase(),
        int => int.to_ascii_lowercase(),
    };
    Some(match int.as_str() {
        "u8" => pick::<NonZero<u8>>(delimited),
        "u16" => pick::<NonZero<u16>>(delimited),
        "u32" => pick::<NonZero<u32>>(delimited),
        "u64" => pick::<NonZero<u64>>(delimited),
        "u128" => pick::<NonZero<u128>>(delimited),
        "usize" => pick::<NonZero<usize>>(delimited),
        "i8" => pick::<NonZero<i8>>(delimited),
        "i16" => pick::<NonZero<i16>>(delimited),
        "i32" => pick::<NonZero<i32>>(delimited),
        "i64" => pick::<NonZero<i64>>(delimited),
        "i128" => pick::<NonZero<i128>>(delimited),
        "isize" => pick::<NonZero<isize>>(delimited),
        _ => return None,
    })
}
