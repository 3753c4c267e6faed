//! A table created with initial splits from the split planner: the salted scenario's rows
//! written and read across every split point come back exactly. And `cbt read` of a few of
//! its keys, which the `rowkey` command's tests read (`cli/tests/data/cbt_read.txt`).

use rowkey::RowKey;
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::{Table, set_cell};

use crate::FAMILY;
use crate::emulator::Emulator;
use crate::scenarios::{self, Summary};

/// The key design of `scenarios::salted_delimited`, as a derived type, for its schema.
#[derive(RowKey)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct TextReading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

pub async fn salted_presplit(emulator: &Emulator, connection: &BigTableConnection) -> Summary {
    let splits = TextReading::SCHEMA.split_planner().plan().expect("the bucket boundaries");
    let bounds: Vec<String> = splits.points().iter().map(ToString::to_string).collect();
    let want: Vec<String> = (1..16).map(|bucket| format!("{bucket:02}#")).collect();
    assert_eq!(bounds, want, "15 splits at the bucket boundaries");
    let argument = splits.to_cbt_arg().expect("printable splits");
    emulator.create_table_with("salted_presplit", FAMILY, &[&argument]);
    scenarios::salted_delimited(&Table::new(connection.client(), "salted_presplit")).await
}

/// What `cbt read` prints for three readings, as the `rowkey` command's tests have it.
const CBT_READ: &str = include_str!("../../cli/tests/data/cbt_read.txt");

/// Writes three readings and checks that `cbt read` prints them as the command's fixture
/// says; with `ROWKEY_UPDATE_FIXTURES=1` it rewrites the fixture instead.
pub async fn cbt_read_fixture(emulator: &Emulator, connection: &BigTableConnection) {
    emulator.create_table("cbt_read", FAMILY);
    let table = Table::new(connection.client(), "cbt_read");
    let readings = [
        ("phone", "4c410523", 1_588_291_200_000i64),
        ("meter", "0aa1b2c3", 1_588_291_260_000),
        ("phone", "ffe01d9a", 0),
    ];
    let rows = readings.map(|(device_type, device_id, ts_millis)| {
        let reading = TextReading { device_type: device_type.into(), device_id: device_id.into(), ts_millis };
        (reading.to_key().expect("a key"), vec![set_cell(FAMILY, "celsius", "21.5", ts_millis * 1000)])
    });
    table.write_rows(rows).await.expect("MutateRows");
    let printed = emulator.cbt(&["read", "cbt_read"]);
    if std::env::var_os("ROWKEY_UPDATE_FIXTURES").is_some() {
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/cli/tests/data/cbt_read.txt"), &printed)
            .expect("the fixture");
        return;
    }
    assert_eq!(
        printed, CBT_READ,
        "cbt read prints differently: rerun with ROWKEY_UPDATE_FIXTURES=1 and check the CLI tests"
    );
}
