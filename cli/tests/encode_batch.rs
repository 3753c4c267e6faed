//! `rowkey encode` without values: one JSON object of field values a line on standard input,
//! one key a line out. A bad line is named by its number and the rest go on; a sensitive value
//! reaches no output without `--reveal`; the keys are the derived type's, at volume and
//! streamed; and what `rowkey inspect --json` prints of a key encodes to the same key.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command as Process, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use assert_cmd::Command;
use common::edges::{EdgeKey, EdgeText, edge_key, edge_text_key};
use common::keys::Reading;
use common::pii::{LoginText, MARKER, NUMBER_MARKER, Tide};
use common::strategies;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rowkey::key_text::KeyForm;
use rowkey::schema::KeySchema;
use rowkey::{Key, RowKey};

fn rowkey() -> Command {
    Command::cargo_bin("rowkey").unwrap()
}

/// The type's schema file, in the test run's own directory.
fn schema_file<T: KeySchema>() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-encode-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.json", T::SCHEMA.type_name));
    // Tests run in parallel and may write the same file: each writes its own copy and renames
    // it into place, so that none reads another's half-written file.
    let own = dir.join(format!("{}.json.{:?}", T::SCHEMA.type_name, std::thread::current().id()));
    std::fs::write(&own, T::SCHEMA.to_json()).unwrap();
    std::fs::rename(&own, &path).unwrap();
    path
}

/// A `Reading`'s JSON line, its time as a JSON integer or as a string (as `inspect --json`
/// prints it).
fn reading_line(reading: &Reading, time_as_text: bool) -> String {
    let ts = if time_as_text {
        serde_json::json!(reading.ts_millis.to_string())
    } else {
        serde_json::json!(reading.ts_millis)
    };
    serde_json::json!({"device_type": reading.device_type, "device_id": reading.device_id, "ts_millis": ts}).to_string()
}

fn reading(n: i64) -> Reading {
    Reading { device_type: "phone".into(), device_id: format!("{n:08x}"), ts_millis: 1_588_291_200_000 + n }
}

/// Standard output's lines, standard error and the exit status of one run.
fn run(args: &[&str], input: &str) -> (Vec<String>, String, Option<i32>) {
    let output = rowkey().args(args).write_stdin(input.as_bytes().to_vec()).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    (stdout.lines().map(str::to_owned).collect(), String::from_utf8(output.stderr).unwrap(), output.status.code())
}

fn hex(key: &Key) -> String {
    KeyForm::Hex.format(key)
}

#[test]
fn a_bad_line_is_named_by_its_number_and_the_lines_around_it_are_encoded() {
    let schema = schema_file::<Reading>();
    let schema = schema.to_str().unwrap();
    let good: Vec<Reading> = (0..5).map(reading).collect();
    // Line 2 is blank (skipped, counted), line 4 is not JSON.
    let lines = [
        reading_line(&good[0], false),
        String::new(),
        reading_line(&good[1], true),
        r#"{"device_type": "phone", "device_id": "0000ffff" "ts_millis": 1}"#.to_owned(),
        reading_line(&good[2], false),
        reading_line(&good[3], true),
        reading_line(&good[4], false),
    ];
    let input = lines.join("\n") + "\n";
    let keys: Vec<String> = good.iter().map(|r| hex(&r.to_key().unwrap())).collect();

    let (out, err, status) = run(&["encode", "--to", "hex", "--schema", schema], &input);
    assert_eq!(out, keys, "{err}");
    assert_eq!(status, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("rowkey: line 4: not JSON: "), "{err}");

    // --fail-fast: the keys before the bad line, then nothing more.
    let (out, err, status) = run(&["encode", "--fail-fast", "--to", "hex", "--schema", schema], &input);
    assert_eq!(out, keys[..2], "{err}");
    assert_eq!(status, Some(1), "{err}");
    assert!(err.starts_with("rowkey: line 4: not JSON: "), "{err}");
    assert!(!err.contains("line 5") && !err.contains("line 6"), "{err}");

    // Each kind of bad line, named by its number; the status counts them.
    let bad = [
        r#"[1, 2]"#,
        r#""a string""#,
        r#"{"device_type": "phone", "device_id": "0000ffff", "ts_millis": 1, "colour": "red"}"#,
        r#"{"device_type": "phone", "device_id": "0000ffff", "ts_millis": "soon"}"#,
        r#"{"device_type": "phone", "device_id": "0000ffff", "ts_millis": 1.5}"#,
        r#"{"device_type": "phone", "device_id": "0000ffff", "ts_millis": -1}"#,
        r#"{"device_type": null, "device_id": "0000ffff", "ts_millis": 1}"#,
        r#"{"device_type": ["phone"], "device_id": "0000ffff", "ts_millis": 1}"#,
        r#"{"device_type": "phone", "device_id": "0000ffff"}"#,
        r#"{"device_type": "phone", "device_id": "0000ffff", "ts_millis": 1, "bucket": "3"}"#,
        r#"{"device_type": "phone", "device_id": "0000ffff", "ts_millis": 1} {}"#,
    ];
    let mut input: Vec<String> = bad.iter().map(|line| line.to_string()).collect();
    input.push(reading_line(&good[0], false));
    let (out, err, status) = run(&["encode", "--to", "hex", "--schema", schema], &(input.join("\n") + "\n"));
    assert_eq!(out, keys[..1], "{err}");
    assert_eq!(status, Some(bad.len() as i32), "{err}");
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(err.len(), bad.len(), "{err:?}");
    for (i, line) in err.iter().enumerate() {
        assert!(line.starts_with(&format!("rowkey: line {}: ", i + 1)), "{line}");
    }
    for (line, words) in [
        (3, "no field `colour`"),
        (4, "`ts_millis`"),
        (5, "`ts_millis` is a JSON number with a fraction"),
        (7, "`device_type` is null"),
        (8, "`device_type` is a JSON array"),
        (9, "`ts_millis`"),
        (10, "bucket"),
        (11, "trailing characters"),
    ] {
        assert!(err[line - 1].contains(words), "line {line}: {}", err[line - 1]);
    }

    // The status counts at most 125 lines, as `inspect`'s does.
    let (out, _, status) = run(&["encode", "--schema", schema], &"{}\n".repeat(130));
    assert!(out.is_empty());
    assert_eq!(status, Some(125));
}

/// A sensitive value reaches neither output without --reveal, whatever is wrong with the line
/// that holds it; a key that holds one is withheld and named by its line, and printed with
/// --reveal; a key whose sensitive field is null is printed either way.
#[test]
fn sensitive_values_are_redacted_and_keys_holding_them_withheld_without_reveal() {
    let tide = schema_file::<Tide>();
    let tide = tide.to_str().unwrap();
    let login = schema_file::<LoginText>();
    let login = login.to_str().unwrap();

    let absent = Tide { station: "ab".into(), channel: 449, note: None }.to_key().unwrap();
    let present = Tide { station: "ab".into(), channel: 449, note: Some(MARKER.into()) }.to_key().unwrap();
    let tide_lines = [
        r#"{"station": "ab", "channel": 449, "note": null}"#.to_owned(),
        format!(r#"{{"station": "ab", "channel": 449, "note": "{MARKER}"}}"#),
        // Bad in a field before it and in its own value (the delimiter), and not JSON at all.
        format!(r#"{{"station": "a#b", "channel": 1000449, "note": "{MARKER}"}}"#),
        format!(r#"{{"station": "ab", "channel": 449, "note": "{MARKER}#x"}}"#),
        format!(r#"{{"station": "ab", "channel": 449, "note": "{MARKER}""#),
        format!(r#""{MARKER}""#),
        format!(r#"{{"station": "ab", "channel": 449, "note": ["{MARKER}"]}}"#),
        format!(r#"{{"station": "ab", "channel": 1.5, "note": "{MARKER}"}}"#),
        format!(r#"{{"station": "ab", "channel": 449, "note": {{"{MARKER}": 1}}}}"#),
        format!(r#"{{"station": "ab", "channel": 449, "note": "{MARKER}"}} trailing {MARKER}"#),
    ];
    let input = tide_lines.join("\n") + "\n";
    let cbt = |key: &Key| String::from_utf8(key.to_vec()).unwrap();

    let (out, err, status) = run(&["encode", "--schema", tide], &input);
    assert_eq!(out, [cbt(&absent)], "{err}");
    assert_eq!(status, Some(9), "{err}");
    assert!(!out.concat().contains(MARKER) && !err.contains(MARKER), "a sensitive value was printed:\n{err}");
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(err.len(), 9, "{err:?}");
    assert!(
        err[0].starts_with("rowkey: line 2: ") && err[0].contains("`note`") && err[0].contains("--reveal"),
        "{}",
        err[0]
    );
    assert!(err[1].starts_with("rowkey: line 3: ") && err[1].contains("`station`"), "{}", err[1]);
    assert!(err[2].starts_with("rowkey: line 4: ") && err[2].contains("`note`"), "{}", err[2]);
    assert!(err[3].starts_with("rowkey: line 5: not JSON"), "{}", err[3]);

    // With --reveal the key is printed; the bad values are still reported without themselves.
    let (out, err, status) = run(&["encode", "--reveal", "--schema", tide], &input);
    assert_eq!(out, [cbt(&absent), cbt(&present)], "{err}");
    assert!(out[1].contains(MARKER));
    assert_eq!(status, Some(8), "{err}");
    assert!(!err.contains(MARKER), "a bad value was echoed:\n{err}");

    // Numbers: a sensitive integer out of its range, and not a number.
    let login_lines = [
        format!(r#"{{"tenant": 3, "email": "e", "at": 7, "pin": {NUMBER_MARKER}}}"#),
        format!(r#"{{"tenant": 3, "email": "e", "at": 7, "pin": "{NUMBER_MARKER}"}}"#),
        format!(r#"{{"tenant": 3, "email": "e", "at": 7, "pin": "{MARKER}"}}"#),
        format!(r#"{{"tenant": 3, "email": "e", "at": 7, "pin": {NUMBER_MARKER}.5}}"#),
        r#"{"tenant": 3, "email": "e", "at": 7, "pin": 1234}"#.to_owned(),
    ];
    for reveal in [&[][..], &["--reveal"][..]] {
        let args = [&["encode", "--schema", login], reveal].concat();
        let (out, err, status) = run(&args, &(login_lines.join("\n") + "\n"));
        let printed = out.concat() + &err;
        assert!(!printed.contains(MARKER), "{args:?}: {printed}");
        for piece in NUMBER_MARKER.as_bytes().windows(6).map(|w| std::str::from_utf8(w).unwrap()) {
            assert!(!printed.contains(piece), "{args:?} printed a piece of the sensitive value ({piece}):\n{printed}");
        }
        // The last line's key holds the pin (and the email): withheld without --reveal.
        assert_eq!(status, Some(if reveal.is_empty() { 5 } else { 4 }), "{printed}");
        let key = LoginText { tenant: 3, email: "e".into(), at: 7, pin: 1234 }.to_key().unwrap();
        assert_eq!(out, if reveal.is_empty() { vec![] } else { vec![cbt(&key)] }, "{printed}");
    }
}

/// 100,000 lines through one process, written while its keys are read: the first key comes
/// back long before the input ends (the run streams), and each key is the derived type's.
#[test]
fn a_hundred_thousand_lines_stream_to_the_derived_types_keys() {
    const LINES: usize = 100_000;
    let schema = schema_file::<Reading>();
    let mut runner = TestRunner::deterministic();
    let strategy = strategies::reading();
    let readings: Vec<Reading> = (0..LINES).map(|_| strategy.new_tree(&mut runner).unwrap().current()).collect();
    let input: Vec<u8> =
        readings.iter().enumerate().flat_map(|(i, r)| (reading_line(r, i % 2 == 1) + "\n").into_bytes()).collect();

    let mut child = Process::new(assert_cmd::cargo::cargo_bin("rowkey"))
        .args(["encode", "--to", "hex", "--schema"])
        .arg(&schema)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let written = Arc::new(AtomicBool::new(false));
    let writer = {
        let mut stdin = child.stdin.take().unwrap();
        let written = Arc::clone(&written);
        std::thread::spawn(move || {
            stdin.write_all(&input).unwrap();
            drop(stdin);
            written.store(true, Ordering::SeqCst);
        })
    };
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    // The command holds its output until it is read, so that it cannot have read more than a
    // few pipe buffers of the 100,000 lines: unless it read them all before writing a key.
    assert!(!written.load(Ordering::SeqCst), "the first key came only after the whole input was written");
    let mut printed: Vec<String> = vec![first.trim_end().to_owned()];
    printed.extend(stdout.lines().map(Result::unwrap));
    writer.join().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(printed.len(), LINES);
    for (reading, line) in readings.iter().zip(&printed) {
        assert_eq!(*line, hex(&reading.to_key().unwrap()), "{reading:?}");
    }
}

/// `rowkey inspect --json` of keys, each line's `fields` (the prefix, the bucket, every field
/// as text) given to `rowkey encode` a line each: the same keys, in the same order.
fn inspect_then_encode<T: KeySchema>(keys: &[Key], reveal: &[&str]) -> Vec<serde_json::Value> {
    let schema = schema_file::<T>();
    let schema = schema.to_str().unwrap();
    let input: String = keys.iter().map(|key| hex(key) + "\n").collect();
    let inspected = rowkey()
        .args([&["inspect", "--json", "--from", "hex", "--schema", schema], reveal].concat())
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(inspected.status.success(), "{}", String::from_utf8_lossy(&inspected.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(inspected.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), keys.len());
    // serde_json's `Map` keeps no order: the fields go as the object was printed, any order.
    let fields: String = lines.iter().map(|line| line["fields"].to_string() + "\n").collect();
    let (out, err, status) = run(&[&["encode", "--to", "hex", "--schema", schema], reveal].concat(), &fields);
    assert_eq!(status, Some(0), "{err}");
    let want: Vec<String> = keys.iter().map(hex).collect();
    assert_eq!(out, want);
    lines
}

#[test]
fn what_inspect_json_prints_of_every_field_type_encodes_to_the_same_keys() {
    let sample = |strategy: &dyn Fn(&mut TestRunner) -> Key| {
        let mut runner = TestRunner::deterministic();
        (0..500).map(|_| strategy(&mut runner)).collect::<Vec<Key>>()
    };
    let ordered = sample(&|runner| edge_key().new_tree(runner).unwrap().current().to_key().unwrap());
    let delimited = sample(&|runner| edge_text_key().new_tree(runner).unwrap().current().to_key().unwrap());
    let edge = inspect_then_encode::<EdgeKey>(&ordered, &[]);
    for lines in [&edge, &inspect_then_encode::<EdgeText>(&delimited, &[])] {
        // The computed fields went through the round trip too.
        assert!(
            lines.iter().all(|line| line["fields"].get("prefix").is_some() && line["fields"].get("bucket").is_some())
        );
    }
    // Every NaN form and the infinities in them.
    let floats: Vec<String> = edge.iter().map(|line| line["fields"]["float64"].as_str().unwrap().to_owned()).collect();
    for form in ["NaN", "-NaN", "NaN:0x", "inf", "-inf"] {
        assert!(floats.iter().any(|text| text.starts_with(form)), "no float64 of the form {form} in {floats:?}");
    }

    // Sensitive fields, revealed on both sides.
    let logins: Vec<Key> = (0..200u32)
        .map(|n| LoginText { tenant: n, email: format!("{MARKER}.{n}@example.com"), at: n * 7, pin: n as u16 })
        .map(|login| login.to_key().unwrap())
        .collect();
    inspect_then_encode::<LoginText>(&logins, &["--reveal"]);

    // The computed fields are checked, not just passed over: a wrong prefix or bucket fails.
    let lines = inspect_then_encode::<EdgeText>(&delimited[..1], &[]);
    for (field, wrong) in [("prefix", "egde"), ("bucket", "100")] {
        let mut fields = lines[0]["fields"].clone();
        fields[field] = wrong.into();
        let schema = schema_file::<EdgeText>();
        let (out, err, status) = run(&["encode", "--schema", schema.to_str().unwrap()], &(fields.to_string() + "\n"));
        assert!(out.is_empty(), "{field}");
        assert_eq!(status, Some(1), "{field}: {err}");
        assert!(err.starts_with("rowkey: line 1: ") && err.contains(field), "{err}");
    }
}

/// The README's batch example prints what the README shows under it.
#[test]
fn the_readmes_batch_example_prints_what_it_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme.split("\n## From a shell").nth(1).unwrap().split("\n## ").next().unwrap();
    let lines: Vec<&str> = section.lines().collect();
    let at = lines
        .iter()
        .position(|line| line.starts_with("printf ") && line.contains("| rowkey encode "))
        .expect("a `printf ... | rowkey encode` example in the README's From a shell section");
    let shown: Vec<&str> = lines[at + 1..].iter().map_while(|line| line.strip_prefix("# ")).collect();
    assert!(!shown.is_empty(), "no output shown under {}", lines[at]);
    let bin = assert_cmd::cargo::cargo_bin("rowkey");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let output = Process::new("sh").arg("-c").arg(lines[at]).current_dir(&root).env("PATH", path).output().unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().collect::<Vec<_>>(), shown, "{}", lines[at]);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
}
