//! The device key (device type, 8-hex device id, `i64` millis) through serde, beside the same
//! key as a tuple through `RowKey`: both write the same bytes, so the difference is what the
//! serde layer costs.
//!
//! Run with `cargo bench --bench serde`; `-- --quick` for a fast look.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rowkey::{Key, RowKey};
use serde::{Deserialize, Serialize};

const KINDS: [&str; 4] = ["phone", "tablet", "watch", "laptop"];

#[derive(Serialize, Deserialize)]
struct Device {
    device_type: String,
    device_id: String,
    ts_millis: i64,
}

#[derive(Deserialize)]
struct DeviceRef<'a> {
    device_type: &'a str,
    device_id: &'a str,
    ts_millis: i64,
}

/// 1,000 device keys from a fixed linear congruential sequence: same inputs every run, and
/// the same sequence as the `encode` bench.
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

fn device_key(c: &mut Criterion) {
    let tuples = devices();
    let structs: Vec<Device> = tuples
        .iter()
        .map(|(kind, id, ts)| Device { device_type: kind.clone(), device_id: id.clone(), ts_millis: *ts })
        .collect();
    let keys: Vec<Key> = tuples.iter().map(|t| t.to_key().unwrap()).collect();
    for (s, k) in structs.iter().zip(&keys) {
        assert_eq!(&rowkey::to_key(s).unwrap(), k, "serde must write the tuple's bytes");
    }

    let mut group = c.benchmark_group("device_key/serde");
    group.throughput(Throughput::Elements(tuples.len() as u64));
    group.bench_function("to_key", |b| {
        b.iter(|| {
            for d in &structs {
                black_box(rowkey::to_key(d).unwrap());
            }
        });
    });
    group.bench_function("to_key_into", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for d in &structs {
                rowkey::to_key_into(d, &mut buf).unwrap();
                black_box(&buf);
            }
        });
    });
    group.bench_function("from_key", |b| {
        b.iter(|| {
            for k in &keys {
                black_box(rowkey::from_key::<Device>(k).unwrap());
            }
        });
    });
    group.bench_function("from_key_borrowed", |b| {
        b.iter(|| {
            for k in &keys {
                let d = rowkey::from_key::<DeviceRef>(k).unwrap();
                black_box((d.device_type, d.device_id, d.ts_millis));
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group("device_key/tuple");
    group.throughput(Throughput::Elements(tuples.len() as u64));
    group.bench_function("to_key", |b| {
        b.iter(|| {
            for d in &tuples {
                black_box(d.to_key().unwrap());
            }
        });
    });
    group.bench_function("encode_into", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for d in &tuples {
                d.encode_into(&mut buf).unwrap();
                black_box(&buf);
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
    group.finish();
}

criterion_group! {
    name = benches;
    // Small samples keep a full run near half a minute on a 2-core machine.
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = device_key
}
criterion_main!(benches);
