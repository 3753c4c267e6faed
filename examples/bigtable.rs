//! The quickstart's salted sensor readings on Bigtable: written with `MutateRows`, read with
//! `ReadRows` over the ranges the key type computes, the fan-out over every bucket as a merged
//! stream.
//!
//! Against the emulator of the Google Cloud SDK:
//!
//! ```sh
//! gcloud beta emulators bigtable start --host-port=127.0.0.1:8086 &
//! BIGTABLE_EMULATOR_HOST=127.0.0.1:8086 cargo run --example bigtable --features bigtable
//! ```
//!
//! Against an instance, with application default credentials (`gcloud auth
//! application-default login`):
//!
//! ```sh
//! BIGTABLE_PROJECT=my-project BIGTABLE_INSTANCE=my-instance cargo run --example bigtable --features bigtable
//! ```
//!
//! The table `rowkey_readings` (column family `r`) is created with `cbt` when it is missing.
//! Readings have fixed times, so running the example again rewrites the same cells.

use std::error::Error;
use std::process::Command;
use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::bigtable_rs::google::bigtable::v2::Mutation;
use rowkey::bigtable::{ReadOptions, Row, Table, set_cell};
use rowkey::{Key, RowKey};

/// The quickstart's key: `01#meter#4c410523#9223370448563575807`, readable in `cbt read`
/// and Key Visualizer. The bucket (a hash of the device id) spreads each moment's writes
/// over 16 key ranges; the reversed time puts a device's newest reading first.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct Reading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

const TABLE: &str = "rowkey_readings";
const FAMILY: &str = "r";
const DEVICE_TYPES: [&str; 4] = ["camera", "meter", "thermostat", "valve"];
const DEVICES_PER_TYPE: u32 = 12;
/// Every device reports every 2 minutes for 3 hours: 4,320 readings.
const READINGS_PER_DEVICE: i64 = 90;
const EVERY_MILLIS: i64 = 120_000;
/// Midnight UTC, 1 May 2020.
const START: i64 = 1_588_291_200_000;
const END: i64 = START + READINGS_PER_DEVICE * EVERY_MILLIS;

fn main() -> Result<(), Box<dyn Error>> {
    let emulator = std::env::var("BIGTABLE_EMULATOR_HOST").ok();
    let setting = |name: &str, emulator_default: &str| match std::env::var(name) {
        Ok(value) => Ok(value),
        Err(_) if emulator.is_some() => Ok(emulator_default.to_owned()),
        Err(_) => Err(format!("set BIGTABLE_EMULATOR_HOST for the emulator, or {name} for a real instance")),
    };
    let project = setting("BIGTABLE_PROJECT", "rowkey-demo")?;
    let instance = setting("BIGTABLE_INSTANCE", "emulator")?;
    match &emulator {
        Some(host) => println!("Bigtable emulator at {host}, table {TABLE}"),
        None => println!("Bigtable instance projects/{project}/instances/{instance}, table {TABLE}"),
    }
    create_table_if_missing(&project, &instance, emulator.is_some())?;
    tokio::runtime::Runtime::new()?.block_on(run(&project, &instance))
}

/// Creates the table with `cbt` unless `cbt ls` lists it already.
fn create_table_if_missing(project: &str, instance: &str, emulator: bool) -> Result<(), Box<dyn Error>> {
    let cbt = |args: &[&str]| -> Result<String, Box<dyn Error>> {
        let mut command = Command::new(std::env::var("CBT").unwrap_or_else(|_| "cbt".into()));
        command.args(["-project", project, "-instance", instance]);
        if emulator {
            // With -creds given, cbt does not ask gcloud for credentials; the emulator needs none.
            command.args(["-creds", "/dev/null"]);
        }
        let output = command.args(args).output().map_err(|e| {
            format!("running cbt: {e}; install it (`gcloud components install cbt`) or create table {TABLE} with column family {FAMILY} yourself")
        })?;
        if !output.status.success() {
            return Err(format!("cbt {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr)).into());
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    };
    if !cbt(&["ls"])?.lines().any(|line| line.trim() == TABLE) {
        cbt(&["createtable", TABLE, &format!("families={FAMILY}")])?;
        println!("created table {TABLE} with column family {FAMILY}");
    }
    Ok(())
}

async fn run(project: &str, instance: &str) -> Result<(), Box<dyn Error>> {
    // Reads BIGTABLE_EMULATOR_HOST itself; otherwise application default credentials.
    let connection = BigTableConnection::new(project, instance, false, 1, Some(Duration::from_secs(30))).await?;
    let table = Table::new(connection.client(), TABLE);

    let started = Instant::now();
    let written = table.write_rows(readings()?).await?;
    println!("wrote {written} readings with MutateRows: {:?}\n", started.elapsed());

    let (kind, device) = ("thermostat", device_id(7));

    // The newest 10 readings of one device: the salt source is known, so one range.
    let ranges = Reading::scan().device_type(kind).device_id(&device).ranges()?;
    let started = Instant::now();
    let latest = table.read_rows(&ranges, &ReadOptions::new().latest_cells().limit(10)).await?;
    println!("latest 10 readings of {kind} {device}: {} range, {:?}", ranges.len(), started.elapsed());
    println!("  {ranges}");
    for row in &latest {
        let reading = Reading::from_key(&row.key)?;
        println!("  {}  {} °C", clock(reading.ts_millis), celsius(row));
    }

    // The same device between 01:00 and 01:15, given in time order; the scan builder swaps
    // the bounds for the reversed field, so the rows still come newest first.
    let (from, to) = (START + 3_600_000, START + 4_500_000);
    let ranges = Reading::scan().device_type(kind).device_id(&device).ts_millis_range(from..to).ranges()?;
    let started = Instant::now();
    let window = table.read_rows(&ranges, &ReadOptions::new().latest_cells()).await?;
    println!("\n{kind} {device} from {} to {}: {} rows, {:?}", clock(from), clock(to), window.len(), started.elapsed());
    if let (Some(newest), Some(oldest)) = (window.first(), window.last()) {
        let time = |row: &Row| Reading::from_key(&row.key).map(|r| clock(r.ts_millis));
        println!("  newest {}, oldest {}", time(newest)?, time(oldest)?);
    }

    // Every meter in the last hour. The bucket depends on the device id, which the query
    // leaves open: one range per bucket, all read at once and merged back into unsalted order
    // as the rows arrive (device by device, each newest first): the first row comes before the
    // buckets are read to the end. Time is the last key field, so the hour is kept here rather
    // than in the ranges.
    let ranges = Reading::scan().device_type("meter").ranges()?;
    let started = Instant::now();
    let unsalted = |row: &Row| Reading::SCHEMA.unsalted(&row.key).ok().map(Key::from);
    let mut merged = table.stream_merged(ranges.clone(), &ReadOptions::new().latest_cells(), unsalted);
    let mut devices: Vec<(String, usize, String)> = Vec::new();
    let (mut read, mut in_hour, mut first_row) = (0, 0, None);
    while let Some(row) = merged.try_next().await? {
        first_row.get_or_insert_with(|| started.elapsed());
        read += 1;
        let reading = Reading::from_key(&row.key)?;
        if reading.ts_millis < END - 3_600_000 {
            continue;
        }
        in_hour += 1;
        match devices.last_mut() {
            Some((id, count, _)) if *id == reading.device_id => *count += 1,
            _ => devices.push((reading.device_id, 1, celsius(&row))),
        }
    }
    let elapsed = started.elapsed();
    println!(
        "\nevery meter in the last hour: {} ranges (one per bucket), {read} rows streamed and merged, {in_hour} in the hour, \
         the first after {:?}, all in {elapsed:?}",
        ranges.len(),
        first_row.unwrap_or_default()
    );
    for (id, count, newest) in devices.iter().take(5) {
        println!("  meter {id}: {count} readings, newest {newest} °C");
    }
    println!("  ...");
    Ok(())
}

/// Every reading as a row: its key and a `SetCell` of the temperature, stamped with the
/// reading's own time.
fn readings() -> rowkey::Result<Vec<(Key, Vec<Mutation>)>> {
    let mut rows = Vec::new();
    for (t, kind) in DEVICE_TYPES.iter().enumerate() {
        for i in 0..DEVICES_PER_TYPE {
            for n in 0..READINGS_PER_DEVICE {
                let reading = Reading {
                    device_type: (*kind).to_owned(),
                    device_id: device_id(i),
                    ts_millis: START + n * EVERY_MILLIS,
                };
                let celsius = 18.0 + ((t as i64 * 31 + i64::from(i) * 7 + n * 13) % 80) as f64 / 10.0;
                let cell = set_cell(FAMILY, "celsius", format!("{celsius:.1}"), reading.ts_millis * 1000);
                rows.push((reading.to_key()?, vec![cell]));
            }
        }
    }
    Ok(rows)
}

fn celsius(row: &Row) -> String {
    String::from_utf8_lossy(row.value(FAMILY, b"celsius").unwrap_or_default()).into_owned()
}

/// The quickstart's device ids: distinct, random-looking, 8 hex digits.
fn device_id(i: u32) -> String {
    format!("{:08x}", i.wrapping_add(1).wrapping_mul(0x9e37_79b9))
}

/// Milliseconds since the epoch as the time of day on 1 May 2020, UTC.
fn clock(ts_millis: i64) -> String {
    let ms = ts_millis - START;
    format!("{:02}:{:02}:{:02}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60)
}
