//! The decimal digits of a double as Java's `Double.toString` gives them since JDK 19, which
//! are the digits HBase's `OrderedNumeric` holds for a double (it goes through
//! `BigDecimal.valueOf`).
//!
//! The specification: let R be the decimals that round to the double (to nearest, ties to an
//! even significand, so a bound of the rounding interval belongs to R when the double's
//! significand is even), and m the fewest significant digits of a decimal in R. The digits
//! are those of the decimal closest to the double among the decimals of R of m digits, or of 1
//! or 2 digits when m is 1; of two equally close, the one whose last digit is even.
//!
//! Shortest round-trip formatting (Rust's `{:e}`) agrees on m but not always on the choice:
//! it can pick the other of two equally close decimals, it has no two-digit rule (`5e-324`
//! against Java's `4.9E-324`), and it does not count the bounds in. So the choice is made here
//! with exact arithmetic: the double and the bounds of R are written out as exact decimal
//! integers (every one of them is a multiple of a power of two, so its decimal expansion ends),
//! and candidates are read off their leading digits.

use std::cmp::Ordering;

use super::big::Big;

/// The digits of a positive finite non-zero double as Java writes them: the decimal digits
/// (the first and the last not zero) and the point, the value being `0.DIGITS × 10^point`.
pub(super) fn java_digits(value: f64) -> (Vec<u8>, i64) {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (f, e) = if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
    // In units of 2^(e-2): the double is 4f, its rounding interval is 4f ± 2, except below a
    // power of two, where the next double down is half as far.
    let lower = if fraction == 0 && biased > 1 { 4 * f - 1 } else { 4 * f - 2 };
    let (unit, point_shift) = {
        let k = e - 2;
        let mut unit = Big::one();
        if k >= 0 {
            unit.mul_pow(2, 31, k as u32);
            (unit, 0)
        } else {
            // 2^k = 5^-k × 10^k.
            unit.mul_pow(5, 13, (-k) as u32);
            (unit, k)
        }
    };
    let scaled = |m: u64| {
        let mut big = unit.clone();
        big.mul(m);
        big
    };
    let upper = scaled(4 * f + 2).digits(0);
    let width = upper.len();
    let exact = Exact { x: scaled(4 * f).digits(width), lower: scaled(lower).digits(width), upper, even: f % 2 == 0 };
    let (c, dropped) = exact.choose();
    let c_digits: Vec<u8> = c.to_string().bytes().map(|b| b - b'0').collect();
    // The value is c × 10^(point_shift + dropped).
    let point = point_shift + dropped as i64 + c_digits.len() as i64;
    let end = c_digits.iter().rposition(|&d| d != 0).map_or(0, |i| i + 1);
    (c_digits[..end].to_vec(), point)
}

/// The double and the bounds of its rounding interval as decimal integers of one width, all
/// scaled by the same power of ten.
struct Exact {
    x: Vec<u8>,
    lower: Vec<u8>,
    upper: Vec<u8>,
    /// Whether the bounds round to the double (its significand is even).
    even: bool,
}

impl Exact {
    /// The chosen decimal, as `c × 10^dropped`.
    fn choose(&self) -> (u128, usize) {
        let width = self.x.len();
        // The most digits that can be dropped with a decimal still in the interval: the
        // decimals there have the fewest significant digits, m.
        let mut dropped = width;
        let (lo, hi) = loop {
            let (lo, hi) = self.range(dropped);
            if lo <= hi || dropped == 0 || width - dropped >= 38 {
                break (lo, hi);
            }
            dropped -= 1;
        };
        if hi >= 10 {
            return (self.nearest(dropped, lo, hi), dropped);
        }
        // m is 1: the closest of the one- and two-digit decimals, two digits a digit lower (the
        // interval may also reach below a power of ten, two digits lower).
        let mut best: Option<(u128, usize)> = None;
        for d in [dropped.checked_sub(1), dropped.checked_sub(2)].into_iter().flatten() {
            let (lo, hi) = self.range(d);
            let (lo, hi) = (lo.max(10), hi.min(99));
            if lo > hi {
                continue;
            }
            let c = self.nearest(d, lo, hi);
            best = match best {
                Some((b, bd)) => match self.distance(c, d).cmp(&self.distance(b, bd)) {
                    Ordering::Less => Some((c, d)),
                    Ordering::Equal if c.is_multiple_of(2) => Some((c, d)),
                    _ => Some((b, bd)),
                },
                None => Some((c, d)),
            };
        }
        best.unwrap_or((self.nearest(dropped, lo, hi), dropped))
    }

    /// The integers c with `c × 10^dropped` in the interval (empty when `lo > hi`).
    fn range(&self, dropped: usize) -> (u128, u128) {
        let (l, l_exact) = prefix(&self.lower, dropped);
        let (u, u_exact) = prefix(&self.upper, dropped);
        let lo = if self.even && l_exact { l } else { l + 1 };
        let hi = if !self.even && u_exact { u.saturating_sub(1) } else { u };
        (lo.max(1), hi)
    }

    /// The c in `lo..=hi` whose `c × 10^dropped` is closest to the double, ties to even.
    fn nearest(&self, dropped: usize, lo: u128, hi: u128) -> u128 {
        let (below, _) = prefix(&self.x, dropped);
        let rest = &self.x[self.x.len() - dropped..];
        let up = match rest.first() {
            None => false,
            Some(&d) if d != 5 => d > 5,
            Some(_) if rest[1..].iter().any(|&d| d != 0) => true,
            Some(_) => below % 2 == 1,
        };
        (below + u128::from(up)).clamp(lo, hi)
    }

    /// `|c × 10^dropped − x|`, as digits of the common width.
    fn distance(&self, c: u128, dropped: usize) -> Vec<u8> {
        let mut digits: Vec<u8> = c.to_string().bytes().map(|b| b - b'0').collect();
        digits.resize(digits.len() + dropped, 0);
        let width = self.x.len().max(digits.len());
        let pad = |d: &[u8]| {
            let mut v = vec![0; width - d.len()];
            v.extend_from_slice(d);
            v
        };
        let (a, b) = (pad(&digits), pad(&self.x));
        if a >= b { subtract(&a, &b) } else { subtract(&b, &a) }
    }
}

/// The number the digits make after dropping the last `dropped`, and whether those were all
/// zero. Only ever asked for at most 38 digits (a u128's).
fn prefix(digits: &[u8], dropped: usize) -> (u128, bool) {
    let (head, tail) = digits.split_at(digits.len() - dropped.min(digits.len()));
    let value = head.iter().fold(0u128, |acc, &d| acc.saturating_mul(10).saturating_add(u128::from(d)));
    (value, tail.iter().all(|&d| d == 0))
}

/// `a − b` for digit strings of one width with `a ≥ b`.
fn subtract(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = vec![0; a.len()];
    let mut borrow = 0i8;
    for i in (0..a.len()).rev() {
        let mut d = a[i] as i8 - b[i] as i8 - borrow;
        borrow = i8::from(d < 0);
        if d < 0 {
            d += 10;
        }
        out[i] = d as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: f64) -> String {
        let (digits, point) = java_digits(v);
        let d: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        format!("0.{d}e{point}")
    }

    #[test]
    fn javas_choices() {
        // A tie between two shortest decimals goes to the even digit: 83921203583632.625.
        assert_eq!(text(f64::from_bits(0x42d3_14db_61d6_a428)), "0.8392120358363262e14");
        // One digit is widened to the closest of two.
        assert_eq!(text(5e-324), "0.49e-323");
        assert_eq!(text(1e-323), "0.99e-323");
        assert_eq!(text(1e23), "0.1e24");
        assert_eq!(text(1.0), "0.1e1");
        assert_eq!(text(0.1), "0.1e0");
        assert_eq!(text(f64::MAX), "0.17976931348623157e309");
        assert_eq!(text(2.2250738585072014e-308), "0.22250738585072014e-307");
    }
}
