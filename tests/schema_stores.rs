//! The schema-driven operations on keys in the store formats (FoundationDB tuples,
//! memcomparable, HBase): `inspect` reads what `from_key` reads and fails where it fails,
//! `encode` of the inspected text gives the key back, `unsalted` strips the prefix and
//! bucket, and the schema's scans are the derived scan builder's.

mod common;

use common::schema_checks::{agrees_with_from_key, bounds, check, mutations, texts};
use common::stores::{FdbReading, HBaseVisit, McEvery, McReading};
use common::strategies::{fdb_reading, hbase_visit, mc_every, mc_reading};

use proptest::prelude::*;
use rowkey::salt::{Salt, SaltHash};
use rowkey::schema::{KeySchema, ScanNext, Value};
use rowkey::{Key, RowKey, RowKeyOwned};

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn opt(value: Option<Value>) -> Value {
    value.unwrap_or(Value::Null)
}

fn fdb_values(r: &FdbReading) -> Vec<(&'static str, Value)> {
    let bucket = Salt::new(8, SaltHash::FarmHash).unwrap().bucket(&(r.device.as_str(),)).unwrap();
    vec![
        ("prefix", s("\u{15}\u{02}")),
        ("bucket", Value::Int(bucket.into())),
        ("device", s(&r.device)),
        ("at", Value::Int(r.at.into())),
        ("tag", opt(r.tag.as_deref().map(s))),
        ("ok", Value::Bool(r.ok)),
        ("seq", Value::Int(r.seq.into())),
        ("data", Value::Bytes(r.data.clone())),
    ]
}

fn mc_values(r: &McReading) -> Vec<(&'static str, Value)> {
    vec![
        ("prefix", s("t7_")),
        ("region", s(&r.region)),
        ("score", Value::Int(r.score.into())),
        ("city", s(&r.place.city)),
        ("zone", opt(r.place.zone.map(|z| Value::Int(z.into())))),
        ("note", opt(r.note.as_deref().map(s))),
    ]
}

fn hbase_values(v: &HBaseVisit) -> Vec<(&'static str, Value)> {
    let bucket = Salt::new(16, SaltHash::Md5Hex).unwrap().bucket(&(v.host.as_str(),)).unwrap();
    vec![
        ("bucket", s(&format!("{bucket:x}"))),
        ("host", s(&v.host)),
        ("ts", Value::Int(v.ts.into())),
        ("amount", Value::Int(v.amount.into())),
        ("row", Value::Bytes(v.row.clone())),
    ]
}

/// `inspect` gives the struct's values; `encode` of its text, the key; `unsalted`, the key
/// after the prefix and bucket (the offset of the first field after them).
fn round_trip<T: RowKeyOwned + KeySchema>(
    value: &T,
    expected: Vec<(&'static str, Value)>,
) -> Result<(), TestCaseError> {
    let key: Key = value.to_key().unwrap();
    let inspection = T::SCHEMA.inspect(&key).unwrap_or_else(|e| panic!("{e}: {key:?}"));
    let got: Vec<_> = inspection.fields().iter().map(|f| (f.name(), f.value().clone())).collect();
    prop_assert_eq!(got, expected);
    let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
    let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
    prop_assert_eq!(T::SCHEMA.encode(&pairs).map_err(|e| e.to_string()), Ok(key.clone()), "{}", inspection);
    // The fields' own values alone give the key too: the prefix and bucket are computed.
    let own: Vec<(&str, &str)> = pairs.iter().copied().filter(|(n, _)| !["prefix", "bucket"].contains(n)).collect();
    prop_assert_eq!(T::SCHEMA.encode(&own).map_err(|e| e.to_string()), Ok(key.clone()));
    let first = inspection.fields().iter().find(|f| !["prefix", "bucket"].contains(&f.name())).unwrap().offset();
    let unsalted = T::SCHEMA.unsalted(&key).unwrap();
    let expected_rest = if T::SCHEMA.salt.is_some() { &key[first..] } else { &key[..] };
    prop_assert_eq!(unsalted, expected_rest);
    Ok(())
}

proptest! {
    #[test]
    fn fdb_keys_inspect_and_encode_back(r in fdb_reading()) {
        round_trip(&r, fdb_values(&r))?;
    }

    #[test]
    fn memcomparable_keys_inspect_and_encode_back(r in mc_reading()) {
        round_trip(&r, mc_values(&r))?;
    }

    #[test]
    fn hbase_keys_inspect_and_encode_back(v in hbase_visit()) {
        round_trip(&v, hbase_values(&v))?;
    }

    #[test]
    fn every_std_field_type_inspects_and_encodes_back(row in mc_every()) {
        let key: Key = row.to_key().unwrap();
        let inspection = McEvery::SCHEMA.inspect(&key).unwrap_or_else(|e| panic!("{e}: {key:?}"));
        let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
        let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
        prop_assert_eq!(McEvery::SCHEMA.encode(&pairs).map_err(|e| e.to_string()), Ok(key.clone()), "{}", inspection);
        prop_assert_eq!(inspection.value("wide"), Some(&Value::Int(row.wide)));
        prop_assert_eq!(inspection.value("version"), Some(&Value::Int(row.version.into())));
        prop_assert_eq!(inspection.value("seq"), Some(&Value::Int(row.seq.into())));
    }

    #[test]
    fn every_std_field_type_fails_where_from_key_fails(bytes in mc_every().prop_flat_map(|r| mutations(r.to_key().unwrap().into_vec()))) {
        agrees_with_from_key::<McEvery>(&McEvery::SCHEMA, &bytes);
    }

    #[test]
    fn inspect_fails_where_from_key_fails_in_every_store_format(
        fdb in fdb_reading().prop_flat_map(|r| mutations(r.to_key().unwrap().into_vec())),
        mc in mc_reading().prop_flat_map(|r| mutations(r.to_key().unwrap().into_vec())),
        hbase in hbase_visit().prop_flat_map(|v| mutations(v.to_key().unwrap().into_vec())),
    ) {
        agrees_with_from_key::<FdbReading>(&FdbReading::SCHEMA, &fdb);
        agrees_with_from_key::<McReading>(&McReading::SCHEMA, &mc);
        agrees_with_from_key::<HBaseVisit>(&HBaseVisit::SCHEMA, &hbase);
    }

    #[test]
    fn fdb_schema_scans_are_the_builders(a in fdb_reading(), b in fdb_reading(), kind in 0u8..9) {
        let schema = &FdbReading::SCHEMA;
        let (ta, tb) = (texts(&a), texts(&b));
        let (at_lo, at_hi) = bounds(kind, a.at, b.at);
        check(schema, &ta, &[], None, FdbReading::scan().ranges())?;
        check(schema, &ta, &["device"], None, FdbReading::scan().device(&a.device).ranges())?;
        check(schema, &ta, &["device"], Some(("at", &tb, kind)),
            FdbReading::scan().device(&a.device).at_range((at_lo, at_hi)).ranges())?;
        // `seq` is reversed: its later bound starts the keys.
        let (seq_lo, seq_hi) = bounds(kind, a.seq, b.seq);
        check(schema, &ta, &["device", "at", "tag", "ok"], Some(("seq", &tb, kind)),
            FdbReading::scan().device(&a.device).at(a.at).tag(a.tag.clone()).ok(a.ok).seq_range((seq_lo, seq_hi)).ranges())?;
        check(schema, &ta, &["device", "at", "tag", "ok", "seq", "data"], None,
            FdbReading::scan().device(&a.device).at(a.at).tag(a.tag.clone()).ok(a.ok).seq(a.seq).data(&a.data).ranges())?;
        let prefix = ScanNext::StartsWith(&a.device);
        prop_assert_eq!(schema.scan_query(&[], Some(("device", prefix))).unwrap(),
            FdbReading::scan().device_starts_with(&a.device).ranges().unwrap());
    }

    #[test]
    fn memcomparable_schema_scans_are_the_builders(a in mc_reading(), b in mc_reading(), kind in 0u8..9) {
        let schema = &McReading::SCHEMA;
        let (ta, tb) = (texts(&a), texts(&b));
        check(schema, &ta, &["region"], None, McReading::scan().region(&a.region).ranges())?;
        // `score` is descending: its later bound starts the keys.
        let (lo, hi) = bounds(kind, a.score, b.score);
        check(schema, &ta, &["region"], Some(("score", &tb, kind)),
            McReading::scan().region(&a.region).score_range((lo, hi)).ranges())?;
        check(schema, &ta, &["region", "score"], None, McReading::scan().region(&a.region).score(a.score).ranges())?;
        let prefix = ScanNext::StartsWith(&a.region);
        prop_assert_eq!(schema.scan_query(&[], Some(("region", prefix))).unwrap(),
            McReading::scan().region_starts_with(&a.region).ranges().unwrap());
    }

    #[test]
    fn hbase_schema_scans_are_the_builders(a in hbase_visit(), b in hbase_visit(), kind in 0u8..9) {
        let schema = &HBaseVisit::SCHEMA;
        let (ta, tb) = (texts(&a), texts(&b));
        check(schema, &ta, &[], None, HBaseVisit::scan().ranges())?;
        check(schema, &ta, &["host"], None, HBaseVisit::scan().host(&a.host).ranges())?;
        let (lo, hi) = bounds(kind, a.ts, b.ts);
        check(schema, &ta, &["host"], Some(("ts", &tb, kind)),
            HBaseVisit::scan().host(&a.host).ts_range((lo, hi)).ranges())?;
        let (lo, hi) = bounds(kind, a.amount, b.amount);
        check(schema, &ta, &["host", "ts"], Some(("amount", &tb, kind)),
            HBaseVisit::scan().host(&a.host).ts(a.ts).amount_range((lo, hi)).ranges())?;
        // The last field, a byte string written as it is (BlobCopy).
        let (lo, hi) = bounds(kind, a.row.as_slice(), b.row.as_slice());
        check(schema, &ta, &["host", "ts", "amount"], Some(("row", &tb, kind)),
            HBaseVisit::scan().host(&a.host).ts(a.ts).amount(a.amount).row_range((lo, hi)).ranges())?;
    }
}

/// A key type whose field the schema cannot see into.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Code(u32);

impl rowkey::field::FieldType for Code {}

impl<F: rowkey::field::Ints<u32>> rowkey::field::WriteField<F> for Code {
    fn write<S: rowkey::field::Sink>(&self, out: &mut S) -> rowkey::Result<()> {
        F::write_int(self.0, out)
    }
}

impl<'de, F: rowkey::field::Ints<u32>> rowkey::field::ReadField<'de, F> for Code {
    fn read(input: F::Input<'_, 'de>) -> rowkey::Result<Self> {
        F::read_int(input).map(Code)
    }
}

#[derive(RowKey, Debug)]
#[rowkey(memcomparable)]
struct Coded {
    kind: String,
    code: Code,
}

#[test]
fn a_custom_field_is_refused_by_name() {
    let key = Coded { kind: "a".into(), code: Code(7) }.to_key().unwrap();
    let err = Coded::SCHEMA.inspect(&key).unwrap_err();
    assert!(err.to_string().contains("`code` is a `Code`") && err.to_string().contains("custom"), "{err}");
    let err = Coded::SCHEMA.encode(&[("kind", "a"), ("code", "b\"\\x07\"")]).unwrap_err();
    assert!(err.to_string().contains("`code` is a `Code`"), "{err}");
}

#[test]
fn a_wrong_prefix_or_bucket_is_refused_as_from_key_refuses_it() {
    let salt = Salt::new(8, SaltHash::FarmHash).unwrap();
    // A device whose bucket is 1 to 6: the tuple integer `15 nn`, as is the next bucket.
    let device = ["a", "b", "c", "d", "e", "f", "g", "h"]
        .into_iter()
        .find(|d| (1..7).contains(&salt.bucket(&(*d,)).unwrap()))
        .unwrap();
    let r = FdbReading { device: device.into(), at: 1, tag: None, ok: true, seq: 2, data: vec![] };
    let key = r.to_key().unwrap().into_vec();
    assert_eq!(key[..3], [0x15, 0x02, 0x15]);

    let mut other = key.clone();
    other[1] = 0x03;
    assert_eq!(FdbReading::from_key(&other).unwrap_err().location().name(), Some("prefix"));
    assert_eq!(FdbReading::SCHEMA.inspect(&other).unwrap_err().location().name(), Some("prefix"));
    assert!(FdbReading::SCHEMA.unsalted(&other).is_err());

    let mut moved = key.clone();
    moved[3] += 1;
    let typed = FdbReading::from_key(&moved).unwrap_err();
    let inspected = FdbReading::SCHEMA.inspect(&moved).unwrap_err();
    assert_eq!((typed.location().name(), typed.location().offset()), (Some("bucket"), Some(2)));
    assert_eq!((inspected.location().name(), inspected.location().offset()), (Some("bucket"), Some(2)));
    // `unsalted` reads the bucket but not the fields it comes from.
    assert_eq!(FdbReading::SCHEMA.unsalted(&moved).unwrap(), &moved[4..]);
}
