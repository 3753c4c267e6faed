//! [`Value`]: one field of a key, decoded from its bytes by the schema alone.

use std::fmt;

use std::net::IpAddr;

use crate::field::calendar::{SECS_PER_DAY, civil_from_days};
use crate::key::write_readable;

/// A field's value as [`Schema::inspect`](crate::schema::Schema::inspect) decodes it, with
/// any transform undone: the value the Rust struct held, not the bytes the key stores.
///
/// ```
/// use rowkey::schema::Value;
///
/// assert_eq!(Value::Str("phone".into()).to_string(), "phone");
/// assert_eq!(Value::Str("two words".into()).to_string(), "\"two words\"");
/// assert_eq!(Value::Bytes(vec![0x01, b'a']).to_string(), r#"b"\x01a""#);
/// assert_eq!(Value::Int(-7).to_string(), "-7");
/// assert_eq!(Value::Timestamp(1_588_291_200_000_000).to_string(), "2020-05-01T00:00:00Z");
/// assert_eq!(Value::Null.to_string(), "null");
/// // The text "null" is quoted, so that it reads back as text and not as `None`.
/// assert_eq!(Value::Str("null".into()).to_string(), "\"null\"");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// The `None` of an optional field.
    Null,
    /// A `bool`.
    Bool(bool),
    /// Any integer type, `i64::MIN` to `u64::MAX`.
    Int(i128),
    /// An `f32` (widened) or `f64`.
    Float(f64),
    /// Text: strings, chars, and host names with their labels put back in order.
    Str(String),
    /// Bytes, and fields of types the schema cannot see into ([`Encoding::Custom`]), whose
    /// encoded bytes are shown as they are.
    ///
    /// [`Encoding::Custom`]: crate::schema::Encoding::Custom
    Bytes(Vec<u8>),
    /// A point in time, in microseconds since the Unix epoch (UTC).
    Timestamp(i64),
    /// A point in time kept to the nanosecond ([`Nanos`](crate::field::Nanos)), in
    /// nanoseconds since the Unix epoch.
    TimestampNanos(i128),
    /// A date, in days since 1970-01-01.
    Date(i64),
    /// A UUID's 16 bytes.
    Uuid([u8; 16]),
    /// A ULID's 128 bits.
    Ulid(u128),
    /// An IP address.
    Ip(IpAddr),
}

impl Value {
    /// The text of a [`Str`](Value::Str).
    ///
    /// ```
    /// assert_eq!(rowkey::schema::Value::Str("a".into()).as_str(), Some("a"));
    /// assert_eq!(rowkey::schema::Value::Int(1).as_str(), None);
    /// ```
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(text) => Some(text),
            _ => None,
        }
    }

    /// The number of an [`Int`](Value::Int).
    ///
    /// ```
    /// assert_eq!(rowkey::schema::Value::Int(42).as_int(), Some(42));
    /// assert_eq!(rowkey::schema::Value::Null.as_int(), None);
    /// ```
    #[must_use]
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }
}

/// Values print so that a line of `name=value` pairs stays unambiguous: text that holds
/// spaces, quotes, `=` or control characters is quoted, bytes are `b"..."` with `\xNN`
/// escapes, floats use Rust's shortest round-trip form (`0.1`, `1e300`, `inf`, `-inf`),
/// timestamps RFC 3339 in UTC.
///
/// A NaN keeps its sign and payload, as the ordered format does: `NaN` is the canonical quiet
/// NaN (`f64::NAN`, bits `7ff8000000000000`), `-NaN` its negation, and any other NaN is
/// `NaN:0x` and its 16 hex digits of `f64` bits (an `f32` is widened to the `f64` its key
/// holds, so its payload sits 29 bits up: `f32::from_bits(0x7f800001)` is
/// `NaN:0x7ff0000020000000`). [`Schema::encode`](crate::schema::Schema::encode) reads each
/// form back to the same bits.
///
/// ```
/// use rowkey::schema::Value;
///
/// assert_eq!(Value::Float(f64::NAN).to_string(), "NaN");
/// assert_eq!(Value::Float(-f64::NAN).to_string(), "-NaN");
/// assert_eq!(Value::Float(f64::from_bits(0x7ff0_0000_0000_0001)).to_string(), "NaN:0x7ff0000000000001");
/// assert_eq!(Value::Float(f64::from(f32::from_bits(0xffc0_0001))).to_string(), "NaN:0xfff8000020000000");
/// assert_eq!(Value::Float(f64::NEG_INFINITY).to_string(), "-inf");
/// ```
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Float(x) if x.is_nan() => match x.to_bits() {
                CANONICAL_NAN => f.write_str("NaN"),
                NEGATIVE_NAN => f.write_str("-NaN"),
                bits => write!(f, "NaN:{bits:#018x}"),
            },
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Str(text) if is_bare(text) => f.write_str(text),
            Value::Str(text) => write!(f, "{text:?}"),
            Value::Bytes(bytes) => {
                f.write_str("b\"")?;
                write_readable(f, bytes, true)?;
                f.write_str("\"")
            }
            Value::Timestamp(micros) => {
                write_rfc3339(f, micros.div_euclid(1_000_000), micros.rem_euclid(1_000_000) as u32 * 1000)
            }
            Value::TimestampNanos(nanos) => {
                // Within i64 seconds for every type a key holds; the seconds saturate otherwise.
                let secs = i64::try_from(nanos.div_euclid(1_000_000_000)).unwrap_or(i64::MAX);
                write_rfc3339(f, secs, nanos.rem_euclid(1_000_000_000) as u32)
            }
            Value::Date(days) => write_date(f, *days),
            Value::Uuid(bytes) => {
                f.write_str(std::str::from_utf8(&crate::field::uuid::write_text(bytes)).unwrap_or_default())
            }
            Value::Ulid(value) => {
                f.write_str(std::str::from_utf8(&crate::field::ulid::write_text(*value)).unwrap_or_default())
            }
            Value::Ip(ip) => write!(f, "{ip}"),
        }
    }
}

/// The bits of `f64::NAN`, which prints as `NaN`, and of its negation, `-NaN`.
const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;
const NEGATIVE_NAN: u64 = 0xfff8_0000_0000_0000;

/// A float in the forms [`Value`]'s `Display` writes: Rust's own (`1.5`, `-0.0`, `1e300`,
/// `inf`), `NaN`, `-NaN`, or `NaN:0x` and a NaN's 16 hex digits of bits. `None` for other
/// text, and for bits that are not a NaN's.
pub(crate) fn parse_float(text: &str) -> Option<f64> {
    match text {
        "NaN" => return Some(f64::from_bits(CANONICAL_NAN)),
        "-NaN" => return Some(f64::from_bits(NEGATIVE_NAN)),
        _ => {}
    }
    if let Some(digits) = text.strip_prefix("NaN:0x") {
        if digits.len() != 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let x = f64::from_bits(u64::from_str_radix(digits, 16).ok()?);
        return x.is_nan().then_some(x);
    }
    // Rust also reads `nan` and `inf` in any case, with a sign: the sign is the NaN's, with
    // no payload.
    let x: f64 = text.parse().ok()?;
    Some(if x.is_nan() { f64::from_bits(if text.starts_with('-') { NEGATIVE_NAN } else { CANONICAL_NAN }) } else { x })
}

/// Text that can be printed without quotes and still read back from a `name=value` line.
fn is_bare(text: &str) -> bool {
    // `null` bare is an optional field's `None`.
    !text.is_empty()
        && text != "null"
        && text.chars().all(|c| !c.is_whitespace() && !c.is_control() && !matches!(c, '"' | '=' | '\\'))
}

/// Writes an instant as RFC 3339 in UTC with as many fraction digits as it needs (none for
/// a whole second, `.5` for half of one).
pub(crate) fn write_rfc3339(f: &mut fmt::Formatter<'_>, secs: i64, nanos: u32) -> fmt::Result {
    write_date(f, secs.div_euclid(SECS_PER_DAY))?;
    let in_day = secs.rem_euclid(SECS_PER_DAY);
    write!(f, "T{:02}:{:02}:{:02}", in_day / 3600, in_day / 60 % 60, in_day % 60)?;
    if nanos != 0 {
        let digits = format!("{nanos:09}");
        write!(f, ".{}", digits.trim_end_matches('0'))?;
    }
    f.write_str("Z")
}

fn write_date(f: &mut fmt::Formatter<'_>, days: i64) -> fmt::Result {
    let (year, month, day) = civil_from_days(days);
    if (0..=9999).contains(&year) {
        write!(f, "{year:04}")?;
    } else {
        // Beyond RFC 3339's four digits: ISO 8601's expanded years keep the text unambiguous.
        write!(f, "{year:+}")?;
    }
    write!(f, "-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(micros: i64) -> String {
        Value::Timestamp(micros).to_string()
    }

    #[test]
    fn timestamps_print_as_rfc3339() {
        assert_eq!(ts(0), "1970-01-01T00:00:00Z");
        assert_eq!(ts(-1), "1969-12-31T23:59:59.999999Z");
        assert_eq!(ts(1_000), "1970-01-01T00:00:00.001Z");
        assert_eq!(ts(1_588_291_200_500_000), "2020-05-01T00:00:00.5Z");
        assert_eq!(Value::TimestampNanos(-1).to_string(), "1969-12-31T23:59:59.999999999Z");
        assert_eq!(Value::Date(-1).to_string(), "1969-12-31");
        assert_eq!(ts(951_782_400_000_000), "2000-02-29T00:00:00Z");
        assert_eq!(ts(1_767_727_307_246_000), "2026-01-06T19:21:47.246Z");
        assert_eq!(ts(253_402_300_799_000_000), "9999-12-31T23:59:59Z");
        assert_eq!(ts(-62_167_219_200_000_000), "0000-01-01T00:00:00Z");
        assert_eq!(ts(i64::MIN), "-290308-12-21T19:59:05.224192Z");
        assert_eq!(ts(i64::MAX), "+294247-01-10T04:00:54.775807Z");
    }

    #[test]
    fn civil_dates_agree_with_a_day_by_day_walk() {
        // Walk forward from 1970-01-01 through a few leap cycles, counting days by hand.
        let (mut year, mut month, mut day) = (1970i64, 1u32, 1u32);
        for days in 0..(366 * 410) {
            assert_eq!(civil_from_days(days), (year, month, day), "day {days}");
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            let length = match month {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > length {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
    }

    #[test]
    fn text_is_quoted_only_when_it_must_be() {
        assert_eq!(Value::Str("a=b".into()).to_string(), "\"a=b\"");
        assert_eq!(Value::Str(String::new()).to_string(), "\"\"");
        assert_eq!(Value::Str("café".into()).to_string(), "café");
        assert_eq!(Value::Float(0.1).to_string(), "0.1");
        assert_eq!(Value::Float(1e300).to_string(), "1e300");
    }

    #[test]
    fn every_float_reads_back_from_its_text_to_the_same_bits() {
        let nans = [CANONICAL_NAN, NEGATIVE_NAN, 0x7ff0_0000_0000_0001, 0xfff0_0000_0000_0001, 0x7ff8_dead_beef_0001];
        let others = [0.0f64, -0.0, 1.5, -1e-300, 5e-324, f64::MAX, f64::MIN, f64::INFINITY, f64::NEG_INFINITY];
        for x in nans.map(f64::from_bits).into_iter().chain(others) {
            let text = Value::Float(x).to_string();
            assert_eq!(parse_float(&text).map(f64::to_bits), Some(x.to_bits()), "{text}");
        }
        assert_eq!(Value::Float(-0.0).to_string(), "-0.0");
        assert_eq!(parse_float("nan").map(f64::to_bits), Some(CANONICAL_NAN));
        assert_eq!(parse_float("-nan").map(f64::to_bits), Some(NEGATIVE_NAN));
        // Bits that are not a NaN's, and hex of another length, are refused.
        assert_eq!(parse_float("NaN:0x3ff0000000000000"), None);
        assert_eq!(parse_float("NaN:0x7ff000000000001"), None);
        assert_eq!(parse_float("NaN:0x+7ff00000000001"), None);
    }
}
