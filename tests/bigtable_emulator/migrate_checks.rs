//! The migration's start-up and its verify on small tables, in a test of their own with its
//! own emulator: the key sample retried through cut and refused connections like a read, and
//! a verify of a design that drops a field (so that a new key has no old key) finding an extra
//! row, and failing when the row counts differ though no rows may merge.

use std::io::Write;
use std::time::Duration;

use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::bigtable_rs::google::bigtable::v2::{Mutation, mutation};
use rowkey::bigtable::migrate::{Migration, Mismatch};
use rowkey::bigtable::{Config, Error, ReadOptions, Retry, Table, set_cell};
use rowkey::rekey::Rekey;
use rowkey::{Key, KeyRange, RowKey};

use crate::FAMILY;
use crate::common::keys::{ReadingById, ReadingByTime};
use crate::emulator::{Emulator, INSTANCE, PROJECT, Tools};
use crate::faults::connect;
use crate::proxy::{Faults, Proxy};

const ROWS: usize = 1_000;

/// Row `i`: 200 devices, each always of one type (so the type is derived from the id), one
/// reading a millisecond.
fn by_time(i: usize) -> ReadingByTime {
    let device = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) % 200;
    ReadingByTime {
        ts_millis: 1_588_291_200_000 + i as i64,
        device_type: ["phone", "watch", "car"][(device % 3) as usize].to_owned(),
        device_id: format!("{device:08x}"),
    }
}

fn by_id(old: &ReadingByTime) -> Key {
    ReadingById { device_id: old.device_id.clone(), ts_millis: old.ts_millis }.to_key().unwrap()
}

async fn fill(table: &Table, rows: impl Iterator<Item = (usize, ReadingByTime)>) {
    let rows = rows.map(|(i, key)| {
        (key.to_key().unwrap(), vec![set_cell(FAMILY, "celsius", (i % 40).to_string(), 1_588_291_200_000_000)])
    });
    table.write_rows(rows).await.expect("the old table's rows");
}

async fn keys(table: &Table) -> Vec<Key> {
    let rows = table.read_rows(&KeyRange::all().into(), &ReadOptions::new().keys_only()).await.expect("a read");
    rows.into_iter().map(|row| row.key).collect()
}

#[test]
fn migration_checks_on_the_bigtable_emulator() {
    let tools = match Tools::find() {
        Ok(tools) => tools,
        Err(why) => {
            let _ = writeln!(std::io::stderr(), "migration checks: SKIPPED, {why}");
            return;
        }
    };
    let emulator = Emulator::start(&tools).unwrap_or_else(|e| panic!("starting the Bigtable emulator: {e}"));
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a tokio runtime");
    runtime.block_on(async {
        let direct = connect(&emulator.host());
        sample_is_retried(&emulator, &direct).await;
        verify_without_a_way_back(&emulator, &direct).await;
    });
    drop(runtime);
    drop(emulator);
}

/// `SampleRowKeys` through connections cut at their first byte, then cut after 4 KiB (a
/// whole `migrate run` on sampled shards), then refused: retried as a read is, and a status
/// no retry fixes ends it at once.
async fn sample_is_retried(emulator: &Emulator, direct: &BigTableConnection) {
    emulator.create_table("sampled", FAMILY);
    fill(&Table::new(direct.client(), "sampled"), (0..ROWS).map(|i| (i, by_time(i)))).await;
    let all = keys(&Table::new(direct.client(), "sampled")).await;

    let proxy = Proxy::start(emulator.addr(), Faults::CutFirst { connections: 3, after: 0 }).await;
    let cut = connect(&proxy.host());
    let sample = Table::new(cut.client(), "sampled").sample_row_keys().await.expect("a sample past three cuts");
    assert!(!sample.is_empty(), "the emulator samples about one row in a hundred");
    assert!(sample.windows(2).all(|w| w[0] < w[1]), "the sample in key order");
    assert!(sample.iter().all(|key| all.binary_search(key).is_ok()), "each sampled key is a row's");
    assert!(proxy.stats.connections.load(std::sync::atomic::Ordering::Relaxed) > 3, "{}", proxy.stats.summary());

    // The case: the first 4 connections cut after 4 KiB, under a copy that samples its
    // shards first.
    emulator.create_table("sampled_copy", FAMILY);
    let proxy = Proxy::start(emulator.addr(), Faults::CutFirst { connections: 4, after: 4096 }).await;
    // Four channels, as the command opens.
    let cut = BigTableConnection::new_with_emulator(&proxy.host(), PROJECT, INSTANCE, false, 4, None).unwrap();
    let (old, new) = (Table::new(cut.client(), "sampled"), Table::new(cut.client(), "sampled_copy"));
    // As `rowkey migrate run` starts: a row of each table read to see that it exists.
    for table in [&old, &new] {
        table.read_rows(&KeyRange::all().into(), &ReadOptions::new().limit(1)).await.expect("a read, retried");
    }
    let rekey = Rekey::between::<ReadingByTime, ReadingById>().drop_derived("device_type").build().unwrap();
    let migration =
        Migration::new(old, new, rekey).sample_shards(4).await.expect("shards from a sample past four cuts");
    assert_eq!(migration.run().await.expect("the copy").rows, ROWS as u64);
    assert_eq!(keys(&Table::new(direct.client(), "sampled_copy")).await.len(), ROWS);
    eprintln!("sample retried: {}", proxy.stats.summary());

    let missing = Table::new(direct.client(), "no_such_table").sample_row_keys().await.expect_err("no table");
    assert!(matches!(missing, Error::Sample { attempts: 1, retryable: false, code: 5, .. }), "{missing}");
    assert!(missing.to_string().contains("this status is not retried"), "{missing}");

    let proxy = Proxy::start(emulator.addr(), Faults::RefuseAll).await;
    let refused = connect(&proxy.host());
    let fast = Retry::reads().attempts(3).backoff(Duration::from_millis(1), 2.0, Duration::from_millis(5));
    let table = Table::new(refused.client(), "sampled").with_config(Config::default().reads(fast));
    let error = table.sample_row_keys().await.expect_err("no connection");
    assert!(matches!(error, Error::Sample { attempts: 3, retryable: true, .. }), "{error}");
    assert!(error.to_string().contains("the retries ran out"), "{error}");
}

/// A design that drops a derived field has no inverse: extra rows are found by merging the
/// old rows' new keys with the new table's, and counts that differ fail the verify.
async fn verify_without_a_way_back(emulator: &Emulator, direct: &BigTableConnection) {
    let table = |name: &str| {
        emulator.create_table(name, FAMILY);
        Table::new(direct.client(), name)
    };
    let (old, new) = (table("derived_old"), table("derived_new"));
    fill(&old, (0..ROWS).map(|i| (i, by_time(i)))).await;
    let rekey = Rekey::between::<ReadingByTime, ReadingById>().drop_derived("device_type").build().unwrap();
    assert!(rekey.inverse().is_none() && !rekey.merges_rows());
    let migration = Migration::new(old.clone(), new.clone(), rekey.clone())
        .split_points((1..4).map(|s| by_time(ROWS * s / 4).to_key().unwrap()));
    assert_eq!(migration.run().await.unwrap().rows, ROWS as u64);
    for sample in [None, Some(50)] {
        let report = migration.verify(sample).await.unwrap();
        assert!(report.is_clean(), "{sample:?}: {report}");
        assert_eq!((report.old_rows, report.new_rows), (ROWS as u64, ROWS as u64), "{report}");
    }

    // A stray row, as `cbt set` would write it: a key of the new design no old row gives.
    let stray = ReadingById { device_id: "deadbeef".into(), ts_millis: 5 }.to_key().unwrap();
    new.write_rows([(stray.clone(), vec![set_cell(FAMILY, "status", "stray", 1_000)])]).await.unwrap();
    for sample in [None, Some(50)] {
        let report = migration.verify(sample).await.unwrap();
        assert!(!report.is_clean(), "{sample:?}: {report}");
        assert_eq!(report.extra, [Mismatch { old_key: None, new_key: Some(stray.clone()) }], "{report}");
        assert!(report.missing.is_empty() && report.differing.is_empty(), "{report}");
        let text = report.to_string();
        assert!(text.starts_with(&format!("old rows: {ROWS}, new rows: {}", ROWS + 1)), "{text}");
        assert!(text.contains("extra: 1\n"), "{text}");
        assert!(text.contains("the row counts differ (1000 old, 1001 new) and no rows merge"), "{text}");
        assert!(text.contains("extra: old - new [device_id=deadbeef ts_millis=5]"), "{text}");
    }
    let delete = || Mutation { mutation: Some(mutation::Mutation::DeleteFromRow(mutation::DeleteFromRow {})) };
    new.write_rows([(stray.clone(), vec![delete()])]).await.unwrap();
    assert!(migration.verify(None).await.unwrap().is_clean());

    // Two old rows that the derived claim says cannot meet, with the same cells, meet: the
    // merged row holds each one's cells, so only the counts show it.
    let mut twin = by_time(7);
    twin.device_type = "kettle".into();
    fill(&old, [(7, twin.clone())].into_iter()).await;
    assert_eq!(by_id(&twin), by_id(&by_time(7)));
    migration.run().await.unwrap();
    let report = migration.verify(None).await.unwrap();
    assert_eq!((report.old_rows, report.new_rows), (ROWS as u64 + 1, ROWS as u64), "{report}");
    assert!(!report.is_clean(), "two rows became one: {report}");
    old.write_rows([(twin.to_key().unwrap(), vec![delete()])]).await.unwrap();

    // Rows allowed to merge: fewer new rows pass, an extra row does not.
    let merging = Rekey::between::<ReadingByTime, ReadingById>().merge_rows().build().unwrap();
    let merged_new = table("merged_new");
    let migration = Migration::new(old.clone(), merged_new.clone(), merging);
    migration.run().await.unwrap();
    assert!(migration.verify(None).await.unwrap().is_clean());
    merged_new.write_rows([(stray.clone(), vec![set_cell(FAMILY, "status", "stray", 1_000)])]).await.unwrap();
    let report = migration.verify(None).await.unwrap();
    assert_eq!(report.extra, [Mismatch { old_key: None, new_key: Some(stray) }], "{report}");
    assert!(!report.is_clean(), "{report}");
}
