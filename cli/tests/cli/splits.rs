//! `rowkey splits` prints the split planner's points for each store, or a sample's quantiles,
//! by rowkey's schema file or Bigtable's, and says why when it has none to print.

use std::path::PathBuf;

use rowkey::key_text::KeyForm;
use rowkey::splits::Splits;
use rowkey::{Key, RowKey};

use crate::common::keys::{HexReading, Monitor, OrderedReading, Reading};
use crate::common::stores::{FdbReading, HBaseSeq, HBaseVisit, McOrder};
use crate::common::{hcl, strategies};
use crate::{bigtable_schema_file, generate, rowkey, schema_file, temp_file};

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
        let points: Vec<Vec<u8>> = hcl::hcl_strings(list).unwrap().into_iter().map(String::into_bytes).collect();
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

#[test]
fn store_format_splits_are_the_planners() {
    let splits = |schema: &PathBuf, per_bucket: &str| {
        let output = rowkey()
            .args(["splits", "--per-bucket", per_bucket, "--for", "bigtable", "--schema"])
            .arg(schema)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        bigtable_points(&output.stdout)
    };
    let fdb = schema_file::<FdbReading>();
    let hbase = schema_file::<HBaseVisit>();
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
