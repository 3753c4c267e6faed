//! `rowkey inspect` prints what the type's schema prints of a key, in every key form and as
//! JSON, and `rowkey encode` of what it printed gives the key back.

use std::path::Path;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rowkey::key_text::KeyForm;
use rowkey::schema::KeySchema;
use rowkey::{Key, RowKey, RowKeyOwned};

use crate::common::edges::{EdgeKey, EdgeText, edge_key, edge_text_key};
use crate::common::keys::{Monitor, OrderedReading, Reading};
use crate::common::strategies;
use crate::{bigtable_schema_file, generate, rowkey, schema_file, temp_file};

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
fn store_format_keys_inspect_and_encode_as_their_types_do() {
    check(strategies::fdb_reading());
    check(strategies::mc_reading());
    check(strategies::hbase_visit());
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
fn inspect_in(unit: &str, schema: &Path, key: &str, more: &[&str]) -> String {
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
    let sample = |strategy: &dyn Fn(&mut TestRunner) -> Key| {
        let mut runner = TestRunner::deterministic();
        (0..8).map(|_| strategy(&mut runner)).collect::<Vec<Key>>()
    };
    let ordered = sample(&|runner| edge_key().new_tree(runner).unwrap().current().to_key().unwrap());
    let delimited = sample(&|runner| edge_text_key().new_tree(runner).unwrap().current().to_key().unwrap());
    for form in [KeyForm::Hex, KeyForm::Cbt, KeyForm::Base64] {
        inspect_then_encode::<EdgeKey>(&ordered, form);
        inspect_then_encode::<EdgeText>(&delimited, form);
    }
}

#[test]
fn floats_keep_their_sign_and_nan_payload_from_inspect_to_encode() {
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
