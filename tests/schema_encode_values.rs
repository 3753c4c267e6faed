//! `Schema::encode_values`: the values `inspect` reads from a key encode back to it, and
//! values changed field by field give exactly what `Schema::encode` gives for their text,
//! key or error, in every format's fixtures (salted, prefixed, transformed, flattened,
//! optional, sensitive).

mod common;

use common::keys::EveryText;
use common::pii::{LoginText, MARKER};
use common::schema_checks::assert_same_fields;
use common::stores::FdbReading;
use common::strategies::{
    device_reading, every_field, every_text, fdb_reading, hbase_visit, mc_every, mc_reading, web_page,
};

use proptest::prelude::*;
use rowkey::schema::{KeyField, KeyPlan, KeySchema, Schema, Value};
use rowkey::{RowKey, RowKeyOwned};

/// The key's values (not its prefix or bucket) and their text, as `inspect` reads them.
fn values_of(schema: &Schema, key: &[u8]) -> Vec<(KeyField, Value, String)> {
    let inspection = schema.inspect(key).unwrap();
    // The plan reads what the interpreter reads.
    assert_same_fields(&KeyPlan::new(schema).inspect(key).unwrap(), &inspection);
    inspection
        .fields()
        .iter()
        .filter(|f| matches!(f.key_field(), KeyField::Value(_)))
        .map(|f| (f.key_field(), f.value().clone(), f.value_text()))
        .collect()
}

fn both(schema: &Schema, given: &[(KeyField, Value, String)]) -> (Result<Vec<u8>, String>, Result<Vec<u8>, String>) {
    let values: Vec<Value> = given.iter().map(|(_, v, _)| v.clone()).collect();
    let pairs: Vec<(&str, &str)> = given.iter().map(|(f, _, t)| (f.name(), t.as_str())).collect();
    let by_value = schema.encode_values(&values).map(|k| k.to_vec()).map_err(|e| e.to_string());
    let by_text = schema.encode(&pairs).map(|k| k.to_vec()).map_err(|e| e.to_string());
    // The compiled plan gives the interpreter's answer, key or error.
    let planned = KeyPlan::new(schema).encode_values(&values).map(|k| k.to_vec()).map_err(|e| e.to_string());
    assert_eq!(planned, by_value, "{values:?}");
    let planned = KeyPlan::new(schema).encode(&pairs).map(|k| k.to_vec()).map_err(|e| e.to_string());
    assert_eq!(planned, by_text, "{pairs:?}");
    (by_value, by_text)
}

/// Integers at and beyond the edges of every integer type, for a field `a` holds `v` in.
fn nudged(v: i128) -> Vec<i128> {
    let mut out = vec![v + 1, v - 1, -1, 128, -129, 256, 65_536, -32_769, 1 << 32, -(1 << 31) - 1];
    out.extend([i128::from(i64::MIN) - 1, i128::from(u64::MAX) + 1, i128::from(i64::MAX) + 1, i128::from(u64::MAX)]);
    out
}

/// `a`'s key from its values, then each field given `b`'s value or an integer at an edge.
fn agrees<T: RowKeyOwned + KeySchema>(a: &T, b: &T) -> Result<(), TestCaseError> {
    let schema = &T::SCHEMA;
    let key = a.to_key().unwrap();
    let va = values_of(schema, &key);
    let (by_value, by_text) = both(schema, &va);
    prop_assert_eq!(&by_value, &Ok(key.to_vec()));
    prop_assert_eq!(&by_text, &Ok(key.to_vec()));
    let vb = values_of(schema, &b.to_key().unwrap());
    for i in 0..va.len() {
        let mut changes = vec![(vb[i].1.clone(), vb[i].2.clone())];
        let hex = matches!(va[i].0, KeyField::Value(f) if matches!(f.encoding, rowkey::schema::Encoding::Hex { .. }));
        if let (Value::Int(v), false) = (&va[i].1, hex) {
            changes.extend(nudged(*v).into_iter().map(|n| (Value::Int(n), n.to_string())));
        }
        for (value, text) in changes {
            let mut given = va.clone();
            given[i].1 = value;
            given[i].2 = text;
            let (by_value, by_text) = both(schema, &given);
            prop_assert_eq!(by_value, by_text, "{} = {}", va[i].0.name(), given[i].2);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_field_type(a in every_field(), b in every_field()) { agrees(&a, &b)?; }

    #[test]
    fn every_text_type(a in every_text(), b in every_text()) { agrees(&a, &b)?; }

    #[test]
    fn salted_and_reversed(a in device_reading(), b in device_reading()) { agrees(&a, &b)?; }

    #[test]
    fn reversed_domain(a in web_page(), b in web_page()) { agrees(&a, &b)?; }

    #[test]
    fn fdb_tuples(a in fdb_reading(), b in fdb_reading()) { agrees(&a, &b)?; }

    #[test]
    fn memcomparable_every_type(a in mc_every(), b in mc_every()) { agrees(&a, &b)?; }

    #[test]
    fn memcomparable_flattened(a in mc_reading(), b in mc_reading()) { agrees(&a, &b)?; }

    #[test]
    fn hbase(a in hbase_visit(), b in hbase_visit()) { agrees(&a, &b)?; }

    #[test]
    fn sensitive(tenant in any::<u32>(), at in any::<u32>(), pin in any::<u16>(), other in any::<u16>()) {
        let a = LoginText { tenant, email: MARKER.into(), at, pin };
        let b = LoginText { tenant: tenant / 2, email: format!("{MARKER}-b"), at: at / 2, pin: other };
        agrees(&a, &b)?;
    }
}

#[test]
fn a_sensitive_value_out_of_range_stays_out_of_the_error() {
    let values = [Value::Int(1), Value::Str(MARKER.into()), Value::Int(2), Value::Int(654_321)];
    let err = LoginText::SCHEMA.encode_values(&values).unwrap_err().to_string();
    assert!(err.contains("`pin`") && !err.contains("654321") && !err.contains(MARKER), "{err}");
}

#[test]
fn the_count_of_values_and_a_none_of_no_option_are_refused() {
    let err = FdbReading::SCHEMA.encode_values(&[Value::Str("a".into())]).unwrap_err().to_string();
    assert!(err.contains("takes 6 values in key order (device, at, tag, ok, seq, data), not 1"), "{err}");
    let a = FdbReading { device: "d".into(), at: 1, tag: None, ok: true, seq: 2, data: vec![3] };
    let key = a.to_key().unwrap();
    let mut values: Vec<Value> = values_of(&FdbReading::SCHEMA, &key).into_iter().map(|(_, v, _)| v).collect();
    values[0] = Value::Null;
    let err = FdbReading::SCHEMA.encode_values(&values).unwrap_err().to_string();
    assert!(err.contains("`device` is not optional"), "{err}");
}

/// A reversed instant or date before 1970 has no `MAX - v` its reader takes back: the schema
/// path refuses it in the words the type uses (it wrote a key that did not read back, and said
/// so as a puzzle about digits).
#[test]
fn a_reversed_instant_or_date_before_1970_is_refused_as_the_type_refuses_it() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut value = every_text().new_tree(&mut runner).unwrap().current();
    let key = value.to_key().unwrap();
    let names: Vec<&str> = values_of(&EveryText::SCHEMA, &key).iter().map(|(f, _, _)| f.name()).collect();
    for (field, before) in [("newest", Value::Timestamp(-1)), ("due", Value::Date(-1))] {
        let mut values: Vec<Value> = values_of(&EveryText::SCHEMA, &key).into_iter().map(|(_, v, _)| v).collect();
        values[names.iter().position(|n| *n == field).unwrap()] = before;
        for err in [
            EveryText::SCHEMA.encode_values(&values).unwrap_err().to_string(),
            KeyPlan::new(&EveryText::SCHEMA).encode_values(&values).unwrap_err().to_string(),
        ] {
            assert!(err.contains(&format!("`{field}`")) && err.contains("which needs 1970 or later"), "{err}");
        }
    }
    value.newest = jiff::Timestamp::from_microsecond(-1).unwrap();
    let typed = value.to_key().unwrap_err().to_string();
    assert!(typed.contains("which needs 1970 or later"), "{typed}");
}
