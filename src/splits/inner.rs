//! Points inside a bucket: the first field's values cut into equal parts, where the schema
//! knows the space they spread over (hex text, zero-padded decimal, fixed-width bytes, UUIDs).

use crate::error::{Error, Result};
use crate::key::Key;
use crate::schema::{Encoding, FieldSchema, Format, KeyField, Schema, Transform, Value, format_ops};

/// The ordered format's separator between two fields.
pub(super) const SEPARATOR: [u8; 2] = [0x00, 0x01];

/// The first value field, which points inside a bucket split along.
pub(super) fn first_field(schema: &Schema) -> Option<&FieldSchema> {
    schema.key_fields().into_iter().find_map(|f| match f {
        KeyField::Value(field) => Some(field),
        _ => None,
    })
}

/// The leading digits of `field` a point's body holds, as text (hex pairs for bytes), if the
/// body is one that [`inner_points`] writes.
pub(super) fn inner_digits(schema: &Schema, field: &FieldSchema, body: &[u8]) -> Option<String> {
    match schema.format {
        Format::Delimited(_) => {
            let text = std::str::from_utf8(body).ok()?;
            text.bytes().all(|b| b.is_ascii_alphanumeric()).then(|| text.to_owned())
        }
        Format::Ordered => {
            let mut bytes: Vec<u8> = body.to_vec();
            if field.descending {
                bytes.iter_mut().for_each(|b| *b = !*b);
            }
            let mut raw = Vec::with_capacity(bytes.len());
            let mut iter = bytes.iter();
            while let Some(&b) = iter.next() {
                raw.push(b);
                if b == 0x00 || b == 0xff {
                    iter.next()?;
                }
            }
            // Only what `ordered_body` writes for these digits: the escapes round-trip.
            (ordered_body(&raw, field.descending) == body).then(|| raw.iter().map(|b| format!("{b:02x}")).collect())
        }
        // The store formats' points hold whole values (`format_ops::first_field_value`).
        _ => None,
    }
}

/// A point inside a bucket: its lead, then the start of the first field.
pub(super) fn join(schema: &Schema, lead: &Key, body: &[u8]) -> Key {
    let mut key = lead.clone();
    if schema.format == Format::Ordered && !lead.is_empty() {
        key.extend_from_slice(&SEPARATOR);
    }
    key.extend_from_slice(body);
    key
}

/// The first field's value space: digits of a base, at most `max_digits` of them.
struct Space {
    base: u32,
    max_digits: u32,
}

/// `k` points that cut the first field's values into `k + 1` equal parts, as the bytes the
/// key holds for a value starting with them, in key order.
pub(super) fn inner_points(schema: &Schema, k: u32) -> Result<Vec<Vec<u8>>> {
    let field = schema.key_fields().into_iter().find_map(|f| match f {
        KeyField::Value(field) => Some(field),
        _ => None,
    });
    let Some(field) = field else {
        return Err(Error::argument("splits", format!("`{}` has no field to split buckets along", schema.type_name)));
    };
    if !schema.format.is_bigtable() {
        return store_points(schema, field, k);
    }
    let space = value_space(schema, field)?;
    // Enough digits that the k + 1 parts start at distinct values.
    let mut digits = 1;
    while u128::from(space.base).pow(digits) <= u128::from(k) {
        digits += 1;
    }
    if digits > space.max_digits {
        return Err(Error::argument(
            "splits",
            format!(
                "{k} splits inside a bucket need {digits} digits of `{}`, which has {}: ask for fewer",
                field.name, space.max_digits
            ),
        ));
    }
    let size = u128::from(space.base).pow(digits);
    let mut points: Vec<Vec<u8>> = (1..=u128::from(k))
        .map(|i| {
            let value = i * size / (u128::from(k) + 1);
            let mut digits: Vec<u8> = (0..digits)
                .rev()
                .map(|d| (value / u128::from(space.base).pow(d) % u128::from(space.base)) as u8)
                .collect();
            // Trailing zero digits add nothing to an ascending boundary: `4` splits where
            // `40000000` does. Inverted, `4` would sort after every value starting with it.
            while !field.descending && digits.len() > 1 && digits.last() == Some(&0) {
                digits.pop();
            }
            match schema.format {
                Format::Ordered => ordered_body(&digits, field.descending),
                Format::Delimited(_) => digits.iter().map(|&d| b"0123456789abcdef"[usize::from(d)]).collect(),
                // `store_points` writes the store formats' points.
                _ => Vec::new(),
            }
        })
        .collect();
    points.sort();
    Ok(points)
}

/// Bytes as the ordered format writes them in a field: `00` and `ff` escaped, and every byte
/// inverted for a descending field.
fn ordered_body(bytes: &[u8], descending: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 2);
    for &b in bytes {
        match b {
            0x00 => out.extend_from_slice(&[0x00, 0xff]),
            0xff => out.extend_from_slice(&[0xff, 0x00]),
            b => out.push(b),
        }
    }
    if descending {
        out.iter_mut().for_each(|b| *b = !*b);
    }
    out
}

/// Where the values of the first field lie, if the schema says.
fn value_space(schema: &Schema, field: &FieldSchema) -> Result<Space> {
    let unknown = |why: &str| unknown_space(field, why);
    if field.transform != Transform::None || field.monotonic {
        return Err(unknown("transformed or monotonic"));
    }
    match (schema.format, field.encoding) {
        (Format::Ordered, Encoding::ByteArray { len }) => Ok(Space { base: 256, max_digits: len.min(8) as u32 }),
        (Format::Ordered, Encoding::Uuid) => Ok(Space { base: 256, max_digits: 8 }),
        (Format::Delimited(_), Encoding::Hex { digits }) => {
            Ok(Space { base: 16, max_digits: digits.map_or(16, |d| u32::from(d).min(16)) })
        }
        // A UUID's text starts with 8 hex digits.
        (Format::Delimited(_), Encoding::Uuid) => Ok(Space { base: 16, max_digits: 8 }),
        (Format::Delimited(_), Encoding::Decimal { width, signed: false }) => {
            Ok(Space { base: 10, max_digits: u32::from(width).min(19) })
        }
        (_, Encoding::Decimal { signed: true, .. }) => Err(unknown("a signed number")),
        (_, Encoding::Utf8 | Encoding::Char) => Err(unknown("text")),
        (_, Encoding::Flattened(_)) => Err(unknown("a flattened struct")),
        (_, encoding) => Err(unknown(&format!("of the {encoding} encoding"))),
    }
}

fn unknown_space(field: &FieldSchema, why: &str) -> Error {
    Error::argument(
        "splits",
        format!(
            "`{}` is {why}, so the schema does not say where its values lie: split inside buckets along a hex, \
             zero-padded decimal, fixed-width bytes, UUID (or, in a store format, integer) field, or at the \
             quantiles of a sample of keys (`Splits::from_sample`)",
            field.name
        ),
    )
}

/// `k` points inside a bucket of a store-format key, whose first field is an integer,
/// fixed-width bytes or a UUID: the field's whole bytes for `k` values that cut its values
/// into `k + 1` equal parts. The store formats frame a value as a whole (a length, a type
/// code, padding), so a point is a value rather than its leading digits.
fn store_points(schema: &Schema, field: &FieldSchema, k: u32) -> Result<Vec<Vec<u8>>> {
    let unknown = |why: &str| unknown_space(field, why);
    if field.transform != Transform::None || field.monotonic {
        return Err(unknown("transformed or monotonic"));
    }
    if matches!(schema.fields.first().map(|f| f.encoding), Some(Encoding::Flattened(_))) {
        return Err(unknown("in a flattened struct"));
    }
    let too_many = |digits: &str| {
        Error::argument(
            "splits",
            format!(
                "{k} splits inside a bucket cannot fall between distinct {digits} of `{}`: ask for fewer",
                field.name
            ),
        )
    };
    let parts = u128::from(k) + 1;
    let values: Vec<Value> = match field.encoding {
        Encoding::Int64 | Encoding::Uint64 => {
            let (signed, bits) = int_width(field.rust_type).ok_or_else(|| unknown("an integer of another type"))?;
            let size = 1u128 << bits;
            if parts > size {
                return Err(too_many("values"));
            }
            let min = if signed { -(1i128 << (bits - 1)) } else { 0 };
            (1..parts).map(|i| Value::Int(min + i128::try_from(i * size / parts).unwrap_or(0))).collect()
        }
        Encoding::ByteArray { .. } | Encoding::Uuid => {
            let len = match field.encoding {
                Encoding::ByteArray { len } => len,
                _ => 16,
            };
            let digits = len.min(8);
            let size = 1u128 << (8 * digits);
            if len == 0 || parts > size {
                return Err(too_many("leading bytes"));
            }
            (1..parts)
                .map(|i| {
                    let mut bytes = (i * size / parts).to_be_bytes()[16 - digits..].to_vec();
                    bytes.resize(len, 0);
                    match <[u8; 16]>::try_from(bytes.as_slice()) {
                        Ok(id) if field.encoding == Encoding::Uuid => Value::Uuid(id),
                        _ => Value::Bytes(bytes),
                    }
                })
                .collect()
        }
        Encoding::Utf8 | Encoding::Char => return Err(unknown("text")),
        encoding => return Err(unknown(&format!("of the {encoding} encoding"))),
    };
    values.iter().map(|value| format_ops::first_field_bytes(schema, field, value)).collect()
}

/// Whether a primitive integer type is signed, and its bits.
fn int_width(rust_type: &str) -> Option<(bool, u32)> {
    let ty = rust_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(rust_type);
    Some(match ty.rsplit(':').next()? {
        "i8" => (true, 8),
        "i16" => (true, 16),
        "i32" => (true, 32),
        "i64" | "isize" => (true, 64),
        "u8" => (false, 8),
        "u16" => (false, 16),
        "u32" => (false, 32),
        "u64" | "usize" => (false, 64),
        _ => return None,
    })
}
