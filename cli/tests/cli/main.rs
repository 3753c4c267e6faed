//! The built `rowkey` binary on the scenario keys' schema files: `inspect` prints what the
//! type's schema prints for generated keys and `encode` gives `to_key`'s bytes back, `scan` the
//! scan builder's ranges, `splits` the planner's points, and bad input one line and a non-zero
//! status, never a panic.

mod command;
#[path = "../../../tests/common/mod.rs"]
mod common;
mod inspect;
mod migrate;
mod scan;
mod scan_dynamodb;
mod splits;

use std::path::PathBuf;

use assert_cmd::Command;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rowkey::schema::KeySchema;

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
