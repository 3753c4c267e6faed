//! Bigtable's row key schema read back (`Schema::from_bigtable_json`): every scenario key
//! that Bigtable can describe, exported and read back, decodes generated keys field by field
//! as the type's own schema does (names in order; the values of the fields whose encoding
//! Bigtable names exactly; every field's text encoding back to the key), and the file forms
//! and types it cannot read are refused with the place in the file.

mod common;

use common::keys::*;
use common::strategies;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rowkey::schema::{Encoding, ExportOptions, KeyField, KeySchema, Schema, Transform};
use rowkey::{RowKey, RowKeyOwned};

/// Generated keys per scenario: 10,000, or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000)
}

/// What Bigtable can be told of every scenario key without a descending field: text as
/// `STRING`, the rest as `BYTES`.
fn options() -> ExportOptions {
    ExportOptions::new().text_as_string().bytes_for_unsupported()
}

/// Whether the imported field reads the same value as the type's: its encoding is one that
/// Bigtable names, and it is stored as it is.
fn same_value(field: &KeyField) -> bool {
    match field {
        KeyField::Value(f) => {
            f.transform == Transform::None
                && matches!(
                    f.encoding,
                    Encoding::Utf8
                        | Encoding::Bytes
                        | Encoding::Int64
                        | Encoding::BigEndianInt64
                        | Encoding::TimestampMicros
                )
        }
        KeyField::Prefix(_) | KeyField::Bucket(_) => false,
    }
}

fn check<T, S>(strategy: S)
where
    T: RowKeyOwned + std::fmt::Debug + KeySchema,
    S: Strategy<Value = T>,
{
    let json = T::SCHEMA.to_bigtable_json_with(&options()).unwrap();
    let read = Schema::from_bigtable_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(read.format, T::SCHEMA.format);
    let fields = T::SCHEMA.key_fields();
    let names: Vec<&str> = fields.iter().map(KeyField::name).collect();
    let read_names: Vec<&str> = read.key_fields().iter().map(KeyField::name).collect();
    assert_eq!(read_names, names, "{json}");
    let mut runner = TestRunner::new(Config { cases: cases(), failure_persistence: None, ..Config::default() });
    runner
        .run(&strategy, |value| {
            let key = value.to_key().unwrap();
            let by_type = T::SCHEMA.inspect(&key).unwrap();
            let by_bigtable = read.inspect(&key).map_err(|e| TestCaseError::fail(format!("{key}: {e}")))?;
            for (field, (theirs, ours)) in fields.iter().zip(by_bigtable.fields().iter().zip(by_type.fields())) {
                prop_assert_eq!(theirs.name(), ours.name());
                if same_value(field) {
                    prop_assert_eq!(theirs.value(), ours.value(), "{}", key);
                }
            }
            let texts: Vec<(&str, String)> = by_bigtable.fields().iter().map(|f| (f.name(), f.value_text())).collect();
            let pairs: Vec<(&str, &str)> = texts.iter().map(|(name, text)| (*name, text.as_str())).collect();
            prop_assert_eq!(read.encode(&pairs).map_err(|e| e.to_string()), Ok(key.clone()), "{}", by_bigtable);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{}: {e}", T::SCHEMA.type_name));
}

#[test]
fn reading() {
    check(strategies::reading());
}

#[test]
fn device_reading() {
    check(strategies::device_reading());
}

#[test]
fn tenant_reading() {
    check(strategies::tenant_reading());
}

#[test]
fn web_page_micros() {
    check(strategies::web_page_micros());
}

#[test]
fn monitor() {
    check(strategies::monitor());
}

#[test]
fn shard() {
    check(strategies::shard());
}

#[test]
fn shard_text() {
    check(strategies::shard_text());
}

#[test]
fn hex_reading() {
    check(strategies::hex_reading());
}

#[test]
fn scenarios_bigtable_cannot_describe_are_left_out() {
    for schema in [OrderedReading::SCHEMA, WebPage::SCHEMA, EveryField::SCHEMA, EventById::SCHEMA] {
        let err = schema.to_bigtable_json_with(&options()).unwrap_err();
        assert!(err.to_string().contains("descending"), "{}: {err}", schema.type_name);
    }
    // A flattened struct's prefix repeats the name of the key's own.
    let err = EveryText::SCHEMA.to_bigtable_json_with(&options()).unwrap_err();
    assert!(err.to_string().contains("`prefix`: two key fields have this name"), "{err}");
}

#[test]
fn a_whole_table_is_read_by_its_row_key_schema() {
    let table = format!(
        r#"{{ "name": "projects/p/instances/i/tables/readings", "granularity": "MILLIS",
             "rowKeySchema": {} }}"#,
        Reading::SCHEMA.to_bigtable_json_with(&options()).unwrap()
    );
    let read = Schema::from_bigtable_json(&table).unwrap();
    assert_eq!(read.type_name, "readings");
    let key = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 }
        .to_key()
        .unwrap();
    assert_eq!(
        read.inspect(&key).unwrap().to_string(),
        format!("bucket={} device_type=phone device_id=4c410523 ts_millis=9223370448563575807", &key.to_string()[..2])
    );
}

#[test]
fn a_bucket_field_is_given_and_scanned_like_any_field() {
    let read = Schema::from_bigtable_json(&Reading::SCHEMA.to_bigtable_json_with(&options()).unwrap()).unwrap();
    let key =
        read.encode(&[("bucket", "03"), ("device_type", "phone"), ("device_id", "x"), ("ts_millis", "7")]).unwrap();
    assert_eq!(key.to_string(), "03#phone#x#7");
    let ranges = read.scan_ranges(&[("bucket", "03"), ("device_type", "phone")], None).unwrap();
    assert_eq!(ranges.to_string(), "{[03#phone#, 03#phone$)}");
}

/// The error for a row key schema whose first field has the type `kind`.
fn type_error(encoding: &str, kind: &str) -> String {
    let json = format!(r#"{{ "encoding": {encoding}, "fields": [{{ "fieldName": "f", "type": {kind} }}] }}"#);
    Schema::from_bigtable_json(&json).unwrap_err().to_string()
}

#[test]
fn what_rowkey_cannot_read_is_refused_with_its_place() {
    let ordered = r#"{ "orderedCodeBytes": {} }"#;
    let delimited = r#"{ "delimitedBytes": { "delimiter": "Iw==" } }"#;
    let cases = [
        (type_error(ordered, r#"{ "float64Type": {} }"#), "fields[0] (`f`): float64Type is not a type rowkey reads"),
        (
            type_error(delimited, r#"{ "int64Type": { "encoding": { "orderedCodeBytes": {} } } }"#),
            "fields[0] (`f`): int64Type in a delimited key",
        ),
        (
            type_error(ordered, r#"{ "stringType": { "encoding": { "utf8Bytes": { "nullEscapeChar": "x" } } } }"#),
            "nullEscapeChar \"x\"",
        ),
        (
            type_error(
                ordered,
                r#"{ "timestampType": { "encoding": { "unixMicrosInt64": { "bigEndianBytes": {} } } } }"#,
            ),
            "unixMicrosInt64 bigEndianBytes is not one rowkey reads",
        ),
        (
            type_error(r#"{ "singleton": {} }"#, r#"{ "bytesType": { "encoding": { "raw": {} } } }"#),
            "encoding: singleton",
        ),
        (
            type_error(r#"{ "delimitedBytes": { "delimiter": "/w==" } }"#, r#"{ "bytesType": {} }"#),
            "\\xff is not UTF-8 text",
        ),
        (Schema::from_bigtable_json("{ not json").unwrap_err().to_string(), "not JSON"),
        (Schema::from_bigtable_json(r#"{ "fields": [] }"#).unwrap_err().to_string(), "encoding: missing"),
        (
            Schema::from_bigtable_json(r#"{ "encoding": { "orderedCodeBytes": {} }, "fields": [{ "type": {} }] }"#)
                .unwrap_err()
                .to_string(),
            "fields[0].fieldName: missing",
        ),
    ];
    for (err, expected) in cases {
        assert!(err.contains(expected), "{err:?} does not say {expected:?}");
    }
}

#[test]
fn optional_fields_read_back_as_optional() {
    let json = r#"{ "encoding": { "delimitedBytes": { "delimiter": "Iw==" } }, "fields": [
        { "fieldName": "a", "type": { "stringType": { "encoding": { "utf8Bytes": { "nullEscapeChar": "\u0000" } } } } },
        { "fieldName": "b", "type": { "bytesType": { "encoding": { "raw": { "escapeNulls": true } } } } } ] }"#;
    let read = Schema::from_bigtable_json(json).unwrap();
    assert!(read.fields.iter().all(|f| f.optional), "{:?}", read.fields);
    assert_eq!(read.inspect(b"#x").unwrap().to_string(), "a=null b=b\"x\"");
}
