//! Bit reversal: sequential ids spread over the whole key space.

/// Spanner's `BIT_REVERSE(x, preserve_sign)`: the bits of `x` in reverse order.
///
/// A key that grows with every insert (an auto-increment id, a sequence) sends every write to
/// the last tablet, and splitting does not help because the next id lands past the split too.
/// Reversing the bits turns the fast-changing low bits into the high ones: consecutive ids land
/// in opposite halves, quarters, eighths of the key space, so writes spread over all tablets
/// while each id stays unique. Spanner's `bit_reversed_positive` sequences hand out exactly
/// these values: the n-th value is `bit_reverse(n, true)` (the counter starts at 1).
///
/// - `preserve_sign == false` reverses all 64 bits, so bit 0 becomes the sign bit and about
///   half of the results are negative.
/// - `preserve_sign == true` keeps bit 63 where it is and reverses bits 0 to 62, so a
///   non-negative input gives a non-negative result: the form for ids stored as positive
///   `INT64` keys.
///
/// Both are involutions: `bit_reverse(bit_reverse(x, p), p) == x`, so the same call decodes.
/// Range scans over the original ids do not survive the transform; only point reads do.
///
/// # Examples
///
/// ```
/// use rowkey::transform::bit_reverse;
///
/// // Spanner: BIT_REVERSE(1, true) and BIT_REVERSE(2, false).
/// assert_eq!(bit_reverse(1, true), 4_611_686_018_427_387_904); // 0x4000_0000_0000_0000
/// assert_eq!(bit_reverse(2, false), 4_611_686_018_427_387_904);
/// assert_eq!(bit_reverse(1, false), i64::MIN);
///
/// // The first values of a bit_reversed_positive sequence jump across the key space.
/// let ids: Vec<i64> = (1..=4).map(|n| bit_reverse(n, true)).collect();
/// assert_eq!(ids, [0x4000 << 48, 0x2000 << 48, 0x6000 << 48, 0x1000 << 48]);
///
/// // Decoding is the same call.
/// assert_eq!(bit_reverse(bit_reverse(1234, true), true), 1234);
/// ```
#[must_use]
pub const fn bit_reverse(x: i64, preserve_sign: bool) -> i64 {
    let bits = x.cast_unsigned();
    if preserve_sign {
        const SIGN: u64 = 1 << 63;
        // With bit 63 cleared, the full reversal puts bit i at 63 - i for i in 0..=62; one
        // shift moves it to 62 - i, which is a reversal of the low 63 bits alone.
        let low = (bits & !SIGN).reverse_bits() >> 1;
        ((bits & SIGN) | low).cast_signed()
    } else {
        bits.reverse_bits().cast_signed()
    }
}

/// Reverses all 64 bits of an unsigned id, for the same reason as [`bit_reverse`].
///
/// It is `u64::reverse_bits`, named here so that key code says what it does. An involution:
/// the same call decodes. For ids below `2^63` it equals `bit_reverse(x as i64, false)` read
/// back as `u64`.
///
/// # Examples
///
/// ```
/// use rowkey::transform::{bit_reverse, bit_reverse_u64};
///
/// assert_eq!(bit_reverse_u64(1), 1 << 63);
/// assert_eq!(bit_reverse_u64(3), 0xc000_0000_0000_0000);
/// assert_eq!(bit_reverse_u64(bit_reverse_u64(987_654_321)), 987_654_321);
/// assert_eq!(bit_reverse_u64(1000), bit_reverse(1000, false) as u64);
/// ```
#[must_use]
pub const fn bit_reverse_u64(x: u64) -> u64 {
    x.reverse_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_bit_stays_put_only_when_asked() {
        assert_eq!(bit_reverse(-2, true), -4_611_686_018_427_387_905);
        assert_eq!(bit_reverse(-2, false), i64::MAX);
        assert_eq!(bit_reverse(i64::MIN, true), i64::MIN);
        assert_eq!(bit_reverse(i64::MIN, false), 1);
        assert_eq!(bit_reverse(i64::MAX, true), i64::MAX);
    }

    #[test]
    fn usable_in_const_context() {
        const FIRST: i64 = bit_reverse(1, true);
        const TOP: u64 = bit_reverse_u64(1);
        assert_eq!(FIRST, 1 << 62);
        assert_eq!(TOP, 1 << 63);
    }
}
