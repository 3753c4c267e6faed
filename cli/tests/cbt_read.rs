//! `rowkey inspect` on what `cbt read` printed for three quickstart readings in the Bigtable
//! emulator (`data/cbt_read.txt`, captured and kept current by the emulator test
//! `tests/bigtable_emulator/presplit.rs`).

#[path = "../../tests/common/mod.rs"]
mod common;

use assert_cmd::Command;
use common::keys::Reading;

#[test]
fn inspect_reads_the_keys_of_captured_cbt_read_output() {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-cbt-read-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("reading.json");
    std::fs::write(&schema, Reading::SCHEMA.to_json()).unwrap();

    let captured = include_str!("data/cbt_read.txt");
    let output = Command::cargo_bin("rowkey")
        .unwrap()
        .args(["inspect", "--schema"])
        .arg(&schema)
        .write_stdin(captured)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "bucket=1 device_type=phone device_id=4c410523 ts_millis=1588291200000 (reversed)\n\
         bucket=13 device_type=meter device_id=0aa1b2c3 ts_millis=1588291260000 (reversed)\n\
         bucket=15 device_type=phone device_id=ffe01d9a ts_millis=0 (reversed)\n"
    );
}

#[test]
fn inspect_reads_them_by_the_tables_bigtable_schema_too() {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-cbt-read-bt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The table as `gcloud bigtable tables describe --format=json` prints it: no salt, so the
    // bucket is read as the text it is, and the reversed time as the integer it stores.
    let options = rowkey::schema::ExportOptions::new().text_as_string();
    let table = format!(
        r#"{{"name": "projects/p/instances/i/tables/readings", "rowKeySchema": {}}}"#,
        Reading::SCHEMA.to_bigtable_json_with(&options).unwrap()
    );
    let schema = dir.join("readings.table.json");
    std::fs::write(&schema, table).unwrap();

    let output = Command::cargo_bin("rowkey")
        .unwrap()
        .args(["inspect", "--schema"])
        .arg(&schema)
        .write_stdin(include_str!("data/cbt_read.txt"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "bucket=01 device_type=phone device_id=4c410523 ts_millis=9223370448563575807\n\
         bucket=13 device_type=meter device_id=0aa1b2c3 ts_millis=9223370448563515807\n\
         bucket=15 device_type=phone device_id=ffe01d9a ts_millis=9223372036854775807\n"
    );
}
