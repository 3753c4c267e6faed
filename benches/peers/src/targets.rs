//! rowkey's speed targets, checked on whatever was measured: criterion's medians in the
//! bench, callgrind's instruction counts in `instructions.sh`. One list, so both print the
//! same rows.

/// The peers' operations of one kind, by bench id.
const PEER_ENCODES: &[&str] = &["storekey_encode_reuse", "memcomparable_serializer_reuse", "ordcode_ser_to_buf"];
const PEER_ALLOCATING_ENCODES: &[&str] = &["storekey_encode_vec", "memcomparable_to_vec", "ordcode_ser_to_vec"];
const PEER_OWNED_DECODES: &[&str] = &["storekey_decode", "memcomparable_from_slice", "ordcode_de_from_bytes"];
const PEER_DECODES: &[&str] =
    &["storekey_decode", "storekey_decode_borrow", "memcomparable_from_slice", "ordcode_de_from_bytes"];

/// One target and how it came out.
pub struct Target {
    /// What is promised.
    pub goal: String,
    /// What was measured, with the figures compared.
    pub measured: String,
    /// Whether the promise holds.
    pub holds: bool,
}

/// The targets of one key group, from `value(id)` (a median or a count; lower is faster).
/// A target whose operations were not all measured is left out.
#[must_use]
pub fn check(group: &str, value: &dyn Fn(&str) -> Option<f64>) -> Vec<Target> {
    let fastest = |ids: &[&'static str]| -> Option<(&'static str, f64)> {
        ids.iter().filter_map(|id| value(id).map(|v| (library(id), v))).min_by(|a, b| a.1.total_cmp(&b.1))
    };
    let mut out = Vec::new();
    if group == crate::event::GROUP {
        let Some(int) = value("i64_encode_into") else { return out };
        for ty in ["jiff", "chrono", "time"] {
            for (op, base) in [("encode_into", int), ("from_key", value("i64_from_key").unwrap_or(f64::NAN))] {
                if let Some(v) = value(&format!("{ty}_{op}")) {
                    out.push(ratio_target(format!("{ty} {op} ≤ 1.1× the i64's"), v, base, 1.1, "i64"));
                }
            }
        }
        return out;
    }
    if group == crate::schema_path::GROUP {
        schema_targets(value, &mut out);
        return out;
    }
    if let (Some(ours), Some((lib, theirs))) = (value("rowkey_encode_into"), fastest(PEER_ENCODES)) {
        out.push(faster("encode_into ahead of every peer's reuse-buffer encode".into(), ours, lib, theirs, 1.0));
    }
    if let (Some(ours), Some((lib, theirs))) = (value("rowkey_to_key"), fastest(PEER_ALLOCATING_ENCODES)) {
        out.push(faster("to_key ≥ 2× ahead of every peer's allocating encode".into(), ours, lib, theirs, 2.0));
    }
    if let (Some(ours), Some((lib, theirs))) = (value("rowkey_from_key"), fastest(PEER_OWNED_DECODES)) {
        out.push(faster("owned from_key at or below every peer's owned decode".into(), ours, lib, theirs, 1.0));
    }
    if let (Some(ours), Some(floor)) = (value("rowkey_from_key"), value("hand_written_decode")) {
        out.push(ratio_target(
            "owned from_key ≤ 1.1× the hand-written decoder".into(),
            ours,
            floor,
            1.1,
            "hand-written",
        ));
    }
    if let (Some(ours), Some((lib, theirs))) = (value("rowkey_from_key_borrowed"), fastest(PEER_DECODES)) {
        out.push(faster("borrowed from_key ≥ 1.5× ahead of every peer's decode".into(), ours, lib, theirs, 1.5));
    }
    if let (Some(serde), Some(derived)) = (value("rowkey_serde_from_key"), value("rowkey_from_key")) {
        out.push(ratio_target("serde from_key ≤ 1.25× the derived one".into(), serde, derived, 1.25, "derived"));
    }
    if let (Some(serde), Some(derived)) = (value("rowkey_serde_to_key_into"), value("rowkey_encode_into")) {
        out.push(ratio_target("serde to_key_into ≤ 1.25× the derived encode".into(), serde, derived, 1.25, "derived"));
    }
    if let (Some(range), Some(encode)) = (value("rowkey_prefix_range"), value("rowkey_encode_into")) {
        out.push(ratio_target("2-field prefix range ≤ 2 encodes".into(), range, encode, 2.0, "encode_into"));
    }
    memcomparable_targets(group, value, &mut out);
    fdb_targets(value, &mut out);
    hbase_targets(value, &mut out);
    out
}

/// The memcomparable format's targets: ahead of the crate whose bytes it writes, and, for the
/// wide key (fixed-width integers, no escapes), ahead of storekey's encode and borrowed decode.
fn memcomparable_targets(group: &str, value: &dyn Fn(&str) -> Option<f64>, out: &mut Vec<Target>) {
    let pairs = [
        ("rowkey_memcomparable_encode_into", "memcomparable_serializer_reuse", "encode_into"),
        ("rowkey_memcomparable_to_key", "memcomparable_to_vec", "to_key"),
        ("rowkey_memcomparable_from_key", "memcomparable_from_slice", "owned from_key"),
        ("rowkey_memcomparable_from_key_borrowed", "memcomparable_from_slice", "borrowed from_key"),
    ];
    for (ours, theirs, what) in pairs {
        if let (Some(o), Some(t)) = (value(ours), value(theirs)) {
            out.push(faster(
                format!("memcomparable format {what} ahead of the memcomparable crate"),
                o,
                "memcomparable",
                t,
                1.0,
            ));
        }
    }
    // Every field descending: each text field is inverted in the key, so copied out whatever
    // its length, which the crate's reverse mode does a byte at a time.
    if let (Some(o), Some(t)) = (value("rowkey_memcomparable_from_key_desc"), value("memcomparable_from_slice_desc")) {
        out.push(faster(
            "memcomparable format descending (text) owned from_key ≥ 1.3× ahead of the memcomparable crate".into(),
            o,
            "memcomparable",
            t,
            1.3,
        ));
    }
    if group != "wide" {
        return;
    }
    let pairs = [
        ("rowkey_memcomparable_encode_into", "storekey_encode_reuse", "encode_into"),
        ("rowkey_memcomparable_from_key_borrowed", "storekey_decode_borrow", "borrowed from_key"),
    ];
    for (ours, theirs, what) in pairs {
        if let (Some(o), Some(t)) = (value(ours), value(theirs)) {
            out.push(faster(format!("memcomparable format {what} ahead of storekey"), o, "storekey", t, 1.0));
        }
    }
}

/// The FoundationDB tuple format's targets: ahead of the `foundationdb-tuple` crate, whose
/// bytes it writes, on the same fields; the encode into a reused key and the owned decode by
/// this project's margin over the crate that defines a format, 1.3×. The crate has no
/// borrowing decode, so rowkey's borrowed one is held to the crate's owned one, as the
/// memcomparable format's is.
fn fdb_targets(value: &dyn Fn(&str) -> Option<f64>, out: &mut Vec<Target>) {
    let pairs = [
        ("rowkey_fdb_encode_into", "foundationdb_tuple_pack_into", "encode_into", 1.3),
        ("rowkey_fdb_to_key", "foundationdb_tuple_pack", "to_key", 1.0),
        ("rowkey_fdb_from_key", "foundationdb_tuple_unpack", "owned from_key", 1.3),
        ("rowkey_fdb_from_key_borrowed", "foundationdb_tuple_unpack", "borrowed from_key", 1.0),
    ];
    for (ours, theirs, what, by) in pairs {
        if let (Some(o), Some(t)) = (value(ours), value(theirs)) {
            let margin = if by > 1.0 { format!(" ≥ {by}×") } else { String::new() };
            out.push(faster(
                format!("FoundationDB tuple format {what}{margin} ahead of foundationdb-tuple"),
                o,
                "foundationdb-tuple",
                t,
                by,
            ));
        }
    }
}

/// The HBase format's targets: no Rust crate writes its bytes, so it is held to rowkey's
/// ordered format on the same fields (the tuple encode and decode), operation by operation.
fn hbase_targets(value: &dyn Fn(&str) -> Option<f64>, out: &mut Vec<Target>) {
    let pairs = [
        ("rowkey_hbase_encode_into", "rowkey_tuple_encode_into", "encode_into"),
        ("rowkey_hbase_to_key", "rowkey_tuple_to_key", "to_key"),
        ("rowkey_hbase_from_key", "rowkey_tuple_from_key", "owned from_key"),
        ("rowkey_hbase_from_key_borrowed", "rowkey_tuple_from_key_borrowed", "borrowed from_key"),
    ];
    for (ours, ordered, what) in pairs {
        if let (Some(o), Some(b)) = (value(ours), value(ordered)) {
            out.push(ratio_target(format!("HBase format {what} ≤ the ordered format's"), o, b, 1.0, "ordered"));
        }
    }
}

/// The library an operation id belongs to: its first word.
fn library(id: &'static str) -> &'static str {
    id.split('_').next().unwrap_or(id)
}

/// rowkey at least `by` times ahead of a peer.
fn faster(goal: String, ours: f64, lib: &str, theirs: f64, by: f64) -> Target {
    let speedup = theirs / ours;
    let measured = format!("{speedup:.2}× ({} vs {lib} {})", figure(ours), figure(theirs));
    Target { goal, measured, holds: speedup >= by && ours <= theirs }
}

/// `value` at most `limit` times `base`.
/// The schema path (Python, the command, `Rekey`, Beam) within 1.5× of the derived type on the
/// same keys: encode, decode, and a re-key against a derived decode and encode.
fn schema_targets(value: &dyn Fn(&str) -> Option<f64>, out: &mut Vec<Target>) {
    for key in ["reading", "ordered", "fdb", "mc", "hbase"] {
        let pairs =
            [("plan_encode_values", "derived_to_key", "encode"), ("plan_inspect", "derived_from_key", "decode")];
        for (schema, derived, what) in pairs {
            if let (Some(ours), Some(base)) = (value(&format!("{key}_{schema}")), value(&format!("{key}_{derived}"))) {
                out.push(ratio_target(format!("{key}: schema {what} ≤ 1.5× the derived"), ours, base, 1.5, "derived"));
            }
        }
    }
    if let (Some(rekey), Some(base)) = (value("reading_rekey"), value("reading_derived_decode_encode")) {
        out.push(ratio_target("Rekey ≤ 1.5× a derived decode and encode".into(), rekey, base, 1.5, "derived"));
    }
}

fn ratio_target(goal: String, value: f64, base: f64, limit: f64, what: &str) -> Target {
    let ratio = value / base;
    Target {
        goal,
        measured: format!("{ratio:.2}× ({} vs {what} {})", figure(value), figure(base)),
        holds: ratio <= limit,
    }
}

fn figure(v: f64) -> String {
    if v >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") }
}

/// Prints the targets as a Markdown table.
pub fn print(targets: &[Target]) {
    if targets.is_empty() {
        return;
    }
    println!("\n| target | measured | |");
    println!("|---|---|---|");
    for t in targets {
        println!("| {} | {} | {} |", t.goal, t.measured, if t.holds { "holds" } else { "MISSED" });
    }
}
