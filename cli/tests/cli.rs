//! The built `rowkey` binary on the scenario keys' schema files: `inspect` prints what the
//! type's schema prints for generated keys, `encode` gives `to_key`'s bytes, `splits` the
//! planner's points, and bad input one line and a non-zero status, never a panic.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use assert_cmd::Command;
use common::keys::*;
use common::stores::{FdbReading, HBaseSeq, HBaseVisit, McOrder, McReading};
use common::strategies;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rowkey::key_text::KeyForm;
use rowkey::schema::{KeySchema, Schema};
use rowkey::splits::Splits;
use rowkey::{Key, RowKey, RowKeyOwned};

/// Generated keys per scenario: 10,000, or `PROPTEST_CASES`.
fn cases() -> usize {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000)
}

fn rowkey() -> Command {
    Command::cargo_bin("rowkey").unwrap()
}

/// The type's schema file, written where the test can pass it.
fn schema_file<T: KeySchema>() -> PathBuf {
    temp_file(&format!("{}.json", T::SCHEMA.type_name), &T::SCHEMA.to_json())
}

/// The type's Bigtable row key schema, as `to_bigtable_json` writes it.
fn bigtable_schema_file<T: KeySchema>() -> PathBuf {
    temp_file(&format!("{}.bigtable.json", T::SCHEMA.type_name), &T::SCHEMA.to_bigtable_json().unwrap())
}

/// `text` in a file named `name` in the test run's directory.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    // Tests run in parallel and write the same file: each writes its own copy and renames it
    // into place, so that none reads another's half-written file.
    let own = dir.join(format!("{name}.{:?}", std::thread::current().id()));
    std::fs::write(&own, text).unwrap();
    std::fs::rename(&own, &path).unwrap();
    path
}

fn generate<T, S: Strategy<Value = T>>(strategy: S) -> Vec<T> {
    let mut runner = TestRunner::deterministic();
    (0..cases()).map(|_| strategy.new_tree(&mut runner).unwrap().current()).collect()
}

/// `rowkey inspect` of generated keys (given as hex on standard input) prints, line by line,
/// what the type's own schema prints; `rowkey encode` of each line's fields gives the key.
fn check<T, S>(strategy: S)
where
    T: RowKeyOwned + KeySchema + std::fmt::Debug + PartialEq,
    S: Strategy<Value = T>,
{
    let schema = schema_file::<T>();
    let keys: Vec<Key> = generate(strategy).iter().map(|value| value.to_key().unwrap()).collect();
    let input: String = keys.iter().map(|key| KeyForm::Hex.format(key) + "\n").collect();
    let output =
        rowkey().args(["inspect", "--from", "hex", "--schema"]).arg(&schema).write_stdin(input).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), keys.len());
    for (key, line) in keys.iter().zip(&lines) {
        let value = T::from_key(key).unwrap();
        assert_eq!(value.to_key().unwrap(), *key);
        assert_eq!(*line, T::SCHEMA.inspect(key).unwrap().to_string(), "{key}");
    }
    // Encoding runs the binary once a key: a sample of them.
    for key in keys.iter().take(20) {
        let inspection = T::SCHEMA.inspect(key).unwrap();
        let pairs = inspection.fields().iter().map(|f| format!("{}={}", f.name(), f.value_text()));
        let output = rowkey().args(["encode", "--to", "hex", "--schema"]).arg(&schema).args(pairs).output().unwrap();
        assert!(output.status.success(), "{key}: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(String::from_utf8(output.stdout).unwrap().trim(), KeyForm::Hex.format(key), "{inspection}");
    }
}

#[test]
fn scenario_keys_inspect_and_encode_as_their_types_do() {
    check(strategies::reading());
    check(strategies::ordered_reading());
    check(strategies::device_reading());
    check(strategies::tenant_reading());
    check(strategies::web_page());
    check(strategies::web_page_micros());
    check(strategies::monitor());
    check(strategies::shard());
    check(strategies::shard_text());
    check(strategies::every_field());
    check(strategies::every_text());
    check(strategies::hex_reading());
    check(strategies::event_by_id());
}

#[test]
fn encode_prints_the_key_in_each_form() {
    let schema = schema_file::<Reading>();
    let key = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 }
        .to_key()
        .unwrap();
    for form in ["cbt", "hex", "base64"] {
        rowkey()
            .args(["encode", "--to", form, "--schema"])
            .arg(&schema)
            .args(["device_type=phone", "device_id=4c410523", "ts_millis=1588291200000"])
            .assert()
            .success()
            .stdout(form.parse::<KeyForm>().unwrap().format(&key) + "\n");
    }
}

#[test]
fn inspect_reads_cbt_read_output_and_counts_keys_that_do_not_match() {
    let schema = schema_file::<Reading>();
    // As `cbt read` prints rows (the emulator test's table holds such keys).
    let output = "----------------------------------------\n\
                  01#phone#4c410523#9223370448563575807\n  stats:temp  @ 2020/05/01-00:00:00.000000\n    \"21.5\"\n\
                  ----------------------------------------\n\
                  05#phone#4c410523#9223370448563575807\n  stats:temp  @ 2020/05/01-00:00:00.000000\n    \"21.5\"\n\
                  ----------------------------------------\n\
                  01#phone#4c410523#92233704\n  stats:temp  @ 2020/05/01-00:00:00.000000\n    \"21.5\"\n";
    let assert = rowkey().args(["inspect", "--schema"]).arg(&schema).write_stdin(output).assert().code(2);
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert_eq!(out, "bucket=1 device_type=phone device_id=4c410523 ts_millis=1588291200000 (reversed)\n");
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.contains("key 2 (05#phone#4c410523#9223370448563575807) does not match Reading: in field 0 (`bucket`)"),
        "{err}"
    );
    assert!(err.contains("key 3") && err.contains("`ts_millis`"), "{err}");

    let json = rowkey()
        .args(["inspect", "--json", "--schema"])
        .arg(&schema)
        .arg(r"01#phone#4c410523#9223370448563575807")
        .output()
        .unwrap();
    let line: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(line["fields"]["ts_millis"], "1588291200000");
    assert_eq!(line["fields"]["bucket"], "1");
}

#[test]
fn splits_print_the_planners_points_for_each_store() {
    let schema = schema_file::<Reading>();
    let planned = Reading::SCHEMA.split_planner().plan().unwrap();
    rowkey()
        .args(["splits", "--for", "cbt", "--table", "readings", "--schema"])
        .arg(&schema)
        .assert()
        .success()
        .stdout(format!("cbt createtable readings {}\n", planned.to_cbt_arg().unwrap()));
    rowkey()
        .args(["splits", "--for", "hbase", "--schema"])
        .arg(&schema)
        .assert()
        .success()
        .stdout(planned.to_hbase() + "\n");
    let hex = schema_file::<HexReading>();
    let inside = HexReading::SCHEMA.split_planner().per_bucket(3).plan().unwrap();
    rowkey()
        .args(["splits", "--per-bucket", "3", "--for", "bigtable", "--schema"])
        .arg(&hex)
        .assert()
        .success()
        .stdout(inside.to_bigtable_json() + "\n");
    for (schema, per_bucket, planned) in [(&schema, "0", &planned), (&hex, "3", &inside)] {
        let output = rowkey()
            .args(["splits", "--per-bucket", per_bucket, "--for", "terraform", "--schema"])
            .arg(schema)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let printed = String::from_utf8(output.stdout).unwrap();
        let list = printed.strip_prefix("split_keys = ").and_then(|s| s.strip_suffix('\n')).expect(&printed);
        let points: Vec<Vec<u8>> =
            common::hcl::hcl_strings(list).unwrap().into_iter().map(String::into_bytes).collect();
        assert_eq!(points, planned.points(), "{printed}");
    }
    // A binary key's points are no cbt argument: one line says why and what to use.
    let ordered = schema_file::<OrderedReading>();
    let assert = rowkey().args(["splits", "--for", "cbt", "--schema"]).arg(&ordered).assert().code(2);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("holds the byte 81") && err.contains("Admin API's JSON"), "{err}");
    // Nor Terraform strings, which are text.
    let assert = rowkey().args(["splits", "--for", "terraform", "--schema"]).arg(&ordered).assert().code(2);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not UTF-8") && err.contains("Admin API's JSON"), "{err}");
}

/// The points of `--for bigtable` output: the Admin API's `initialSplits`, keys in base64.
fn bigtable_points(json: &[u8]) -> Vec<Key> {
    let json: serde_json::Value = serde_json::from_slice(json).unwrap();
    json["initialSplits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|split| KeyForm::Base64.parse(split["key"].as_str().unwrap()).unwrap())
        .collect()
}

#[test]
fn splits_of_a_sample_fall_at_its_quantiles() {
    let schema = schema_file::<Reading>();
    let keys: Vec<Key> = generate(strategies::reading()).iter().map(|value| value.to_key().unwrap()).collect();
    // As cbt prints them, the form read by default; blank lines are skipped.
    let text: String = keys.iter().map(|key| KeyForm::Cbt.format(key) + "\n\n").collect();
    let sample = temp_file("reading-sample.txt", &text);
    let output = rowkey()
        .args(["splits", "--tablets", "8", "--for", "bigtable", "--schema"])
        .arg(&schema)
        .arg("--sample")
        .arg(&sample)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let expected = Splits::from_sample(&keys, 8);
    assert_eq!(expected.len(), 7);
    assert_eq!(bigtable_points(&output.stdout), expected.points());

    // Binary keys, given in hex.
    let ordered = schema_file::<OrderedReading>();
    let keys: Vec<Key> = generate(strategies::ordered_reading()).iter().map(|value| value.to_key().unwrap()).collect();
    let text: String = keys.iter().map(|key| KeyForm::Hex.format(key) + "\n").collect();
    let sample = temp_file("ordered-sample.txt", &text);
    rowkey()
        .args(["splits", "--tablets", "5", "--from", "hex", "--for", "hbase", "--schema"])
        .arg(&ordered)
        .arg("--sample")
        .arg(&sample)
        .assert()
        .success()
        .stdout(Splits::from_sample(&keys, 5).to_hbase() + "\n");

    // Without the number of tablets, or with a line that is not a key: one line naming it.
    let bad = temp_file("bad-sample.txt", "00ff\nnot hex\n");
    for (args, expected) in [
        (vec!["--sample".into(), sample.clone().into_os_string()], "--sample needs --tablets N"),
        (vec!["--sample".into(), bad.clone().into_os_string(), "--tablets".into(), "2".into()], "line 2"),
    ] {
        let output = rowkey()
            .args(["splits", "--from", "hex", "--for", "hbase", "--schema"])
            .arg(&ordered)
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {expected:?} not in {err}");
    }
}

#[test]
fn bad_input_gets_one_line_naming_the_fix() {
    let schema = schema_file::<Reading>();
    let not_a_schema = std::env::temp_dir().join(format!("rowkey-cli-not-a-schema-{}.json", std::process::id()));
    std::fs::write(&not_a_schema, r#"{"rowkey_schema": 1, "type": "X", "format": "ordered"}"#).unwrap();
    let cases: Vec<(Vec<std::ffi::OsString>, &str)> = vec![
        (vec!["inspect".into(), "--schema".into(), "Cargo.toml".into(), "x".into()], "is not a schema file: not JSON"),
        (vec!["inspect".into(), "--schema".into(), not_a_schema.clone().into(), "x".into()], "fields: missing"),
        (
            vec!["inspect".into(), "--schema".into(), "/nonexistent.json".into(), "x".into()],
            "cannot read the schema file",
        ),
        (
            vec![
                "inspect".into(),
                "--schema".into(),
                schema.clone().into(),
                "--from".into(),
                "hex".into(),
                "abc".into(),
            ],
            "3 digits",
        ),
        (
            vec!["encode".into(), "--schema".into(), schema.clone().into(), "device_type=phone".into()],
            "`device_id` is missing",
        ),
        (
            vec![
                "encode".into(),
                "--schema".into(),
                schema.clone().into(),
                "device_type=phone".into(),
                "device_id=x".into(),
                "ts_millis=soon".into(),
            ],
            "\"soon\" is not a decimal integer",
        ),
        (
            vec!["encode".into(), "--schema".into(), schema.clone().into(), "device_type".into()],
            "write it as name=value",
        ),
        (
            vec![
                "encode".into(),
                "--schema".into(),
                schema.clone().into(),
                "device_type=a b".into(),
                "device_id=x".into(),
                "ts_millis=1".into(),
            ],
            "device_type",
        ),
        (
            vec![
                "splits".into(),
                "--schema".into(),
                schema_file::<TenantReading>().into(),
                "--for".into(),
                "cbt".into(),
            ],
            "has no salt",
        ),
    ];
    for (args, expected) in cases {
        let output = rowkey().args(&args).output().unwrap();
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(!output.status.success(), "{args:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {expected:?} not in {err}");
    }
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    for subcommand in ["inspect", "encode", "splits", "scan"] {
        let output = rowkey().args([subcommand, "--help"]).output().unwrap();
        assert!(output.status.success());
        assert!(String::from_utf8_lossy(&output.stdout).contains("Examples:\n  rowkey "), "{subcommand}");
    }
}

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

#[test]
fn scan_prints_the_scan_builders_ranges() {
    let schema = schema_file::<Reading>();
    let ordered = schema_file::<OrderedReading>();
    let scan = |schema: &PathBuf, args: &[String]| {
        let output =
            rowkey().args(["scan", "--table", "readings", "--schema"]).arg(schema).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let values = generate(strategies::reading());
    for (a, b) in values.iter().zip(values.iter().skip(1)).take(10) {
        let (lo, hi) = (a.ts_millis.min(b.ts_millis), a.ts_millis.max(b.ts_millis));
        let fixed = [format!("device_type={}", a.device_type), format!("device_id={}", a.device_id)];
        // The bucket known from the device id: one range.
        let builder = Reading::scan().device_type(&a.device_type).device_id(&a.device_id);
        assert_eq!(read_scan_lines(&scan(&schema, &fixed)), expected_ranges(builder.ranges()));
        let with_range = [fixed[0].clone(), fixed[1].clone(), format!("ts_millis={lo}..={hi}")];
        let builder = Reading::scan().device_type(&a.device_type).device_id(&a.device_id).ts_millis_range(lo..=hi);
        assert_eq!(read_scan_lines(&scan(&schema, &with_range)), expected_ranges(builder.ranges()));
        // Not known: one range in each of the 16 buckets.
        let printed = read_scan_lines(&scan(&schema, &fixed[..1]));
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
        assert_eq!(read_scan_lines(&scan(&ordered, &with_range)), expected_ranges(builder.ranges()));
        let json: serde_json::Value =
            serde_json::from_str(&scan(&ordered, &[vec!["--json".to_owned()], with_range.to_vec()].concat())).unwrap();
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

/// The field's text as `rowkey inspect` prints it (quoted when it must be), which `scan` reads.
fn inspected<T: RowKeyOwned + KeySchema>(value: &T, name: &str) -> String {
    let key = value.to_key().unwrap();
    T::SCHEMA.inspect(&key).unwrap().fields().iter().find(|f| f.name() == name).unwrap().value_text()
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
    let scan = |schema: &PathBuf, args: &[&str]| {
        let output =
            rowkey().args(["scan", "--table", "readings", "--schema"]).arg(schema).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        read_scan_lines(&String::from_utf8(output.stdout).unwrap())
    };
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

#[test]
fn a_bigtable_row_key_schema_file_is_read_as_well() {
    let path = bigtable_schema_file::<Monitor>();
    for value in generate(strategies::monitor()).iter().take(50) {
        let key = value.to_key().unwrap();
        let hex = KeyForm::Hex.format(&key);
        let output = rowkey().args(["inspect", "--from", "hex", "--schema"]).arg(&path).arg(&hex).output().unwrap();
        assert!(output.status.success(), "{hex}: {}", String::from_utf8_lossy(&output.stderr));
        // Fields without a transform read as the type reads them; the bucket is a plain INT64.
        assert_eq!(
            String::from_utf8(output.stdout).unwrap().trim_end(),
            Monitor::SCHEMA.inspect(&key).unwrap().to_string()
        );
        // And the key is built back from the printed fields.
        let pairs: Vec<String> = Monitor::SCHEMA
            .inspect(&key)
            .unwrap()
            .fields()
            .iter()
            .map(|f| format!("{}={}", f.name(), f.value_text()))
            .collect();
        let output = rowkey().args(["encode", "--to", "hex", "--schema"]).arg(&path).args(&pairs).output().unwrap();
        assert_eq!(String::from_utf8(output.stdout).unwrap().trim_end(), hex, "{pairs:?}");
    }
    let bad = temp_file(
        "float.bigtable.json",
        r#"{"encoding": {"orderedCodeBytes": {}}, "fields": [{"fieldName": "f", "type": {"float64Type": {}}}]}"#,
    );
    let output = rowkey().args(["inspect", "--schema"]).arg(&bad).arg("x").output().unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("is not a Bigtable row key schema: ") && err.contains("float64Type"), "{err}");
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

/// What `rowkey scan` prints for a query, which must succeed.
fn scan_output(schema: &PathBuf, args: &[String]) -> String {
    let output = rowkey().args(["scan", "--table", "readings", "--schema"]).arg(schema).args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
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
fn splits_by_a_bigtable_schema_cut_a_sample_and_say_why_there_are_no_buckets() {
    let own = schema_file::<Monitor>();
    let bigtable = bigtable_schema_file::<Monitor>();
    let keys: Vec<Key> = generate(strategies::monitor()).iter().map(|value| value.to_key().unwrap()).collect();
    let text: String = keys.iter().map(|key| KeyForm::Hex.format(key) + "\n").collect();
    let sample = temp_file("monitor-sample.txt", &text);
    let splits = |schema: &PathBuf, args: &[&str]| {
        rowkey().args(["splits", "--for", "bigtable", "--schema"]).arg(schema).args(args).output().unwrap()
    };
    let by_sample = ["--from", "hex", "--tablets", "6", "--sample", sample.to_str().unwrap()];
    let printed = splits(&bigtable, &by_sample);
    assert!(printed.status.success(), "{}", String::from_utf8_lossy(&printed.stderr));
    assert_eq!(printed.stdout, splits(&own, &by_sample).stdout);
    assert_eq!(bigtable_points(&printed.stdout), Splits::from_sample(&keys, 6).points());
    // The bucket boundaries come from rowkey's schema alone: Bigtable's knows no salt.
    assert_eq!(bigtable_points(&splits(&own, &[]).stdout), Monitor::SCHEMA.split_planner().plan().unwrap().points());
    let output = splits(&bigtable, &[]);
    let err = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("has no salt") && err.contains("--sample FILE --tablets N"), "{err}");
}

/// A command line as the shell splits it: at spaces, single quotes kept together and dropped.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => words.push(String::new()),
            c => words.last_mut().unwrap().push(c),
        }
    }
    assert!(!quoted, "unclosed quote in {line}");
    words.retain(|w| !w.is_empty());
    words
}

#[test]
fn the_readmes_shell_examples_print_what_it_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme.split("\n## From a shell").nth(1).expect("the README's From a shell section");
    let section = section.split("\n## ").next().unwrap();
    let block = section.split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("a sh block");
    // Each `rowkey` command, and the `# ` lines after it: what it prints.
    let mut examples: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in block.lines() {
        if line.starts_with("rowkey ") {
            examples.push((line, Vec::new()));
        } else if let (Some(shown), Some((_, lines))) = (line.strip_prefix("# "), examples.last_mut()) {
            lines.push(shown);
        } else {
            // Another command: the `# ` lines after it are not a `rowkey` command's.
            examples.push((line, Vec::new()));
        }
    }
    let mut checked = Vec::new();
    for (command, shown) in
        examples.iter().filter(|(command, shown)| command.starts_with("rowkey ") && !shown.is_empty())
    {
        let words = shell_words(command);
        let output = rowkey().current_dir(&root).args(&words[1..]).output().unwrap();
        assert!(output.status.success(), "{command}: {}", String::from_utf8_lossy(&output.stderr));
        let printed = String::from_utf8(output.stdout).unwrap();
        let printed: Vec<&str> = printed.lines().collect();
        match shown.as_slice() {
            // One line shown for many, with a note of how many more there are.
            [line] if line.contains("   (") => {
                let (first, note) = line.split_once("   (").unwrap();
                let others: usize = note
                    .strip_prefix("and one line for each of the other ")
                    .and_then(|n| n.strip_suffix(" buckets)"))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{command}: a note the test does not read: ({note}"));
                assert_eq!(printed.first(), Some(&first), "{command}");
                assert_eq!(printed.len(), 1 + others, "{command}: {printed:?}");
            }
            _ => assert_eq!(&printed, shown, "{command}"),
        }
        checked.push(words[1].clone());
    }
    for subcommand in ["encode", "inspect", "splits", "scan"] {
        assert!(checked.contains(&subcommand.to_owned()), "no `rowkey {subcommand}` with its output in the README");
    }
}

#[test]
fn inspect_reads_reversed_integers_as_times_in_the_unit_given() {
    let schema = schema_file::<Reading>();
    let cases = [
        (1_588_291_200_000i64, "ms"),
        (1_588_291_200_123, "ms"),
        // `reverse` takes values from 0 up: the epoch, and the last instant jiff takes (late in 9999).
        (1, "ms"),
        (253_402_207_200_000, "ms"),
        (1_588_291_200, "s"),
        (1_588_291_200_000_001, "us"),
        (1_588_291_200_000_000_007, "ns"),
        (0, "ns"),
    ];
    for (ts, unit) in cases {
        let reading = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: ts };
        let key = KeyForm::Hex.format(&reading.to_key().unwrap());
        // jiff's RFC 3339 is the reference.
        let want = match unit {
            "s" => jiff::Timestamp::from_second(ts),
            "ms" => jiff::Timestamp::from_millisecond(ts),
            "us" => jiff::Timestamp::from_microsecond(ts),
            _ => jiff::Timestamp::from_nanosecond(i128::from(ts)),
        }
        .unwrap()
        .to_string();
        let plain = Reading::SCHEMA.inspect(&reading.to_key().unwrap()).unwrap().to_string();
        let expected = format!("{}, {want})\n", plain.strip_suffix(')').unwrap());
        assert_eq!(inspect_in(unit, &schema, &key, &[]), expected, "{ts} {unit}");
        let json: serde_json::Value = serde_json::from_str(&inspect_in(unit, &schema, &key, &["--json"])).unwrap();
        assert_eq!(json["times"]["ts_millis"], want.as_str(), "{ts} {unit}");
        assert_eq!(json["fields"]["ts_millis"], ts.to_string().as_str(), "{ts} {unit}");
    }
    // An integer that is no time in the unit is said to be none, not printed as a wrong one.
    let reading = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: i64::MAX / 2 };
    let key = KeyForm::Hex.format(&reading.to_key().unwrap());
    assert!(inspect_in("s", &schema, &key, &[]).ends_with("(reversed, not a time in this unit)\n"));
}

/// What `rowkey inspect --time-unit unit` prints for one hex key, which must match.
fn inspect_in(unit: &str, schema: &PathBuf, key: &str, more: &[&str]) -> String {
    let output = rowkey()
        .args(["inspect", "--from", "hex", "--time-unit", unit, "--schema"])
        .arg(schema)
        .arg(key)
        .args(more)
        .output()
        .unwrap();
    assert!(output.status.success(), "{key} in {unit}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn version_prints_the_crates_version() {
    rowkey().arg("--version").assert().success().stdout(format!("rowkey {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn inspect_json_escapes_text_that_json_would_escape() {
    let schema = schema_file::<OrderedReading>();
    let value = OrderedReading {
        device_type: "say \"hi\"\\\n\t\u{1}\u{7f}\u{ff}".into(),
        device_id: "".into(),
        ts_millis: i64::MIN,
    };
    let key = value.to_key().unwrap();
    let output = rowkey()
        .args(["inspect", "--json", "--from", "hex", "--schema"])
        .arg(&schema)
        .arg(KeyForm::Hex.format(&key))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let line: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(line["key"], KeyForm::Hex.format(&key));
    let inspection = OrderedReading::SCHEMA.inspect(&key).unwrap();
    let fields = line["fields"].as_object().unwrap();
    assert_eq!(fields.len(), inspection.fields().len());
    for field in inspection.fields() {
        assert_eq!(fields[field.name()], field.value_text().as_str(), "{}", field.name());
    }
    // In key order, as `inspect` prints them without --json.
    let printed = String::from_utf8(output.stdout).unwrap();
    let at = |name: &str| printed.find(&format!("\"{name}\": ")).unwrap();
    assert!(
        at("bucket") < at("device_type") && at("device_type") < at("device_id") && at("device_id") < at("ts_millis")
    );
    // A key that does not match: its error, as JSON too.
    let output = rowkey().args(["inspect", "--json", "--schema"]).arg(&schema).arg(r"a\x22\x5c").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let line: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(line["key"], r"a\x22\x5c");
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains(line["error"].as_str().unwrap()), "{line} / {err}");
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
            schema_file::<common::typed::ByUser>(),
            vec![format!("user={nil}")],
            format!("at={time}..{time}"),
            format!("at={time}..={time}"),
        ),
        (schema_file::<common::typed::ByUser>(), vec![], format!("user={nil}..{nil}"), format!("user={nil}..={nil}")),
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

/// `rowkey inspect --json` of each key given in `form`, then `rowkey encode` of the fields it
/// printed: the same key, in the same form.
fn inspect_then_encode<T: KeySchema>(keys: &[Key], form: KeyForm) -> Vec<serde_json::Value> {
    let schema = schema_file::<T>();
    let input: String = keys.iter().map(|key| form.format(key) + "\n").collect();
    let name = format!("{form:?}").to_lowercase();
    let output = rowkey()
        .args(["inspect", "--json", "--from", &name, "--schema"])
        .arg(&schema)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<serde_json::Value> = printed.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), keys.len(), "{printed}");
    for (key, line) in keys.iter().zip(&lines) {
        assert_eq!(line["key"], form.format(key).as_str());
        let pairs = line["fields"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, value)| format!("{name}={}", value.as_str().unwrap()));
        let output = rowkey().args(["encode", "--to", &name, "--schema"]).arg(&schema).args(pairs).output().unwrap();
        assert!(output.status.success(), "{line}: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(String::from_utf8(output.stdout).unwrap(), form.format(key) + "\n", "{line}");
    }
    lines
}

#[test]
fn what_inspect_prints_of_every_field_type_encodes_to_the_same_key() {
    use common::edges::{edge_key, edge_text_key};
    let sample = |strategy: &dyn Fn(&mut TestRunner) -> Key| {
        let mut runner = TestRunner::deterministic();
        (0..8).map(|_| strategy(&mut runner)).collect::<Vec<Key>>()
    };
    let ordered = sample(&|runner| edge_key().new_tree(runner).unwrap().current().to_key().unwrap());
    let delimited = sample(&|runner| edge_text_key().new_tree(runner).unwrap().current().to_key().unwrap());
    for form in [KeyForm::Hex, KeyForm::Cbt, KeyForm::Base64] {
        inspect_then_encode::<common::edges::EdgeKey>(&ordered, form);
        inspect_then_encode::<common::edges::EdgeText>(&delimited, form);
    }
}

#[test]
fn floats_keep_their_sign_and_nan_payload_from_inspect_to_encode() {
    use common::edges::{EdgeKey, edge_key};
    let mut runner = TestRunner::deterministic();
    let base = edge_key().new_tree(&mut runner).unwrap().current();
    let cases: [(f64, f32, &str, &str); 5] = [
        (
            f64::from_bits(0x7ff0_0000_0000_0001),
            f32::from_bits(0x7f80_0001),
            "NaN:0x7ff0000000000001",
            "NaN:0x7ff0000020000000",
        ),
        (
            f64::from_bits(0xfff0_0000_0000_0001),
            f32::from_bits(0xffc0_0001),
            "NaN:0xfff0000000000001",
            "NaN:0xfff8000020000000",
        ),
        (f64::from_bits(0x7ff8_dead_beef_0001), f32::NAN, "NaN:0x7ff8deadbeef0001", "NaN"),
        (-f64::NAN, -f32::NAN, "-NaN", "-NaN"),
        (-0.0, -0.0, "0.0", "0.0"),
    ];
    let schema = schema_file::<EdgeKey>();
    for (float64, float32, text64, text32) in cases {
        let value =
            EdgeKey { float64, float32, desc_float64: Some(float64), maybe_float32: Some(float32), ..base.clone() };
        let key = value.to_key().unwrap();
        // The line a person reads shows the same text.
        let output = rowkey()
            .args(["inspect", "--from", "hex", "--schema"])
            .arg(&schema)
            .arg(KeyForm::Hex.format(&key))
            .output()
            .unwrap();
        let line = String::from_utf8(output.stdout).unwrap();
        for shown in [
            format!(" float64={text64} "),
            format!(" float32={text32} "),
            format!(" desc_float64={text64} (desc) "),
            format!(" maybe_float32={text32} "),
        ] {
            assert!(line.contains(&shown), "{shown:?} not in {line}");
        }
        let lines = inspect_then_encode::<EdgeKey>(std::slice::from_ref(&key), KeyForm::Hex);
        assert_eq!(lines[0]["fields"]["float64"], text64);
        assert_eq!(lines[0]["fields"]["float32"], text32);
    }
    // `-0.0` and `-0` given to encode are the key of `0.0`: the format has one zero.
    let zero = EdgeKey { float64: 0.0, ..base.clone() }.to_key().unwrap();
    let inspection = EdgeKey::SCHEMA.inspect(&zero).unwrap();
    for negative in ["-0.0", "-0"] {
        let pairs = inspection.fields().iter().map(|f| match f.name() {
            "float64" => format!("float64={negative}"),
            name => format!("{name}={}", f.value_text()),
        });
        let output = rowkey().args(["encode", "--to", "hex", "--schema"]).arg(&schema).args(pairs).output().unwrap();
        assert_eq!(String::from_utf8(output.stdout).unwrap(), KeyForm::Hex.format(&zero) + "\n", "{negative}");
    }
}

#[test]
fn store_format_keys_inspect_and_encode_as_their_types_do() {
    check(strategies::fdb_reading());
    check(strategies::mc_reading());
    check(strategies::hbase_visit());
}

#[test]
fn store_format_scans_and_splits_are_the_builders_and_the_planners() {
    let scan = |schema: &PathBuf, args: &[String]| {
        let output =
            rowkey().args(["scan", "--table", "readings", "--schema"]).arg(schema).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let fdb = schema_file::<FdbReading>();
    for a in generate(strategies::fdb_reading()).iter().take(10) {
        let device = format!("device={}", inspected(a, "device"));
        let builder = FdbReading::scan().device(&a.device).at_range(a.at..);
        let args = [device.clone(), format!("at={}..", a.at)];
        assert_eq!(read_scan_lines(&scan(&fdb, &args)), expected_ranges(builder.ranges()));
    }
    let mc = schema_file::<McReading>();
    for a in generate(strategies::mc_reading()).iter().take(10) {
        let region = format!("region={}", inspected(a, "region"));
        // Descending: the range's later value starts the keys.
        let builder = McReading::scan().region(&a.region).score_range(..a.score);
        let args = [region.clone(), format!("score=..{}", a.score)];
        assert_eq!(read_scan_lines(&scan(&mc, &args)), expected_ranges(builder.ranges()));
    }
    let hbase = schema_file::<HBaseVisit>();
    // Without the host, the bucket is unknown: one range in each of the 16 buckets.
    assert_eq!(read_scan_lines(&scan(&hbase, &[])), expected_ranges(HBaseVisit::scan().ranges()));
    for a in generate(strategies::hbase_visit()).iter().take(10) {
        let host = format!("host={}", inspected(a, "host"));
        let builder = HBaseVisit::scan().host(&a.host).ts(a.ts).amount_range(a.amount..);
        let args = [host.clone(), format!("ts={}", a.ts), format!("amount={}..", a.amount)];
        assert_eq!(read_scan_lines(&scan(&hbase, &args)), expected_ranges(builder.ranges()));
    }

    let splits = |schema: &PathBuf, per_bucket: &str| {
        let output = rowkey()
            .args(["splits", "--per-bucket", per_bucket, "--for", "bigtable", "--schema"])
            .arg(schema)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        bigtable_points(&output.stdout)
    };
    assert_eq!(splits(&fdb, "0"), FdbReading::SCHEMA.split_planner().plan().unwrap().points());
    assert_eq!(splits(&hbase, "0"), HBaseVisit::SCHEMA.split_planner().plan().unwrap().points());
    let orders = schema_file::<McOrder>();
    assert_eq!(splits(&orders, "3"), McOrder::SCHEMA.split_planner().per_bucket(3).plan().unwrap().points());
    let seqs = schema_file::<HBaseSeq>();
    assert_eq!(splits(&seqs, "2"), HBaseSeq::SCHEMA.split_planner().per_bucket(2).plan().unwrap().points());
    // Along text, the planner cannot split inside buckets: one line points at a sample.
    let assert =
        rowkey().args(["splits", "--per-bucket", "2", "--for", "bigtable", "--schema"]).arg(&hbase).assert().code(2);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("`host` is text") && err.contains("Splits::from_sample"), "{err}");
}
