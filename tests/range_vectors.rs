//! Checks `rowkey::prefix_successor` and `KeyRange::prefix` against every row of
//! `prefix_successor.tsv` (copied whole into tests/data/): the Go and Java Bigtable clients'
//! and HBase's end keys.

use std::ops::Bound;

use rowkey::{KeyRange, prefix_successor};

mod common;
use common::{data, hex, rows, to_hex};

/// Data rows in the file, so that a row lost in copying fails the test.
const ROWS: usize = 12;

#[test]
fn prefix_successor_matches_bigtable_and_hbase() {
    let rows = rows(&data("prefix_successor.tsv"));
    assert_eq!(rows.len(), ROWS, "row count of prefix_successor.tsv");
    for (row, fields) in &rows {
        assert_eq!(fields.len(), 4, "expected 4 fields: {row}");
        let prefix = match fields[0].as_str() {
            "(empty)" => Vec::new(),
            h => hex(h),
        };
        let expected = match fields[1].as_str() {
            "UNBOUNDED" => None,
            h => Some(hex(h)),
        };

        let got = prefix_successor(&prefix).map(rowkey::Key::into_vec);
        assert_eq!(got.as_deref().map(to_hex), expected.as_deref().map(to_hex), "prefix_successor, row: {row}");

        let range = KeyRange::prefix(&prefix);
        assert_eq!(range.start_key_closed(), Some(prefix.as_slice()), "start, row: {row}");
        assert_eq!(range.end_key_open(), expected.as_deref(), "end, row: {row}");
        assert!(range.contains(&prefix), "contains the prefix, row: {row}");
        match &expected {
            Some(end) => assert!(!range.contains(end), "contains its end, row: {row}"),
            None => assert_eq!(range.end(), Bound::Unbounded, "end, row: {row}"),
        }
    }
}
