//! Monitoring data keyed by time, spread over 16 buckets by `time % 16`, and read back in
//! time order by merging the buckets.
//!
//! `cargo run --example time_buckets`
//!
//! This follows Tablestore's guidance for time-ordered data: a partition key that starts with
//! the time sends every write to the last partition, so prefix it with a bucket computed from
//! the time itself, `time % 16`. Consecutive seconds then go to 16 different partitions, and
//! a reader still knows where to look: one bucket for one instant, all 16 for a window, each
//! read as one range and merged back into time order.
//!
//! A modulo bucket is only as even as the times fed to it: if every time were a multiple of
//! 10, `time % 16` would only ever be even and half the buckets would stay empty. These
//! times step by one second.

mod tempdb;

use redb::{ReadableTableMetadata, TableDefinition};
use rowkey::{Key, RowKey};

/// The ordered format, with the bucket as its first field: for fewer than 64 buckets that is
/// one byte, followed by the two-byte field separator.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 16, from = [time], hash = "modulo"))]
struct Sample {
    time: i64,
    host: String,
    metric: String,
}

/// Key bytes to the sampled value.
const SAMPLES: TableDefinition<&[u8], f64> = TableDefinition::new("samples");

/// Ten hosts, one cpu and one mem sample a second each, for 30 minutes from midnight UTC,
/// 1 May 2020.
const START: i64 = 1_588_291_200;
const SECONDS: i64 = 1_800;
const HOSTS: i64 = 10;

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("time-buckets")?;
    let db = &temp.db;

    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(SAMPLES)?;
        for time in START..START + SECONDS {
            for h in 0..HOSTS {
                for metric in ["cpu", "mem"] {
                    let sample = Sample { time, host: format!("web-{h:02}"), metric: metric.into() };
                    table.insert(sample.to_key()?.as_bytes(), ((time + h) % 100) as f64)?;
                }
            }
        }
    }
    tx.commit()?;
    let read = db.begin_read()?;
    let table = read.open_table(SAMPLES)?;
    println!("{} samples written\n", table.len()?);

    // One instant: its bucket is `time % 16`, so one range.
    let instant = START + 905;
    let ranges = Sample::scan().time(instant).ranges()?;
    let mut found = Vec::new();
    for range in &ranges {
        for row in table.range::<&[u8]>(range.bounds())? {
            let sample = Sample::from_key(row?.0.value())?;
            found.push(format!("{}/{}", sample.host, sample.metric));
        }
    }
    println!("at {instant}: bucket {}, {} range, {} samples", instant % 16, ranges.len(), found.len());
    println!("  {} ... {}\n", found[..3].join(" "), found[found.len() - 1]);

    // A five-minute window: any bucket may hold some of it, so one range per bucket, each read
    // lazily and merged. The merge key is the key without its bucket field, which for this
    // key is time order (then host, then metric).
    let (from, to) = (START + 600, START + 900);
    let buckets = Sample::scan().time_range(from..to).ranges()?;
    let mut streams = Vec::new();
    for range in &buckets {
        streams.push(table.range::<&[u8]>(range.bounds())?);
    }
    let merged = rowkey::try_merge(streams, |(key, _)| Sample::SCHEMA.unsalted(key.value()).ok().map(Key::from));
    let mut samples = Vec::new();
    for row in merged {
        samples.push(Sample::from_key(row?.0.value())?);
    }
    println!("{from} to {to}: {} ranges, {} samples merged", buckets.len(), samples.len());
    for sample in samples.iter().take(3) {
        println!("  {}  {}  {}", sample.time, sample.host, sample.metric);
    }
    println!("  ...");
    for sample in samples.iter().skip(samples.len() - 2) {
        println!("  {}  {}  {}", sample.time, sample.host, sample.metric);
    }
    assert_eq!(samples.len() as i64, (to - from) * HOSTS * 2);
    assert!(samples.windows(2).all(|w| w[0].time <= w[1].time), "merged into time order");
    Ok(())
}
