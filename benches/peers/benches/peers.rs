//! rowkey beside storekey, memcomparable and ordcode, and a hand-written baseline, on the same
//! 10,000 device keys and 10,000 wide keys, in one criterion run.
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
use rowkey_peers::{Device, Encoded, Subject, Wide, operations};

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
        pub kind: Kind,
    }

    #[derive(Clone, Copy, PartialEq)]
    pub enum Kind {
        Baseline,
        EncodeReuse,
        EncodeAlloc,
        DecodeOwned,
        DecodeBorrowed,
    }

    const fn row(id: &'static str, library: &'static str, api: &'static str, kind: Kind) -> Row {
        Row { id, library, api, kind }
    }

    /// Every bench, in table order; the rowkey rows the targets are about are the derived ones.
    pub const ROWS: &[Row] = &[
        row("hand_written", "hand-written", "push into a reused Vec (rowkey's bytes)", Kind::Baseline),
        row("rowkey_encode_into", "rowkey", "derived encode_into(&mut Key)", Kind::EncodeReuse),
        row("rowkey_tuple_encode_into", "rowkey", "tuple encode_into(&mut Key)", Kind::EncodeReuse),
        row("rowkey_serde_to_key_into", "rowkey", "serde rowkey::to_key_into(&mut Key)", Kind::EncodeReuse),
        row("storekey_encode_reuse", "storekey", "encode(&mut Vec)", Kind::EncodeReuse),
        row("memcomparable_serializer_reuse", "memcomparable", "Serializer::new(&mut Vec)", Kind::EncodeReuse),
        row("ordcode_ser_to_buf", "ordcode", "ser_to_buf_ordered(&mut [u8; 128])", Kind::EncodeReuse),
        row("rowkey_to_key", "rowkey", "derived to_key()", Kind::EncodeAlloc),
        row("rowkey_tuple_to_key", "rowkey", "tuple to_key()", Kind::EncodeAlloc),
        row("rowkey_serde_to_key", "rowkey", "serde rowkey::to_key", Kind::EncodeAlloc),
        row("storekey_encode_vec", "storekey", "encode_vec", Kind::EncodeAlloc),
        row("memcomparable_to_vec", "memcomparable", "to_vec", Kind::EncodeAlloc),
        row("ordcode_ser_to_vec", "ordcode", "ser_to_vec_ordered", Kind::EncodeAlloc),
        row("rowkey_from_key", "rowkey", "derived from_key (String)", Kind::DecodeOwned),
        row("rowkey_tuple_from_key", "rowkey", "tuple from_key (String)", Kind::DecodeOwned),
        row("rowkey_serde_from_key", "rowkey", "serde rowkey::from_key (String)", Kind::DecodeOwned),
        row("storekey_decode", "storekey", "decode (String)", Kind::DecodeOwned),
        row("memcomparable_from_slice", "memcomparable", "from_slice (String)", Kind::DecodeOwned),
        row("ordcode_de_from_bytes", "ordcode", "de_from_bytes_asc (String)", Kind::DecodeOwned),
        row("rowkey_from_key_borrowed", "rowkey", "derived from_key (&str)", Kind::DecodeBorrowed),
        row("rowkey_tuple_from_key_borrowed", "rowkey", "tuple from_key (&str)", Kind::DecodeBorrowed),
        row("rowkey_serde_from_key_borrowed", "rowkey", "serde rowkey::from_key (&str)", Kind::DecodeBorrowed),
        row("storekey_decode_borrow", "storekey", "decode_borrow (Cow<str>)", Kind::DecodeBorrowed),
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
    use report::{Kind, ROWS};
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

    // rowkey's speed targets, one a row, checked on the derived rowkey forms.
    let peers = |kind: Kind| {
        measured.iter().filter(move |(r, _)| r.kind == kind && r.library != "rowkey").map(|&(r, ns)| (r.library, ns))
    };
    let fastest = |kind: Kind| peers(kind).min_by(|a, b| a.1.total_cmp(&b.1));
    let verdict = |holds: bool| if holds { "holds" } else { "MISSED" };
    println!("\n| target | measured | |");
    println!("|---|---|---|");
    if let (Some(ours), Some(base)) = (median("rowkey_encode_into"), baseline) {
        let ratio = ours / base;
        println!("| encode_into ≤ 1.2× hand-written | {ratio:.2}× | {} |", verdict(ratio <= 1.2));
    }
    if let (Some(ours), Some((lib, theirs))) = (median("rowkey_encode_into"), fastest(Kind::EncodeReuse)) {
        let line = format!("{ours:.1} ns vs {lib} {theirs:.1} ns");
        println!("| encode_into faster than every peer's reuse-buffer encode | {line} | {} |", verdict(ours < theirs));
    }
    if let (Some(ours), Some((lib, theirs))) = (median("rowkey_to_key"), fastest(Kind::EncodeAlloc)) {
        let speedup = theirs / ours;
        let line = format!("{speedup:.2}× faster than {lib}");
        println!("| to_key ≥ 2× faster than every peer's allocating encode | {line} | {} |", verdict(speedup >= 2.0));
    }
    if let (Some(ours), Some((lib, theirs))) = (median("rowkey_from_key"), fastest(Kind::DecodeOwned)) {
        let speedup = theirs / ours;
        let line = format!("{speedup:.2}× faster than {lib}");
        println!("| from_key (owned) ≥ 1.5× faster than the fastest peer | {line} | {} |", verdict(speedup >= 1.5));
    }
    if let (Some(borrowed), Some(owned)) = (median("rowkey_from_key_borrowed"), median("rowkey_from_key")) {
        let line = format!("{borrowed:.1} ns vs {owned:.1} ns");
        println!("| borrowing decode faster than owned | {line} | {} |", verdict(borrowed < owned));
    }
    true
}

fn mean_sizes<T: Subject>() -> [(&'static str, f64); 4] {
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
    c.final_summary();

    let mut printed = false;
    for (group, sizes) in [(Device::GROUP, mean_sizes::<Device>()), (Wide::GROUP, mean_sizes::<Wide>())] {
        printed |= print_key(group, &sizes, started);
    }
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
