//! The built `rowkey` binary on the scenario keys' schema files: `inspect` prints what the
//! type's schema prints for generated keys, `encode` gives `to_key`'s bytes, `splits` the
//! planner's points, and bad input one line and a non-zero status, never a panic.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use assert_cmd::Command;
use common::keys::*;
use common::strategies;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rowkey::key_text::KeyForm;
use rowkey::schema::KeySchema;
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
    let dir = std::env::temp_dir().join(format!("rowkey-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.json", T::SCHEMA.type_name));
    // Tests run in parallel and write the same file: each writes its own copy and renames it
    // into place, so that none reads another's half-written file.
    let own = dir.join(format!("{}.json.{:?}", T::SCHEMA.type_name, std::thread::current().id()));
    std::fs::write(&own, T::SCHEMA.to_json()).unwrap();
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
    // A binary key's points are no cbt argument: one line says why and what to use.
    let ordered = schema_file::<OrderedReading>();
    let assert = rowkey().args(["splits", "--for", "cbt", "--schema"]).arg(&ordered).assert().code(2);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("holds the byte 81") && err.contains("Admin API's JSON"), "{err}");
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
    let expect = |ranges: rowkey::Result<rowkey::KeyRanges>| -> Vec<HalfOpen> {
        ranges.unwrap().iter().filter(|r| !r.is_empty()).map(half_open).collect()
    };
    let values = generate(strategies::reading());
    for (a, b) in values.iter().zip(values.iter().skip(1)).take(10) {
        let (lo, hi) = (a.ts_millis.min(b.ts_millis), a.ts_millis.max(b.ts_millis));
        let fixed = [format!("device_type={}", a.device_type), format!("device_id={}", a.device_id)];
        // The bucket known from the device id: one range.
        let builder = Reading::scan().device_type(&a.device_type).device_id(&a.device_id);
        assert_eq!(read_scan_lines(&scan(&schema, &fixed)), expect(builder.ranges()));
        let with_range = [fixed[0].clone(), fixed[1].clone(), format!("ts_millis={lo}..={hi}")];
        let builder = Reading::scan().device_type(&a.device_type).device_id(&a.device_id).ts_millis_range(lo..=hi);
        assert_eq!(read_scan_lines(&scan(&schema, &with_range)), expect(builder.ranges()));
        // Not known: one range in each of the 16 buckets.
        let printed = read_scan_lines(&scan(&schema, &fixed[..1]));
        assert_eq!(printed.len(), 16);
        assert_eq!(printed, expect(Reading::scan().device_type(&a.device_type).ranges()));
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
        assert_eq!(read_scan_lines(&scan(&ordered, &with_range)), expect(builder.ranges()));
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
        assert_eq!(from_json, expect(builder.ranges()));
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
    let expect = |ranges: rowkey::Result<rowkey::KeyRanges>| -> Vec<HalfOpen> {
        ranges.unwrap().iter().filter(|r| !r.is_empty()).map(half_open).collect()
    };
    let reading = schema_file::<Reading>();
    assert_eq!(scan(&reading, &["device_type^=ph"]), expect(Reading::scan().device_type_starts_with("ph").ranges()));
    assert_eq!(scan(&reading, &["device_type^=ph"]).len(), 16);
    let page = schema_file::<WebPageMicros>();
    let subdomains = scan(&page, &["host~=google.com"]);
    assert_eq!(subdomains, expect(WebPageMicros::scan().host_with_subdomains("google.com").ranges()));
    assert_eq!(subdomains.len(), 2);
    assert_eq!(
        scan(&page, &["host=google.com", "path^=/maps"]),
        expect(WebPageMicros::scan().host("google.com").path_starts_with("/maps").ranges())
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
    let dir = std::env::temp_dir().join(format!("rowkey-cli-bt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("monitor.bigtable.json");
    std::fs::write(&path, Monitor::SCHEMA.to_bigtable_json().unwrap()).unwrap();
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
    let bad = dir.join("float.bigtable.json");
    std::fs::write(
        &bad,
        r#"{"encoding": {"orderedCodeBytes": {}}, "fields": [{"fieldName": "f", "type": {"float64Type": {}}}]}"#,
    )
    .unwrap();
    let output = rowkey().args(["inspect", "--schema"]).arg(&bad).arg("x").output().unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("is not a Bigtable row key schema: ") && err.contains("float64Type"), "{err}");
}
