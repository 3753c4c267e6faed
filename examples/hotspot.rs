//! One IoT workload under five row key designs, replayed against a store's tablets: prints
//! how much of the write load the hottest tablet takes, and writes a heatmap of each design
//! to `docs/hotspot-*.svg`. Then the salted design as a derived key, in a table created
//! unsplit and one created with its bucket boundaries as initial splits (`rowkey::splits`):
//! the first takes the first writes on one tablet, the second spreads them from the start
//! (`docs/hotspot-presplit.svg`, its key axis labelled by field).
//!
//! `cargo run --example hotspot` (its output is in `docs/hotspot.txt`)

use std::path::Path;

use rowkey::hotspot::{Heatmap, Report, Simulator, Windows, sample_split_points};
use rowkey::salt::{Salt, farm_fingerprint};
use rowkey::{Key, RowKey};

/// 200 devices, each reporting every 15 seconds for 3 hours: 144,000 writes, few enough to
/// run in a few seconds in a debug build.
const DEVICES: u32 = 200;
const EVERY_SECS: u64 = 15;
const HOURS: u64 = 3;
/// A tablet splits past this many rows, which leaves about 30 tablets by the end.
const MAX_ROWS: usize = 6_000;
/// Three-minute windows: 2,400 writes each, fewer than half a tablet, so a window shows where
/// the load is at that time rather than smearing it over the tablets it moved through.
const WINDOW_SECS: u64 = 180;
/// Tablets for the pre-split comparison.
const PRESPLIT: usize = 16;

struct Design {
    name: &'static str,
    file: &'static str,
    title: &'static str,
    key: KeyOf,
}

/// How a design turns a reading into its row key.
type KeyOf = Box<dyn Fn(&Reading<'_>) -> rowkey::Result<Key>>;

struct Reading<'a> {
    kind: &'static str,
    device: &'a str,
    millis: i64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let salt = Salt::farmhash(16)?;
    let designs = [
        Design {
            name: "timestamp-first",
            file: "hotspot-timestamp-first.svg",
            title: "Timestamp first: (ts_millis, device_type, device_id)",
            key: Box::new(|r| (r.millis, r.kind, r.device).to_key()),
        },
        Design {
            name: "device-first",
            file: "hotspot-device-first.svg",
            title: "Device first: (device_type, device_id, ts_millis)",
            key: Box::new(|r| (r.kind, r.device, r.millis).to_key()),
        },
        Design {
            name: "salted",
            file: "hotspot-salted.svg",
            title: "Salted: (bucket of device_id in 16, device_type, device_id, ts_millis)",
            key: Box::new(move |r| salt.ordered_key(&(r.device,), &(r.kind, r.device, r.millis))),
        },
        // Spanner's advice for a first key column: a UUID v4 is random, so writes spread; a
        // v7 starts with the time it was minted, so keys that lead with it pile up at the end
        // like timestamps (as would v1's time, were its bytes in time order, and v6's).
        Design {
            name: "uuid-v4-first",
            file: "hotspot-uuid-v4.svg",
            title: "UUID v4 first: (event id, device_id)",
            key: Box::new(|r| (event_id(r, 4), r.device).to_key()),
        },
        Design {
            name: "uuid-v7-first",
            file: "hotspot-uuid-v7.svg",
            title: "UUID v7 first: (event id, device_id)",
            key: Box::new(|r| (event_id(r, 7), r.device).to_key()),
        },
    ];

    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    std::fs::create_dir_all(&docs)?;
    let devices = devices();
    let readings = readings(&devices);

    println!("{DEVICES} devices, one reading every {EVERY_SECS} s for {HOURS} h; tablets split past {MAX_ROWS} rows");
    println!(
        "share of writes on the hottest tablet at a time, over all {WINDOW_SECS} s windows and the last quarter:\n"
    );
    println!(
        "{:<16} {:<24} {:>7} {:>8} {:>7} {:>9}",
        "key design", "splits", "tablets", "overall", "late", "late skew"
    );
    for design in &designs {
        let writes =
            readings.iter().map(|(second, r)| Ok(((design.key)(r)?, *second))).collect::<rowkey::Result<Vec<_>>>()?;
        let mut dynamic = Simulator::dynamic(MAX_ROWS)?;
        // Pre-split as from SampleRowKeys on a table that already holds such data: a sample of
        // the run's keys, 1 in 16 picked by hash (every 16th write would only ever pick the
        // same few devices, since they write in turn).
        let sample = writes.iter().map(|(key, _)| key).filter(|key| farm_fingerprint(key) % 16 == 0);
        let mut presplit = Simulator::fixed(sample_split_points(sample, PRESPLIT));
        for (key, second) in &writes {
            dynamic.record_at(key, *second);
            presplit.record_at(key, *second);
        }
        let dynamic = dynamic.report(Windows::Length(WINDOW_SECS));
        let presplit = presplit.report(Windows::Length(WINDOW_SECS));
        print_row(design.name, "dynamic (split by size)", &dynamic);
        print_row("", "pre-split from a sample", &presplit);
        println!("{:<16} {}", "", dynamic.verdict(0.5));

        let svg = Heatmap::new(&dynamic)
            .title(design.title)
            .time_label("time (h:mm)")
            .time_format(|s| format!("{}:{:02}", s / 3600, s / 60 % 60))
            .to_svg();
        std::fs::write(docs.join(design.file), svg)?;
    }
    initial_splits(&readings, &docs)?;
    println!("\nheatmaps written to docs/ in the crate");
    Ok(())
}

/// The salted design as the quickstart derives it, whose schema gives the table's initial
/// splits and the heatmap's field labels.
#[derive(RowKey)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct SaltedReading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

/// The salted key in a table created unsplit and in one created with the bucket boundaries as
/// initial splits: where the first windows' writes go.
fn initial_splits(readings: &[(u64, Reading<'_>)], docs: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let splits = SaltedReading::SCHEMA.split_planner().plan()?;
    let mut unsplit = Simulator::dynamic(MAX_ROWS)?;
    let mut presplit = Simulator::dynamic_with_splits(MAX_ROWS, splits.points())?;
    for (second, r) in readings {
        let key =
            SaltedReading { device_type: r.kind.into(), device_id: r.device.into(), ts_millis: r.millis }.to_key()?;
        unsplit.record_at(&key, *second);
        presplit.record_at(&key, *second);
    }
    println!("\nsalted, as a derived key: the table created unsplit, or with {} initial splits", splits.len());
    println!("(cbt createtable readings {})\n", splits.to_cbt_arg()?);
    println!("{:<24} {:>22} {:>22}", "created", "tablets written, 1st", "hottest share, 1st");
    for (name, sim) in [("unsplit", &unsplit), ("with initial splits", &presplit)] {
        let report = sim.report(Windows::Length(WINDOW_SECS));
        let first = &report.windows()[0];
        let busy = first.tablets().iter().filter(|t| t.writes() > 0).count();
        let share = first.hottest().map_or(0.0, |h| h.share());
        println!("{name:<24} {busy:>22} {:>21.1}%", share * 100.0);
    }
    let svg = Heatmap::new(&presplit.report(Windows::Length(WINDOW_SECS)))
        .schema(&SaltedReading::SCHEMA)
        .title("Salted, created with initial splits at its 16 buckets")
        .time_label("time (h:mm)")
        .time_format(|s| format!("{}:{:02}", s / 3600, s / 60 % 60))
        .to_svg();
    std::fs::write(docs.join("hotspot-presplit.svg"), svg)?;
    Ok(())
}

/// The reading's event id: a version 4 UUID (random bits, here from a hash of the reading) or
/// a version 7 one (the reading's milliseconds, then the same bits).
fn event_id(r: &Reading<'_>, version: u8) -> uuid::Uuid {
    let bits = farm_fingerprint(format!("{}{}", r.device, r.millis).as_bytes()).to_be_bytes();
    let mut random = [0u8; 16];
    random[..8].copy_from_slice(&bits);
    random[8..].copy_from_slice(&bits);
    if version == 4 {
        uuid::Builder::from_random_bytes(random).into_uuid()
    } else {
        let millis = u64::try_from(r.millis).unwrap_or(0);
        uuid::Builder::from_unix_timestamp_millis(
            millis,
            &[bits[0], bits[1], bits[2], bits[3], bits[4], bits[5], bits[6], bits[7], bits[0], bits[1]],
        )
        .into_uuid()
    }
}

/// Each device's type and 8-hex-digit id. Mostly phones, as a real fleet is uneven.
fn devices() -> Vec<(&'static str, String)> {
    (0..DEVICES)
        .map(|i| {
            let kind = match i % 10 {
                0..=5 => "phone",
                6..=8 => "tablet",
                _ => "watch",
            };
            (kind, format!("{:08x}", farm_fingerprint(&i.to_be_bytes()) as u32))
        })
        .collect()
}

/// The readings in write order, each with its time in seconds. Devices report at staggered
/// offsets within each interval, as unsynchronised clocks would.
fn readings<'a>(devices: &'a [(&'static str, String)]) -> Vec<(u64, Reading<'a>)> {
    let mut readings = Vec::new();
    for second in 0..HOURS * 3600 {
        let millis = 1_588_291_200_000 + 1000 * second as i64;
        for (i, (kind, device)) in devices.iter().enumerate() {
            if (second + i as u64).is_multiple_of(EVERY_SECS) {
                readings.push((second, Reading { kind, device, millis }));
            }
        }
    }
    readings
}

fn print_row(design: &str, splits: &str, report: &Report) {
    let overall = report.hottest().map_or(0.0, |h| h.share());
    let late = report.hottest_late();
    println!(
        "{design:<16} {splits:<24} {:>7} {:>7.1}% {:>6.1}% {:>8.1}×",
        report.tablets().len(),
        overall * 100.0,
        late.as_ref().map_or(0.0, |h| h.share()) * 100.0,
        late.as_ref().map_or(0.0, |h| h.skew()),
    )
}
