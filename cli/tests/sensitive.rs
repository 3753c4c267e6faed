//! A marker value in a field marked `sensitive` appears in no output of any subcommand,
//! standard output or standard error, success or failure; with `--reveal` it is printed.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use assert_cmd::Command;
use common::pii::{LoginText, MARKER};
use rowkey::RowKey;
use rowkey::key_text::KeyForm;

/// The schema file and a sample file of keys, in the test's own directory.
fn files() -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-sensitive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("login.json");
    std::fs::write(&schema, LoginText::SCHEMA.to_json()).unwrap();
    let sample = dir.join("sample.txt");
    let keys: String = (0..40u32).map(|tenant| String::from_utf8(key(tenant).into_vec()).unwrap() + "\n").collect();
    std::fs::write(&sample, keys).unwrap();
    (schema, sample)
}

fn key(tenant: u32) -> rowkey::Key {
    LoginText { tenant, email: format!("{MARKER}@example.com"), at: 7, pin: 1234 }.to_key().unwrap()
}

/// Standard output and standard error of one run, together.
fn run(args: &[&str]) -> String {
    let output = Command::cargo_bin("rowkey").unwrap().args(args).output().unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

#[test]
fn no_subcommand_prints_the_value_without_reveal() {
    let (schema, sample) = files();
    let schema = schema.to_str().unwrap();
    let sample = sample.to_str().unwrap();
    let good = String::from_utf8(key(3).into_vec()).unwrap();
    let hex = KeyForm::Hex.format(&key(3));
    // Not UTF-8 in the address, and a pin out of range: errors about each field.
    let bad_utf8 = KeyForm::Hex.format(
        &good.replace('@', "\u{0}").into_bytes().iter().map(|&b| if b == 0 { 0xc3 } else { b }).collect::<Vec<u8>>(),
    );
    let out_of_range = good.replace("#01234", "#65543");
    let email = format!("email={MARKER}@example.com");
    let runs: Vec<Vec<&str>> = vec![
        vec!["inspect", "--schema", schema, &good],
        vec!["inspect", "--schema", schema, "--json", &good],
        vec!["inspect", "--schema", schema, "--from", "hex", &hex],
        vec!["inspect", "--schema", schema, "--time-unit", "ms", &good],
        vec!["inspect", "--schema", schema, "--from", "hex", &bad_utf8],
        vec!["inspect", "--schema", schema, "--json", &out_of_range],
        vec!["encode", "--schema", schema, "tenant=3", &email, "at=7", "pin=1234"],
        vec!["encode", "--schema", schema, "tenant=3", &email, "at=7", "pin=MARKER-7f3a"],
        vec!["scan", "--schema", schema, "tenant=3", &email],
        vec!["scan", "--schema", schema, "--json", "tenant=3", "email^=MARKER-7f3a"],
        vec!["splits", "--schema", schema, "--for", "cbt", "--sample", sample, "--tablets", "4"],
        vec!["splits", "--schema", schema, "--for", "hbase", "--per-bucket", "2"],
    ];
    for args in runs {
        let printed = run(&args);
        assert!(!printed.contains(MARKER), "rowkey {} printed the sensitive value:\n{printed}", args.join(" "));
        assert!(!printed.contains("panicked"), "rowkey {}:\n{printed}", args.join(" "));
    }
    // What is shown instead, and the way to see it.
    let inspected = run(&["inspect", "--schema", schema, &good]);
    assert!(
        inspected.contains("email=<redacted, 23 bytes>") && inspected.contains("pin=<redacted, 5 bytes>"),
        "{inspected}"
    );
    let refused = run(&["encode", "--schema", schema, "tenant=3", &email, "at=7", "pin=1234"]);
    assert!(refused.contains("--reveal") && refused.contains("`email`"), "{refused}");
}

#[test]
fn reveal_prints_the_value() {
    let (schema, sample) = files();
    let schema = schema.to_str().unwrap();
    let sample = sample.to_str().unwrap();
    let good = String::from_utf8(key(3).into_vec()).unwrap();
    let email = format!("email={MARKER}@example.com");
    let runs: Vec<Vec<&str>> = vec![
        vec!["inspect", "--reveal", "--schema", schema, &good],
        vec!["inspect", "--reveal", "--schema", schema, "--json", &good],
        vec!["inspect", "--reveal", "--schema", schema, "--time-unit", "ms", &good],
        vec!["encode", "--reveal", "--schema", schema, "tenant=3", &email, "at=7", "pin=1234"],
        vec!["scan", "--reveal", "--schema", schema, "tenant=3", &email],
        vec!["splits", "--reveal", "--schema", schema, "--for", "cbt", "--sample", sample, "--tablets", "4"],
    ];
    for args in runs {
        let printed = run(&args);
        assert!(printed.contains(MARKER), "rowkey {} hid the value it was asked to show:\n{printed}", args.join(" "));
    }
    let encoded = run(&["encode", "--reveal", "--schema", schema, "tenant=3", &email, "at=7", "pin=1234"]);
    assert_eq!(encoded.trim_end(), good);
}
