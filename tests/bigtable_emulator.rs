//! The library's keys and ranges on the Bigtable API itself: a few thousand rows of generated
//! keys go into the Bigtable emulator through `MutateRows`, and for generated queries the rows
//! `ReadRows` returns for the computed ranges must equal a brute-force filter over every row
//! written, in the same order.
//!
//! Scenarios: binary ordered keys full of `00` and `FF` bytes with descending, optional and
//! reversed fields; delimited keys; salted keys in both formats, read back by fanning out over
//! every bucket and merging. A tenant's range must hold exactly its rows (`a` is not `a\0`,
//! `a` is not `a$`).
//!
//! Then the same scenarios through a proxy that cuts, stalls and refuses connections
//! (`faults.rs`, `proxy.rs`; `ROWKEY_FAULT_SEEDS` seeds, 5 by default), and a load test of
//! writes and a streamed merged read (`load.rs`; `ROWKEY_LOAD_ROWS` rows, 20,000 by default),
//! and merged reads of rows of 600 bytes and 4 KiB that must never stall (`large_rows.rs`).
//! Then tables moved to new key designs, stopped and resumed, verified, and read while half
//! moved (`migrate.rs`; `ROWKEY_MIGRATE_ROWS` rows, 200,000 by default).
//!
//! The emulator (`cbtemulator` from the Google Cloud SDK) is started on a free port of
//! 127.0.0.1 and killed when the test ends, also when it fails. Without it the test prints
//! why it was skipped and passes. Run with `cargo test --features bigtable --test
//! bigtable_emulator`.

// The counting allocator of `heap.rs` implements `GlobalAlloc`, which is unsafe to implement.
#![allow(unsafe_code)]

#[path = "common/mod.rs"]
mod common;
#[path = "bigtable_emulator/emulator.rs"]
mod emulator;
#[path = "bigtable_emulator/faults.rs"]
mod faults;
#[path = "bigtable_emulator/heap.rs"]
mod heap;
#[path = "bigtable_emulator/large_rows.rs"]
mod large_rows;
#[path = "bigtable_emulator/load.rs"]
mod load;
#[path = "bigtable_emulator/migrate.rs"]
mod migrate;
#[path = "bigtable_emulator/migrate_checks.rs"]
mod migrate_checks;
#[path = "bigtable_emulator/presplit.rs"]
mod presplit;
#[path = "bigtable_emulator/proxy.rs"]
mod proxy;
#[path = "bigtable_emulator/scenarios.rs"]
mod scenarios;

use std::io::Write;
use std::time::{Duration, Instant};

use rowkey::bigtable::Table;
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;

use emulator::{Emulator, INSTANCE, PROJECT, Tools};

/// The column family every scenario writes to.
const FAMILY: &str = "f";

#[test]
fn keys_and_ranges_on_the_bigtable_emulator() {
    let tools = match Tools::find() {
        Ok(tools) => tools,
        Err(why) => {
            // Straight to the stream, past the test harness's capture, so the skip shows.
            let _ = writeln!(std::io::stderr(), "bigtable_emulator: SKIPPED, {why}");
            return;
        }
    };
    let emulator = Emulator::start(&tools).unwrap_or_else(|e| panic!("starting the Bigtable emulator: {e}"));
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a tokio runtime");
    runtime.block_on(async {
        let connection = BigTableConnection::new_with_emulator(
            &emulator.host(),
            PROJECT,
            INSTANCE,
            false,
            1,
            Some(Duration::from_secs(60)),
        )
        .expect("a client for the emulator");
        let table = |name: &str| {
            emulator.create_table(name, FAMILY);
            Table::new(connection.client(), name)
        };
        let started = Instant::now();
        timed("ordered keys", scenarios::ordered(&table("ordered"))).await;
        timed("delimited keys", scenarios::delimited(&table("delimited"))).await;
        timed("salted ordered keys", scenarios::salted_ordered(&table("salted_ordered"))).await;
        timed("salted delimited keys", scenarios::salted_delimited(&table("salted_delimited"))).await;
        timed("batched writes", scenarios::batches(&table("batches"))).await;
        timed("salted delimited keys, table pre-split", presplit::salted_presplit(&emulator, &connection)).await;
        presplit::cbt_read_fixture(&emulator, &connection).await;
        eprintln!("all scenarios against the emulator at {} in {:?}", emulator.host(), started.elapsed());

        faults::failures(&emulator, &connection).await;
        faults::scenarios_through_faults(&emulator, &connection, &fault_seeds()).await;
        load::load(&emulator, &connection).await;
        large_rows::merged_reads_of_large_rows(&emulator, &connection).await;
        migrate::migrations(&emulator, &connection).await;
    });
    // The runtime goes first so that no connection outlives the emulator it talks to.
    drop(runtime);
    drop(emulator);
}

/// The ranges of each salt bucket of an ordered key of a bucket and two fields: one stream
/// each for a merged read of the whole table.
fn bucket_ranges(buckets: u32) -> Vec<rowkey::KeyRanges> {
    (0..buckets)
        .map(|bucket| {
            let mut scan = rowkey::scan::OrderedScan::new(3);
            scan.fix(&bucket).expect("a bucket");
            scan.ranges()
        })
        .collect()
}

/// The proxy's seeds: `ROWKEY_FAULT_SEEDS` of them (5 by default), the same on every run.
fn fault_seeds() -> Vec<u64> {
    let count = std::env::var("ROWKEY_FAULT_SEEDS").ok().and_then(|n| n.parse().ok()).unwrap_or(5u64);
    (1..=count).collect()
}

async fn timed(name: &str, scenario: impl Future<Output = scenarios::Summary>) {
    let started = Instant::now();
    let summary = scenario.await;
    eprintln!(
        "{name}: {} rows written, {} queries checked, {} rows compared, {:?}",
        summary.rows,
        summary.queries,
        summary.compared,
        started.elapsed()
    );
}
