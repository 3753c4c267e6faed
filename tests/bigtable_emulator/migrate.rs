//! Moving a table to a new key design: `ROWKEY_MIGRATE_ROWS` rows (200,000 by default) of the
//! time-first design copied to the salted one, and a delimited design to an ordered one, each
//! compared with brute force (every old row re-keyed by its Rust types, not by the `Rekey`
//! under test; every cell); the same move through the fault-injecting proxy; moves stopped
//! at a random point and resumed from their checkpoint; verify finding a deleted row, an extra
//! row and a changed cell; reads during a half-finished move against brute force over both
//! tables.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::bigtable_rs::google::bigtable::v2::{Mutation, mutation};
use rowkey::bigtable::migrate::{Migration, Moving};
use rowkey::bigtable::{ReadOptions, Row, Table, set_cell};
use rowkey::rekey::Rekey;
use rowkey::schema::ScanNext;
use rowkey::{Key, KeyRange, RowKey};

use crate::FAMILY;
use crate::common::keys::{DeviceReading, OrderedReading, Reading, ReadingByTime};
use crate::emulator::Emulator;
use crate::faults::{connect, flaky};
use crate::heap;
use crate::proxy::{Faults, Proxy};
use crate::scenarios::Rng;

/// The most heap a copy may hold above its starting level, whatever the table's size.
const HEAP_BOUND: usize = 64 << 20;

fn rows_wanted() -> usize {
    std::env::var("ROWKEY_MIGRATE_ROWS").ok().and_then(|n| n.parse().ok()).unwrap_or(200_000)
}

/// Row `i` of the time-first table: 3 device types, 5,000 devices, one reading a millisecond.
fn by_time(i: usize) -> ReadingByTime {
    let device = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) % 5_000;
    ReadingByTime {
        ts_millis: 1_588_291_200_000 + i as i64,
        device_type: ["phone", "watch", "car"][i % 3].to_owned(),
        device_id: format!("{device:08x}"),
    }
}

/// Row `i`'s cells (timestamps in whole milliseconds, as Bigtable takes them): a reading, and
/// for every seventh row an older version of it and a second column, so that a copy must keep
/// versions and timestamps.
fn cells(i: usize) -> Vec<Mutation> {
    let at = 1_588_291_200_000_000 + i as i64 * 1_000;
    let mut cells = vec![set_cell(FAMILY, "celsius", format!("{}.{}", i % 40, i % 10), at)];
    if i.is_multiple_of(7) {
        cells.push(set_cell(FAMILY, "celsius", "old", at - 1_000));
        cells.push(set_cell(FAMILY, b"\x00raw\xff".to_vec(), vec![0u8, 255, i as u8], at));
    }
    cells
}

async fn fill(table: &Table, keys: impl Iterator<Item = (usize, Key)>) -> usize {
    table.write_rows(keys.map(|(i, key)| (key, cells(i)))).await.expect("the old table's rows")
}

async fn all_rows(table: &Table) -> Vec<Row> {
    table.read_rows(&KeyRange::all().into(), &ReadOptions::new()).await.expect("a read of the whole table")
}

/// A row's cells in one order.
fn cell_list(row: &Row) -> Vec<(String, Vec<u8>, i64, Vec<u8>)> {
    let mut cells: Vec<_> = row
        .cells
        .iter()
        .map(|c| (c.family_name.clone(), c.qualifier.clone(), c.timestamp_micros, c.value.clone()))
        .collect();
    cells.sort();
    cells
}

/// The new table must hold exactly the old rows under `new_key`, each with its cells.
async fn assert_exact(old: &Table, new: &Table, new_key: impl Fn(&Key) -> Key, what: &str) {
    let expected: BTreeMap<Key, _> =
        all_rows(old).await.iter().map(|row| (new_key(&row.key), cell_list(row))).collect();
    let found = all_rows(new).await;
    assert_eq!(found.len(), expected.len(), "{what}: rows in the new table");
    for (row, (key, cells)) in found.iter().zip(&expected) {
        assert_eq!(&row.key, key, "{what}: rows out of step");
        assert_eq!(&cell_list(row), cells, "{what}: the cells of {}", row.key);
    }
}

fn to_salted(old: &Key) -> Key {
    let r = ReadingByTime::from_key(old).expect("a key of the old design");
    Reading { device_type: r.device_type, device_id: r.device_id, ts_millis: r.ts_millis }.to_key().expect("a new key")
}

fn to_ordered(old: &Key) -> Key {
    let r = DeviceReading::from_key(old).expect("a key of the old design");
    OrderedReading { device_type: r.device_type, device_id: r.device_id, ts_millis: r.ts_millis }
        .to_key()
        .expect("a new key")
}

fn checkpoint_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("rowkey-migrate-{}-{name}.json", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

pub async fn migrations(emulator: &Emulator, connection: &BigTableConnection) {
    let table = |name: &str| {
        emulator.create_table(name, FAMILY);
        Table::new(connection.client(), name)
    };
    let n = rows_wanted();

    // The time-first table to the salted design: shards from the table's sample, checkpointed.
    let (old, new) = (table("by_time"), table("salted"));
    let started = Instant::now();
    fill(&old, (0..n).map(|i| (i, by_time(i).to_key().unwrap()))).await;
    let filled = started.elapsed();
    let rekey = Rekey::between::<ReadingByTime, Reading>().build().unwrap();
    let path = checkpoint_file("salted");
    let points: Vec<Key> = (1..8).map(|s| by_time(n * s / 8).to_key().unwrap()).collect();
    let progress = Arc::new(AtomicU64::new(0));
    let seen = progress.clone();
    let migration = Migration::new(old.clone(), new.clone(), rekey.clone())
        .split_points(points)
        .checkpoint(&path)
        .on_progress(move |p| {
            seen.fetch_max(p.rows, Ordering::Relaxed);
        });
    let started = Instant::now();
    let base = heap::reset_peak();
    let summary = migration.run().await.expect("the copy");
    let held = heap::peak() - base;
    let took = started.elapsed();
    assert_eq!(summary.rows, n as u64, "{summary}");
    assert_eq!(summary.shards, 8);
    assert!(progress.load(Ordering::Relaxed) > 0, "progress was reported");
    eprintln!(
        "migrate: {n} rows written in {filled:?}; copied to the salted design in {took:?} ({:.0} rows/s), peak heap \
         {:.1} MiB",
        n as f64 / took.as_secs_f64(),
        held as f64 / f64::from(1 << 20)
    );
    // Shards at once times a batch of rows, and the transport's buffers: not the table.
    assert!(held < HEAP_BOUND, "the copy held {held} bytes at its peak");
    assert_exact(&old, &new, to_salted, "time-first to salted").await;
    // A second run with the same checkpoint has nothing left; without one, it writes the same
    // cells again and the table is unchanged.
    assert_eq!(migration.run().await.unwrap().rows, 0);
    let again = Migration::new(old.clone(), new.clone(), rekey.clone()).run().await.unwrap();
    assert_eq!(again.rows, n as u64);
    assert_exact(&old, &new, to_salted, "time-first to salted, copied twice").await;
    let started = Instant::now();
    let report = migration.verify(None).await.expect("verify");
    assert!(report.is_clean(), "{report}");
    assert_eq!((report.old_rows, report.new_rows, report.compared), (n as u64, n as u64, n as u64));
    eprintln!("migrate: verified {n} rows in {:?}", started.elapsed());
    verify_finds_each_fault(&old, &new, &migration).await;
    let _ = std::fs::remove_file(&path);

    // Delimited to ordered, on the old design's default shards (the whole table).
    let (old, new) = (table("delimited_old"), table("ordered_new"));
    let m = n;
    fill(
        &old,
        (0..m).map(|i| {
            let r = by_time(i);
            (
                i,
                DeviceReading { device_type: r.device_type, device_id: r.device_id, ts_millis: r.ts_millis }
                    .to_key()
                    .unwrap(),
            )
        }),
    )
    .await;
    let migration =
        Migration::new(old.clone(), new.clone(), Rekey::between::<DeviceReading, OrderedReading>().build().unwrap());
    assert_eq!(migration.run().await.unwrap().rows, m as u64);
    assert_exact(&old, &new, to_ordered, "delimited to ordered").await;
    assert!(migration.verify(Some(100)).await.unwrap().is_clean());

    stopped_and_resumed(emulator, &table).await;
}

/// A deleted row, an extra row and a changed cell, each found by its keys.
async fn verify_finds_each_fault(old: &Table, new: &Table, migration: &Migration) {
    let deleted_old = by_time(17).to_key().unwrap();
    let deleted = to_salted(&deleted_old);
    let changed_old = by_time(21).to_key().unwrap();
    let changed = to_salted(&changed_old);
    let extra = Reading { device_type: "phone".into(), device_id: "ffffffff".into(), ts_millis: 5 }.to_key().unwrap();
    let delete = Mutation { mutation: Some(mutation::Mutation::DeleteFromRow(mutation::DeleteFromRow {})) };
    new.write_rows([
        (deleted.clone(), vec![delete]),
        (changed.clone(), vec![set_cell(FAMILY, "celsius", "tampered", 1_588_291_200_000_000 + 21_000)]),
        (extra.clone(), vec![set_cell(FAMILY, "celsius", "1", 1_000)]),
    ])
    .await
    .unwrap();
    let report = migration.verify(None).await.unwrap();
    assert!(!report.is_clean());
    assert_eq!(report.missing.len(), 1, "{report}");
    assert_eq!(report.missing[0].old_key.as_ref(), Some(&deleted_old));
    assert_eq!(report.missing[0].new_key.as_ref(), Some(&deleted));
    assert_eq!(report.differing.len(), 1, "{report}");
    assert_eq!(report.differing[0].old_key.as_ref(), Some(&changed_old));
    assert_eq!(report.extra.len(), 1, "{report}");
    assert_eq!(report.extra[0].new_key.as_ref(), Some(&extra));
    let text = report.to_string();
    assert!(text.contains("missing: old [ts_millis=1588291200017"), "{text}");
    assert!(text.contains("extra: old [ts_millis=5 device_type=phone device_id=ffffffff] new [bucket="), "{text}");
    // The copy run again puts the table right; the extra row is the verify's to report, not
    // the copy's to delete.
    Migration::new(old.clone(), new.clone(), migration.rekey().clone()).run().await.unwrap();
    let report = migration.verify(None).await.unwrap();
    assert!(report.missing.is_empty() && report.differing.is_empty() && report.extra.len() == 1, "{report}");
}

/// Copies stopped after a random number of rows (the future dropped, as a cancelled task
/// is), read across both tables while half done, then resumed: exact.
async fn stopped_and_resumed(emulator: &Emulator, table: &dyn Fn(&str) -> Table) {
    let n = 20_000;
    let mut rng = Rng(0x5eed);
    for round in 0..3 {
        let (old, new) = (table(&format!("resume_old_{round}")), table(&format!("resume_new_{round}")));
        fill(&old, (0..n).map(|i| (i, by_time(i).to_key().unwrap()))).await;
        let path = checkpoint_file(&format!("resume_{round}"));
        let rekey = Rekey::between::<ReadingByTime, Reading>().build().unwrap();
        let stop_at = 1 + rng.next() % (n as u64 / 2);
        // Rows copied in all: the sum of each shard's latest count.
        let shards = Arc::new(std::sync::Mutex::new([0u64; 4]));
        let copied = Arc::new(AtomicU64::new(0));
        let (counts, total) = (shards.clone(), copied.clone());
        let migration = Migration::new(old.clone(), new.clone(), rekey.clone())
            .split_points((1..4).map(|s| by_time(n * s / 4).to_key().unwrap()))
            .batch_rows(250)
            .checkpoint(&path)
            .on_progress(move |p| {
                let mut counts = counts.lock().unwrap();
                counts[p.shard] = p.rows;
                total.store(counts.iter().sum(), Ordering::Relaxed);
            });
        tokio::select! {
            _ = migration.run() => panic!("round {round}: the copy ended before its stop at {stop_at} rows"),
            () = async { while copied.load(Ordering::Relaxed) < stop_at { tokio::time::sleep(Duration::from_millis(1)).await } } => {}
        }
        let before: u64 = migration.progress().unwrap().iter().map(|p| p.rows).sum();
        assert!(before < n as u64, "round {round}: stopped part way");

        reads_while_moving(&old, &new, &rekey, &mut rng).await;

        let resumed = migration.run().await.unwrap();
        assert_eq!(resumed.total_rows, n as u64, "round {round}: {resumed}");
        assert_eq!(resumed.rows, n as u64 - before, "round {round}: the resumed run starts where the checkpoint stops");
        assert_exact(&old, &new, to_salted, &format!("stopped at {stop_at} and resumed")).await;
        let _ = std::fs::remove_file(&path);
    }

    // Through the proxy that cuts, stalls and refuses connections.
    for seed in crate::fault_seeds() {
        let proxy = Proxy::start(emulator.addr(), Faults::Seeded(seed)).await;
        let flaky_connection = connect(&proxy.host());
        let (old, new) = (table(&format!("faults_old_{seed}")), table(&format!("faults_new_{seed}")));
        fill(&old, (0..n).map(|i| (i, by_time(i).to_key().unwrap()))).await;
        let flaky_table = |name: &str| Table::new(flaky_connection.client(), name).with_config(flaky());
        let migration = Migration::new(
            flaky_table(&format!("faults_old_{seed}")),
            flaky_table(&format!("faults_new_{seed}")),
            Rekey::between::<ReadingByTime, Reading>().build().unwrap(),
        )
        .split_points((1..4).map(|s| by_time(n * s / 4).to_key().unwrap()))
        .batch_rows(200);
        assert_eq!(migration.run().await.unwrap().rows, n as u64);
        assert_exact(&old, &new, to_salted, &format!("through faults, seed {seed}")).await;
        assert!(migration.verify(None).await.unwrap().is_clean(), "seed {seed}");
        eprintln!("migrate through faults, seed {seed}: {}", proxy.stats.summary());
    }
}

/// Fixed fields by name, and a scan of the next one.
type Query<'a> = (Vec<(&'a str, &'a str)>, Option<(&'a str, ScanNext<'a>)>);

/// Queries of the new design during a half-finished move: the rows of brute force over both
/// tables (old rows re-keyed, the new table's winning), in the new key's order.
async fn reads_while_moving(old: &Table, new: &Table, rekey: &Rekey, rng: &mut Rng) {
    let moving = Moving::new(old.clone(), new.clone(), rekey.clone());
    let mut union: BTreeMap<Key, Vec<_>> =
        all_rows(old).await.iter().map(|r| (to_salted(&r.key), cell_list(r))).collect();
    for row in all_rows(new).await {
        union.insert(row.key.clone(), cell_list(&row));
    }
    for _ in 0..6 {
        let r = by_time(rng.next() as usize % 20_000);
        let (lo, hi) = (r.ts_millis - 500, r.ts_millis + 500);
        let (lo, hi) = (lo.to_string(), hi.to_string());
        let queries: [Query<'_>; 4] = [
            (vec![("device_type", &r.device_type), ("device_id", &r.device_id)], None),
            (
                vec![("device_type", &r.device_type), ("device_id", &r.device_id)],
                Some(("ts_millis", ScanNext::Range(Bound::Included(&lo), Bound::Excluded(&hi)))),
            ),
            (vec![("device_type", &r.device_type)], Some(("device_id", ScanNext::StartsWith(&r.device_id[..2])))),
            // Matches nothing: no rows, and no read of either table.
            (
                vec![("device_type", &r.device_type), ("device_id", &r.device_id)],
                Some(("ts_millis", ScanNext::Range(Bound::Included(&lo), Bound::Excluded(&lo)))),
            ),
        ];
        for (fixed, next) in queries {
            let ranges = Reading::SCHEMA.scan_query(&fixed, next).unwrap();
            let expected: Vec<(&Key, &Vec<_>)> = union.iter().filter(|(key, _)| ranges.contains(key)).collect();
            let found = moving.read(&fixed, next).await.unwrap();
            assert_eq!(found.len(), expected.len(), "{fixed:?} {next:?}");
            for (row, (key, cells)) in found.iter().zip(expected) {
                assert_eq!(&row.key, key, "{fixed:?} {next:?}");
                assert_eq!(&cell_list(row), cells, "{fixed:?} {next:?}: cells of {}", row.key);
            }
        }
    }
}
