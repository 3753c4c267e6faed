//! HBase's `OrderedNumeric` bytes: a number as base-100 digits behind a header that orders
//! it by sign and magnitude, and the variable-length unsigned integer its exponents use.
//!
//! A non-zero finite number is `±0.d₁d₂…dₙ × 100^E` with `d₁ ≠ 0` and `dₙ ≠ 0` (each `dᵢ` a
//! base-100 digit). The header byte says the sign and where `E` lies; each digit is written
//! as `2d + 1`, the last as `2d`, so a shorter mantissa sorts before a longer one that extends
//! it. A negative number's exponent and digits are inverted, so larger magnitudes sort first.
//!
//! | header | meaning | then |
//! |---|---|---|
//! | `07` | −∞ | |
//! | `08` | negative, `E > 10` | `~varuint(E)`, `~digits` |
//! | `09`..`12` | negative, `E = 10`..`1` (`13 − E`) | `~digits` |
//! | `14` | negative, `E ≤ 0` | `varuint(−E)`, `~digits` |
//! | `15` | zero | |
//! | `16` | positive, `E ≤ 0` | `~varuint(−E)`, digits |
//! | `18`..`21` | positive, `E = 1`..`10` (`17 + E`) | digits |
//! | `22` | positive, `E > 10` | `varuint(E)`, digits |
//! | `23` | +∞ | |
//! | `26` | NaN | |

use crate::error::{Error, Result};

pub(super) const NEG_INF: u8 = 0x07;
const NEG_LARGE: u8 = 0x08;
const NEG_MED_MIN: u8 = 0x09;
const NEG_MED_MAX: u8 = 0x13;
const NEG_SMALL: u8 = 0x14;
pub(super) const ZERO: u8 = 0x15;
const POS_SMALL: u8 = 0x16;
const POS_MED_MIN: u8 = 0x17;
const POS_MED_MAX: u8 = 0x21;
const POS_LARGE: u8 = 0x22;
pub(super) const POS_INF: u8 = 0x23;
pub(super) const NAN: u8 = 0x26;

/// Appends SQLite4's variable-length unsigned integer: 1 to 9 bytes, ordered as the values.
pub(crate) fn put_varuint(out: &mut Vec<u8>, v: u64) {
    match v {
        0..=240 => out.push(v as u8),
        241..=2287 => {
            let r = v - 240;
            out.extend_from_slice(&[(r / 256 + 241) as u8, (r % 256) as u8]);
        }
        2288..=67823 => {
            let r = v - 2288;
            out.extend_from_slice(&[249, (r / 256) as u8, (r % 256) as u8]);
        }
        _ => {
            let len = (8 - v.leading_zeros() as usize / 8).max(3);
            out.push(247 + len as u8);
            out.extend_from_slice(&v.to_be_bytes()[8 - len..]);
        }
    }
}

/// Reads a varuint from the front of `bytes` (after `flip` is applied to each byte):
/// the value and its length. `None` when it is cut short or not the shortest form.
pub(crate) fn get_varuint(bytes: &[u8], flip: u8) -> Option<(u64, usize)> {
    let at = |i: usize| bytes.get(i).map(|b| b ^ flip);
    let first = at(0)?;
    let (value, len) = match first {
        0..=240 => (u64::from(first), 1),
        241..=248 => (240 + 256 * u64::from(first - 241) + u64::from(at(1)?), 2),
        249 => (2288 + 256 * u64::from(at(1)?) + u64::from(at(2)?), 3),
        _ => {
            let n = usize::from(first - 247);
            let mut v = 0u64;
            for i in 1..=n {
                v = v << 8 | u64::from(at(i)?);
            }
            (v, n + 1)
        }
    };
    let mut again = Vec::with_capacity(9);
    put_varuint(&mut again, value);
    (again.len() == len).then_some((value, len))
}

/// Appends the header, exponent and digits of `±0.digits × 100^exponent`; `digits` are base-100
/// digits with neither a leading nor a trailing zero.
fn put_finite(out: &mut Vec<u8>, negative: bool, exponent: i64, digits: &[u8]) {
    let flip = if negative { 0xff } else { 0 };
    let start = out.len();
    match (negative, exponent) {
        (false, e) if e <= 0 => {
            out.push(POS_SMALL);
            put_varuint(out, e.unsigned_abs());
            invert(&mut out[start + 1..]);
        }
        (false, e @ 1..=10) => out.push(POS_MED_MIN + e as u8),
        (false, e) => {
            out.push(POS_LARGE);
            put_varuint(out, e.unsigned_abs());
        }
        (true, e) if e <= 0 => {
            out.push(NEG_SMALL);
            put_varuint(out, e.unsigned_abs());
        }
        (true, e @ 1..=10) => out.push(NEG_MED_MAX - e as u8),
        (true, e) => {
            out.push(NEG_LARGE);
            put_varuint(out, e.unsigned_abs());
            invert(&mut out[start + 1..]);
        }
    }
    let last = digits.len() - 1;
    for (i, &d) in digits.iter().enumerate() {
        let byte = if i == last { 2 * d } else { 2 * d + 1 };
        out.push(byte ^ flip);
    }
}

fn invert(bytes: &mut [u8]) {
    for b in bytes {
        *b = !*b;
    }
}

/// Base-100 digits of a decimal digit string whose point is `point` digits from its left
/// (`0.DIGITS × 10^point`): the digits and the base-100 exponent.
fn centimal(decimal: &[u8], point: i64) -> (Vec<u8>, i64) {
    let mut text = Vec::with_capacity(decimal.len() + 2);
    // An odd decimal exponent gets a leading zero so that digit pairs line up with the point.
    if point.rem_euclid(2) == 1 {
        text.push(0);
    }
    text.extend_from_slice(decimal);
    if text.len() % 2 == 1 {
        text.push(0);
    }
    let mut digits: Vec<u8> = text.chunks(2).map(|p| p[0] * 10 + p[1]).collect();
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, (point + 1).div_euclid(2))
}

/// Appends an integer.
pub(super) fn put_int(out: &mut Vec<u8>, negative: bool, magnitude: u128) {
    if magnitude == 0 {
        out.push(ZERO);
        return;
    }
    let decimal: Vec<u8> = magnitude.to_string().bytes().map(|b| b - b'0').collect();
    let point = decimal.len() as i64;
    let (digits, exponent) = centimal(&decimal, point);
    put_finite(out, negative, exponent, &digits);
}

/// Appends a float, through the decimal digits Java's `Double.toString` gives it since JDK 19
/// (which HBase's `BigDecimal.valueOf` reads; see [`java_digits`](super::java_digits)).
pub(super) fn put_float(out: &mut Vec<u8>, value: f64) {
    if value.is_nan() {
        out.push(NAN);
    } else if value.is_infinite() {
        out.push(if value > 0.0 { POS_INF } else { NEG_INF });
    } else if value == 0.0 {
        out.push(ZERO);
    } else {
        let (decimal, point) = super::java_digits::java_digits(value.abs());
        let (digits, exponent) = centimal(&decimal, point);
        put_finite(out, value < 0.0, exponent, &digits);
    }
}

/// Appends a float through the decimal digits Java's `Double.toString` gave it up to JDK 18
/// (see [`jdk18_digits`](super::jdk18_digits)): the second form a double has in HBase tables
/// written from those JDKs. `None` for a double whose two forms are one, and for NaN, the
/// infinities and zero, which have one form.
pub(super) fn put_jdk18_float(out: &mut Vec<u8>, value: f64) -> Option<()> {
    if !value.is_finite() || value == 0.0 {
        return None;
    }
    let (decimal, point) = super::jdk18_digits::jdk18_digits(value.abs())?;
    if (decimal.clone(), point) == super::java_digits::java_digits(value.abs()) {
        return None;
    }
    let (digits, exponent) = centimal(&decimal, point);
    put_finite(out, value < 0.0, exponent, &digits);
    Some(())
}

/// The `OrderedNumeric` bytes Java 18 and older wrote for `value` through HBase's
/// `OrderedBytes.encodeNumeric(double)`, when they differ from the bytes rowkey writes (those
/// of JDK 19 and later): the key a row written by such a client has, to read it by key.
/// rowkey reads both forms as `value`, and no other bytes.
///
/// ```
/// use rowkey::field::Numeric;
/// use rowkey::format::HBase;
/// use rowkey::format::hbase::numeric::jdk18_bytes;
///
/// // JDK 17 printed 1e23 as 9.999999999999999E22; JDK 19 and later print 1.0E23.
/// let old = jdk18_bytes(1e23).unwrap();
/// assert_eq!(old, b"\x22\x0c\x13\xc7\xc7\xc7\xc7\xc7\xc7\xc7\xb4");
/// let (Numeric(read),): (Numeric<f64>,) = HBase.from_key(&old)?;
/// assert_eq!(read, 1e23);
/// assert_eq!(HBase.to_key(&(Numeric(1e23),))?.as_bytes(), b"\x22\x0c\x14");
/// assert_eq!(jdk18_bytes(0.5), None); // one form: both JDKs print 0.5
/// # Ok::<(), rowkey::Error>(())
/// ```
#[must_use]
pub fn jdk18_bytes(value: f64) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(24);
    put_jdk18_float(&mut out, value).map(|()| out)
}

/// A number read back: what the header and digits say.
#[derive(Debug, PartialEq)]
pub(super) enum Number {
    Nan,
    Infinite { negative: bool },
    Zero,
    Finite { negative: bool, exponent: i64, digits: Vec<u8> },
}

fn malformed(detail: &'static str) -> Error {
    Error::invalid("Numeric", detail)
}

/// Reads a number from the front of `bytes` (each byte after `flip`): the number and how many
/// bytes it took.
pub(super) fn get(bytes: &[u8], flip: u8) -> Result<(Number, usize)> {
    let Some(&header) = bytes.first() else { return Err(malformed("the key ends where a number should start")) };
    let header = header ^ flip;
    let simple = match header {
        NAN => Some(Number::Nan),
        NEG_INF => Some(Number::Infinite { negative: true }),
        POS_INF => Some(Number::Infinite { negative: false }),
        ZERO => Some(Number::Zero),
        _ => None,
    };
    if let Some(number) = simple {
        return Ok((number, 1));
    }
    let negative = header < ZERO;
    let mut at = 1;
    let exponent = match header {
        NEG_LARGE | POS_LARGE | NEG_SMALL | POS_SMALL => {
            // The exponent is inverted for large negatives and small positives.
            let inner = if matches!(header, NEG_LARGE | POS_SMALL) { !flip } else { flip };
            let (e, len) =
                get_varuint(&bytes[1..], inner).ok_or_else(|| malformed("its exponent is cut short or not minimal"))?;
            at += len;
            let e = i64::try_from(e).map_err(|_| malformed("its exponent is beyond any number"))?;
            match header {
                NEG_LARGE | POS_LARGE if e <= 10 => return Err(malformed("a large number's exponent is 10 or less")),
                NEG_LARGE | POS_LARGE => e,
                _ => -e,
            }
        }
        NEG_MED_MIN..=NEG_MED_MAX if header != NEG_MED_MAX => i64::from(NEG_MED_MAX - header),
        h @ (POS_MED_MIN..=POS_MED_MAX) if h != POS_MED_MIN => i64::from(h - POS_MED_MIN),
        _ => return Err(malformed("its first byte is not a number's header")),
    };
    let digit_flip = if negative { !flip } else { flip };
    let mut digits = Vec::new();
    loop {
        let Some(&raw) = bytes.get(at) else { return Err(malformed("the key ends inside the number's digits")) };
        let byte = raw ^ digit_flip;
        at += 1;
        let digit = byte / 2;
        if digit > 99 {
            return Err(malformed("a digit byte is above 199"));
        }
        digits.push(digit);
        if byte % 2 == 0 {
            break;
        }
    }
    if digits[0] == 0 || digits.last() == Some(&0) {
        return Err(Error::NonCanonical {
            at: crate::error::Location::default(),
            detail: "the number's digits start or end with a zero",
        });
    }
    Ok((Number::Finite { negative, exponent, digits }, at))
}

impl Number {
    /// The integer, as a sign and a magnitude; `None` for a fraction or a value beyond u128.
    pub(super) fn to_int(&self) -> Option<(bool, u128)> {
        match self {
            Number::Zero => Some((false, 0)),
            Number::Finite { negative, exponent, digits } => {
                let shift = exponent.checked_sub(i64::try_from(digits.len()).ok()?)?;
                if shift < 0 {
                    return None;
                }
                let mut value =
                    digits.iter().try_fold(0u128, |acc, &d| acc.checked_mul(100)?.checked_add(u128::from(d)))?;
                for _ in 0..shift {
                    value = value.checked_mul(100)?;
                }
                Some((*negative, value))
            }
            Number::Nan | Number::Infinite { .. } => None,
        }
    }

    /// The nearest f64.
    pub(super) fn to_f64(&self) -> f64 {
        match self {
            Number::Nan => f64::NAN,
            Number::Infinite { negative: true } => f64::NEG_INFINITY,
            Number::Infinite { negative: false } => f64::INFINITY,
            Number::Zero => 0.0,
            Number::Finite { negative, exponent, digits } => {
                let mut text = String::with_capacity(digits.len() * 2 + 8);
                if *negative {
                    text.push('-');
                }
                text.push_str("0.");
                for d in digits {
                    text.push(char::from(b'0' + d / 10));
                    text.push(char::from(b'0' + d % 10));
                }
                text.push('e');
                text.push_str(&exponent.saturating_mul(2).to_string());
                text.parse().unwrap_or(f64::NAN)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varuints_are_minimal_and_read_back() {
        for v in [0, 240, 241, 2287, 2288, 67823, 67824, 1 << 24, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            put_varuint(&mut out, v);
            assert_eq!(get_varuint(&out, 0), Some((v, out.len())), "{v}");
        }
        // 240 in two bytes and 0 in four are not the shortest forms; a cut one is no varint.
        assert_eq!(get_varuint(&[241, 0], 0), None);
        assert_eq!(get_varuint(&[250, 0, 0, 0], 0), None);
        assert_eq!(get_varuint(&[250, 0], 0), None);
    }

    /// HBase's own `putVaruint64` output, from the vector file the integration tests read.
    #[test]
    fn varuints_are_hbases() {
        let rows = include_str!("../../../tests/data/hbase_orderedbytes.tsv");
        let mut checked = 0;
        for line in rows.lines().filter(|l| l.starts_with("putVaruint64\t")) {
            let fields: Vec<&str> = line.split('\t').collect();
            let value: u64 = fields[2].parse().unwrap();
            let mut out = Vec::new();
            put_varuint(&mut out, value);
            let hex: String = out.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(hex, fields[3], "{line}");
            assert_eq!(get_varuint(&out, 0), Some((value, out.len())), "{line}");
            checked += 1;
        }
        assert_eq!(checked, 20);
    }

    /// A found crash: an exponent near i64::MAX overflowed when doubled for the float's text.
    #[test]
    fn huge_exponents_are_refused_not_overflowed() {
        let mut bytes = vec![POS_LARGE];
        put_varuint(&mut bytes, u64::MAX >> 1);
        bytes.push(0x02);
        let (number, _) = get(&bytes, 0).unwrap();
        assert_eq!(number.to_f64(), f64::INFINITY);
        assert_eq!(number.to_int(), None);
    }

    #[test]
    fn integers_read_back() {
        for v in [1i128, -1, 99, 100, 10_001, -12_345, i128::from(i64::MIN), i128::MAX, -i128::MAX] {
            let mut out = Vec::new();
            put_int(&mut out, v < 0, v.unsigned_abs());
            let (n, len) = get(&out, 0).unwrap();
            assert_eq!(len, out.len());
            assert_eq!(n.to_int(), Some((v < 0, v.unsigned_abs())), "{v}");
        }
    }
}
