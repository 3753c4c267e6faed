//! Generated keys of every field type, in every format's fixture schemas (salted, prefixed,
//! reversed, `desc`, optional, flattened, sensitive, hashed), for the Python package's agreement test
//! (`python/tests/test_agreement.py`, which `.ci/run` runs): the schema file, and for each key
//! its fields' values, tagged with their type so that Python builds native values from them,
//! and the key's bytes. Python must encode the same values to the same bytes and decode the
//! bytes back to the same values.
//!
//! The file, JSON lines, goes to `$ROWKEY_PYTHON_VECTORS` when it is set. Either way each key
//! is checked here first: `Schema::encode` of its fields' texts gives the key back, so that
//! the file holds only what the Rust side agrees with.

mod common;

use std::fmt::Write as _;
use std::io::Write as _;

use common::dynamo::{blob_version, meter_reading, order_line, sensor_event, tenant_invoice, tenant_order};
use common::edges::{edge_key, edge_text_key};
use common::pii::{Login, LoginText, account, account_text, wide};
use common::strategies::{every_field, every_text, fdb_reading, hbase_visit, mc_every, mc_reading, reading};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use rowkey::RowKeyOwned;
use rowkey::schema::{KeyField, KeySchema, Value};
use serde_json::json;

/// Keys per schema: 200, or `PROPTEST_CASES`.
fn cases() -> usize {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(200)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// A value as `{"type": payload}`, from which the Python test builds the native value.
fn tagged(value: &Value) -> serde_json::Value {
    match value {
        Value::Null => json!({ "null": null }),
        Value::Bool(b) => json!({ "bool": b }),
        // As text: JSON numbers lose integers beyond 2^53.
        Value::Int(n) => json!({ "int": n.to_string() }),
        Value::Float(x) => json!({ "float": format!("{:016x}", x.to_bits()) }),
        Value::Str(text) => json!({ "str": text }),
        Value::Bytes(bytes) => json!({ "bytes": hex(bytes) }),
        Value::Timestamp(micros) => json!({ "micros": micros.to_string() }),
        Value::TimestampNanos(nanos) => json!({ "nanos": nanos.to_string() }),
        Value::Date(days) => json!({ "days": days }),
        Value::Uuid(bytes) => json!({ "uuid": hex(bytes) }),
        Value::Ulid(_) => json!({ "ulid": value.to_string() }),
        Value::Ip(ip) => json!({ "ip": ip.to_string() }),
        other => panic!("no tag for {other:?}: add one here and in test_agreement.py"),
    }
}

/// The schema's line, then one line a generated key.
fn write_keys<T, S>(runner: &mut TestRunner, strategy: S, out: &mut Vec<String>)
where
    T: RowKeyOwned + KeySchema + std::fmt::Debug,
    S: Strategy<Value = T>,
{
    let schema = &T::SCHEMA;
    out.push(json!({ "schema": schema.type_name, "json": schema.to_json() }).to_string());
    for _ in 0..cases() {
        let value = strategy.new_tree(runner).expect("the strategies always produce a value").current();
        let key = value.to_key().unwrap_or_else(|e| panic!("to_key({value:?}): {e}"));
        let inspection = schema.inspect(&key).unwrap_or_else(|e| panic!("inspect {key}: {e}"));
        let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
        let pairs: Vec<(&str, &str)> = texts.iter().map(|(name, text)| (*name, text.as_str())).collect();
        assert_eq!(schema.encode(&pairs).map_err(|e| e.to_string()), Ok(key.clone()), "{}", inspection.revealed());
        let fields: Vec<serde_json::Value> = inspection
            .fields()
            .iter()
            .filter(|f| matches!(f.key_field(), KeyField::Value(_)))
            .map(|f| json!({ "name": f.name(), "value": tagged(f.value()), "text": f.value_text() }))
            .collect();
        out.push(json!({ "type": schema.type_name, "fields": fields, "key": hex(&key) }).to_string());
    }
}

#[test]
fn python_agreement_vectors() {
    let mut runner = TestRunner::new(Config { failure_persistence: None, ..Config::default() });
    let mut out = Vec::new();
    // Every field type at its edges, ordered and delimited.
    write_keys(&mut runner, edge_key(), &mut out);
    write_keys(&mut runner, edge_text_key(), &mut out);
    // Every type with every attribute, flattened structs with their own prefix and salt.
    write_keys(&mut runner, every_field(), &mut out);
    write_keys(&mut runner, every_text(), &mut out);
    write_keys(&mut runner, reading(), &mut out);
    // The store formats.
    write_keys(&mut runner, fdb_reading(), &mut out);
    write_keys(&mut runner, mc_reading(), &mut out);
    write_keys(&mut runner, mc_every(), &mut out);
    write_keys(&mut runner, hbase_visit(), &mut out);
    // Sensitive fields.
    let login =
        ("[ab]{0,2}", any::<String>(), any::<u32>()).prop_map(|(tenant, email, at)| Login { tenant, email, at });
    write_keys(&mut runner, login, &mut out);
    let login_text = (any::<u32>(), "[a-z@.]{1,12}", any::<u32>(), any::<u16>())
        .prop_map(|(tenant, email, at, pin)| LoginText { tenant, email, at, pin });
    write_keys(&mut runner, login_text, &mut out);
    // Keyed hashes: bytes in the ordered format, hex text in the delimited one.
    write_keys(&mut runner, account(), &mut out);
    write_keys(&mut runner, account_text(), &mut out);
    write_keys(&mut runner, wide(), &mut out);
    // DynamoDB designs: a sharded series, two entities of one table, binary sort keys.
    write_keys(&mut runner, meter_reading(), &mut out);
    write_keys(&mut runner, tenant_order(), &mut out);
    write_keys(&mut runner, tenant_invoice(), &mut out);
    write_keys(&mut runner, blob_version(), &mut out);
    write_keys(&mut runner, sensor_event(), &mut out);
    write_keys(&mut runner, order_line(), &mut out);
    if let Ok(path) = std::env::var("ROWKEY_PYTHON_VECTORS") {
        let mut file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("creating {path}: {e}"));
        for line in &out {
            writeln!(file, "{line}").unwrap_or_else(|e| panic!("writing {path}: {e}"));
        }
    }
}
