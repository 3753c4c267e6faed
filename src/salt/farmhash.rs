//! FarmHash Fingerprint64, the hash behind GoogleSQL `FARM_FINGERPRINT`.
//!
//! Fingerprint64 is the `farmhashna` 64-bit hash of google/farmhash. Unlike the
//! other FarmHash variants its output is frozen: the same bytes give the same
//! value on every platform and in every release, which is what lets a client
//! compute the shard a Spanner or BigQuery expression would pick.
//!
//! Inputs are split into four length classes (0–16, 17–32, 33–64 and longer
//! than 64 bytes), each with its own mixing routine. All words are read
//! little-endian whatever the host byte order, because the reference defines
//! the fingerprint on little-endian loads.

// Odd 64-bit multipliers taken from the reference; changing any of them
// changes every fingerprint.
const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;

/// Initial value of the long-input state; part of the frozen definition.
const SEED: u64 = 81;

/// FarmHash Fingerprint64 of `bytes`.
///
/// The value is stable across platforms and versions, so it may be stored in
/// keys. It is not a cryptographic hash.
///
/// ```
/// assert_eq!(rowkey::salt::fingerprint64(b""), 11160318154034397263);
/// assert_eq!(rowkey::salt::fingerprint64(b"hello"), 13009744463427800296);
/// ```
pub fn fingerprint64(bytes: &[u8]) -> u64 {
    match bytes.len() {
        0..=16 => hash_0_to_16(bytes),
        17..=32 => hash_17_to_32(bytes),
        33..=64 => hash_33_to_64(bytes),
        _ => hash_long(bytes),
    }
}

/// GoogleSQL `FARM_FINGERPRINT(bytes)`: [`fingerprint64`] read as a signed
/// two's-complement `INT64`, as BigQuery and Spanner return it.
///
/// ```
/// assert_eq!(rowkey::salt::farm_fingerprint(b"1footrue"), -1541654101129638711);
/// assert_eq!(rowkey::salt::farm_fingerprint(b"2applefalse"), 2794438866806483259);
/// assert_eq!(rowkey::salt::farm_fingerprint(b"3true"), -4880158226897771312);
/// ```
pub fn farm_fingerprint(bytes: &[u8]) -> i64 {
    fingerprint64(bytes).cast_signed()
}

/// GoogleSQL `MOD(FARM_FINGERPRINT(bytes), n)`, the usual Spanner shard
/// expression, computed client-side.
///
/// Like Rust's `%`, `MOD` takes the sign of the dividend, so about half of all
/// inputs give a negative result. Schemas therefore usually store
/// `ABS(MOD(FARM_FINGERPRINT(x), n))`, which is `spanner_shard(x, n).map(i64::abs)`
/// (the absolute value cannot overflow, since `|MOD(a, n)| < |n|`).
///
/// Returns `None` when `n` is 0, where GoogleSQL raises a division-by-zero
/// error. `MOD(i64::MIN, -1)` is 0, the exact remainder, rather than an
/// overflow panic.
///
/// ```
/// use rowkey::salt::spanner_shard;
///
/// assert_eq!(spanner_shard(b"1footrue", 16), Some(-7));
/// // The shard id most schemas store: ABS(MOD(FARM_FINGERPRINT(x), 16)).
/// assert_eq!(spanner_shard(b"1footrue", 16).map(i64::abs), Some(7));
/// assert_eq!(spanner_shard(b"2applefalse", 16).map(i64::abs), Some(11));
/// assert_eq!(spanner_shard(b"1footrue", 0), None);
/// ```
pub fn spanner_shard(bytes: &[u8], n: i64) -> Option<i64> {
    if n == 0 {
        return None;
    }
    // wrapping_rem only differs from `%` for i64::MIN % -1, where it yields
    // the mathematically correct 0 instead of panicking.
    Some(farm_fingerprint(bytes).wrapping_rem(n))
}

/// Little-endian u64 at `at`; callers have already checked the length class,
/// so an out-of-range read is a bug worth a panic.
#[inline(always)]
fn le64(s: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&s[at..at + 8]);
    u64::from_le_bytes(word)
}

#[inline(always)]
fn le32(s: &[u8], at: usize) -> u64 {
    let mut word = [0; 4];
    word.copy_from_slice(&s[at..at + 4]);
    u64::from(u32::from_le_bytes(word))
}

#[inline(always)]
fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

/// Folds two words into one; every length class ends with this.
#[inline(always)]
fn mix_pair(u: u64, v: u64, mul: u64) -> u64 {
    let a = shift_mix((u ^ v).wrapping_mul(mul));
    let b = shift_mix((v ^ a).wrapping_mul(mul));
    b.wrapping_mul(mul)
}

/// The per-length multiplier: folding the length in keeps inputs that share a
/// prefix but differ in length from colliding.
#[inline(always)]
fn len_mul(len: usize) -> u64 {
    K2.wrapping_add((len as u64).wrapping_mul(2))
}

fn hash_0_to_16(s: &[u8]) -> u64 {
    let len = s.len();
    if len >= 8 {
        let mul = len_mul(len);
        let a = le64(s, 0).wrapping_add(K2);
        // The two loads overlap for lengths below 16, which covers every byte
        // without a tail loop.
        let b = le64(s, len - 8);
        let c = b.rotate_right(37).wrapping_mul(mul).wrapping_add(a);
        let d = a.rotate_right(25).wrapping_add(b).wrapping_mul(mul);
        mix_pair(c, d, mul)
    } else if len >= 4 {
        let mul = len_mul(len);
        let a = le32(s, 0);
        mix_pair((len as u64).wrapping_add(a << 3), le32(s, len - 4), mul)
    } else if len > 0 {
        // First, middle and last byte cover all of a 1-3 byte input.
        let y = u64::from(s[0]) | u64::from(s[len >> 1]) << 8;
        let z = len as u64 + (u64::from(s[len - 1]) << 2);
        shift_mix(y.wrapping_mul(K2) ^ z.wrapping_mul(K0)).wrapping_mul(K2)
    } else {
        K2
    }
}

fn hash_17_to_32(s: &[u8]) -> u64 {
    let len = s.len();
    let mul = len_mul(len);
    let a = le64(s, 0).wrapping_mul(K1);
    let b = le64(s, 8);
    let c = le64(s, len - 8).wrapping_mul(mul);
    let d = le64(s, len - 16).wrapping_mul(K2);
    mix_pair(
        a.wrapping_add(b).rotate_right(43).wrapping_add(c.rotate_right(30)).wrapping_add(d),
        a.wrapping_add(b.wrapping_add(K2).rotate_right(18)).wrapping_add(c),
        mul,
    )
}

fn hash_33_to_64(s: &[u8]) -> u64 {
    let len = s.len();
    let mul = len_mul(len);
    // Same opening as the 17-32 class (but with K2 on the first word) over the
    // first and last 16 bytes; its result then seeds a second pass over the
    // middle words.
    let a = le64(s, 0).wrapping_mul(K2);
    let b = le64(s, 8);
    let c = le64(s, len - 8).wrapping_mul(mul);
    let d = le64(s, len - 16).wrapping_mul(K2);
    let y = a.wrapping_add(b).rotate_right(43).wrapping_add(c.rotate_right(30)).wrapping_add(d);
    let z = mix_pair(y, a.wrapping_add(b.wrapping_add(K2).rotate_right(18)).wrapping_add(c), mul);
    let e = le64(s, 16).wrapping_mul(mul);
    let f = le64(s, 24);
    let g = y.wrapping_add(le64(s, len - 32)).wrapping_mul(mul);
    let h = z.wrapping_add(le64(s, len - 24)).wrapping_mul(mul);
    mix_pair(
        e.wrapping_add(f).rotate_right(43).wrapping_add(g.rotate_right(30)).wrapping_add(h),
        e.wrapping_add(f.wrapping_add(a).rotate_right(18)).wrapping_add(g),
        mul,
    )
}

/// Turns 32 bytes and two seeds into a 128-bit pair. Weak on its own; the long
/// loop relies on the surrounding state to finish the mixing.
#[inline(always)]
fn weak_32(block: &[u8], at: usize, seed_a: u64, seed_b: u64) -> (u64, u64) {
    let (w, x, y, z) = (le64(block, at), le64(block, at + 8), le64(block, at + 16), le64(block, at + 24));
    let mut a = seed_a.wrapping_add(w);
    let mut b = seed_b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    a = a.wrapping_add(x).wrapping_add(y);
    b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

/// The 56-byte running state of the long-input hash.
struct LongState {
    x: u64,
    y: u64,
    z: u64,
    v: (u64, u64),
    w: (u64, u64),
}

impl LongState {
    /// Mixes one 64-byte block in. The body loop and the final block share
    /// this step and differ only in the multiplier and in `weight`, which the
    /// final block sets to 9 to spread the carried state further.
    #[inline(always)]
    fn absorb(&mut self, block: &[u8; 64], mul: u64, weight: u64) {
        let s = &block[..];
        self.x = self
            .x
            .wrapping_add(self.y)
            .wrapping_add(self.v.0)
            .wrapping_add(le64(s, 8))
            .rotate_right(37)
            .wrapping_mul(mul);
        self.y = self.y.wrapping_add(self.v.1).wrapping_add(le64(s, 48)).rotate_right(42).wrapping_mul(mul);
        self.x ^= self.w.1.wrapping_mul(weight);
        self.y = self.y.wrapping_add(self.v.0.wrapping_mul(weight)).wrapping_add(le64(s, 40));
        self.z = self.z.wrapping_add(self.w.0).rotate_right(33).wrapping_mul(mul);
        self.v = weak_32(s, 0, self.v.1.wrapping_mul(mul), self.x.wrapping_add(self.w.0));
        self.w = weak_32(s, 32, self.z.wrapping_add(self.w.1), self.y.wrapping_add(le64(s, 16)));
        std::mem::swap(&mut self.z, &mut self.x);
    }
}

fn as_block(s: &[u8]) -> &[u8; 64] {
    s.try_into().expect("a 64-byte block")
}

fn hash_long(s: &[u8]) -> u64 {
    let len = s.len();
    let y = SEED.wrapping_mul(K1).wrapping_add(113);
    let mut st = LongState {
        x: SEED.wrapping_mul(K2).wrapping_add(le64(s, 0)),
        y,
        z: shift_mix(y.wrapping_mul(K2).wrapping_add(113)).wrapping_mul(K2),
        v: (0, 0),
        w: (0, 0),
    };

    // The body always leaves 1 to 64 bytes for the final block, so a length
    // that is an exact multiple of 64 keeps its last block out of the loop.
    // (Getting this count wrong is the bug in the `farmhash` crate.)
    let body = (len - 1) / 64 * 64;
    for block in s[..body].chunks_exact(64) {
        st.absorb(as_block(block), K1, 1);
    }

    // The final block is the last 64 bytes of input, which may overlap the
    // body; the tail length is folded in so the overlap stays unambiguous.
    let mul = K1.wrapping_add((st.z & 0xff) << 1);
    let tail = ((len - 1) & 63) as u64;
    st.w.0 = st.w.0.wrapping_add(tail);
    st.v.0 = st.v.0.wrapping_add(st.w.0);
    st.w.0 = st.w.0.wrapping_add(st.v.0);
    st.absorb(as_block(&s[len - 64..]), mul, 9);

    mix_pair(
        mix_pair(st.v.0, st.w.0, mul).wrapping_add(shift_mix(st.y).wrapping_mul(K0)).wrapping_add(st.z),
        mix_pair(st.v.1, st.w.1, mul).wrapping_add(st.x),
        mul,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same input pattern as the `pat` rows of the vector file.
    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + 3) as u8).collect()
    }

    #[test]
    fn published_googlesql_values() {
        assert_eq!(farm_fingerprint(b"1footrue"), -1541654101129638711);
        assert_eq!(farm_fingerprint(b"2applefalse"), 2794438866806483259);
        assert_eq!(farm_fingerprint(b"3true"), -4880158226897771312);
        assert_eq!(fingerprint64(b""), 11160318154034397263);
        assert_eq!(fingerprint64(b"hello"), 13009744463427800296);
    }

    #[test]
    fn length_class_boundaries() {
        // Expected values are the `pat` rows of farmhash_fingerprint64.tsv.
        let rows: [(usize, u64); 14] = [
            (0, 11160318154034397263),
            (1, 13745158429558087051),
            (4, 17566270577251613586),
            (8, 907454142650066470),
            (16, 9140634717936656744),
            (17, 14506534093795057959),
            (32, 11907377154618496232),
            (33, 14001582926318596329),
            (64, 389040666157116578),
            (65, 8638051931306504420),
            (128, 7379187116787024497),
            (192, 4590343427702585127),
            (256, 16298571597155337633),
            (1024, 10858762703459307783),
        ];
        for (len, want) in rows {
            assert_eq!(fingerprint64(&pattern(len)), want, "pattern length {len}");
        }
    }

    #[test]
    fn shard_signs_and_edges() {
        assert_eq!(spanner_shard(b"", 16), Some(-1));
        assert_eq!(spanner_shard(b"", -16), Some(-1));
        assert_eq!(spanner_shard(b"2applefalse", 16), Some(11));
        assert_eq!(spanner_shard(b"2applefalse", -16), Some(11));
        assert_eq!(spanner_shard(b"x", 1), Some(0));
        assert_eq!(spanner_shard(b"x", -1), Some(0));
        assert_eq!(spanner_shard(b"x", 0), None);
        // MOD(a, i64::MIN) is `a` itself unless `a` is i64::MIN.
        assert_eq!(spanner_shard(b"a", i64::MIN), Some(farm_fingerprint(b"a")));
    }
}
