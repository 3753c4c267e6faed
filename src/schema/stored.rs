//! The value a field stores for the value it is given: its transform applied, within the
//! range of the field's Rust type.

use crate::error::{Error, Result};
use crate::field::instant::{REVERSED_DATE_MAX, REVERSED_TIME_MAX, reversed};
use crate::field::reversed::negative_reversal;
use crate::schema::decode::inner_type;
use crate::schema::redact::WITHHELD;
use crate::schema::{FieldSchema, Transform, Value};
use crate::transform::{bit_reverse, bit_reverse_u64, reverse_domain};

/// The value a field stores for `value`: its transform applied.
pub(super) fn stored(field: &FieldSchema, value: &Value) -> Result<Value> {
    Ok(match (field.transform, value) {
        (_, Value::Null) => Value::Null,
        // Refused as the typed path refuses them, in its words: reversed, they would be a
        // negative stored value, which reads back as a puzzle about `MAX - v` rather than
        // about the value given.
        (Transform::Reverse { .. }, Value::Int(v)) if *v < 0 => {
            return Err(negative_reversal(inner_type(field.rust_type), *v));
        }
        (Transform::Reverse { max }, Value::Int(v)) if *v > i128::from(max) => {
            let value = if field.sensitive { format!("the value {WITHHELD}") } else { v.to_string() };
            return Err(Error::argument(
                "field value",
                format!("`{}` is reversed (stored as MAX - v), which takes 0 to {max}, not {value}", field.name),
            ));
        }
        (Transform::Reverse { max }, Value::Int(v)) => Value::Int(i128::from(max) - v),
        (Transform::BitReverse { keep_sign: true }, Value::Int(v)) => {
            let v = i64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            Value::Int(bit_reverse(v, true).into())
        }
        (Transform::BitReverse { keep_sign: false }, Value::Int(v)) => {
            let v = u64::try_from(*v).map_err(|_| out_of_range(field, *v))?;
            Value::Int(bit_reverse_u64(v).into())
        }
        (Transform::ReverseDomain, Value::Str(host)) => Value::Str(reverse_domain(host)?),
        // An instant or date before 1970 has no `MAX - v` that its reader takes back: refused
        // as the typed path refuses it, in its words.
        (Transform::Reverse { .. }, Value::Timestamp(micros)) => {
            Value::Int(reversed(*micros, REVERSED_TIME_MAX, inner_type(field.rust_type), "µs")?.into())
        }
        (Transform::Reverse { .. }, Value::Date(days)) => {
            Value::Int(reversed(*days, REVERSED_DATE_MAX, inner_type(field.rust_type), "days")?.into())
        }
        (_, value) => value.clone(),
    })
}

pub(super) fn out_of_range(field: &FieldSchema, v: i128) -> Error {
    let value = if field.sensitive { format!("the value {WITHHELD}") } else { v.to_string() };
    Error::argument("field value", format!("`{}`: {value} is out of the range of {}", field.name, field.rust_type))
}
