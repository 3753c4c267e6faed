//! `KeyPlan::inspect` on keys of only the field types the plan reads as themselves, in every
//! built-in format: the interpreter's fields for every key (prefixes of `ff` bytes, salts,
//! descending fields, delimited `reverse` integers of every width, NaN, `-0.0`, nil and max
//! UUIDs), and the interpreter's error, at the field and byte where `from_key` fails, for every
//! mutation of one.

mod common;

use common::planned::{
    Countdown, FdbGauge, HBaseGauge, McGauge, OrderedGauge, countdown, fdb_gauge, hbase_gauge, mc_gauge, ordered_gauge,
};
use common::schema_checks::{agrees_with_from_key, assert_same_fields, mutations};

use proptest::prelude::*;
use rowkey::schema::{KeyField, KeyPlan, KeySchema, Value};
use rowkey::{RowKey, RowKeyOwned};

/// The plan reads `value`'s key as the interpreter does, and the values it reads encode back
/// to the key through the plan.
fn reads_back<T: RowKeyOwned + KeySchema + std::fmt::Debug>(value: &T) -> Result<(), TestCaseError> {
    let key = value.to_key().unwrap();
    let plan = KeyPlan::new(&T::SCHEMA);
    let read = plan.inspect(&key).unwrap();
    assert_same_fields(&read, &T::SCHEMA.inspect(&key).unwrap());
    let values: Vec<Value> = read
        .fields()
        .iter()
        .filter(|f| matches!(f.key_field(), KeyField::Value(_)))
        .map(|f| f.value().clone())
        .collect();
    prop_assert_eq!(plan.encode_values(&values).unwrap(), key);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_plan_reads_what_the_interpreter_reads(
        a in countdown(), b in ordered_gauge(), c in fdb_gauge(), d in mc_gauge(), e in hbase_gauge(),
    ) {
        reads_back(&a)?;
        reads_back(&b)?;
        reads_back(&c)?;
        reads_back(&d)?;
        reads_back(&e)?;
    }

    #[test]
    fn the_plan_fails_where_the_interpreter_fails(
        a in countdown().prop_flat_map(|v| mutations(v.to_key().unwrap().into_vec())),
        b in ordered_gauge().prop_flat_map(|v| mutations(v.to_key().unwrap().into_vec())),
        c in fdb_gauge().prop_flat_map(|v| mutations(v.to_key().unwrap().into_vec())),
        d in mc_gauge().prop_flat_map(|v| mutations(v.to_key().unwrap().into_vec())),
        e in hbase_gauge().prop_flat_map(|v| mutations(v.to_key().unwrap().into_vec())),
    ) {
        agrees_with_from_key::<Countdown>(&Countdown::SCHEMA, &a);
        agrees_with_from_key::<OrderedGauge>(&OrderedGauge::SCHEMA, &b);
        agrees_with_from_key::<FdbGauge>(&FdbGauge::SCHEMA, &c);
        agrees_with_from_key::<McGauge>(&McGauge::SCHEMA, &d);
        agrees_with_from_key::<HBaseGauge>(&HBaseGauge::SCHEMA, &e);
    }
}
