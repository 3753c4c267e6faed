//! The schema path (`Schema::encode` from text, `Schema::encode_values` from values) reports
//! the fault the derived type reports: the first in key order, in the same words, at the same
//! field and byte, in every built-in format, for values wrong in any number of fields. A user
//! comparing `rowkey encode` or the Python package with the service sees one answer.
//!
//! Cases per property: 256, or `PROPTEST_CASES`.

mod common;

use common::faults::{
    FaultHBase, FaultMc, FaultOrdered, FaultText, FaultTuple, channel, host_or_not, reversible, text_with,
};
use proptest::prelude::*;
use rowkey::schema::{KeySchema, Value};
use rowkey::{RowKey, RowKeyOwned};

/// One field's value, as the text `encode` takes and as a schema value.
enum Given {
    Text(String),
    Int(i128),
}

impl Given {
    fn text(&self) -> String {
        match self {
            // Quoted with Rust's escapes, so that U+0000 and spaces reach the field as they are.
            Given::Text(s) => format!("{s:?}"),
            Given::Int(v) => v.to_string(),
        }
    }

    fn value(&self) -> Value {
        match self {
            Given::Text(s) => Value::Str(s.clone()),
            Given::Int(v) => Value::Int(*v),
        }
    }
}

/// The derived type's answer against the schema's two paths, on the same values.
fn same_answer<T: RowKeyOwned + KeySchema + std::fmt::Debug>(value: &T, fields: &[Given]) -> Result<(), TestCaseError> {
    let typed = value.to_key().map_err(|e| e.to_string());
    let names: Vec<&str> = T::SCHEMA.fields.iter().map(|f| f.name).collect();
    let texts: Vec<String> = fields.iter().map(Given::text).collect();
    let pairs: Vec<(&str, &str)> = names.iter().zip(&texts).map(|(n, t)| (*n, t.as_str())).collect();
    let from_text = T::SCHEMA.encode(&pairs).map_err(|e| e.to_string());
    prop_assert_eq!(&from_text, &typed, "Schema::encode of {:?}", value);
    let values: Vec<Value> = fields.iter().map(Given::value).collect();
    let from_values = T::SCHEMA.encode_values(&values).map_err(|e| e.to_string());
    prop_assert_eq!(&from_values, &typed, "Schema::encode_values of {:?}", value);
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    #[test]
    fn delimited(station in text_with("#"), channel in channel(), at in reversible(), host in host_or_not()) {
        let value = FaultText { station: station.clone(), channel, at, host: host.clone() };
        same_answer(&value, &[Given::Text(station), Given::Int(channel.into()), Given::Int(at.into()), Given::Text(host)])?;
    }

    #[test]
    fn ordered(name in text_with("\0"), at in reversible(), host in host_or_not(), seq in reversible()) {
        let value = FaultOrdered { name: name.clone(), at, host: host.clone(), seq };
        same_answer(&value, &[Given::Text(name), Given::Int(at.into()), Given::Text(host), Given::Int(seq.into())])?;
    }

    #[test]
    fn hbase(name in text_with("\0"), at in reversible(), host in host_or_not(), note in text_with("\0")) {
        let value = FaultHBase { name: name.clone(), at, host: host.clone(), note: note.clone() };
        same_answer(&value, &[Given::Text(name), Given::Int(at.into()), Given::Text(host), Given::Text(note)])?;
    }

    #[test]
    fn fdb_tuple(name in text_with("\0"), at in reversible(), host in host_or_not(), seq in reversible()) {
        let value = FaultTuple { name: name.clone(), at, host: host.clone(), seq };
        same_answer(&value, &[Given::Text(name), Given::Int(at.into()), Given::Text(host), Given::Int(seq.into())])?;
    }

    #[test]
    fn memcomparable(name in text_with("\0"), at in reversible(), host in host_or_not(), seq in reversible()) {
        let value = FaultMc { name: name.clone(), at, host: host.clone(), seq };
        same_answer(&value, &[Given::Text(name), Given::Int(at.into()), Given::Text(host), Given::Int(seq.into())])?;
    }
}

/// The case the property was written for: a station holding the delimiter and a channel wider
/// than its width, the sensitive-free version of the command's report.
#[test]
fn the_station_is_reported_before_the_channel() {
    let value = FaultText { station: "a#b".into(), channel: 1_000_449, at: 0, host: "example.org".into() };
    let typed = value.to_key().unwrap_err().to_string();
    assert!(typed.contains("`station`"), "{typed}");
    let schema = FaultText::SCHEMA
        .encode(&[("station", "a#b"), ("channel", "1000449"), ("at", "0"), ("host", "example.org")])
        .unwrap_err()
        .to_string();
    assert_eq!(schema, typed);
}

/// A value beyond its field's Rust type, which the Bigtable formats find by reading the key
/// back, is reported before a later field's fault, from text and from values.
#[test]
fn a_value_beyond_its_type_comes_before_a_later_fault() {
    use common::faults::{NarrowOrdered, NarrowText};

    let cases = [
        (NarrowText::SCHEMA, [("n", "70000"), ("station", "a#b")], [Value::Int(70_000), Value::Str("a#b".into())]),
        (NarrowOrdered::SCHEMA, [("n", "70000"), ("at", "-1")], [Value::Int(70_000), Value::Int(-1)]),
    ];
    for (schema, texts, values) in cases {
        for err in [schema.encode(&texts).unwrap_err(), schema.encode_values(&values).unwrap_err()] {
            assert_eq!(err.location().name(), Some("n"), "{}: {err}", schema.type_name);
            assert!(err.to_string().contains("70000"), "{}: {err}", schema.type_name);
        }
    }
}
