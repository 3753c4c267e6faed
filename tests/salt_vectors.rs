//! Checks `rowkey::salt` against every row of the shared vector files
//! (copied whole into tests/data/).

use rowkey::salt::compat::{
    java_bytes_hash, java_hash_bucket, java_string_hash, modulo_bucket, opentsdb_base_time, opentsdb_row_key,
    opentsdb_salt_bucket, opentsdb_salt_bytes, phoenix_salt_byte,
};
use rowkey::salt::farmhash::{farm_fingerprint, fingerprint64, spanner_shard};

const FARMHASH_TSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/farmhash_fingerprint64.tsv");
const SALTING_TSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/salting.tsv");

mod common;
use common::{hex, rows, unescape};

/// An input cell: `"quoted"` or `x'hex'`.
fn input_bytes(cell: &str) -> Vec<u8> {
    if let Some(body) = cell.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        unescape(body)
    } else if let Some(h) = cell.strip_prefix("x'").and_then(|s| s.strip_suffix('\'')) {
        hex(h)
    } else {
        panic!("unrecognised input cell {cell:?}")
    }
}

/// The value of `key=` in a space-separated `k=v k=v` cell.
fn field<'a>(cell: &'a str, key: &str) -> &'a str {
    cell.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {key}= in {cell:?}"))
}

fn num<T: std::str::FromStr>(s: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    s.parse().unwrap_or_else(|e| panic!("number {s:?}: {e:?}"))
}

/// Width of zero-padded decimal buckets: the digits of `buckets - 1`.
fn decimal_width(buckets: u32) -> usize {
    (buckets - 1).to_string().len()
}

#[test]
fn farmhash_fingerprint64_vectors() {
    let rows = rows(FARMHASH_TSV);
    let mut checked = 0;
    for (row, f) in &rows {
        assert_eq!(f.len(), 6, "expected 6 fields: {row}");
        let input = match f[0].as_str() {
            "str" => input_bytes(&f[1]),
            // A trailing `*` marks lengths the `farmhash` crate gets wrong.
            "pat" => {
                let len: usize = num(f[1].trim_end_matches('*'));
                (0..len).map(|i| ((i * 7 + 3) & 0xff) as u8).collect()
            }
            kind => panic!("unknown row kind {kind:?}: {row}"),
        };
        assert_eq!(fingerprint64(&input), num::<u64>(&f[2]), "fingerprint64: {row}");
        assert_eq!(farm_fingerprint(&input), num::<i64>(&f[3]), "FARM_FINGERPRINT: {row}");
        let shard = spanner_shard(&input, 16);
        assert_eq!(shard, Some(num::<i64>(&f[4])), "MOD(.., 16): {row}");
        assert_eq!(shard.map(i64::abs), Some(num::<i64>(&f[5])), "ABS(MOD(.., 16)): {row}");
        checked += 1;
    }
    assert_eq!(checked, rows.len());
    // Guards against a truncated copy of the file; update when adding rows.
    assert_eq!(checked, 333, "farmhash_fingerprint64.tsv row count");
}

#[test]
fn salting_vectors() {
    let rows = rows(SALTING_TSV);
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for (row, f) in &rows {
        assert_eq!(f.len(), 5, "expected 5 fields: {row}");
        let (kind, input, params, hash, result) = (&*f[0], &*f[1], &*f[2], &*f[3], &*f[4]);
        match kind {
            "phoenix_salt" => {
                let key = input_bytes(input);
                let buckets: u16 = num(field(params, "SALT_BUCKETS"));
                assert_eq!(java_bytes_hash(&key), num::<i32>(hash), "hash: {row}");
                let salt = phoenix_salt_byte(&key, buckets);
                assert_eq!(salt, Some(hex(field(result, "salt_byte"))[0]), "salt: {row}");
                // Old and current Phoenix formulas differ only for i32::MIN.
                if let Some((_, old)) = result.split_once("): ") {
                    let old = hex(old.trim_end_matches(')'));
                    assert_eq!(salt, Some(old[0]), "old-formula salt: {row}");
                }
            }
            "opentsdb_salt" | "opentsdb_rowkey" => {
                let metric = hex(field(input, "metric"));
                let tags = hex(field(input, "tags"));
                let width: u8 = num(field(params, "salt.width"));
                let buckets: u32 = num(field(params, "salt.buckets"));
                let bucket = opentsdb_salt_bucket(&metric, &tags, buckets);
                if kind == "opentsdb_salt" {
                    let joined = [&metric[..], &tags[..]].concat();
                    assert_eq!(java_bytes_hash(&joined), num::<i32>(hash), "hash: {row}");
                    let salt = bucket.map(|b| opentsdb_salt_bytes(b, width));
                    assert_eq!(salt, Some(hex(field(result, "salt"))), "salt: {row}");
                } else {
                    let ts: u64 = num(field(input, "ts"));
                    let base = num::<u32>(field(hash, "base_hour"));
                    assert_eq!(opentsdb_base_time(ts), Some(base), "base time: {row}");
                    let key = opentsdb_row_key(&metric, ts, &tags, width, buckets);
                    assert_eq!(key, Some(hex(result)), "row key: {row}");
                }
            }
            "java_string_hashcode" => {
                let s = String::from_utf8(input_bytes(input)).unwrap_or_else(|e| panic!("not UTF-8 ({e}): {row}"));
                let buckets: u32 = num(field(params, "N"));
                let h = java_string_hash(&s);
                assert_eq!(h, num::<i32>(hash), "String.hashCode: {row}");
                let want = num::<u32>(field(result, "bucket"));
                assert_eq!(java_hash_bucket(h, buckets), Some(want), "bucket: {row}");
            }
            "time_mod_bucket" => {
                let buckets: u32 = num(field(params, "N"));
                let bucket = modulo_bucket(num(input), buckets).unwrap_or_else(|| panic!("no bucket: {row}"));
                assert_eq!(bucket, num::<u32>(field(result, "bucket")), "bucket: {row}");
                let (_, padded) = result.split_once("digits: ").expect("padded form");
                let padded = padded.trim_end_matches(')');
                assert_eq!(padded.len(), decimal_width(buckets), "pad width: {row}");
                assert_eq!(format!("{bucket:0w$}", w = padded.len()), padded, "padded: {row}");
            }
            // The rows themselves; the salt is checked against them by `md5_hex_prefix_vectors`.
            "md5_hex_prefix" => {
                let n = md5_prefix_len(params);
                assert_eq!(&hash[..n], result, "prefix: {row}");
            }
            _ => panic!("unknown row kind {kind:?}: {row}"),
        }
        *counts.entry(kind).or_default() += 1;
    }
    assert_eq!(counts.values().sum::<usize>(), rows.len());
    // Guards against a truncated copy of the file; update when adding rows.
    let want = [
        ("java_string_hashcode", 7),
        ("md5_hex_prefix", 7),
        ("opentsdb_rowkey", 1),
        ("opentsdb_salt", 8),
        ("phoenix_salt", 32),
        ("time_mod_bucket", 4),
    ];
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), want);
}

/// The `n` of an `md5_hex_prefix` row's `first n hex chars`.
fn md5_prefix_len(params: &str) -> usize {
    num(params.split_whitespace().nth(1).unwrap_or_else(|| panic!("no prefix length in {params:?}")))
}

/// Tablestore's "first 4 hex characters of MD5(key)": for each `md5_hex_prefix` row, the
/// bucket of a key salted from the row's one string is the row's digits, as a number, as the
/// key's first field in both formats, and as inspection shows it. The first mismatch fails,
/// naming the row.
#[cfg(feature = "md5")]
#[test]
fn md5_hex_prefix_vectors() {
    use common::{Md5Name, Md5NameOrdered};
    use rowkey::RowKey;
    use rowkey::format::Delimited;
    use rowkey::salt::Salt;

    let mut checked = 0;
    for (row, f) in rows(SALTING_TSV).iter().filter(|(_, f)| f[0] == "md5_hex_prefix") {
        let (input, params, digest, want) = (&*f[1], &*f[2], &*f[3], &*f[4]);
        assert_eq!(md5_prefix_len(params), 4, "a 4-digit row: {row}");
        let text = String::from_utf8(input_bytes(input)).unwrap_or_else(|e| panic!("not UTF-8 ({e}): {row}"));

        // Every digit count reads the digest's leading digits.
        for digits in 1..=4usize {
            let salt = Salt::md5_hex(16u32.pow(u32::try_from(digits).unwrap())).unwrap();
            let bucket = salt.bucket(&(text.as_str(),)).unwrap_or_else(|e| panic!("bucket ({e}): {row}"));
            assert_eq!(format!("{bucket:0digits$x}"), digest[..digits], "{digits}-digit bucket: {row}");
            let key = salt.delimited_key(&Delimited::new("!").unwrap(), &(text.as_str(),), &(text.as_str(),));
            let key = key.unwrap_or_else(|e| panic!("{digits}-digit delimited key ({e}): {row}"));
            assert_eq!(key, *format!("{}!{text}", &digest[..digits]), "{digits}-digit delimited key: {row}");
        }

        // The derived keys: the digits, then the string.
        let delimited = Md5Name { name: text.clone() };
        let key = delimited.to_key().unwrap_or_else(|e| panic!("delimited key ({e}): {row}"));
        assert_eq!(key, *format!("{want}!{text}"), "delimited key: {row}");
        assert_eq!(Md5Name::from_key(&key).ok(), Some(delimited), "delimited round trip: {row}");
        let shown = Md5Name::SCHEMA.inspect(&key).unwrap_or_else(|e| panic!("inspect ({e}): {row}"));
        assert_eq!(shown.value("bucket").and_then(|v| v.as_str()), Some(want), "inspected bucket: {row}");

        let ordered = Md5NameOrdered { name: text.clone() };
        let key = ordered.to_key().unwrap_or_else(|e| panic!("ordered key ({e}): {row}"));
        // The digits as a string field: its `00 01` terminator, then the name, unless the name
        // is empty and so left out, as the ordered format leaves out trailing empty fields.
        let expected = if text.is_empty() { want.into() } else { [want, "\0\u{1}", &text].concat() };
        assert_eq!(key, *expected.as_bytes(), "ordered key: {row}");
        assert_eq!(Md5NameOrdered::from_key(&key).ok(), Some(ordered), "ordered round trip: {row}");
        let shown = Md5NameOrdered::SCHEMA.inspect(&key).unwrap_or_else(|e| panic!("inspect ({e}): {row}"));
        assert_eq!(shown.value("bucket").and_then(|v| v.as_str()), Some(want), "inspected bucket: {row}");
        checked += 1;
    }
    // Guards against a truncated copy of the file, as `salting_vectors` does.
    assert_eq!(checked, 7, "md5_hex_prefix rows");
}

#[test]
fn input_cells_unescape() {
    // The current files have no escapes; this keeps the parser honest for
    // rows that will.
    assert_eq!(input_bytes(r#""a\x00\xffb""#), b"a\x00\xffb");
    assert_eq!(input_bytes(r#""\"\\\t\n\101""#), b"\"\\\t\nA");
    assert_eq!(input_bytes(r#""\u00e9\U0001F600""#), "é😀".as_bytes());
    assert_eq!(input_bytes(r#""\ud83d\ude00""#), "😀".as_bytes());
    assert_eq!(input_bytes("x'c0ffee00ff'"), [0xc0, 0xff, 0xee, 0x00, 0xff]);
    assert_eq!(input_bytes(r#""""#), b"");
}
