//! Load: `ROWKEY_LOAD_ROWS` rows (20,000 unless set; `.ci/run` sets 100,000) of salted keys
//! over 16 buckets, each with a value of 200 bytes to 4 KiB (2 KiB on average), written
//! through `MutateRows` and read back by a merged fan-out stream.
//!
//! Reports rows per second for writes with one batch in flight (as writes went before they
//! were concurrent) and with the default configuration, and for the merged read collected
//! (every bucket read whole, then merged: what `read_merged` did before it streamed) and
//! streamed by `Table::stream_merged`, with the default pages and with pages bounded by bytes
//! alone; and the client's peak heap above its level before each read, counted by the test
//! binary's allocator. The streamed read must deliver its first row long before its last,
//! every row once in merge order, and stay under a bound that does not grow with the
//! table.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rowkey::KeyRanges;
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::{Config, MergedRows, ReadOptions, Row, Table, set_cell};
use rowkey::salt::Salt;

use crate::FAMILY;
use crate::emulator::Emulator;
use crate::heap;

/// The most heap a streamed merged read of any size may hold above its starting level.
const STREAMED_HEAP_BOUND: usize = 32 << 20;

type Reading = (String, i64);

fn rows_wanted() -> usize {
    std::env::var("ROWKEY_LOAD_ROWS").ok().and_then(|n| n.replace('_', "").parse().ok()).unwrap_or(20_000)
}

fn readings(n: usize) -> impl Iterator<Item = Reading> {
    // 100 rows a device: devices spread over every bucket, each device's rows in one.
    (0..n).map(|i| (format!("dev{:06}", i / 100), 1_600_000_000_000 + i64::try_from(i % 100).unwrap()))
}

/// A value of 200 to 4,095 bytes, its size spread evenly over the rows, led by the reading's
/// time so that each row's value is its own.
fn value(reading: &Reading) -> Vec<u8> {
    let spread = usize::try_from(reading.1.unsigned_abs() % 3_896).unwrap();
    let size = 200 + (spread * 7_919) % 3_896;
    let mut value = format!("{:>24}", reading.1).into_bytes();
    value.resize(size, b'.');
    value
}

fn per_sec(rows: usize, took: Duration) -> String {
    #[allow(clippy::cast_precision_loss)]
    let rate = rows as f64 / took.as_secs_f64();
    format!("{rate:.0} rows/s ({rows} rows in {took:.2?})")
}

pub async fn load(emulator: &Emulator, direct: &BigTableConnection) {
    let n = rows_wanted();
    let salt = Salt::farmhash(16).expect("16 buckets");
    let rows = |salt: &Salt| {
        let salt = *salt;
        readings(n).map(move |reading| {
            let key = salt.ordered_key(&(reading.0.as_str(),), &reading).expect("a salted key");
            (key, vec![set_cell(FAMILY, "v", value(&reading), 1_000)])
        })
    };

    emulator.create_table("load_one_in_flight", FAMILY);
    let one = Table::new(direct.client(), "load_one_in_flight")
        .with_config(Config::default().batches_in_flight(1).batch_rows(usize::MAX));
    let started = Instant::now();
    assert_eq!(one.write_rows(rows(&salt)).await.expect("MutateRows"), n);
    let one_in_flight = started.elapsed();

    emulator.create_table("load", FAMILY);
    let table = Table::new(direct.client(), "load");
    let started = Instant::now();
    assert_eq!(table.write_rows(rows(&salt)).await.expect("MutateRows"), n);
    let concurrent = started.elapsed();
    eprintln!("load: writes, one batch in flight (as before): {}", per_sec(n, one_in_flight));
    eprintln!("load: writes, {} batches of {} rows in flight: {}", 8, 1000, per_sec(n, concurrent));

    let buckets = crate::bucket_ranges(16);
    let unsalt = |row: &Row| salt.decode_ordered::<Reading>(&row.key).expect("a salted key").1;

    // Collected: every bucket whole, then merged.
    let everything = ReadOptions::new();
    let base = heap::reset_peak();
    let started = Instant::now();
    let whole = futures_util::future::try_join_all(buckets.iter().map(|b| table.read_rows(b, &everything)))
        .await
        .expect("ReadRows");
    let merged: Vec<Row> = rowkey::merge(whole, unsalt).collect();
    let collected = started.elapsed();
    assert_eq!(merged.len(), n);
    drop(merged);
    let collected_heap = heap::peak() - base;

    eprintln!(
        "load: merged read of 16 buckets, collected (as before): {}, peak heap {:.1} MiB",
        per_sec(n, collected),
        mib(collected_heap)
    );
    public_merged(&table, &buckets, &salt, n, "pages of 1,000 rows and 1 MiB (the default)").await;
    let by_bytes = table.clone().with_config(Config::default().merge_page_rows(None));
    public_merged(&by_bytes, &buckets, &salt, n, "pages of 1 MiB").await;
}

/// The read through `Table::stream_merged`, as a caller writes it: every row once in merge
/// order, the first long before the last, and the heap bound.
async fn public_merged(table: &Table, buckets: &[KeyRanges], salt: &Salt, n: usize, how: &str) {
    let unsalt = |row: &Row| salt.decode_ordered::<Reading>(&row.key).expect("a salted key").1;
    let base = heap::reset_peak();
    let merged = table.stream_merged(buckets.iter().cloned(), &ReadOptions::new(), unsalt);
    let (count, first_after, took) = drain(merged, salt).await;
    let heap = heap::peak() - base;
    eprintln!(
        "load: Table::stream_merged over 16 buckets, {how}: {}, first row after {first_after:.2?}, peak heap {:.1} MiB",
        per_sec(count, took),
        mib(heap)
    );
    assert_eq!(count, n, "every row once");
    assert!(first_after < took / 4, "the first row came late: after {first_after:?} of {took:?}");
    assert!(heap < STREAMED_HEAP_BOUND, "stream_merged of {n} rows, {how}, held {:.1} MiB", mib(heap));
}

/// Reads a merged stream (which sends nothing before it is polled) to its end, checking the
/// merge order and each row's value: the rows read, when the first came, and the time it all
/// took.
async fn drain(mut merged: MergedRows<'_>, salt: &Salt) -> (usize, Duration, Duration) {
    let started = Instant::now();
    let mut first = None;
    let mut count = 0;
    let mut previous: Option<Reading> = None;
    while let Some(row) = merged.next().await {
        let row = row.expect("a merged row");
        first.get_or_insert_with(|| started.elapsed());
        let reading = salt.decode_ordered::<Reading>(&row.key).expect("a salted key").1;
        assert!(row.value(FAMILY, b"v") == Some(&value(&reading)[..]), "row {}: its value", row.key);
        assert!(previous.as_ref().is_none_or(|p| *p < reading), "row {} out of merge order", row.key);
        previous = Some(reading);
        count += 1;
    }
    (count, first.expect("at least one row"), started.elapsed())
}

#[allow(clippy::cast_precision_loss)]
fn mib(bytes: usize) -> f64 {
    bytes as f64 / f64::from(1u32 << 20)
}
