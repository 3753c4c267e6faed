//! rowkey beside storekey, memcomparable, ordcode and foundationdb-tuple, and a hand-written
//! baseline, on the same 10,000 device keys and 10,000 wide keys, in one criterion run; and
//! FoundationDB's tuple layer alone on a wider shape of its own (`src/nested.rs`).
//!
//! ```sh
//! cargo bench --manifest-path benches/peers/Cargo.toml                  # everything, a few minutes
//! cargo bench --manifest-path benches/peers/Cargo.toml -- device/       # one key
//! cargo bench --manifest-path benches/peers/Cargo.toml -- --test        # run each once
//! ```
//!
//! After criterion's own output it prints a table of medians (ns per key), each one's ratio
//! to the hand-written encoder, the mean key size of each library, and whether rowkey's speed
//! targets hold. The table is read back from the estimates criterion wrote in this run, so a
//! filtered run shows only what it measured.

use std::time::{Duration, SystemTime};

use criterion::{Criterion, Throughput};
use rowkey_peers::{Device, Encoded, Subject, Wide, event, nested, operations, targets};

fn bench_key<T: Subject>(c: &mut Criterion) {
    let inputs = T::inputs();
    let keys = Encoded::new(&inputs);
    let mut group = c.benchmark_group(T::GROUP);
    group.throughput(Throughput::Elements(inputs.len() as u64));
    for (id, mut pass) in operations(&inputs, &keys) {
        group.bench_function(id, |b| b.iter(&mut pass));
    }
    group.finish();
}

fn bench_nested(c: &mut Criterion) {
    let inputs = nested::Inputs::new();
    let mut group = c.benchmark_group(nested::GROUP);
    group.throughput(Throughput::Elements(inputs.keys.len() as u64));
    for (id, mut pass) in nested::operations(&inputs) {
        group.bench_function(id, |b| b.iter(&mut pass));
    }
    group.finish();
}

fn bench_events(c: &mut Criterion) {
    let inputs = event::Inputs::new();
    let mut group = c.benchmark_group(event::GROUP);
    group.throughput(Throughput::Elements(inputs.micros.len() as u64));
    for (id, mut pass) in event::operations(&inputs) {
        group.bench_function(id, |b| b.iter(&mut pass));
    }
    group.finish();
}

mod report {
    //! The summary table, from the `estimates.json` files criterion wrote during this run.

    use std::path::PathBuf;
    use std::time::SystemTime;

    use serde::Deserialize;

    /// One bench's place in the table.
    pub struct Row {
        pub id: &'static str,
        pub library: &'static str,
        pub api: &'static str,
    }

    const fn row(id: &'static str, library: &'static str, api: &'static str) -> Row {
        Row { id, library, api }
    }

    /// Every bench, in table order; the rowkey rows the targets are about are the derived ones.
    pub const ROWS: &[Row] = &[
        row("hand_written", "hand-written", "push into a reused Vec (rowkey's bytes)"),
        row("rowkey_encode_into", "rowkey", "derived encode_into(&mut Key)"),
        row("rowkey_tuple_encode_into", "rowkey", "tuple encode_into(&mut Key)"),
        row("rowkey_serde_to_key_into", "rowkey", "serde rowkey::to_key_into(&mut Key)"),
        row("storekey_encode_reuse", "storekey", "encode(&mut Vec)"),
        row("memcomparable_serializer_reuse", "memcomparable", "Serializer::new(&mut Vec)"),
        row("ordcode_ser_to_buf", "ordcode", "ser_to_buf_ordered(&mut [u8; 128])"),
        row("rowkey_to_key", "rowkey", "derived to_key()"),
        row("rowkey_tuple_to_key", "rowkey", "tuple to_key()"),
        row("rowkey_serde_to_key", "rowkey", "serde rowkey::to_key"),
        row("storekey_encode_vec", "storekey", "encode_vec"),
        row("memcomparable_to_vec", "memcomparable", "to_vec"),
        row("ordcode_ser_to_vec", "ordcode", "ser_to_vec_ordered"),
        row("rowkey_prefix_range", "rowkey", "derived scan of a 2-field prefix"),
        row("hand_written_decode", "hand-written", "one-pass decode (String)"),
        row("rowkey_from_key", "rowkey", "derived from_key (String)"),
        row("rowkey_tuple_from_key", "rowkey", "tuple from_key (String)"),
        row("rowkey_serde_from_key", "rowkey", "serde rowkey::from_key (String)"),
        row("storekey_decode", "storekey", "decode (String)"),
        row("memcomparable_from_slice", "memcomparable", "from_slice (String)"),
        row("ordcode_de_from_bytes", "ordcode", "de_from_bytes_asc (String)"),
        row("rowkey_from_key_borrowed", "rowkey", "derived from_key (&str)"),
        row("rowkey_tuple_from_key_borrowed", "rowkey", "tuple from_key (&str)"),
        row("rowkey_serde_from_key_borrowed", "rowkey", "serde rowkey::from_key (&str)"),
        row("storekey_decode_borrow", "storekey", "decode_borrow (Cow<str>)"),
        row("rowkey_memcomparable_encode_into", "rowkey", "Memcomparable.encode_into(&mut Key)"),
        row("rowkey_memcomparable_to_key", "rowkey", "Memcomparable.to_key"),
        row("rowkey_memcomparable_from_key", "rowkey", "Memcomparable.from_key (String)"),
        row("rowkey_memcomparable_from_key_borrowed", "rowkey", "Memcomparable.from_key (&str / Cow<str>)"),
        row("memcomparable_from_slice_desc", "memcomparable", "reverse-mode Deserializer (String)"),
        row("rowkey_memcomparable_from_key_desc", "rowkey", "Memcomparable.from_key (every field Desc, String)"),
        row("foundationdb_tuple_pack_into", "foundationdb-tuple", "pack_into(&mut Vec)"),
        row("foundationdb_tuple_pack", "foundationdb-tuple", "pack"),
        row("foundationdb_tuple_unpack", "foundationdb-tuple", "unpack (String, Vec<u8>)"),
        row("rowkey_fdb_encode_into", "rowkey", "FdbTuple.encode_into(&mut Key)"),
        row("rowkey_fdb_to_key", "rowkey", "FdbTuple.to_key"),
        row("rowkey_fdb_from_key", "rowkey", "FdbTuple.from_key (String, Vec<u8>)"),
        row("rowkey_fdb_from_key_borrowed", "rowkey", "FdbTuple.from_key (&str, Cow<[u8]>)"),
        row("rowkey_hbase_encode_into", "rowkey", "HBase.encode_into(&mut Key)"),
        row("rowkey_hbase_to_key", "rowkey", "HBase.to_key"),
        row("rowkey_hbase_from_key", "rowkey", "HBase.from_key (String)"),
        row("rowkey_hbase_from_key_borrowed", "rowkey", "HBase.from_key (&str, &[u8])"),
    ];

    #[derive(Deserialize)]
    struct Estimates {
        median: Estimate,
    }

    #[derive(Deserialize)]
    struct Estimate {
        point_estimate: f64,
    }

    /// Where criterion writes, by its own rules: `$CRITERION_HOME`, else the target directory
    /// (`$CARGO_TARGET_DIR`, else the one this binary was built into).
    fn criterion_home() -> Option<PathBuf> {
        if let Some(home) = std::env::var_os("CRITERION_HOME") {
            return Some(home.into());
        }
        if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
            return Some(PathBuf::from(target).join("criterion"));
        }
        // <target>/release/deps/peers-<hash>
        let exe = std::env::current_exe().ok()?;
        Some(exe.parent()?.parent()?.parent()?.join("criterion"))
    }

    /// The median time per key of one bench, if it was measured after `since`.
    pub fn median_ns(group: &str, id: &str, per_iteration: usize, since: SystemTime) -> Option<f64> {
        let path = criterion_home()?.join(group).join(id).join("new").join("estimates.json");
        let fresh = std::fs::metadata(&path).ok()?.modified().ok()? >= since;
        if !fresh {
            return None;
        }
        let estimates: Estimates = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
        Some(estimates.median.point_estimate / per_iteration as f64)
    }
}

/// Prints one key's table and its targets; returns false when nothing was measured.
fn print_key(group: &str, sizes: &[(&str, f64)], since: SystemTime) -> bool {
    use report::ROWS;
    let measured: Vec<(&report::Row, f64)> = ROWS
        .iter()
        .filter_map(|r| report::median_ns(group, r.id, rowkey_peers::INPUTS, since).map(|ns| (r, ns)))
        .collect();
    if measured.is_empty() {
        return false;
    }
    let median = |id: &str| measured.iter().find(|(r, _)| r.id == id).map(|&(_, ns)| ns);
    let baseline = median("hand_written");

    let sizes: Vec<String> = sizes.iter().map(|(lib, size)| format!("{lib} {size:.1} B")).collect();
    println!("\n### {group} key ({} inputs; mean key size: {})\n", rowkey_peers::INPUTS, sizes.join(", "));
    println!("| library | API | ns/key | × hand-written |");
    println!("|---|---|---:|---:|");
    for (row, ns) in &measured {
        let ratio = baseline.map_or_else(|| "-".to_owned(), |b| format!("{:.2}", ns / b));
        println!("| {} | {} | {ns:.1} | {ratio} |", row.library, row.api);
    }

    targets::print(&targets::check(group, &median));
    true
}

/// The event key's table: each time type's medians beside the `i64`'s, and its targets.
fn print_events(since: SystemTime) -> bool {
    let ids = ["i64", "jiff", "chrono", "time"];
    let median = |id: &str| report::median_ns(event::GROUP, id, rowkey_peers::INPUTS, since);
    if median("i64_encode_into").is_none() {
        return false;
    }
    println!("\n### event key (a UUID and a time; {} inputs)\n", rowkey_peers::INPUTS);
    println!("| time field | encode_into ns | from_key ns |");
    println!("|---|---:|---:|");
    for ty in ids {
        let cell = |op: &str| median(&format!("{ty}_{op}")).map_or_else(|| "-".to_owned(), |ns| format!("{ns:.1}"));
        println!("| {ty} | {} | {} |", cell("encode_into"), cell("from_key"));
    }
    targets::print(&targets::check(event::GROUP, &median));
    true
}

fn mean_sizes<T: Subject>() -> [(&'static str, f64); 6] {
    Encoded::new(&T::inputs()).mean_sizes()
}

fn main() {
    let started = SystemTime::now();
    let mut c = Criterion::default()
        // 25 samples of 1.5 s keep the whole run near two minutes on a 2-core machine.
        .sample_size(25)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .configure_from_args();
    bench_key::<Device>(&mut c);
    bench_key::<Wide>(&mut c);
    bench_events(&mut c);
    bench_nested(&mut c);
    c.final_summary();

    let mut printed = false;
    for (group, sizes) in [(Device::GROUP, mean_sizes::<Device>()), (Wide::GROUP, mean_sizes::<Wide>())] {
        printed |= print_key(group, &sizes, started);
    }
    printed |= print_events(started);
    let nested_size = [("FoundationDB tuple", nested::Inputs::new().mean_size())];
    printed |= print_key(nested::GROUP, &nested_size, started);
    if printed {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| info.lines().find(|l| l.starts_with("model name")).map(|l| l.to_owned()))
            .and_then(|l| l.split_once(':').map(|(_, name)| name.trim().to_owned()))
            .unwrap_or_else(|| "unknown CPU".to_owned());
        println!("\nMedians of one criterion run; {cpu}, {} threads available.", available_threads());
    }
}

fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
