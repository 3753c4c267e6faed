//! Every value `Schema::inspect` prints, `Schema::encode` reads back to the same key: for a
//! field of every type in both formats, over values at each type's edges (NaNs with their sign
//! and payload, `-0.0`, every integer width's extremes, the ends of each time type's range,
//! nil and max ids, text a shell or JSON would escape), by the type's own schema and by its
//! schema file read back, as the `rowkey` command reads it.

mod common;

use common::edges::{edge_key, edge_text_key};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rowkey::RowKeyOwned;
use rowkey::schema::{KeySchema, Schema};

/// Generated keys per format: 256, or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
}

/// `encode` of the texts `inspect` gives for each field of `value`'s key, by `T::SCHEMA` and
/// by `file` (the schema read back from `T::SCHEMA.to_json()`), is the key.
fn round_trip<T: RowKeyOwned + KeySchema + std::fmt::Debug>(value: &T, file: &Schema) -> Result<(), TestCaseError> {
    let key = value.to_key().map_err(|e| TestCaseError::fail(format!("to_key({value:?}): {e}")))?;
    for schema in [&T::SCHEMA, file] {
        let inspection = schema.inspect(&key).map_err(|e| TestCaseError::fail(format!("inspect {key}: {e}")))?;
        let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
        let pairs: Vec<(&str, &str)> = texts.iter().map(|(name, text)| (*name, text.as_str())).collect();
        prop_assert_eq!(schema.encode(&pairs).map_err(|e| e.to_string()), Ok(key.clone()), "{}", inspection);
    }
    Ok(())
}

fn check<T, S>(strategy: S)
where
    T: RowKeyOwned + KeySchema + std::fmt::Debug,
    S: Strategy<Value = T>,
{
    let file = Schema::from_json(&T::SCHEMA.to_json()).unwrap();
    let mut runner = TestRunner::new(Config { cases: cases(), failure_persistence: None, ..Config::default() });
    runner.run(&strategy, |value| round_trip(&value, file)).unwrap_or_else(|e| panic!("{}: {e}", T::SCHEMA.type_name));
}

#[test]
fn every_ordered_field_type_encodes_back_from_what_inspect_prints() {
    check(edge_key());
}

#[test]
fn every_delimited_field_type_encodes_back_from_what_inspect_prints() {
    check(edge_text_key());
}
