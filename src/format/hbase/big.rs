//! The exact integers Java's double-to-decimal conversions are worked in: a non-negative
//! integer of any size, in base 10⁹ so that its decimal digits come straight out of its limbs.
//! Only what those conversions need, none of it fast: they run once per double written, or
//! on a key's rare second form.

use std::cmp::Ordering;

/// Base of the limbs: each holds 9 decimal digits.
const LIMB: u64 = 1_000_000_000;

/// A non-negative integer in base 10⁹, least significant limb first, with no zero limbs on
/// top (but the one of zero itself).
#[derive(Clone, Debug)]
pub(super) struct Big(Vec<u32>);

impl Big {
    pub(super) fn from_u64(v: u64) -> Self {
        let mut big = Big(vec![0]);
        big.add_small(v);
        big
    }

    pub(super) fn one() -> Self {
        Big(vec![1])
    }

    /// `m × 5^five × 2^two`.
    pub(super) fn scaled(m: u64, five: u32, two: u32) -> Self {
        let mut big = Big::from_u64(m);
        big.mul_pow(5, 13, five);
        big.mul_pow(2, 31, two);
        big
    }

    fn add_small(&mut self, v: u64) {
        let mut carry = v;
        for limb in &mut self.0 {
            if carry == 0 {
                return;
            }
            let t = u64::from(*limb) + carry;
            *limb = (t % LIMB) as u32;
            carry = t / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }

    /// Multiplies by `m`.
    pub(super) fn mul(&mut self, m: u64) {
        let mut carry: u128 = 0;
        for limb in &mut self.0 {
            let t = u128::from(*limb) * u128::from(m) + carry;
            *limb = (t % u128::from(LIMB)) as u32;
            carry = t / u128::from(LIMB);
        }
        while carry > 0 {
            self.0.push((carry % u128::from(LIMB)) as u32);
            carry /= u128::from(LIMB);
        }
        self.trim();
    }

    /// Multiplies by `base^exp`, `base^step` at a time (`base^step` below 2³²).
    pub(super) fn mul_pow(&mut self, base: u64, step: u32, mut exp: u32) {
        while exp > 0 {
            let n = exp.min(step);
            self.mul(base.pow(n));
            exp -= n;
        }
    }

    /// `self + other`.
    pub(super) fn plus(&self, other: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len().max(other.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            let t = u64::from(*self.0.get(i).unwrap_or(&0)) + u64::from(*other.0.get(i).unwrap_or(&0)) + carry;
            out.push((t % LIMB) as u32);
            carry = t / LIMB;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        Big(out)
    }

    /// Subtracts `other`, which is at most `self`.
    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut t = i64::from(self.0[i]) - i64::from(*other.0.get(i).unwrap_or(&0)) - borrow;
            borrow = i64::from(t < 0);
            if t < 0 {
                t += LIMB as i64;
            }
            self.0[i] = t as u32;
        }
        self.trim();
    }

    /// The quotient of `self / divisor` when it is small (below 10, for the digit loops), and
    /// `self` left as the remainder.
    pub(super) fn div_rem_small(&mut self, divisor: &Big) -> u32 {
        let mut q = 0;
        while self.cmp(divisor) != Ordering::Less {
            self.sub_assign(divisor);
            q += 1;
        }
        q
    }

    pub(super) fn cmp(&self, other: &Big) -> Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    fn trim(&mut self) {
        while self.0.len() > 1 && self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// The decimal digits, most significant first, left-padded with zeros to `width`.
    pub(super) fn digits(&self, width: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.0.len() * 9);
        for limb in self.0.iter().rev() {
            let mut d = *limb;
            let mut nine = [0u8; 9];
            for slot in nine.iter_mut().rev() {
                *slot = (d % 10) as u8;
                d /= 10;
            }
            out.extend_from_slice(&nine);
        }
        let first = out.iter().position(|&d| d != 0).unwrap_or(out.len());
        let significant = out.len() - first;
        let mut padded = vec![0; width.saturating_sub(significant)];
        padded.extend_from_slice(&out[first..]);
        padded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic() {
        let a = Big::scaled(3, 30, 40);
        let b = Big::scaled(7, 29, 41);
        let expected = |n: u128| n.to_string().bytes().map(|d| d - b'0').collect::<Vec<u8>>();
        let (x, y) = ((3 * 5u128.pow(30)) << 40, (7 * 5u128.pow(29)) << 41);
        assert_eq!(a.digits(0), expected(x));
        assert_eq!(a.plus(&b).digits(0), expected(x + y));
        assert_eq!(a.cmp(&b), x.cmp(&y));
        let mut r = a.clone();
        let q = r.div_rem_small(&b);
        assert_eq!((u128::from(q), r.digits(0)), (x / y, expected(x % y)));
        let mut z = Big::from_u64(LIMB);
        z.sub_assign(&Big::from_u64(LIMB));
        assert_eq!(z.cmp(&Big::from_u64(0)), Ordering::Equal);
    }
}
