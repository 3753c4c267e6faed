//! FarmHash Fingerprint64 by input length, salting the device key beside its plain encode,
//! and the derived device key's `to_key` (the Python package's anchor). Run with `cargo bench --bench salt`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rowkey::salt::{Salt, fingerprint64};
use rowkey::{Desc, Key, RowKey};

fn fingerprint(c: &mut Criterion) {
    let mut group = c.benchmark_group("fingerprint64");
    for len in [8usize, 32, 256] {
        let input: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_function(format!("{len}_bytes"), |b| b.iter(|| fingerprint64(black_box(&input))));
    }
    group.finish();
}

fn salting(c: &mut Criterion) {
    let devices: Vec<(String, String, i64)> = (0..1000u32)
        .map(|i| {
            let kind = ["phone", "tablet", "watch"][i as usize % 3].to_owned();
            (kind, format!("{:08x}", i.wrapping_mul(2_654_435_761)), 1_700_000_000_000 + i64::from(i) * 977)
        })
        .collect();
    let salt = Salt::farmhash(16).unwrap();
    let mut group = c.benchmark_group("device_key/salted");
    group.throughput(Throughput::Elements(devices.len() as u64));
    group.bench_function("plain_encode_into", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for (kind, id, ts) in &devices {
                (kind.as_str(), id.as_str(), Desc(*ts)).encode_into(&mut buf).unwrap();
                black_box(&buf);
            }
        });
    });
    group.bench_function("bucket_only", |b| {
        b.iter(|| {
            for (_, id, _) in &devices {
                black_box(salt.bucket(&(id.as_str(),)).unwrap());
            }
        });
    });
    group.bench_function("salted_encode_into", |b| {
        let mut buf = Key::new();
        b.iter(|| {
            for (kind, id, ts) in &devices {
                let bucket = salt.bucket(&(id.as_str(),)).unwrap();
                salt.encode_ordered_into(bucket, &(kind.as_str(), id.as_str(), Desc(*ts)), &mut buf).unwrap();
                black_box(&buf);
            }
        });
    });
    group.finish();
}

/// The README's device key, derived: the anchor of the Python package's `encode_many` of
/// the same schema (`benches/python/bench.py` prints the comparison), over the same rows.
#[derive(RowKey)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct Reading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

fn derived_reading(c: &mut Criterion) {
    let readings: Vec<Reading> = (0..10_000i64)
        .map(|i| Reading {
            device_type: "phone".to_owned(),
            device_id: format!("{i:08x}"),
            ts_millis: 1_588_291_200_000 + i,
        })
        .collect();
    let mut group = c.benchmark_group("reading");
    group.throughput(Throughput::Elements(readings.len() as u64));
    group.bench_function("derived_to_key", |b| {
        b.iter(|| {
            for reading in &readings {
                black_box(reading.to_key().unwrap());
            }
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = fingerprint, salting, derived_reading
}
criterion_main!(benches);
