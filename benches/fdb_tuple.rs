//! The device key (device type, 8-hex device id, `i64` millis) in FoundationDB's tuple format:
//! rowkey's `FdbTuple` beside the `foundationdb-tuple` crate, which writes the same bytes.
//! Encode into a reused buffer, decode borrowed (`&str` fields) and owned (`String` fields).
//!
//! Run with `cargo bench --bench fdb_tuple`; `-- --quick` for a fast look.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rowkey::Key;
use rowkey::format::FdbTuple;

const KINDS: [&str; 4] = ["phone", "tablet", "watch", "laptop"];

/// 1,000 device keys from a fixed linear congruential sequence (the `encode` bench's).
fn devices() -> Vec<(String, String, i64)> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..1000)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let kind = KINDS[(state >> 60) as usize % KINDS.len()].to_owned();
            let id = format!("{:08x}", (state >> 16) as u32);
            let millis = 1_700_000_000_000 + (state >> 24) as i64 % 100_000_000_000;
            (kind, id, millis)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let devices = devices();
    let tuples = FdbTuple::default();
    let keys: Vec<Vec<u8>> = devices.iter().map(foundationdb_tuple::pack).collect();
    for (device, key) in devices.iter().zip(&keys) {
        assert_eq!(tuples.to_key(device).unwrap().as_bytes(), &key[..], "the two write the same bytes");
    }

    let mut group = c.benchmark_group("fdb_tuple");
    group.throughput(Throughput::Elements(devices.len() as u64));

    group.bench_function("encode/rowkey", |b| {
        let mut key = Key::new();
        b.iter(|| {
            for d in &devices {
                tuples.encode_into(black_box(&(d.0.as_str(), d.1.as_str(), d.2)), &mut key).unwrap();
                black_box(&key);
            }
        });
    });
    group.bench_function("encode/foundationdb-tuple", |b| {
        let mut out = Vec::with_capacity(64);
        b.iter(|| {
            for d in &devices {
                out.clear();
                foundationdb_tuple::pack_into(black_box(&(d.0.as_str(), d.1.as_str(), d.2)), &mut out);
                black_box(&out);
            }
        });
    });

    group.bench_function("decode borrowed/rowkey", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(tuples.from_key::<(&str, &str, i64)>(black_box(k)).unwrap());
            }
        });
    });
    group.bench_function("decode borrowed/foundationdb-tuple", |b| {
        b.iter(|| {
            for k in &keys {
                let value: (std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>, i64) =
                    foundationdb_tuple::unpack(black_box(k)).unwrap();
                black_box(value);
            }
        });
    });

    group.bench_function("decode owned/rowkey", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(tuples.from_key::<(String, String, i64)>(black_box(k)).unwrap());
            }
        });
    });
    group.bench_function("decode owned/foundationdb-tuple", |b| {
        b.iter(|| {
            for k in &keys {
                let value: (String, String, i64) = foundationdb_tuple::unpack(black_box(k)).unwrap();
                black_box(value);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
