//! `rowkey scan` prints the scan builder's ranges (as `cbt read` commands, hex lines or the
//! Data API's JSON), by rowkey's schema file or Bigtable's, and refuses a query it cannot answer
//! with a status that says why.

use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

use rowkey::key_text::KeyForm;
use rowkey::schema::{KeySchema, Schema};
use rowkey::{Key, RowKey, RowKeyOwned};

use crate::common::keys::{Monitor, OrderedReading, Reading, Shard, ShardText, WebPageMicros};
use crate::common::stores::{FdbReading, HBaseVisit, McReading};
use crate::common::{strategies, typed};
use crate::{bigtable_schema_file, generate, rowkey, schema_file};

/// A range as `[start, end)` bytes, `None` for no bound: what a `rowkey scan` line gives.
type HalfOpen = (Option<Vec<u8>>, Option<Vec<u8>>);

fn half_open(range: &rowkey::KeyRange) -> HalfOpen {
    use std::ops::Bound;
    let start = match range.start() {
        Bound::Included(k) => Some(k.to_vec()),
        Bound::Excluded(k) => Some(rowkey::key_after(k).to_vec()),
        Bound::Unbounded => None,
    };
    let end = match range.end() {
        Bound::Excluded(k) => Some(k.to_vec()),
        Bound::Included(k) => Some(rowkey::key_after(k).to_vec()),
        Bound::Unbounded => None,
    };
    (start, end)
}

/// The non-empty ranges of a scan builder, as `rowkey scan` prints them.
fn expected_ranges(ranges: rowkey::Result<rowkey::KeyRanges>) -> Vec<HalfOpen> {
    ranges.unwrap().iter().filter(|r| !r.is_empty()).map(half_open).collect()
}

/// The ranges of `rowkey scan` output: `cbt read` commands (their words unquoted) or `hex` lines.
fn read_scan_lines(text: &str) -> Vec<HalfOpen> {
    text.lines()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').map(|w| w.trim_matches('\'')).collect();
            let hex = words[0] == "hex";
            if !hex {
                assert_eq!(&words[..3], ["cbt", "read", "readings"], "{line}");
            }
            let bound = |name: &str| {
                words
                    .iter()
                    .find_map(|w| w.strip_prefix(name))
                    .map(|v| if hex { KeyForm::Hex.parse(v).unwrap().to_vec() } else { v.as_bytes().to_vec() })
            };
            (bound("start="), bound("end="))
        })
        .collect()
}

/// What `rowkey scan` prints for a query, which must succeed.
fn scan_output<A: AsRef<OsStr> + Debug>(schema: &Path, args: &[A]) -> String {
    let output = rowkey().args(["scan", "--table", "readings", "--schema"]).arg(schema).args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The field's text as `rowkey inspect` prints it (quoted when it must be), which `scan` reads.
fn inspected<T: RowKeyOwned + KeySchema>(value: &T, name: &str) -> String {
    let key = value.to_key().unwrap();
    T::SCHEMA.inspect(&key).unwrap().fields().iter().find(|f| f.name() == name).unwrap().value_text()
}

#[test]
fn scan_prints_the_scan_builders_ranges() {
    let schema = schema_file::<Reading>();
    let ordered = schema_file::<OrderedReading>();
    let values = generate(strategies::reading());
    for (a, b) in values.iter().zip(values.iter().skip(1)).take(10) {
        let (lo, hi) = (a.ts_millis.min(b.ts_millis), a.ts_millis.max(b.ts_millis));
        let fixed = [format!("device_type={}", a.device_type), format!("device_id={}", a.device_id)];
        // The bucket known from the device id: one range.
        let builder = Reading::scan().device_type(&a.device_type).device_id(&a.device_id);
        assert_eq!(read_scan_lines(&scan_output(&schema, &fixed)), expected_ranges(builder.ranges()));
        let with_range = [fixed[0].clone(), fixed[1].clone(), format!("ts_millis={lo}..={hi}")];
        let builder = Reading::scan().device_type(&a.device_type).device_id(&a.device_id).ts_millis_range(lo..=hi);
        assert_eq!(read_scan_lines(&scan_output(&schema, &with_range)), expected_ranges(builder.ranges()));
        // Not known: one range in each of the 16 buckets.
        let printed = read_scan_lines(&scan_output(&schema, &fixed[..1]));
        assert_eq!(printed.len(), 16);
        assert_eq!(printed, expected_ranges(Reading::scan().device_type(&a.device_type).ranges()));
    }
    // The ordered format's bounds are not printable: hex lines, and the same ranges as JSON.
    let values = generate(strategies::ordered_reading());
    for a in values.iter().take(10) {
        let args = [
            format!("device_type={}", inspected(a, "device_type")),
            format!("device_id={}", inspected(a, "device_id")),
        ];
        let builder = OrderedReading::scan().device_type(&a.device_type).device_id(&a.device_id).ts_millis_range(..0);
        let with_range = [args[0].clone(), args[1].clone(), "ts_millis=..0".to_owned()];
        assert_eq!(read_scan_lines(&scan_output(&ordered, &with_range)), expected_ranges(builder.ranges()));
        let json: serde_json::Value =
            serde_json::from_str(&scan_output(&ordered, &[vec!["--json".to_owned()], with_range.to_vec()].concat()))
                .unwrap();
        let from_json: Vec<HalfOpen> = json["rowRanges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let key =
                    |name: &str| r.get(name).map(|v| KeyForm::Base64.parse(v.as_str().unwrap()).unwrap().to_vec());
                assert!(r.get("startKeyOpen").is_none() && r.get("endKeyClosed").is_none(), "{r}");
                (key("startKeyClosed"), key("endKeyOpen"))
            })
            .collect();
        assert_eq!(from_json, expected_ranges(builder.ranges()));
    }
}

#[test]
fn scan_refuses_bad_queries_with_status_2() {
    let schema = schema_file::<Reading>();
    for (args, expected) in [
        (vec!["device_id=x"], "`device_type` before it is not"),
        (vec!["device_type=phone", "ts_millis=1..2"], "here `device_id`, not `ts_millis`"),
        (vec!["device_type=a..b", "device_id=x"], "only the last argument can be a range"),
        (vec!["device_type=phone", "device_id=x", "ts_millis=soon.."], "not a decimal integer"),
        (vec!["colour=red"], "no field `colour`"),
        (vec!["device_type"], "write it as name=value"),
    ] {
        let output = rowkey().args(["scan", "--schema"]).arg(&schema).args(&args).output().unwrap();
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {expected:?} not in {err}");
    }
}

#[test]
fn scan_takes_a_prefix_and_a_host_with_its_subdomains_as_the_builder_does() {
    let scan = |schema: &Path, args: &[&str]| read_scan_lines(&scan_output(schema, args));
    let reading = schema_file::<Reading>();
    assert_eq!(
        scan(&reading, &["device_type^=ph"]),
        expected_ranges(Reading::scan().device_type_starts_with("ph").ranges())
    );
    assert_eq!(scan(&reading, &["device_type^=ph"]).len(), 16);
    let page = schema_file::<WebPageMicros>();
    let subdomains = scan(&page, &["host~=google.com"]);
    assert_eq!(subdomains, expected_ranges(WebPageMicros::scan().host_with_subdomains("google.com").ranges()));
    assert_eq!(subdomains.len(), 2);
    assert_eq!(
        scan(&page, &["host=google.com", "path^=/maps"]),
        expected_ranges(WebPageMicros::scan().host("google.com").path_starts_with("/maps").ranges())
    );
    // Refused: a prefix of a reversed host, a host query on plain text, a prefix before the last.
    for (args, expected) in [
        (vec!["host^=com.goo"], "`host` is stored reversed"),
        (vec!["host=google.com", "path~=google.com"], "sub-domains are found for"),
        (vec!["host^=google.com", "path=/"], "only the last argument can be a range, a prefix (^=) or a host (~=)"),
    ] {
        let output = rowkey().args(["scan", "--schema"]).arg(&page).args(&args).output().unwrap();
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {expected:?} not in {err}");
    }
}

/// `name=value` of the key's fields as `schema` reads them, the first `n`.
fn leading_fields(schema: &Schema, key: &Key, n: usize) -> Vec<String> {
    let inspection = schema.inspect(key).unwrap();
    inspection.fields().iter().take(n).map(|f| format!("{}={}", f.name(), f.value_text())).collect()
}

/// The type's two schema files, rowkey's own and Bigtable's, and the schema read back from
/// Bigtable's.
fn own_and_bigtable<T: KeySchema>() -> (PathBuf, PathBuf, &'static Schema) {
    let table = Schema::from_bigtable_json(&T::SCHEMA.to_bigtable_json().unwrap()).unwrap();
    (schema_file::<T>(), bigtable_schema_file::<T>(), table)
}

#[test]
fn scan_by_a_bigtable_schema_prints_what_the_keys_own_schema_does() {
    // A salted key: Bigtable's schema has the bucket as a field to give, rowkey's computes it.
    let (own, bigtable, table) = own_and_bigtable::<Monitor>();
    for value in generate(strategies::monitor()).iter().take(10) {
        let key = value.to_key().unwrap();
        for n in 1..=3 {
            let given = leading_fields(table, &key, n + 1);
            let printed = scan_output(&own, &leading_fields(&Monitor::SCHEMA, &key, n + 1)[1..]);
            assert_eq!(scan_output(&bigtable, &given), printed, "{given:?}");
        }
        let printed = scan_output(&bigtable, &leading_fields(table, &key, 3));
        assert_eq!(
            read_scan_lines(&printed),
            expected_ranges(Monitor::scan().time(value.time).host(&value.host).ranges())
        );
    }
    // A range of the salt's source field: a range in each bucket by rowkey's schema, the same
    // ranges one bucket at a time by Bigtable's.
    let own_ranges = scan_output(&own, &["time=-100..100".to_owned()]);
    let by_bucket: String =
        (0..16).map(|b| scan_output(&bigtable, &[format!("bucket={b}"), "time=-100..100".to_owned()])).collect();
    assert_eq!(by_bucket, own_ranges);
    assert_eq!(read_scan_lines(&own_ranges).len(), 16);

    // Transforms: Bigtable's schema takes the host as stored, reversed (`com.google`).
    let (own, bigtable, table) = own_and_bigtable::<WebPageMicros>();
    for value in generate(strategies::web_page_micros()).iter().take(10) {
        let key = value.to_key().unwrap();
        for n in 1..=3 {
            let given = leading_fields(table, &key, n);
            let printed = scan_output(&own, &leading_fields(&WebPageMicros::SCHEMA, &key, n));
            assert_eq!(scan_output(&bigtable, &given), printed, "{given:?}");
        }
        let mut given = leading_fields(table, &key, 1);
        given.push("path^=/".to_owned());
        let printed = scan_output(&bigtable, &given);
        assert_eq!(
            printed,
            scan_output(&own, &[leading_fields(&WebPageMicros::SCHEMA, &key, 1)[0].clone(), "path^=/".to_owned()])
        );
        let builder = WebPageMicros::scan().host(&value.host).path_starts_with("/");
        assert_eq!(read_scan_lines(&printed), expected_ranges(builder.ranges()));
    }
}

#[test]
fn scan_of_a_query_no_key_can_match_says_so_with_status_3_in_every_form() {
    let nil = "00000000-0000-0000-0000-000000000000";
    let time = "2020-05-01T00:00:00Z";
    // The fixed fields, a range no value lies in, and a range beside it that holds one.
    let cases: Vec<(PathBuf, Vec<String>, String, String)> = vec![
        (
            schema_file::<Reading>(),
            vec!["device_type=phone".into(), "device_id=4c410523".into()],
            "ts_millis=5..5".into(),
            "ts_millis=5..=5".into(),
        ),
        (
            schema_file::<typed::ByUser>(),
            vec![format!("user={nil}")],
            format!("at={time}..{time}"),
            format!("at={time}..={time}"),
        ),
        (schema_file::<typed::ByUser>(), vec![], format!("user={nil}..{nil}"), format!("user={nil}..={nil}")),
        // Salted by the field of the range: empty in every bucket.
        (schema_file::<Shard>(), vec![], "shard=7..7".into(), "shard=7..=7".into()),
        (schema_file::<ShardText>(), vec![], "shard=7..7".into(), "shard=7..8".into()),
        (schema_file::<Shard>(), vec![], "shard=9..=3".into(), "shard=3..=9".into()),
    ];
    for (schema, fixed, empty, some) in &cases {
        let field = empty.split('=').next().unwrap();
        for form in [&[][..], &["--json"][..], &["--table", "readings"][..]] {
            let output =
                rowkey().args(["scan", "--schema"]).arg(schema).args(form).args(fixed).arg(empty).output().unwrap();
            let err = String::from_utf8(output.stderr).unwrap();
            assert_eq!(output.status.code(), Some(3), "{empty} {form:?}: {err}");
            assert!(output.stdout.is_empty(), "{empty} {form:?}: {}", String::from_utf8_lossy(&output.stdout));
            assert_eq!(err.lines().count(), 1, "{err}");
            let expected = format!("rowkey: no key can match: `{empty}` is empty: no value of `{field}` lies in it");
            assert!(err.starts_with(&expected), "{empty} {form:?}: {err}");
        }
        let output = rowkey().args(["scan", "--json", "--schema"]).arg(schema).args(fixed).arg(some).output().unwrap();
        assert!(output.status.success(), "{some}: {}", String::from_utf8_lossy(&output.stderr));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(!json["rowRanges"].as_array().unwrap().is_empty(), "{some}: {json}");
    }
}

#[test]
fn scan_help_documents_its_exit_statuses() {
    let output = rowkey().args(["scan", "--help"]).output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("3 when no key can match the query"), "{help}");
}

#[test]
fn store_format_scans_are_the_builders() {
    let fdb = schema_file::<FdbReading>();
    for a in generate(strategies::fdb_reading()).iter().take(10) {
        let device = format!("device={}", inspected(a, "device"));
        let builder = FdbReading::scan().device(&a.device).at_range(a.at..);
        let args = [device.clone(), format!("at={}..", a.at)];
        assert_eq!(read_scan_lines(&scan_output(&fdb, &args)), expected_ranges(builder.ranges()));
    }
    let mc = schema_file::<McReading>();
    for a in generate(strategies::mc_reading()).iter().take(10) {
        let region = format!("region={}", inspected(a, "region"));
        // Descending: the range's later value starts the keys.
        let builder = McReading::scan().region(&a.region).score_range(..a.score);
        let args = [region.clone(), format!("score=..{}", a.score)];
        assert_eq!(read_scan_lines(&scan_output(&mc, &args)), expected_ranges(builder.ranges()));
    }
    let hbase = schema_file::<HBaseVisit>();
    // Without the host, the bucket is unknown: one range in each of the 16 buckets.
    assert_eq!(read_scan_lines(&scan_output::<&str>(&hbase, &[])), expected_ranges(HBaseVisit::scan().ranges()));
    for a in generate(strategies::hbase_visit()).iter().take(10) {
        let host = format!("host={}", inspected(a, "host"));
        let builder = HBaseVisit::scan().host(&a.host).ts(a.ts).amount_range(a.amount..);
        let args = [host.clone(), format!("ts={}", a.ts), format!("amount={}..", a.amount)];
        assert_eq!(read_scan_lines(&scan_output(&hbase, &args)), expected_ranges(builder.ranges()));
    }
}
