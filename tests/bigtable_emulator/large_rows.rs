//! Merged reads of rows of realistic size: 20,000 rows of 4 KiB and of 600 bytes over 12 salt
//! buckets, read by `Table::stream_merged` on one channel.
//!
//! A merge takes rows from one bucket at a time. Rows the other buckets were sent and the
//! merge has not taken yet must never sit in the connection's HTTP/2 window: once they fill
//! it, the bucket being read gets no more data and the read stalls until the connection
//! drops. Each read here must end with exact rows, in merge order, without a single retry
//! (checked with `Retry::never` and a short row timeout, so a stall fails within seconds), and
//! deliver its first row within a second; the default `Config` must do the same.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::{Config, ReadOptions, Retry, Row, Table, set_cell};
use rowkey::salt::Salt;

use crate::FAMILY;
use crate::emulator::Emulator;
use crate::heap;

const BUCKETS: u32 = 12;
const ROWS: usize = 20_000;

/// The most heap one of these reads may hold above its starting level: the buckets' pages,
/// bounded by bytes, and the transport's buffers.
const HEAP_BOUND: usize = 64 << 20;

type Reading = (String, i64);

/// The value of row `i`: `size` bytes that differ from row to row, so a row delivered with
/// another's cells is caught.
fn value(i: usize, size: usize) -> Vec<u8> {
    let seed = u8::try_from(i % 251).expect("below 251");
    (0..size).map(|j| seed.wrapping_add(u8::try_from(j % 256).expect("below 256"))).collect()
}

fn reading(i: usize) -> Reading {
    (format!("dev{:05}", i / 50), 1_600_000_000_000 + i64::try_from(i % 50).expect("small"))
}

pub async fn merged_reads_of_large_rows(emulator: &Emulator, connection: &BigTableConnection) {
    for size in [4096, 600] {
        let name = format!("large_rows_{size}");
        emulator.create_table(&name, FAMILY);
        let table = Table::new(connection.client(), &name);
        let salt = Salt::farmhash(BUCKETS).expect("12 buckets");
        let rows = (0..ROWS).map(|i| {
            let key = salt.ordered_key(&(reading(i).0.as_str(),), &reading(i)).expect("a salted key");
            (key, vec![set_cell(FAMILY, "v", value(i, size), 1_000)])
        });
        let started = Instant::now();
        assert_eq!(table.write_rows(rows).await.expect("MutateRows"), ROWS);
        eprintln!("large rows: {ROWS} rows of {size} bytes written in {:.2?}", started.elapsed());

        let no_retry = Config::default().reads(Retry::never()).row_timeout(Duration::from_secs(5));
        read(&table.clone().with_config(no_retry), &salt, size, "no retry, 5 s row timeout").await;
        read(&table, &salt, size, "the default Config").await;
    }
}

/// Reads every bucket merged and checks every row: its place in the merge order and its value.
async fn read(table: &Table, salt: &Salt, size: usize, how: &str) {
    let buckets = crate::bucket_ranges(BUCKETS);
    let unsalt = |row: &Row| salt.decode_ordered::<Reading>(&row.key).expect("a salted key").1;
    let base = heap::reset_peak();
    let started = Instant::now();
    let mut merged = table.stream_merged(buckets, &ReadOptions::new(), unsalt);
    let mut first_after = None;
    let mut count = 0;
    // A stall would hold the read for minutes (until the server drops the connection): a
    // minute is far past what 80 MB takes from a local emulator.
    let read_all = async {
        while let Some(row) = merged.next().await {
            let row = row.unwrap_or_else(|e| panic!("{size}-byte rows, {how}: row {count}: {e}"));
            first_after.get_or_insert_with(|| started.elapsed());
            // Rows are written in merge order, so the merged read gives row `count` next.
            let want = reading(count);
            let got = salt.decode_ordered::<Reading>(&row.key).expect("a salted key").1;
            assert_eq!(got, want, "{size}-byte rows, {how}: row {count} out of merge order");
            assert_eq!(row.cells.len(), 1, "{size}-byte rows, {how}: row {} cells", row.key);
            assert!(row.cells[0].value == value(count, size), "{size}-byte rows, {how}: row {} value", row.key);
            count += 1;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), read_all)
        .await
        .unwrap_or_else(|_| panic!("{size}-byte rows, {how}: stalled after {count} rows"));
    let took = started.elapsed();
    let held = heap::peak() - base;
    let first_after = first_after.expect("rows");
    #[allow(clippy::cast_precision_loss)]
    let mib = |bytes: usize| bytes as f64 / f64::from(1u32 << 20);
    eprintln!(
        "large rows: {count} rows of {size} bytes over {BUCKETS} buckets merged, {how}: {took:.2?}, first row after \
         {first_after:.2?}, peak heap {:.1} MiB",
        mib(held)
    );
    assert_eq!(count, ROWS, "{size}-byte rows, {how}: every row once");
    assert!(first_after < Duration::from_secs(1), "{size}-byte rows, {how}: first row after {first_after:?}");
    assert!(held < HEAP_BOUND, "{size}-byte rows, {how}: held {:.1} MiB", mib(held));
}
