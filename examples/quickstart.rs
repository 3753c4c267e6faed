//! 100,000 sensor readings in a redb table under a salted, newest-first row key, then the
//! reads people run against such a table, each timed and counted.
//!
//! `cargo run --example quickstart`
//!
//! The key is the device key of Bigtable's schema design guide,
//! `device_type#device_id#reversed_timestamp`, with a salt bucket in front. redb stands in
//! for the range-partitioned store: like Bigtable it keeps rows sorted by their key bytes and
//! reads one range at a time, so every read below is a range the key type computed.

mod tempdb;

use std::ops::{Bound, RangeBounds};
use std::time::Instant;

use redb::{ReadOnlyTable, TableDefinition};
use rowkey::{Key, KeyRange, RowKey};

/// One reading's row key.
///
/// The delimited format, because a person debugging this table reads its keys in Key
/// Visualizer, `cbt read` or a log line, and `01#meter#4c410523#9223370448563575807` needs
/// no decoder. It fits here since types are lowercase words and ids are hex, all above `#`;
/// a value with a `#` or a space (both sort below `#`) is an encode error, not a mis-sorted
/// key. Free-form text fields would call for the ordered format instead.
///
/// `reverse` stores `i64::MAX - ts_millis`, so a device's newest reading comes first and
/// "latest N" is the start of a range. The salt bucket, a hash of `device_id`, spreads the
/// writes of every moment over 16 key ranges instead of one per device type.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct Reading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

/// Key bytes to a temperature in °C.
const READINGS: TableDefinition<&[u8], f32> = TableDefinition::new("readings");

const DEVICE_TYPES: [&str; 4] = ["camera", "meter", "thermostat", "valve"];
const DEVICES_PER_TYPE: u32 = 50;
/// 200 devices, each reporting every 30 s for 4 h 10 min: 100,000 readings.
const READINGS_PER_DEVICE: i64 = 500;
const EVERY_MILLIS: i64 = 30_000;
/// Midnight UTC, 1 May 2020.
const START: i64 = 1_588_291_200_000;
const END: i64 = START + READINGS_PER_DEVICE * EVERY_MILLIS;
/// Big enough that a commit's cost is spread thin, small enough that a crash loses little.
const BATCH: usize = 10_000;

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("quickstart")?;
    let db = &temp.db;

    let started = Instant::now();
    let written = write_readings(db)?;
    println!("wrote {written} readings in {} write transactions: {}\n", written.div_ceil(BATCH), since(started));

    let table = db.begin_read()?.open_table(READINGS)?;
    let (kind, device) = ("thermostat", device_id(7));

    latest_readings(&table, kind, &device)?;
    time_window(&table, kind, &device)?;
    last_hour_of_a_type(&table, "meter")?;
    readable_key(&table, kind, &device)?;
    Ok(())
}

/// Writes in time order, all devices at one moment before the next, as a live feed arrives.
fn write_readings(db: &redb::Database) -> Result<usize, Error> {
    let devices: Vec<(&str, String)> =
        DEVICE_TYPES.iter().flat_map(|kind| (0..DEVICES_PER_TYPE).map(move |i| (*kind, device_id(i)))).collect();
    let readings = (0..READINGS_PER_DEVICE).flat_map(|n| {
        devices.iter().enumerate().map(move |(d, (kind, id))| {
            let d = d as i64;
            // Devices report at their own offsets within each 30 s, so the merged reads below
            // have real interleaving to sort out.
            let reading = Reading {
                device_type: (*kind).to_owned(),
                device_id: id.clone(),
                ts_millis: START + n * EVERY_MILLIS + (d * 149) % EVERY_MILLIS,
            };
            (reading, 18.0 + ((d * 7 + n * 13) % 80) as f32 / 10.0)
        })
    });

    let mut key = Key::new();
    let mut written = 0;
    let mut readings = readings.peekable();
    while readings.peek().is_some() {
        let tx = db.begin_write()?;
        {
            let mut table = tx.open_table(READINGS)?;
            for (reading, celsius) in readings.by_ref().take(BATCH) {
                // One buffer for every key: encode_into reuses it, so no key allocates.
                reading.encode_into(&mut key)?;
                table.insert(key.as_bytes(), celsius)?;
                written += 1;
            }
        }
        tx.commit()?;
    }
    Ok(written)
}

/// The newest 10 readings of one device: its rows are one range, newest first, so this reads
/// exactly 10 rows.
fn latest_readings(table: &ReadOnlyTable<&[u8], f32>, kind: &str, device: &str) -> Result<(), Error> {
    let started = Instant::now();
    // Every salt source field is fixed, so the bucket is known: one range, not 16.
    let ranges = Reading::scan().device_type(kind).device_id(device).ranges()?;
    let mut rows = Vec::new();
    for range in &ranges {
        for row in table.range::<&[u8]>(range.bounds())?.take(10 - rows.len()) {
            let (key, celsius) = row?;
            rows.push((Reading::from_key(key.value())?, celsius.value()));
        }
    }
    println!(
        "latest 10 readings of {kind} {device}: {} range, {} rows read, {}",
        ranges.len(),
        rows.len(),
        since(started)
    );
    for (reading, celsius) in &rows {
        println!("  {}  {celsius:.1} °C", clock(reading.ts_millis));
    }
    println!();
    Ok(())
}

/// One device between 01:00 and 01:15. The window is given in time order; the scan builder
/// knows the field is reversed and swaps the bounds, so the range still comes newest first.
fn time_window(table: &ReadOnlyTable<&[u8], f32>, kind: &str, device: &str) -> Result<(), Error> {
    let (from, to) = (START + 3_600_000, START + 4_500_000);
    let started = Instant::now();
    let ranges = Reading::scan().device_type(kind).device_id(device).ts_millis_range(from..to).ranges()?;
    let mut times = Vec::new();
    for range in &ranges {
        for row in table.range::<&[u8]>(range.bounds())? {
            times.push(Reading::from_key(row?.0.value())?.ts_millis);
        }
    }
    println!(
        "{kind} {device} from {} to {}: {} range, {} rows read, {}",
        clock(from),
        clock(to),
        ranges.len(),
        times.len(),
        since(started)
    );
    if let (Some(first), Some(last)) = (times.first(), times.last()) {
        println!("  newest {}, oldest {}\n", clock(*first), clock(*last));
    }
    Ok(())
}

/// Every device of one type, last hour only. The bucket depends on the device id, which the
/// query leaves open, so the type's rows are spread over all 16 buckets: read each bucket,
/// then merge the 16 sorted streams into one.
///
/// The merge restores *unsalted order*: the order of the key without its bucket field,
/// `device_type#device_id#reversed_ts`. For this key that is device by device, each device
/// newest first; not one timeline across devices. A key that sorted by time first would give
/// that, and would send every write to the same tablet (see `docs/hotspot-timestamp-first.svg`).
fn last_hour_of_a_type(table: &ReadOnlyTable<&[u8], f32>, kind: &str) -> Result<(), Error> {
    let hour_ago = END - 3_600_000;
    let started = Instant::now();
    let buckets = Reading::scan().device_type(kind).ranges()?;
    let mut streams = Vec::new();
    let mut seeks = 0;
    for bucket in &buckets {
        let (rows, devices) = recent_in_bucket(table, bucket, kind, hour_ago)?;
        streams.push(rows);
        seeks += devices;
    }
    let merged: Vec<(Key, f32)> =
        rowkey::merge(streams, |(key, _)| Reading::SCHEMA.unsalted(key).ok().map(Key::from)).collect();
    let elapsed = since(started);

    let decoded: Vec<Reading> = merged.iter().map(|(key, _)| Reading::from_key(key)).collect::<Result<_, _>>()?;
    let in_order = |w: &[(Key, f32)]| Reading::SCHEMA.unsalted(&w[0].0).ok() <= Reading::SCHEMA.unsalted(&w[1].0).ok();
    assert!(merged.windows(2).all(in_order), "the merge is in unsalted order");
    let distinct = decoded.iter().map(|r| &r.device_id).collect::<std::collections::BTreeSet<_>>().len();
    println!(
        "every {kind} in the last hour: {} ranges (one per bucket), {} rows read with {seeks} seeks, \
         {distinct} devices, {elapsed}",
        buckets.len(),
        merged.len()
    );
    // Where the first device ends and the next, from another bucket, begins.
    let next = decoded.iter().position(|r| r.device_id != decoded[0].device_id).unwrap_or(1).max(1);
    println!("  merged into unsalted order, device by device, each newest first:");
    let show = |(key, celsius): &(Key, f32)| match Reading::SCHEMA.inspect(key) {
        Ok(fields) => println!("    {key}  {celsius:.1} °C  ({fields})"),
        Err(err) => println!("    {key}  {celsius:.1} °C  (not a Reading key: {err})"),
    };
    merged.iter().take(2).for_each(show);
    println!("    ...");
    merged.iter().skip(next - 1).take(3).for_each(show);
    println!("    ...\n");
    Ok(())
}

/// One bucket's readings of `kind` since `since`, in key order, and how many devices it
/// holds.
///
/// Scanning the bucket's whole `kind` range would read every reading of every device in it
/// to keep the last hour. Instead, skip from device to device: the first row at or after a
/// position is the next device's newest reading, which names the device; read its last hour
/// as one range, then jump past all of its rows.
fn recent_in_bucket(
    table: &ReadOnlyTable<&[u8], f32>,
    bucket: &KeyRange,
    kind: &str,
    since: i64,
) -> Result<(Vec<(Key, f32)>, usize), Error> {
    let mut rows = Vec::new();
    let mut devices = 0;
    let mut from: Bound<Key> = bucket.start().cloned();
    loop {
        let rest = (from.as_ref().map(|k| k.as_bytes()), bucket.end_bound());
        let Some(first) = table.range::<&[u8]>(rest)?.next() else { break };
        let device = Reading::from_key(first?.0.value())?.device_id;
        devices += 1;

        for range in &Reading::scan().device_type(kind).device_id(&device).ts_millis_range(since..).ranges()? {
            for row in table.range::<&[u8]>(range.bounds())? {
                let (key, celsius) = row?;
                rows.push((Key::from(key.value()), celsius.value()));
            }
        }
        // Continue where the device's whole range ends.
        let whole = Reading::scan().device_type(kind).device_id(&device).ranges()?;
        match whole.iter().last().map(KeyRange::end) {
            Some(Bound::Excluded(end)) => from = Bound::Included(end.clone()),
            Some(Bound::Included(end)) => from = Bound::Excluded(end.clone()),
            _ => break,
        }
    }
    Ok((rows, devices))
}

/// A key as `cbt` would print it, its fields, and the key type's schema.
fn readable_key(table: &ReadOnlyTable<&[u8], f32>, kind: &str, device: &str) -> Result<(), Error> {
    let started = Instant::now();
    let ranges = Reading::scan().device_type(kind).device_id(device).ranges()?;
    let newest = ranges.iter().next().ok_or("no range")?;
    let (key, celsius) = table.range::<&[u8]>(newest.bounds())?.next().ok_or("the device has no rows")??;
    let key = Key::from(key.value());
    let reading = Reading::from_key(&key)?;
    println!("newest row of {kind} {device}: 1 row read, {}", since(started));
    println!("  key      {key}");
    println!("  fields   {}", Reading::SCHEMA.inspect(&key)?);
    println!("  decoded  {reading:?}");
    println!("  value    {:.1} °C", celsius.value());
    println!("  i64::MAX - {} = {}", reading.ts_millis, i64::MAX - reading.ts_millis);
    println!("\n{}", Reading::SCHEMA);
    Ok(())
}

/// A deterministic 8-hex-digit device id: multiplying by an odd constant is a bijection on
/// `u32`, so ids are distinct and look random.
fn device_id(i: u32) -> String {
    format!("{:08x}", i.wrapping_add(1).wrapping_mul(0x9e37_79b9))
}

/// Milliseconds since the epoch as the time of day on 1 May 2020, UTC.
fn clock(ts_millis: i64) -> String {
    let ms = ts_millis - START;
    format!("{:02}:{:02}:{:02}.{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

/// Elapsed time in a unit that keeps a release build's sub-millisecond reads readable.
fn since(started: Instant) -> String {
    let elapsed = started.elapsed();
    if elapsed.as_millis() < 1 {
        format!("{} µs", elapsed.as_micros())
    } else {
        format!("{:.1} ms", elapsed.as_secs_f64() * 1e3)
    }
}
