//! Encode and decode of the device key (device type, 8-hex device id, `i64` millis), the key
//! of Bigtable's schema guide, over a fixed set of deterministic inputs.
//!
//! Run with `cargo bench --bench encode`; `-- --quick` for a fast look.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rowkey::field::{Hex, Padded};
use rowkey::format::Delimited;
use rowkey::scan::OrderedScan;
use rowkey::{Desc, Key, RowKey};
use std::ops::Bound;

const KINDS: [&str; 4] = ["phone", "tablet", "watch", "laptop"];

/// 1,000 device keys from a fixed linear congruential sequence: same inputs every run.
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

/// The same bytes as rowkey's ordered format, written straight into a reused vector: the
/// practical limit for this key.
fn hand_written((kind, id, millis): &(String, String, i64), out: &mut Vec<u8>) {
    out.clear();
    for field in [kind.as_bytes(), id.as_bytes()] {
        for &b in field {
            out.push(b);
            if b == 0 {
                out.push(0xff);
            }
        }
        out.extend_from_slice(&[0, 1]);
    }
    // A positive orderedcode int64 of n bytes: n one bits, a zero, then the value.
    let v = *millis as u64;
    let n = (u64::BITS - v.leading_zeros() + 7) as usize / 7;
    debug_assert!((2..=8).contains(&n));
    let tagged = v | (((1u64 << n) - 1) << (7 * n));
    for &b in &tagged.to_be_bytes()[8 - n..] {
        out.push(b);
        if b == 0 {
            out.push(0xff);
        }
    }
}

/// The device key as a derived struct: the same bytes as the tuple.
#[derive(RowKey, Clone)]
struct Device {
    device_type: String,
    device_id: String,
    millis: i64,
}

fn ordered(c: &mut Criterion) {
    let inputs = devices();
    let keys: Vec<Key> = inputs.iter().map(|d| d.to_key().unwrap()).collect();
    let mut check = Vec::new();
    for (d, k) in inputs.iter().zip(&keys) {
        hand_written(d, &mut check);
        assert_eq!(check, k.as_bytes(), "the baseline must write rowkey's bytes");
    }
    let mut group = c.benchmark_group("device_key/ordered");
    group.throughput(Throughput::Elements(inputs.len() as u64));

    group.bench_function("to_key", |b| {
        b.iter(|| {
            for d in &inputs {
                black_box(d.to_key().unwrap());
            }
        });
    });
    group.bench_function("encode_into", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for d in &inputs {
                d.encode_into(&mut buf).unwrap();
                black_box(&buf);
            }
        });
    });
    let derived: Vec<Device> = inputs
        .iter()
        .map(|(device_type, device_id, millis)| Device {
            device_type: device_type.clone(),
            device_id: device_id.clone(),
            millis: *millis,
        })
        .collect();
    for (d, k) in derived.iter().zip(&keys) {
        assert_eq!(&d.to_key().unwrap(), k, "the derived key must write the tuple's bytes");
    }
    group.bench_function("derived_to_key", |b| {
        b.iter(|| {
            for d in &derived {
                black_box(d.to_key().unwrap());
            }
        });
    });
    group.bench_function("derived_encode_into", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for d in &derived {
                d.encode_into(&mut buf).unwrap();
                black_box(&buf);
            }
        });
    });
    group.bench_function("derived_from_key", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(Device::from_key(k).unwrap());
            }
        });
    });
    group.bench_function("from_key", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(<(String, String, i64)>::from_key(k).unwrap());
            }
        });
    });
    group.bench_function("from_key_borrowed", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(<(&str, &str, i64)>::from_key(k).unwrap());
            }
        });
    });
    group.bench_function("hand_written_baseline", |b| {
        let mut buf = Vec::with_capacity(64);
        b.iter(|| {
            for d in &inputs {
                hand_written(d, &mut buf);
                black_box(&buf);
            }
        });
    });
    group.finish();
}

/// Scan bounds on the device key: a 2-field prefix, and a time range within it, beside one
/// encode of the key.
fn scan(c: &mut Criterion) {
    let inputs = devices();
    let mut group = c.benchmark_group("device_key/scan");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function("one_encode", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for (kind, id, ts) in &inputs {
                (kind.as_str(), id.as_str(), Desc(*ts)).encode_into(&mut buf).unwrap();
                black_box(&buf);
            }
        });
    });
    group.bench_function("prefix_2_fields", |b| {
        b.iter(|| {
            for (kind, id, _) in &inputs {
                let mut scan = OrderedScan::new(3);
                scan.fix(kind.as_str()).unwrap().fix(id.as_str()).unwrap();
                black_box(scan.ranges());
            }
        });
    });
    group.bench_function("time_range", |b| {
        b.iter(|| {
            for (kind, id, ts) in &inputs {
                let mut scan = OrderedScan::new(3);
                scan.fix(kind.as_str()).unwrap().fix(id.as_str()).unwrap();
                // The last hour, newest first: the later time is the start of a Desc range.
                let ranges = scan.range(Bound::Included(&Desc(*ts)), Bound::Excluded(&Desc(*ts - 3_600_000))).unwrap();
                black_box(ranges);
            }
        });
    });
    group.finish();
}

/// The same key as readable text: `phone#4c410523#1588291200000`-style, with the id as hex
/// and the millis at a fixed 13 digits.
fn delimited(c: &mut Criterion) {
    let hash = Delimited::default();
    let inputs: Vec<(String, Hex<u32>, Padded<i64, 13>)> = devices()
        .into_iter()
        .map(|(kind, id, millis)| (kind, Hex(u32::from_str_radix(&id, 16).unwrap()), Padded(millis)))
        .collect();
    let keys: Vec<Key> = inputs.iter().map(|d| hash.to_key(d).unwrap()).collect();
    let mut group = c.benchmark_group("device_key/delimited");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function("to_key", |b| {
        b.iter(|| {
            for d in &inputs {
                black_box(hash.to_key(d).unwrap());
            }
        });
    });
    group.bench_function("encode_into", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for d in &inputs {
                hash.encode_into(d, &mut buf).unwrap();
                black_box(&buf);
            }
        });
    });
    group.bench_function("from_key", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(hash.from_key::<(String, Hex<u32>, Padded<i64, 13>)>(k).unwrap());
            }
        });
    });
    group.bench_function("from_key_borrowed", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(hash.from_key::<(&str, Hex<u32>, Padded<i64, 13>)>(k).unwrap());
            }
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // Small samples keep a full run near a minute on a 2-core machine.
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = ordered, delimited, scan
}
criterion_main!(benches);
