//! Tablestore's monitoring table: the first 4 hex digits of MD5 of the machine's address,
//! the address, then the time; the readings of one machine, of a `/16` segment, and of a time
//! window, read back from redb.
//!
//! `cargo run --example monitoring`
//!
//! Tablestore keys a monitoring table by `MachineIp` first and warns that a hot address
//! segment such as `10.10.0.0/16` then lands on one partition. Its remedy is a prefix of the
//! first characters of MD5(ip): machines spread over the whole key space, and a hex prefix
//! makes pre-splitting easy (split at `1000`, `2000`, ...). The price is that addresses next
//! to each other are no longer next to each other in the table: one machine is still one
//! range, but a segment is one range per bucket.

mod tempdb;

use std::net::Ipv4Addr;

use chrono::{DateTime, Duration, Utc};
use redb::{ReadableTable, ReadableTableMetadata, TableDefinition};
use rowkey::RowKey;
use rowkey::field::Cidr;

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 65536, from = [ip], hash = "md5"))]
struct Reading {
    ip: Ipv4Addr,
    at: DateTime<Utc>,
    metric: String,
}

const READINGS: TableDefinition<&[u8], f64> = TableDefinition::new("readings");

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("monitoring")?;
    let db = &temp.db;
    let start = DateTime::from_timestamp(1_588_291_200, 0).ok_or("out of range")?; // 2020-05-01T00:00:00Z

    // 512 machines in two segments, one reading a minute for an hour.
    let machines: Vec<Ipv4Addr> = (0..256u16)
        .flat_map(|i| [Ipv4Addr::new(10, 10, (i / 64) as u8, i as u8), Ipv4Addr::new(10, 20, 0, i as u8)])
        .collect();
    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(READINGS)?;
        for minute in 0..60 {
            for (n, &ip) in machines.iter().enumerate() {
                let reading = Reading { ip, at: start + Duration::minutes(minute), metric: "cpu".into() };
                table.insert(reading.to_key()?.as_bytes(), (n % 100) as f64)?;
            }
        }
    }
    tx.commit()?;
    let read = db.begin_read()?;
    let table = read.open_table(READINGS)?;
    println!("{} readings written", table.len()?);
    let first = table.first()?.ok_or("empty table")?;
    println!("first key: {}", Reading::SCHEMA.inspect(first.0.value())?);

    // One machine: the address gives the bucket, so one range, in time order.
    let ip = Ipv4Addr::new(10, 10, 1, 71);
    let ranges = Reading::scan().ip(ip).ranges()?;
    let rows = count(&table, &ranges)?;
    println!("\n{ip}: {} range, {rows} readings", ranges.len());
    assert_eq!((ranges.len(), rows), (1, 60));

    // A window of one machine: still one range.
    let window =
        Reading::scan().ip(ip).at_range(start + Duration::minutes(10)..start + Duration::minutes(20)).ranges()?;
    let rows = count(&table, &window)?;
    println!("{ip}, 00:10 to 00:20: {} range, {rows} readings", window.len());
    assert_eq!(rows, 10);

    // A /16 segment: its machines are spread over every bucket, so one range per bucket, each
    // holding that bucket's part of the block.
    let segment: Cidr<Ipv4Addr> = "10.10.0.0/16".parse()?;
    let ranges = Reading::scan().ip_range(segment).ranges()?;
    let rows = count(&table, &ranges)?;
    println!("{segment}: {} ranges, {rows} readings", ranges.len());
    assert_eq!(rows, 256 * 60);
    Ok(())
}

fn count(table: &redb::ReadOnlyTable<&[u8], f64>, ranges: &rowkey::KeyRanges) -> Result<usize, Error> {
    let mut rows = 0;
    for range in ranges {
        rows += table.range::<&[u8]>(range.bounds())?.count();
    }
    Ok(rows)
}
