//! Time series keyed `device#metric#timestamp`: one series in a time window is one range
//! scan, and so is everything one device measured.
//!
//! `cargo run --example time_series`
//!
//! This follows Bigtable's schema design guide for time series: a tall, narrow table with
//! one row per point, and the fields you filter on by equality (device, then metric) before
//! the timestamp you filter on by range. The timestamp is last, never first: first, every
//! write of the moment would land on one tablet. Field order is a choice of queries: this key
//! reads one device cheaply, while "cpu of every device" would be a scan per device, or a
//! second table keyed `metric#device#timestamp`.

mod tempdb;

use redb::{ReadOnlyTable, TableDefinition};
use rowkey::{KeyRanges, RowKey};

/// Delimited and ascending: `machine04#cpu#0001588291260`, readable as is. Seconds, padded
/// to 13 digits by `width` (enough for any date this side of the year 300,000), sort by
/// time as text.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct Point {
    device: String,
    metric: String,
    #[rowkey(width = 13)]
    ts_secs: i64,
}

/// Key bytes to the measured value.
const POINTS: TableDefinition<&[u8], f64> = TableDefinition::new("points");

const DEVICES: u32 = 10;
const METRICS: [&str; 4] = ["cpu", "disk_read", "disk_write", "mem"];
/// Midnight UTC, 1 May 2020, then one point a minute for 12 hours.
const START: i64 = 1_588_291_200;
const MINUTES: i64 = 720;

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("time-series")?;
    let db = &temp.db;

    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(POINTS)?;
        for d in 0..DEVICES {
            for (m, metric) in METRICS.iter().enumerate() {
                for minute in 0..MINUTES {
                    let point = Point { device: device(d), metric: (*metric).into(), ts_secs: START + minute * 60 };
                    let value = f64::from(d) + m as f64 * 10.0 + (minute % 60) as f64 / 60.0;
                    table.insert(point.to_key()?.as_bytes(), value)?;
                }
            }
        }
    }
    tx.commit()?;
    let read = db.begin_read()?;
    let table = read.open_table(POINTS)?;
    println!("{} points: {DEVICES} devices, {} metrics, one a minute for 12 h\n", DEVICES * 4 * MINUTES as u32, 4);

    // One series, 02:00 to 02:30: one range, oldest first.
    let (from, to) = (START + 7_200, START + 9_000);
    let window = Point::scan().device("machine04").metric("cpu").ts_secs_range(from..to).ranges()?;
    let points = read_points(&table, &window)?;
    let mean = points.iter().map(|(_, v)| v).sum::<f64>() / points.len() as f64;
    println!("machine04 cpu, 02:00 to 02:30: {window}");
    println!("  {} points, mean {mean:.2}, first {}, last {}\n", points.len(), points[0].0, points[points.len() - 1].0);

    // Everything machine04 measured: one range, metric by metric.
    let device_range = Point::scan().device("machine04").ranges()?;
    let all = read_points(&table, &device_range)?;
    println!("machine04, every metric: {device_range}: {} points", all.len());

    // Both disk metrics: a prefix of the metric field.
    let disk = Point::scan().device("machine04").metric_starts_with("disk").ranges()?;
    let disk_points = read_points(&table, &disk)?;
    println!("machine04, metrics starting \"disk\": {disk}: {} points", disk_points.len());
    let last = &disk_points[disk_points.len() - 1].0;
    let first = &disk_points[0].0;
    println!("  first key {first}  ({})", Point::SCHEMA.inspect(first)?);
    println!("  last key  {last}  ({})", Point::SCHEMA.inspect(last)?);
    assert_eq!(disk_points.len(), 2 * MINUTES as usize);
    Ok(())
}

/// The points in `ranges`, with their keys as text (this format's keys are readable).
fn read_points(table: &ReadOnlyTable<&[u8], f64>, ranges: &KeyRanges) -> Result<Vec<(rowkey::Key, f64)>, Error> {
    let mut points = Vec::new();
    for range in ranges {
        for row in table.range::<&[u8]>(range.bounds())? {
            let (key, value) = row?;
            points.push((rowkey::Key::from(key.value()), value.value()));
        }
    }
    Ok(points)
}

fn device(i: u32) -> String {
    format!("machine{i:02}")
}
