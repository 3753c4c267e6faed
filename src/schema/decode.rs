//! Decoding one field's bytes into a [`Value`] from its [`FieldSchema`] alone, and the
//! reverse trip the salt needs: the bytes the Rust value would hash as.
//!
//! Errors come back without a location; the caller knows the field and its offset.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::error::{Error, Result};
use crate::field::DecodeText;
use crate::field::calendar::{parse_date, parse_instant};
use crate::field::decimal::decode_decimal;
use crate::field::instant::{REVERSED_DATE_MAX, REVERSED_TIME_MAX, reversed_from_text};
use crate::field::int::{decode_i64, decode_u64, encode_i64, encode_u64};
use crate::field::wide::sixteen;
use crate::field::{FieldBytes, FieldType, WriteField};
use crate::format::{Ordered, OrderedScalar};
use crate::schema::{DateSpec, Encoding, FieldSchema, TimeSpec, Transform, Value};
use crate::transform::{bit_reverse, bit_reverse_u64, unreverse_domain};

/// The value of an ordered-format field from its unescaped (and, for `desc`, un-negated)
/// bytes.
pub(super) fn binary(field: &FieldSchema, bytes: Vec<u8>) -> Result<Value> {
    let bytes = if field.optional {
        // `Option`'s marker: empty is `None`, and a `Some` whose bytes were all `00` got one
        // more `00`.
        if bytes.is_empty() {
            return Ok(Value::Null);
        }
        if bytes.iter().all(|&b| b == 0) { bytes[1..].to_vec() } else { bytes }
    } else {
        bytes
    };
    let ty = inner_type(field.rust_type);
    let stored = match field.encoding {
        Encoding::Utf8 => Value::Str(utf8(ty, bytes)?),
        // The types' own decoders, so that inspect refuses what `from_key` refuses, as it does.
        Encoding::Char => Value::Str(char::decode_field(FieldBytes::borrowed(&bytes))?.into()),
        // `numeric` belongs to the HBase format; in these formats its bytes are shown as they are.
        Encoding::Bytes | Encoding::Custom | Encoding::Numeric => Value::Bytes(bytes),
        Encoding::ByteArray { len } => Value::Bytes(array(ty, len, bytes)?),
        Encoding::Int64 => Value::Int(decode_i64(&bytes)?.into()),
        Encoding::Uint64 => Value::Int(decode_u64(&bytes)?.into()),
        Encoding::BigEndianInt64 => Value::Int(big_endian(ty, &bytes)?.into()),
        Encoding::Float64 => Value::Float(f64::decode_field(FieldBytes::borrowed(&bytes))?),
        Encoding::Float32 => {
            f32::decode_field(FieldBytes::borrowed(&bytes))?;
            // The f64 as written: an f32 widens to it exactly, NaN payloads included.
            Value::Float(f64::decode_field(FieldBytes::borrowed(&bytes))?)
        }
        Encoding::Bool => match decode_i64(&bytes)? {
            0 => Value::Bool(false),
            1 => Value::Bool(true),
            other => return Err(Error::out_of_range(other.into(), "bool")),
        },
        Encoding::TimestampMicros => Value::Timestamp(decode_i64(&bytes)?),
        Encoding::Timestamp(spec) if spec.nanos && !reversed(field) => {
            return nanos_value(ty, spec, i128::decode_field(FieldBytes::borrowed(&bytes))?);
        }
        Encoding::Timestamp(spec) if !spec.nanos => return micros_value(field, ty, spec, decode_i64(&bytes)?.into()),
        Encoding::Date(spec) => return days_value(field, ty, spec, decode_i64(&bytes)?.into()),
        Encoding::Uuid => Value::Uuid(sixteen(&bytes, ty)?),
        Encoding::Ulid => Value::Ulid(u128::from_be_bytes(sixteen(&bytes, ty)?)),
        Encoding::Ipv4 => Value::Ip(Ipv4Addr::decode_field(FieldBytes::borrowed(&bytes))?.into()),
        Encoding::Ipv6 => Value::Ip(Ipv6Addr::decode_field(FieldBytes::borrowed(&bytes))?.into()),
        Encoding::IpAddr => Value::Ip(IpAddr::decode_field(FieldBytes::borrowed(&bytes))?),
        Encoding::Timestamp(_) | Encoding::Decimal { .. } | Encoding::Hex { .. } | Encoding::Flattened(_) => {
            return Err(inconsistent(field, "an ordered key"));
        }
    };
    untransform(field, ty, stored)
}

/// The value of a delimited-format field from its text.
pub(super) fn text(field: &FieldSchema, text: &[u8]) -> Result<Value> {
    if field.optional && text.is_empty() {
        return Ok(Value::Null);
    }
    let ty = inner_type(field.rust_type);
    let stored = match field.encoding {
        Encoding::Utf8 => Value::Str(utf8(ty, text.to_vec())?),
        Encoding::Char => Value::Str(char::decode_text(text)?.into()),
        Encoding::Bytes | Encoding::Custom | Encoding::Numeric => Value::Bytes(text.to_vec()),
        Encoding::ByteArray { len } => Value::Bytes(array(ty, len, text.to_vec())?),
        Encoding::Bool => match text {
            b"false" => Value::Bool(false),
            b"true" => Value::Bool(true),
            _ => return Err(Error::invalid("bool", "expected `false` or `true`")),
        },
        Encoding::Decimal { width, signed } => Value::Int(decode_decimal(text, width.into(), signed, ty)?),
        Encoding::Hex { digits } => hex(ty, digits, text)?,
        Encoding::Timestamp(spec) if reversed(field) && !spec.nanos => {
            let micros = unreverse(field, reversed_from_text(text, REVERSED_TIME_MAX, ty)?, REVERSED_TIME_MAX, ty)?;
            return instant_in_range(ty, spec, micros.div_euclid(MICROS_PER_SEC)).map(|()| Value::Timestamp(micros));
        }
        Encoding::Timestamp(spec) if !reversed(field) => {
            let (secs, nanos) = parse_instant(text, if spec.nanos { 9 } else { 6 }, ty)?;
            instant_in_range(ty, spec, secs)?;
            return Ok(if spec.nanos {
                Value::TimestampNanos(i128::from(secs) * 1_000_000_000 + i128::from(nanos))
            } else {
                Value::Timestamp(secs * MICROS_PER_SEC + i64::from(nanos / 1000))
            });
        }
        Encoding::Date(spec) => {
            let days = if reversed(field) {
                unreverse(field, reversed_from_text(text, REVERSED_DATE_MAX, ty)?, REVERSED_DATE_MAX, ty)?
            } else {
                parse_date(text, ty)?
            };
            return date_in_range(ty, spec, days).map(|()| Value::Date(days));
        }
        Encoding::Uuid => Value::Uuid(crate::field::uuid::parse_text(text, ty)?),
        Encoding::Ulid => Value::Ulid(crate::field::ulid::parse_text(text, ty)?),
        Encoding::Ipv4 => Value::Ip(Ipv4Addr::decode_text(text)?.into()),
        Encoding::Ipv6 => Value::Ip(Ipv6Addr::decode_text(text)?.into()),
        Encoding::IpAddr => Value::Ip(IpAddr::decode_text(text)?),
        Encoding::Int64
        | Encoding::Uint64
        | Encoding::BigEndianInt64
        | Encoding::Float64
        | Encoding::Float32
        | Encoding::TimestampMicros
        | Encoding::Timestamp(_)
        | Encoding::Flattened(_) => return Err(inconsistent(field, "a delimited key")),
    };
    untransform(field, ty, stored)
}

const MICROS_PER_SEC: i64 = 1_000_000;

pub(super) fn reversed(field: &FieldSchema) -> bool {
    matches!(field.transform, Transform::Reverse { .. })
}

/// The value a time field held: `stored` itself, or under `reverse` what `max - v` was made
/// from.
fn unreverse(field: &FieldSchema, stored: i128, max: i64, ty: &'static str) -> Result<i64> {
    if !reversed(field) {
        // Decoded from an int64.
        return Ok(stored as i64);
    }
    match i64::try_from(stored) {
        Ok(v) if (0..=max).contains(&v) => Ok(max - v),
        _ => Err(Error::invalid(ty, format!("{stored} is not MAX - v for any v >= 0 (MAX = {max})"))),
    }
}

/// An instant field's value from the int64 it stores (under `reverse`, what `max - micros`
/// was made from), checked against its Rust type's range as the type's decoder checks it.
pub(super) fn micros_value(field: &FieldSchema, ty: &'static str, spec: TimeSpec, stored: i128) -> Result<Value> {
    let micros = unreverse(field, stored, REVERSED_TIME_MAX, ty)?;
    instant_in_range(ty, spec, micros.div_euclid(MICROS_PER_SEC)).map(|()| Value::Timestamp(micros))
}

/// A nanosecond instant field's value, checked against its Rust type's range.
pub(super) fn nanos_value(ty: &'static str, spec: TimeSpec, nanos: i128) -> Result<Value> {
    instant_in_range(ty, spec, nanos_secs(nanos)).map(|()| Value::TimestampNanos(nanos))
}

/// A date field's value from the int64 it stores, as [`micros_value`] for days.
pub(super) fn days_value(field: &FieldSchema, ty: &'static str, spec: DateSpec, stored: i128) -> Result<Value> {
    let days = unreverse(field, stored, REVERSED_DATE_MAX, ty)?;
    date_in_range(ty, spec, days).map(|()| Value::Date(days))
}

fn nanos_secs(nanos: i128) -> i64 {
    // Out of i64 seconds is out of every type's range: saturate to fail the range check.
    i64::try_from(nanos.div_euclid(1_000_000_000)).unwrap_or(i64::MAX)
}

/// Whether an instant's second is one the field's Rust type holds, as its decoder checks.
fn instant_in_range(ty: &'static str, spec: TimeSpec, secs: i64) -> Result<()> {
    if (spec.min_secs..=spec.max_secs).contains(&secs) {
        Ok(())
    } else {
        Err(Error::invalid(ty, format!("{secs} s from the epoch is outside the range of {ty}")))
    }
}

fn date_in_range(ty: &'static str, spec: DateSpec, days: i64) -> Result<()> {
    if (spec.min_days..=spec.max_days).contains(&days) {
        Ok(())
    } else {
        Err(Error::invalid(ty, format!("day {days} from the epoch is outside the range of {ty}")))
    }
}

/// The type inside `Option<...>` as written, or the whole type.
pub(super) fn inner_type(rust_type: &'static str) -> &'static str {
    let Some(open) = rust_type.find('<') else { return rust_type };
    let is_option = rust_type[..open].rsplit(':').next() == Some("Option");
    match rust_type.strip_suffix('>') {
        Some(without_close) if is_option => &without_close[open + 1..],
        _ => rust_type,
    }
}

/// The primitive integer type a field holds, when its Rust type is one (`u32`,
/// `core::primitive::u32`).
pub(super) fn primitive_int(ty: &str) -> Option<&str> {
    let last = ty.rsplit(':').next()?;
    matches!(last, "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize").then_some(last)
}

/// `v` if it fits the field's primitive integer type; any value for other types.
fn check_range(ty: &'static str, v: i128) -> Result<Value> {
    let (min, max): (i128, i128) = match primitive_int(ty) {
        Some("i8") => (i8::MIN.into(), i8::MAX.into()),
        Some("i16") => (i16::MIN.into(), i16::MAX.into()),
        Some("i32") => (i32::MIN.into(), i32::MAX.into()),
        Some("i64" | "isize") => (i64::MIN.into(), i64::MAX.into()),
        Some("u8") => (0, u8::MAX.into()),
        Some("u16") => (0, u16::MAX.into()),
        Some("u32") => (0, u32::MAX.into()),
        Some(_) => (0, u64::MAX.into()),
        None => (i128::MIN, i128::MAX),
    };
    if (min..=max).contains(&v) { Ok(Value::Int(v)) } else { Err(Error::out_of_range(v, ty)) }
}

/// Undoes the field's transform, so the value is the one the struct held.
pub(super) fn untransform(field: &FieldSchema, ty: &'static str, stored: Value) -> Result<Value> {
    match (field.transform, stored) {
        (_, Value::Null) => Ok(Value::Null),
        (Transform::None, Value::Int(v)) => check_range(ty, v),
        (Transform::None, value) => Ok(value),
        (Transform::Reverse { max }, Value::Int(v)) => {
            let max = i128::from(max);
            if !(0..=max).contains(&v) {
                return Err(Error::invalid(ty, format!("{v} is not MAX - v for any v >= 0")));
            }
            check_range(ty, max - v)
        }
        (Transform::BitReverse { keep_sign: true }, Value::Int(v)) => {
            let v = i64::try_from(v).map_err(|_| Error::out_of_range(v, "i64"))?;
            Ok(Value::Int(bit_reverse(v, true).into()))
        }
        (Transform::BitReverse { keep_sign: false }, Value::Int(v)) => {
            let v = u64::try_from(v).map_err(|_| Error::out_of_range(v, "u64"))?;
            Ok(Value::Int(bit_reverse_u64(v).into()))
        }
        (Transform::ReverseDomain, Value::Str(host)) => unreverse_domain(&host).map(Value::Str).map_err(|e| match e {
            // The domain check's error names no field: make it one that the caller can locate.
            Error::InvalidArgument { detail, .. } => Error::invalid(ty, detail),
            other => other,
        }),
        (transform, _) => Err(Error::argument(
            "schema field",
            format!("`{}`: the transform `{transform}` does not apply to its {} encoding", field.name, field.encoding),
        )),
    }
}

fn utf8(ty: &'static str, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes)
        .map_err(|e| Error::invalid(ty, format!("invalid UTF-8 at byte {} of the field", e.utf8_error().valid_up_to())))
}

/// A `[u8; N]`'s bytes, which are exactly `len` long as its decoder requires.
pub(super) fn array(ty: &'static str, len: usize, bytes: Vec<u8>) -> Result<Vec<u8>> {
    if bytes.len() == len {
        Ok(bytes)
    } else {
        Err(Error::invalid(ty, format!("expected exactly {len} bytes, the field has {}", bytes.len())))
    }
}

pub(super) fn big_endian(ty: &'static str, bytes: &[u8]) -> Result<i64> {
    let Ok(raw) = <[u8; 8]>::try_from(bytes) else {
        return Err(Error::invalid(ty, format!("a big-endian integer is 8 bytes, the field has {}", bytes.len())));
    };
    let value = i64::from_be_bytes(raw);
    if value < 0 {
        return Err(Error::invalid(
            ty,
            "the big-endian integer is negative, which is never written (it would sort last)",
        ));
    }
    Ok(value)
}

/// Lowercase hex: an integer of `digits` digits, or bytes (a `[u8; N]` has a fixed number of
/// digits too; its Rust type tells it from an integer).
fn hex(ty: &'static str, digits: Option<u8>, text: &[u8]) -> Result<Value> {
    if let Some(digits) = digits.map(usize::from).filter(|&d| d != text.len()) {
        return Err(Error::invalid(ty, format!("expected {digits} hex digits, found {} bytes", text.len())));
    }
    if !text.len().is_multiple_of(2) {
        return Err(Error::invalid(ty, format!("hex needs two digits a byte, found {} digits", text.len())));
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        _ => Err(Error::invalid(ty, "expected lowercase hex digits 0-9 a-f")),
    };
    let bytes =
        text.chunks_exact(2).map(|pair| Ok(nibble(pair[0])? << 4 | nibble(pair[1])?)).collect::<Result<Vec<u8>>>()?;
    if primitive_int(ty).is_some() {
        Ok(Value::Int(bytes.iter().fold(0i128, |acc, &b| acc << 8 | i128::from(b))))
    } else {
        Ok(Value::Bytes(bytes))
    }
}

pub(super) fn inconsistent(field: &FieldSchema, place: &str) -> Error {
    Error::argument(
        "schema field",
        format!(
            "`{}` has the {} encoding, which never occurs in {place}; the schema was written by hand wrongly",
            field.name, field.encoding
        ),
    )
}

/// The bytes the field's Rust value encodes to as an ordered field, before framing: what a
/// salt hashes. `None` when the schema cannot tell (a custom type in a delimited key, whose
/// key holds its text, not its field encoding).
pub(super) fn natural_bytes(field: &FieldSchema, value: &Value, delimited: bool) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    match value {
        Value::Null => return Some(out),
        Value::Str(text) => out.extend_from_slice(text.as_bytes()),
        Value::Bytes(_) if delimited && field.encoding == Encoding::Custom => return None,
        Value::Bytes(bytes) => out.extend_from_slice(bytes),
        Value::Bool(b) => out.push(if *b { 0x81 } else { 0x80 }),
        Value::Int(v) => match primitive_int(inner_type(field.rust_type)) {
            Some("u64" | "usize") => {
                let (buf, n) = encode_u64(u64::try_from(*v).ok()?);
                out.extend_from_slice(&buf[..n]);
            }
            _ => {
                let (buf, start) = encode_i64(i64::try_from(*v).ok()?);
                out.extend_from_slice(&buf[start..]);
            }
        },
        Value::Float(x) => x.encode_field(&mut out).ok()?,
        Value::Timestamp(micros) => {
            let (buf, start) = encode_i64(*micros);
            out.extend_from_slice(&buf[start..]);
        }
        Value::TimestampNanos(nanos) => nanos.encode_field(&mut out).ok()?,
        Value::Date(days) => {
            let (buf, start) = encode_i64(*days);
            out.extend_from_slice(&buf[start..]);
        }
        Value::Uuid(bytes) => out.extend_from_slice(bytes),
        Value::Ulid(value) => out.extend_from_slice(&value.to_be_bytes()),
        Value::Ip(ip) if field.encoding == Encoding::IpAddr => ip.encode_field(&mut out).ok()?,
        Value::Ip(IpAddr::V4(ip)) => ip.encode_field(&mut out).ok()?,
        Value::Ip(IpAddr::V6(ip)) => ip.encode_field(&mut out).ok()?,
    }
    if field.optional && out.iter().all(|&b| b == 0) {
        out.push(0);
    }
    Some(out)
}

/// Bytes already encoded, written as one field.
pub(super) struct Encoded<'a>(pub(super) &'a [u8]);

impl FieldType for Encoded<'_> {}

impl WriteField<Ordered> for Encoded<'_> {
    fn write<S: crate::field::Sink>(&self, out: &mut S) -> Result<()> {
        out.write(self.0);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_types_are_seen_through() {
        assert_eq!(inner_type("Option<u32>"), "u32");
        assert_eq!(inner_type("std::option::Option<Vec<u8>>"), "Vec<u8>");
        assert_eq!(inner_type("Vec<u8>"), "Vec<u8>");
        assert_eq!(inner_type("u64"), "u64");
        assert_eq!(primitive_int("core::primitive::u16"), Some("u16"));
        assert_eq!(primitive_int("[u8; 4]"), None);
    }

    #[test]
    fn ranges_follow_the_rust_type() {
        assert!(check_range("u8", 255).is_ok());
        assert!(matches!(check_range("u8", 256), Err(Error::OutOfRange { value: 256, ty: "u8", .. })));
        assert!(check_range("MyInt", -5).is_ok());
    }
}
