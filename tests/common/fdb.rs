//! Generated values for the FoundationDB tuple tests (the property tests, the differential test
//! against `foundationdb-tuple` and the keys checked by FoundationDB's Python binding), biased
//! towards the bytes the tuple layer treats specially: `00` and `ff` in strings and bytes, the
//! integers at each length's edge, -0.0 and NaN.
//!
//! Included by path (`#[path = "common/fdb.rs"]`) by the tests that use it.
#![allow(dead_code)] // each test binary uses its own subset

use proptest::prelude::*;
use rowkey::field::Versionstamp;

/// `PROPTEST_CASES` when set, else `cases`.
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

/// Magnitudes at every byte length's edge: 2^(8k) - 1, 2^(8k), 2^(8k) + 1.
fn edge_magnitudes() -> Vec<u128> {
    let mut edges = vec![0, 1, 2];
    for k in 1..16 {
        let p = 1u128 << (8 * k);
        edges.extend([p - 2, p - 1, p, p + 1]);
    }
    edges.push(u128::MAX - 1);
    edges.push(u128::MAX);
    edges
}

/// A magnitude of at most `max_bytes` bytes, of a random byte length (so every type code is
/// reached), or an edge.
pub fn magnitude_of(max_bytes: u32) -> impl Strategy<Value = u128> {
    let limit = if max_bytes == 16 { u128::MAX } else { (1u128 << (8 * max_bytes)) - 1 };
    let edges: Vec<u128> = edge_magnitudes().into_iter().filter(|&m| m <= limit).collect();
    prop_oneof![
        2 => prop::sample::select(edges),
        3 => (1..=max_bytes, any::<u128>()).prop_map(|(bytes, bits)| bits >> (128 - 8 * bytes)),
    ]
}

pub fn magnitude() -> impl Strategy<Value = u128> {
    magnitude_of(16)
}

pub fn i128s() -> impl Strategy<Value = i128> {
    prop_oneof![
        (magnitude(), any::<bool>()).prop_map(|(m, negative)| {
            let m = m.min(i128::MAX as u128) as i128;
            if negative { -m } else { m }
        }),
        Just(i128::MIN),
        Just(i128::MAX),
    ]
}

pub fn u128s() -> impl Strategy<Value = u128> {
    magnitude()
}

pub fn i64s() -> impl Strategy<Value = i64> {
    prop_oneof![
        8 => (magnitude_of(8), any::<bool>()).prop_map(|(m, negative)| {
            let m = m.min(i64::MAX as u128) as i64;
            if negative { -m } else { m }
        }),
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
    ]
}

pub fn u64s() -> impl Strategy<Value = u64> {
    magnitude_of(8).prop_map(|m| m as u64)
}

/// Any bit pattern, NaN payloads included, or an edge.
pub fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => any::<u64>().prop_map(f64::from_bits),
        1 => prop::sample::select(vec![0.0, -0.0, f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE, 1.0, -1.0]),
        1 => any::<f64>(),
    ]
}

pub fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => any::<u32>().prop_map(f32::from_bits),
        1 => prop::sample::select(vec![0.0, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0, -1.0]),
    ]
}

/// Text with NULs, characters of every UTF-8 length, and `\u{ff}`.
pub fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            2 => prop::sample::select(vec!['\0', 'a', 'b', '\u{7f}', '\u{ff}', 'é', '中', '🔥']),
            1 => any::<char>(),
        ],
        0..6,
    )
    .prop_map(String::from_iter)
}

/// Bytes with `00` and `ff` often.
pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![2 => prop::sample::select(vec![0x00u8, 0xff, 0x01, 0xfe]), 1 => any::<u8>()],
        0..8,
    )
}

pub fn versionstamps() -> impl Strategy<Value = Versionstamp> {
    (any::<[u8; 10]>(), any::<u16>()).prop_map(|(tr, user)| Versionstamp::new(tr, user))
}

pub fn uuids() -> impl Strategy<Value = uuid::Uuid> {
    any::<u128>().prop_map(uuid::Uuid::from_u128)
}
