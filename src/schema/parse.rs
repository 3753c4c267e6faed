//! A field's value from its text, in the forms [`Schema::encode`] reads and `inspect`
//! prints, and which values a store format's custom field holds as a number.
//!
//! [`Schema::encode`]: crate::schema::Schema::encode

use crate::error::{Error, Result};
use crate::field::calendar::{civil_from_days, days_from_civil, parse_date};
use crate::key::Key;
use crate::key_text::KeyForm;
use crate::schema::decode::{inner_type, primitive_int};
use crate::schema::redact::WITHHELD;
use crate::schema::value::parse_float;
use crate::schema::{Encoding, FieldSchema, Format, Value};

/// A field's value from its text, in the forms [`Schema::encode`] lists, for a key in `format`.
pub(crate) fn parse_value(format: Format, field: &FieldSchema, text: &str) -> Result<Value> {
    if field.optional && text == "null" {
        return Ok(Value::Null);
    }
    let bad = |form: &str| {
        // A sensitive field's text is not echoed back.
        let given = if field.sensitive { format!("the value given {WITHHELD}") } else { format!("{text:?}") };
        Error::argument(
            "field value",
            format!("`{}` is {} ({}): {given} is not {form}", field.name, field.rust_type, field.encoding),
        )
    };
    let int = |text: &str| text.parse::<i128>().map_err(|_| bad("a decimal integer"));
    Ok(match field.encoding {
        Encoding::Utf8 | Encoding::Char => Value::Str(unquote(text).ok_or_else(|| bad("text, or quoted text"))?),
        Encoding::Hex { .. } if is_int_type(field.rust_type) => {
            Value::Int(i128::from_str_radix(text, 16).map_err(|_| bad("hex digits"))?)
        }
        Encoding::Hex { .. } => Value::Bytes(KeyForm::Hex.parse(text).map_err(|_| bad("hex digits"))?.into_vec()),
        // HBase's `numeric` fields and a store format's `i128`, whose values the schema knows.
        Encoding::Custom | Encoding::Numeric if !format.is_bigtable() && numeric(field).is_some() => {
            match numeric(field) {
                Some(Number::Int) => Value::Int(int(text)?),
                _ => Value::Float(parse_float(text).ok_or_else(|| bad("a number, inf, -inf, NaN"))?),
            }
        }
        Encoding::Bytes | Encoding::ByteArray { .. } | Encoding::Custom | Encoding::Numeric => {
            Value::Bytes(parse_bytes(text).ok_or_else(|| bad("bytes (b\"...\" or cbt text, \\xNN escapes)"))?)
        }
        Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. } => {
            Value::Int(int(text)?)
        }
        Encoding::Float64 | Encoding::Float32 => Value::Float(
            parse_float(text)
                .ok_or_else(|| bad("a number, inf, -inf, NaN, -NaN or NaN:0x and a NaN's 16 hex digits"))?,
        ),
        Encoding::Bool => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(bad("true or false")),
        },
        Encoding::TimestampMicros | Encoding::Timestamp(_) => {
            let (secs, nanos) = parse_rfc3339(text).ok_or_else(|| bad("an RFC 3339 time in UTC"))?;
            let nanos = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
            match field.encoding {
                Encoding::Timestamp(spec) if spec.nanos => Value::TimestampNanos(nanos),
                _ if nanos % 1000 != 0 => return Err(bad("an instant in whole microseconds")),
                _ => Value::Timestamp(
                    i64::try_from(nanos / 1000).map_err(|_| bad("an instant within i64 microseconds of 1970"))?,
                ),
            }
        }
        Encoding::Date(_) => Value::Date(parse_day(text).ok_or_else(|| bad("a date YYYY-MM-DD"))?),
        Encoding::Uuid => Value::Uuid(
            crate::field::uuid::parse_text(text.as_bytes(), field.rust_type)
                .map_err(|_| bad("a hyphenated lowercase UUID"))?,
        ),
        Encoding::Ulid => Value::Ulid(
            crate::field::ulid::parse_text(text.as_bytes(), field.rust_type)
                .map_err(|_| bad("a ULID in Crockford base32"))?,
        ),
        Encoding::Ipv4 | Encoding::Ipv6 | Encoding::IpAddr => {
            Value::Ip(text.parse().map_err(|_| bad("an IP address"))?)
        }
        Encoding::Flattened(_) => return Err(bad("a value: a flattened struct's fields are given one by one")),
    })
}

fn is_int_type(rust_type: &str) -> bool {
    let inner = rust_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(rust_type);
    let last = inner.rsplit(':').next().unwrap_or(inner);
    matches!(last, "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize")
}

/// Text as `Value`'s `Display` writes it: bare, or quoted with Rust's escapes.
/// Bytes as `inspect` prints them (`b"..."`), or bare cbt text (`\xNN` escapes).
pub(super) fn parse_bytes(text: &str) -> Option<Vec<u8>> {
    let inner = text.strip_prefix("b\"").and_then(|t| t.strip_suffix('"')).unwrap_or(text);
    KeyForm::Cbt.parse(&inner.replace("\\\"", "\"")).ok().map(Key::into_vec)
}

pub(super) fn unquote(text: &str) -> Option<String> {
    let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
        return Some(text.to_owned());
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            'u' => {
                let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let code = u32::from_str_radix(rest.strip_prefix('{')?, 16).ok()?;
                out.push(char::from_u32(code)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// `YYYY-MM-DD`, or with ISO 8601's expanded year (`+10000-01-01`, `-0001-12-31`) as `Value`
/// prints years outside 0000 to 9999, into days from the epoch.
fn parse_day(date: &str) -> Option<i64> {
    let Some(unsigned) = date.strip_prefix(['+', '-']) else {
        return parse_date(date.as_bytes(), "date").ok();
    };
    let mut parts = unsigned.splitn(3, '-');
    let (year, month, day): (u32, u32, u32) =
        (parts.next()?.parse().ok()?, parts.next()?.parse().ok()?, parts.next()?.parse().ok()?);
    // Beyond every date and time type's range, and near enough that seconds stay within i64.
    if year > 1_000_000_000 || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let year = if date.starts_with('-') { -i64::from(year) } else { i64::from(year) };
    let days = days_from_civil(year, month, day);
    // A day the month does not have (02-30) would count on into the next month.
    (civil_from_days(days) == (year, month, day)).then_some(days)
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` into seconds and nanoseconds from the epoch.
fn parse_rfc3339(text: &str) -> Option<(i64, u32)> {
    let (date, time) = text.split_once('T')?;
    let days = parse_day(date)?;
    let time = time.strip_suffix('Z')?;
    let (hms, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut parts = hms.split(':').map(|p| (p.len() == 2).then(|| p.parse::<i64>().ok()).flatten());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    if parts.next().is_some() || h > 23 || m > 59 || s > 59 || fraction.len() > 9 {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let nanos = if fraction.is_empty() { 0 } else { format!("{fraction:0<9}").parse().ok()? };
    Some((days * 86_400 + h * 3600 + m * 60 + s, nanos))
}

/// The number a custom field holds as HBase's `numeric` (`OrderedNumeric`).
pub(super) enum Number {
    Int,
    F32,
    F64,
}

/// What number a field of a store format holds as a number the schema reads: an HBase
/// `numeric` field (of its plain number type), or an `i128`, which the derive describes as
/// custom in every format. (A `u128`'s values do not all fit a [`Value`], so it stays custom.)
pub(super) fn numeric(field: &FieldSchema) -> Option<Number> {
    if field.encoding != Encoding::Custom && field.encoding != Encoding::Numeric {
        return None;
    }
    match inner_type(field.rust_type) {
        "f64" => Some(Number::F64),
        "f32" => Some(Number::F32),
        "i128" => Some(Number::Int),
        ty => primitive_int(ty).map(|_| Number::Int),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expanded_years_read_back_and_impossible_dates_are_refused() {
        assert_eq!(parse_day("1970-01-01"), Some(0));
        assert_eq!(parse_day("+10000-01-01"), Some(2_932_897));
        assert_eq!(parse_day("-0001-12-31"), Some(-719_529));
        assert_eq!(parse_day("+2021-02-30"), None);
        assert_eq!(parse_day("+2021-13-01"), None);
        assert_eq!(parse_day("+2021-4294967295-01"), None);
        assert_eq!(parse_day("-99999999999-01-01"), None);
        // The first and last microseconds of i64, as `Value` prints them.
        assert_eq!(parse_rfc3339("-290308-12-21T19:59:05.224192Z"), Some((-9_223_372_036_855, 224_192_000)));
        assert_eq!(parse_rfc3339("+294247-01-10T04:00:54.775807Z"), Some((9_223_372_036_854, 775_807_000)));
        assert_eq!(parse_rfc3339("+1000000000-12-31T23:59:59Z").map(|(s, _)| s > 0), Some(true));
    }
}
