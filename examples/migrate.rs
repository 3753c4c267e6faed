//! A table whose key put the time first (so every write went to one tablet) moved to the
//! quickstart's salted design: the old table copied under the new key with every cell kept,
//! read across both tables before the copy, copied with a checkpoint, and verified.
//!
//! Against the emulator of the Google Cloud SDK:
//!
//! ```sh
//! gcloud beta emulators bigtable start --host-port=127.0.0.1:8086 &
//! BIGTABLE_EMULATOR_HOST=127.0.0.1:8086 cargo run --example migrate --features bigtable
//! ```
//!
//! The tables `rowkey_by_time` and `rowkey_by_device` (column family `r`) are created with
//! `cbt`, the new one with the splits of its salt's buckets; each run starts them afresh.

use std::error::Error;
use std::process::Command;
use std::time::Duration;

use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::migrate::{Migration, Moving};
use rowkey::bigtable::{ReadOptions, Row, Table, set_cell};
use rowkey::rekey::Rekey;
use rowkey::{Key, RowKey};

/// The old design: `1588291200000#meter#4c410523`. Readable, but the time leads, so each
/// moment's writes all land on the tablet at the end of the table.
#[derive(RowKey)]
#[rowkey(delimited = "#", allow_hotspot)]
struct ByTime {
    ts_millis: i64,
    device_type: String,
    device_id: String,
}

/// The new design: a bucket of the device id first, then the device, newest reading first.
#[derive(RowKey)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct Reading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

const OLD: &str = "rowkey_by_time";
const NEW: &str = "rowkey_by_device";
const FAMILY: &str = "r";
const START: i64 = 1_588_291_200_000;

fn main() -> Result<(), Box<dyn Error>> {
    let host = std::env::var("BIGTABLE_EMULATOR_HOST")
        .map_err(|_| "set BIGTABLE_EMULATOR_HOST to the emulator's host:port (see the example's docs)")?;
    println!("Bigtable emulator at {host}");
    let splits = Reading::SCHEMA.split_planner().plan()?;
    cbt(&["deletetable", OLD]).ok();
    cbt(&["deletetable", NEW]).ok();
    cbt(&["createtable", OLD, &format!("families={FAMILY}")])?;
    cbt(&["createtable", NEW, &format!("families={FAMILY}"), &splits.to_cbt_arg()?])?;
    println!("created {OLD}, and {NEW} split at its {} bucket boundaries", splits.len());
    tokio::runtime::Runtime::new()?.block_on(run())
}

fn cbt(args: &[&str]) -> Result<String, Box<dyn Error>> {
    let output = Command::new(std::env::var("CBT").unwrap_or_else(|_| "cbt".into()))
        // The emulator needs no credentials; with -creds given, cbt asks gcloud for none.
        .args(["-project", "rowkey-demo", "-instance", "emulator", "-creds", "/dev/null"])
        .args(args)
        .output()
        .map_err(|e| format!("running cbt: {e}; install it with `gcloud components install cbt`"))?;
    if !output.status.success() {
        return Err(format!("cbt {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr)).into());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

async fn run() -> Result<(), Box<dyn Error>> {
    let connection =
        BigTableConnection::new("rowkey-demo", "emulator", false, 1, Some(Duration::from_secs(30))).await?;
    let (old, new) = (Table::new(connection.client(), OLD), Table::new(connection.client(), NEW));

    // Three hours of readings from 48 devices, every two minutes, in the old design.
    let readings = (0..90i64).flat_map(|minute| {
        (0..48u32).map(move |device| ByTime {
            ts_millis: START + minute * 120_000,
            device_type: ["camera", "meter", "thermostat", "valve"][device as usize % 4].to_owned(),
            device_id: format!("{:08x}", device.wrapping_mul(0x9e37_79b9)),
        })
    });
    let rows = readings
        .map(|r| {
            let cell = set_cell(FAMILY, "celsius", format!("{}", 15 + r.ts_millis / 600_000 % 10), r.ts_millis * 1_000);
            Ok((r.to_key()?, vec![cell]))
        })
        .collect::<Result<Vec<(Key, _)>, rowkey::Error>>()?;
    println!("wrote {} readings in the old design", old.write_rows(rows).await?);

    // Fields match by name; the bucket and the reversed time are the new design's to compute.
    let rekey = Rekey::between::<ByTime, Reading>().build()?;
    for (field, source) in rekey.mapping() {
        println!("  {} <- {source}", field.name);
    }

    // A query of the new design before the copy: the new table is empty, so every row
    // comes from the old one, re-keyed, in the new key's order.
    let moving = Moving::new(old.clone(), new.clone(), rekey.clone());
    let device = format!("{:08x}", 5u32.wrapping_mul(0x9e37_79b9));
    let during = moving.read(&[("device_type", "meter"), ("device_id", &device)], None).await?;
    println!("meter {device} during the move: {} readings, newest first", during.len());

    // The copy, in two shards of the old table's time, with its progress in a checkpoint
    // file: a run stopped part way would continue from it.
    let checkpoint = std::env::temp_dir().join("rowkey-migrate-example.json");
    std::fs::remove_file(&checkpoint).ok();
    let half = ByTime { ts_millis: START + 45 * 120_000, device_type: String::new(), device_id: String::new() };
    let migration = Migration::new(old.clone(), new.clone(), rekey)
        .split_points([half.to_key()?])
        .checkpoint(&checkpoint)
        .on_progress(|p| {
            if p.done {
                println!("  shard {} done: {} rows", p.shard, p.rows);
            }
        });
    println!("copied: {}", migration.run().await?);
    // Started again with the same checkpoint, it finds nothing left to copy.
    println!("again: {}", migration.run().await?);

    let report = migration.verify(None).await?;
    println!("verify: {report}");
    if !report.is_clean() {
        return Err("the tables differ".into());
    }
    let ranges = Reading::scan().device_type("meter").device_id(&device).ranges()?;
    let after = new.read_rows(&ranges, &ReadOptions::new()).await?;
    println!("meter {device} in the new table: {} readings", after.len());
    let keys = |rows: &[Row]| rows.iter().map(|row| row.key.clone()).collect::<Vec<_>>();
    if keys(&after) != keys(&during) {
        return Err("the read during the move differs from the table after it".into());
    }
    std::fs::remove_file(&checkpoint).ok();
    Ok(())
}
