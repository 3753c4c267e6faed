//! The decimal digits Java's `Double.toString` gave a double up to JDK 18, which HBase clients
//! on those JDKs wrote into `OrderedNumeric` keys (through `BigDecimal.valueOf`).
//!
//! That conversion (`FloatingDecimal`, from JDK 1.1 to 18) generates digits one at a time
//! from exact integers, `B / S`, and stops when the rest of the digits would stay inside the
//! double's rounding interval `±M`, a symmetric test that is not quite the interval; then it
//! rounds the last digit up or not. It is not always the shortest or the closest decimal
//! (`1e23` came out as `9.999999999999999E22`), and its quirks decide the digits, so each is
//! kept here as it was:
//!
//! - an integer from 2⁵³ to 2⁶² is printed from its 64-bit value, rounding off only the digits
//!   that 2^(e−53) cannot reach (`2^57` came out as all of its 18 digits);
//! - the first digit alone never ends a number printed in E form (below 10⁻³ or from 10⁷ up);
//! - the interval below an exact power of two is taken half as wide (`M` halved), a
//!   single-bit subnormal included;
//! - three paths do the arithmetic, in 32-bit, 64-bit or unbounded integers, chosen by an
//!   estimate of the sizes; the fixed-width ones wrap on overflow as Java's integers do (an
//!   overflowed `M` ends the loop), and a digit that reaches the top of the interval exactly
//!   stops the unbounded path but not the fixed-width ones.
//!
//! `tests/data/hbase_double_digits.tsv` holds JDK 17's output for the doubles the tests hold
//! this to.

use std::cmp::Ordering;

use super::big::Big;

/// The bit length of 5ⁿ, as the conversion estimates it (0 for n = 0), up to n = 26; beyond
/// that, 3n.
fn five_bits(n: i32) -> i32 {
    match n {
        0 => 0,
        1..=26 => 64 - 5u64.pow(n as u32).leading_zeros() as i32,
        _ => n * 3,
    }
}

/// ⌊log₁₀ 2ᵖ⌋ for 1 < p < 64: how many low digits of an integer near 2ᵖ⁺⁵³ the double does not
/// determine; 0 otherwise.
fn insignificant_digits(p: i32) -> u32 {
    if !(2..64).contains(&p) {
        return 0;
    }
    let mut x = 1u64 << p;
    let mut n = 0;
    while x >= 10 {
        x /= 10;
        n += 1;
    }
    n
}

/// ⌊log₁₀ of the double⌋, or one more, estimated from its significand and binary exponent
/// with the conversion's own constants (the digit loop corrects an estimate one too high).
// The conversion's constants as it wrote them: its log10(2) is not `LOG10_2`'s last bits, and
// the digits depend on its estimate.
#[allow(clippy::approx_constant)]
fn estimate_decimal_exponent(significand: u64, binary_exponent: i32) -> i32 {
    let fraction = f64::from_bits(0x3ff0_0000_0000_0000 | (significand & ((1 << 52) - 1)));
    let estimate =
        (fraction - 1.5) * 0.289_529_654 + 0.176_091_259 + f64::from(binary_exponent) * 0.301_029_995_663_981;
    estimate.floor() as i32
}

/// The digits JDK 18 and older printed for a positive finite non-zero double: the decimal
/// digits (the first and the last not zero) and the point, the value being
/// `0.DIGITS × 10^point`, in the shape of [`java_digits`](super::java_digits::java_digits).
/// `None` where the conversion would have failed (it never does on the doubles tried).
pub(super) fn jdk18_digits(value: f64) -> Option<(Vec<u8>, i64)> {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let mut significand = bits & ((1 << 52) - 1);
    let (binary_exponent, significant_bits) = if biased == 0 {
        // A subnormal is normalized first, its leading bit moved to bit 52.
        let leading = significand.leading_zeros() as i32;
        let shift = leading - 11;
        significand <<= shift;
        (1 - shift - 1023, 64 - leading)
    } else {
        significand |= 1 << 52;
        (biased - 1023, 53)
    };
    let (mut digits, point) = convert(binary_exponent, significand, significant_bits)?;
    let point = point + digits.len() as i64;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    Some((digits, point))
}

/// The digit generation: digits and the exponent of their last, `value = DIGITS × 10^e`.
fn convert(binary_exponent: i32, significand: u64, significant_bits: i32) -> Option<(Vec<u8>, i64)> {
    let tail_zeros = significand.trailing_zeros() as i32;
    let fraction_bits = 53 - tail_zeros;
    let tiny_bits = (fraction_bits - binary_exponent - 1).max(0);
    if (-21..=62).contains(&binary_exponent) && tiny_bits == 0 {
        // An integer that fits 63 bits.
        let insignificant = if binary_exponent > significant_bits {
            insignificant_digits(binary_exponent - significant_bits - 1)
        } else {
            0
        };
        let integer = if binary_exponent >= 52 {
            significand << (binary_exponent - 52)
        } else {
            significand >> (52 - binary_exponent)
        };
        return Some(integer_digits(integer, insignificant));
    }
    let mut decimal_exponent = estimate_decimal_exponent(significand, binary_exponent);
    // B / S is the double over 10^decimal_exponent, M half its ulp on the same scale, each as
    // 5^x5 × 2^x2 (B times the significand's bits).
    let b5 = (-decimal_exponent).max(0);
    let mut b2 = b5 + tiny_bits + binary_exponent;
    let s5 = decimal_exponent.max(0);
    let mut s2 = s5 + tiny_bits;
    let m5 = b5;
    let mut m2 = b2 - significant_bits;
    let bits = significand >> tail_zeros;
    b2 -= fraction_bits - 1;
    let common = b2.min(s2);
    b2 -= common;
    s2 -= common;
    m2 -= common;
    if fraction_bits == 1 {
        m2 -= 1;
    }
    if m2 < 0 {
        b2 -= m2;
        s2 -= m2;
        m2 = 0;
    }
    let b_bits = fraction_bits + b2 + five_bits(b5);
    let ten_s_bits = s2 + 1 + five_bits(s5 + 1);
    let run = if b_bits < 64 && ten_s_bits < 64 {
        let wrap: fn(i64) -> i64 = if b_bits < 32 && ten_s_bits < 32 { |x| i64::from(x as i32) } else { |x| x };
        let scaled =
            |m: u64, five: i32, two: i32| wrap((m as i64).wrapping_mul(5i64.pow(five as u32)).wrapping_shl(two as u32));
        Fixed { b: scaled(bits, b5, b2), s: scaled(1, s5, s2), m: scaled(1, m5, m2), wrap }.run(&mut decimal_exponent)
    } else {
        Unbounded {
            b: Big::scaled(bits, b5 as u32, b2 as u32),
            s: Big::scaled(1, s5 as u32, s2 as u32),
            m: Big::scaled(1, (m5 + 1) as u32, (m2 + 1) as u32),
            ten_s: Big::scaled(1, (s5 + 1) as u32, (s2 + 1) as u32),
        }
        .run(&mut decimal_exponent)
    };
    let Run { mut digits, low, high, low_difference } = run;
    if digits.is_empty() {
        return None;
    }
    let mut point = i64::from(decimal_exponent) + 1;
    let round_up = match (high, low) {
        (false, _) => false,
        (true, false) => true,
        (true, true) => match low_difference {
            Ordering::Equal => digits.last().is_some_and(|d| d % 2 == 1),
            other => other == Ordering::Greater,
        },
    };
    if round_up {
        match digits.iter().rposition(|&d| d != 9) {
            Some(i) => {
                digits[i] += 1;
                digits.truncate(i + 1);
            }
            None => {
                digits = vec![1];
                point += 1;
            }
        }
    }
    let len = digits.len() as i64;
    Some((digits, point - len))
}

/// The digits of `integer`, its `insignificant` lowest rounded off (half up).
fn integer_digits(mut integer: u64, insignificant: u32) -> (Vec<u8>, i64) {
    let mut exponent = 0;
    if insignificant != 0 {
        let unit = 10u64.pow(insignificant);
        let rest = integer % unit;
        integer /= unit;
        exponent = i64::from(insignificant);
        if rest >= unit / 2 {
            integer += 1;
        }
    }
    (integer.to_string().bytes().map(|d| d - b'0').collect(), exponent)
}

/// What the digit loop ends with: the digits, whether the rest lies below the interval's
/// bottom (`low`) or reaches its top (`high`), and when both, how twice the rest compares
/// with the next digit's unit.
struct Run {
    digits: Vec<u8>,
    low: bool,
    high: bool,
    low_difference: Ordering,
}

/// Whether the number is printed in E form, where the first digit alone never ends it.
fn e_form(decimal_exponent: i32) -> bool {
    !(-3..8).contains(&decimal_exponent)
}

/// The loop in 32- or 64-bit integers: `wrap` keeps each result to the width, as Java's `int`
/// or `long` arithmetic does.
struct Fixed {
    b: i64,
    s: i64,
    m: i64,
    wrap: fn(i64) -> i64,
}

impl Fixed {
    fn run(self, decimal_exponent: &mut i32) -> Run {
        let Fixed { mut b, s, mut m, wrap } = self;
        let ten_s = wrap(s.wrapping_mul(10));
        let mut digits = Vec::with_capacity(20);
        let mut q = b / s;
        b = wrap((b % s).wrapping_mul(10));
        m = wrap(m.wrapping_mul(10));
        let mut low = b < m;
        let mut high = wrap(b.wrapping_add(m)) > ten_s;
        if q == 0 && !high {
            *decimal_exponent -= 1;
        } else {
            digits.push(q as u8);
        }
        if e_form(*decimal_exponent) {
            (low, high) = (false, false);
        }
        while !low && !high {
            q = b / s;
            b = wrap((b % s).wrapping_mul(10));
            m = wrap(m.wrapping_mul(10));
            if m > 0 {
                low = b < m;
                high = wrap(b.wrapping_add(m)) > ten_s;
            } else {
                // `M` overflowed: it is past the rest, which ends the loop.
                (low, high) = (true, true);
            }
            digits.push(q as u8);
        }
        let difference = wrap(wrap(b.wrapping_shl(1)).wrapping_sub(ten_s));
        Run { digits, low, high, low_difference: difference.cmp(&0) }
    }
}

/// The loop in unbounded integers, `M` and `10 S` kept a digit ahead.
struct Unbounded {
    b: Big,
    s: Big,
    m: Big,
    ten_s: Big,
}

impl Unbounded {
    /// One digit: the quotient, and the remainder times ten left in `b`.
    fn next_digit(&mut self) -> u8 {
        let q = self.b.div_rem_small(&self.s);
        self.b.mul(10);
        q as u8
    }

    fn bounds(&self) -> (bool, bool) {
        (self.b.cmp(&self.m) == Ordering::Less, self.b.plus(&self.m).cmp(&self.ten_s) != Ordering::Less)
    }

    fn run(mut self, decimal_exponent: &mut i32) -> Run {
        let mut digits = Vec::with_capacity(20);
        let q = self.next_digit();
        let (mut low, mut high) = self.bounds();
        if q == 0 && !high {
            *decimal_exponent -= 1;
        } else {
            digits.push(q);
        }
        if e_form(*decimal_exponent) {
            (low, high) = (false, false);
        }
        while !low && !high {
            let q = self.next_digit();
            self.m.mul(10);
            (low, high) = self.bounds();
            digits.push(q);
        }
        let low_difference = if high && low {
            let mut twice = self.b.clone();
            twice.mul(2);
            twice.cmp(&self.ten_s)
        } else {
            Ordering::Equal
        };
        Run { digits, low, high, low_difference }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: f64) -> String {
        let (digits, point) = jdk18_digits(v).unwrap();
        let d: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        format!("0.{d}e{point}")
    }

    /// What JDK 17 printed for these (`Double.toString`).
    #[test]
    fn jdk17s_digits() {
        assert_eq!(text(1e23), "0.9999999999999999e23");
        assert_eq!(text(2f64.powi(57)), "0.144115188075855872e18");
        assert_eq!(text(1.0), "0.1e1");
        assert_eq!(text(0.1), "0.1e0");
        assert_eq!(text(5e-324), "0.49e-323");
        assert_eq!(text(1e-323), "0.1e-322");
        assert_eq!(text(f64::MAX), "0.17976931348623157e309");
        assert_eq!(text(2e-3), "0.2e-2");
    }

    #[test]
    fn helper_tables() {
        assert_eq!([0, 1, 2, 3, 4, 26].map(five_bits), [0, 3, 5, 7, 10, 61]);
        assert_eq!([1, 3, 4, 7, 10, 14, 63, 64].map(insignificant_digits), [0, 0, 1, 2, 3, 4, 18, 0]);
    }
}
