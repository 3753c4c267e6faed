//! What every subcommand shares: one line naming the fix for bad input, help with an example,
//! the version, and the README's shell examples printing what the README shows.

use std::path::PathBuf;

use crate::common::keys::{Reading, TenantReading};
use crate::{rowkey, schema_file};

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

#[test]
fn version_prints_the_crates_version() {
    rowkey().arg("--version").assert().success().stdout(format!("rowkey {}\n", env!("CARGO_PKG_VERSION")));
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
