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

/// A value that does not fit is reported as itself, with or without --reveal, never as the
/// refusal to print the key; a key whose sensitive fields are all absent holds no sensitive
/// value and is printed; a field value without `=` is named by its position, not echoed.
#[test]
fn encode_reports_value_errors_and_prints_keys_without_sensitive_values() {
    use common::pii::Tide;

    let dir = std::env::temp_dir().join(format!("rowkey-cli-sensitive-tide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("tide.json");
    std::fs::write(&schema, Tide::SCHEMA.to_json()).unwrap();
    let schema = schema.to_str().unwrap();
    let typed = Tide { station: "a#b".into(), channel: 1_000_449, note: None }.to_key().unwrap_err().to_string();
    for reveal in [&[][..], &["--reveal"][..]] {
        let args = [&["encode", "--schema", schema], reveal, &["station=a#b", "channel=1000449", "note=null"]].concat();
        let output = Command::cargo_bin("rowkey").unwrap().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "rowkey {}: {stderr}", args.join(" "));
        assert_eq!(stderr.trim_end(), format!("rowkey: {typed}"), "rowkey {}", args.join(" "));
    }
    // No sensitive value in the key: printed without --reveal.
    let expected = Tide { station: "ab".into(), channel: 449, note: None }.to_key().unwrap();
    let output = Command::cargo_bin("rowkey")
        .unwrap()
        .args(["encode", "--schema", schema, "station=ab", "channel=449", "note=null"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim_end(), String::from_utf8(expected.into_vec()).unwrap());
    // A sensitive value in it: withheld.
    let note = format!("note={MARKER}");
    let refused = run(&["encode", "--schema", schema, "station=ab", "channel=449", &note]);
    assert!(refused.contains("`note`") && refused.contains("--reveal") && !refused.contains(MARKER), "{refused}");
    // `name=` forgotten before a sensitive value.
    let unnamed = run(&["encode", "--schema", schema, "station=ab", "channel=449", MARKER]);
    assert!(unnamed.contains("value 3 has no `=`") && !unnamed.contains(MARKER), "{unnamed}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What reached an output through paths the marker tests above did not take: a malformed key
/// echoed whole by the key-text parser, a sensitive reversed time printed as an instant, and
/// numbers that parse but do not fit their field.
#[test]
fn malformed_keys_times_and_unfit_numbers_print_no_value() {
    use common::pii::{Birthday, NUMBER_MARKER, Pinned, SsnTuple};

    let dir = std::env::temp_dir().join(format!("rowkey-cli-sensitive-more-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, json: String| {
        let path = dir.join(name);
        std::fs::write(&path, json).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let (login, birthday, pinned, ssn) = (
        file("login.json", LoginText::SCHEMA.to_json()),
        file("birthday.json", Birthday::SCHEMA.to_json()),
        file("pinned.json", Pinned::SCHEMA.to_json()),
        file("ssn.json", SsnTuple::SCHEMA.to_json()),
    );
    let good = String::from_utf8(key(3).into_vec()).unwrap();
    let hex = KeyForm::Hex.format(&key(3));
    let base64 = KeyForm::Base64.format(&key(3));
    let malformed = [
        ("cbt", format!("{good}\\q")),
        ("cbt", format!("{good}\\x4")),
        ("hex", format!("{hex}0")),
        ("hex", format!("{hex}zz")),
        ("base64", format!("{base64}*")),
        ("base64", format!("{base64}=")),
    ];
    let born = Birthday { tenant: "acme".into(), born_ms: 549_864_182_123 }.to_key().unwrap();
    let born = String::from_utf8(born.into_vec()).unwrap();
    let big = format!("ssn={}", NUMBER_MARKER.repeat(2));
    let pin = format!("pin={NUMBER_MARKER}");
    let mut runs: Vec<(Vec<String>, Option<String>)> = Vec::new();
    for (form, text) in &malformed {
        for json in [false, true] {
            let mut args: Vec<String> = ["inspect", "--schema", &login, "--from", form].map(String::from).to_vec();
            if json {
                args.push("--json".into());
            }
            runs.push((args.iter().cloned().chain([text.clone()]).collect(), None));
            runs.push((args, Some(format!("{text}\n"))));
        }
    }
    for json in [&[][..], &["--json"][..]] {
        let mut args: Vec<String> = ["inspect", "--schema", &birthday, "--time-unit", "ms"].map(String::from).to_vec();
        args.extend(json.iter().map(|a| a.to_string()));
        args.push(born.clone());
        runs.push((args, None));
    }
    for args in [
        vec!["encode", "--schema", &ssn, "tenant=t", &big],
        vec!["scan", "--schema", &ssn, "tenant=t", &big],
        vec!["encode", "--schema", &pinned, "user=u", &pin, "code=1", "email=e"],
        vec!["scan", "--schema", &pinned, "user=u", &pin],
        vec!["scan", "--schema", &pinned, "--json", "user=u", "pin=1", &format!("code={NUMBER_MARKER}")],
    ] {
        runs.push((args.into_iter().map(String::from).collect(), None));
    }
    for (args, stdin) in runs {
        let mut command = Command::cargo_bin("rowkey").unwrap();
        command.args(&args);
        if let Some(stdin) = &stdin {
            command.write_stdin(stdin.as_bytes());
        }
        let output = command.output().unwrap();
        let printed = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
        let run = format!("rowkey {}{}", args.join(" "), if stdin.is_some() { " (key on standard input)" } else { "" });
        assert!(!printed.contains("panicked"), "{run}:\n{printed}");
        for needle in [MARKER, "1987-06-05", "549864182123"] {
            assert!(!printed.contains(needle), "{run} printed the sensitive value ({needle}):\n{printed}");
        }
        for piece in NUMBER_MARKER.as_bytes().windows(6).map(|w| std::str::from_utf8(w).unwrap()) {
            assert!(!printed.contains(piece), "{run} printed a piece of the sensitive value ({piece}):\n{printed}");
        }
    }
    // Revealed, the time is there.
    let revealed = run(&["inspect", "--reveal", "--schema", &birthday, "--time-unit", "ms", &born]);
    assert!(revealed.contains("1987-06-05T04:03:02.123Z"), "{revealed}");
}
