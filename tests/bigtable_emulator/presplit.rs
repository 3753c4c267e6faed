//! A table created with initial splits from the split planner: the salted scenario's rows
//! written and read across every split point come back exactly.

use rowkey::RowKey;
use rowkey::bigtable::Table;
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;

use crate::FAMILY;
use crate::emulator::Emulator;
use crate::scenarios::{self, Summary};

/// The key design of `scenarios::salted_delimited`, as a derived type, for its schema.
#[derive(RowKey)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
#[allow(dead_code)] // only its schema is used
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
