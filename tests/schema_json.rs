//! rowkey's schema JSON: every scenario key's schema, written and read back, is the same
//! schema, and decodes generated keys (and bytes that are not keys) exactly as the type's
//! `from_key` and its own `SCHEMA.inspect` do; the fields it reads, as text, encode back to
//! the key.

mod common;

use common::keys::*;
use common::strategies;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rowkey::schema::Schema;
use rowkey::{Key, RowKeyOwned};

/// Generated keys per scenario: 10,000, or `PROPTEST_CASES` (all 13 scenarios take about 4 s).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000)
}

/// The key, and a copy with one byte changed, cut or added, for the error paths.
fn key_and_mutation(key: Key, at: usize, byte: u8, op: u8) -> (Key, Vec<u8>) {
    let mut bad = key.to_vec();
    let at = at % (bad.len() + 1);
    match op % 3 {
        0 if at < bad.len() => bad[at] = byte,
        1 => bad.truncate(at),
        _ => bad.insert(at, byte),
    }
    (key, bad)
}

/// Checks the schema read back from the type's JSON against the type, over generated values.
fn check<T, S>(strategy: S)
where
    T: RowKeyOwned + std::fmt::Debug + PartialEq + rowkey::schema::KeySchema,
    S: Strategy<Value = T>,
{
    let json = T::SCHEMA.to_json();
    let read: &'static Schema = Schema::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(*read, T::SCHEMA, "{json}");
    let mut runner = TestRunner::new(Config { cases: cases(), failure_persistence: None, ..Config::default() });
    let inputs = (strategy, any::<usize>(), any::<u8>(), any::<u8>());
    runner
        .run(&inputs, |(value, at, byte, op)| {
            let (key, bad) = key_and_mutation(value.to_key().unwrap(), at, byte, op);
            // The key: the fields the type decodes, read by the file as by the type's schema.
            prop_assert_eq!(T::from_key(&key).unwrap(), value);
            let inspection = read.inspect(&key).unwrap();
            prop_assert_eq!(&inspection, &T::SCHEMA.inspect(&key).unwrap());
            // And back: the fields as text, as `rowkey encode` takes them, give the key.
            let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
            let pairs: Vec<(&str, &str)> = texts.iter().map(|(name, text)| (*name, text.as_str())).collect();
            prop_assert_eq!(read.encode(&pairs).map_err(|e| e.to_string()), Ok(key.clone()), "{}", inspection);
            // Other bytes: refused where and as the type refuses them.
            let (by_file, by_type) = (read.inspect(&bad), T::from_key(&bad));
            prop_assert_eq!(
                by_file.is_ok(),
                by_type.is_ok(),
                "{:?}: {:?} / {:?}",
                Key::from(&bad[..]),
                by_file,
                by_type.err()
            );
            match (by_file, T::SCHEMA.inspect(&bad)) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                (a, b) => prop_assert!(false, "the file gave {a:?}, the type's schema {b:?}"),
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{}: {e}", T::SCHEMA.type_name));
}

#[test]
fn reading() {
    check(strategies::reading());
}

#[test]
fn ordered_reading() {
    check(strategies::ordered_reading());
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
fn web_page() {
    check(strategies::web_page());
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
fn every_field() {
    check(strategies::every_field());
}

#[test]
fn every_text() {
    check(strategies::every_text());
}

#[test]
fn hex_reading() {
    check(strategies::hex_reading());
}

#[test]
fn event_by_id() {
    check(strategies::event_by_id());
}

#[test]
fn the_file_says_every_attribute() {
    let json: serde_json::Value = serde_json::from_str(&EveryField::SCHEMA.to_json()).unwrap();
    let field = |name: &str| json["fields"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap().clone();
    assert_eq!(json["prefix"], "every");
    assert_eq!(json["salt"], serde_json::json!({ "hash": "farmhash", "buckets": 8, "from": ["name", "id"] }));
    assert_eq!(field("rank")["desc"], true);
    assert_eq!(field("version")["reverse"]["max"], u64::MAX);
    assert_eq!(field("id")["bit_reverse"]["keep_sign"], true);
    assert_eq!(field("host")["reverse_domain"], true);
    assert_eq!(field("code")["len"], 3);
    assert_eq!(field("score")["optional"], true);
    assert_eq!(field("exact")["nanos"], true);
    assert_eq!(field("shard")["schema"]["salt"]["hash"], "modulo");
    let text: serde_json::Value = serde_json::from_str(&TenantReading::SCHEMA.to_json()).unwrap();
    assert_eq!(text["delimiter"], "#");
    assert_eq!(
        text["fields"][2],
        serde_json::json!({ "name": "device_id", "type": "u32", "encoding": "hex", "digits": 8 })
    );
    assert_eq!(text["fields"][3]["width"], 8);
}

#[test]
fn a_bad_file_names_the_place_to_fix() {
    let good = Reading::SCHEMA.to_json();
    let cases = [
        ("not json", "not JSON"),
        ("[]", "the file: expected an object"),
        (&good.replace("\"farmhash\"", "\"farm\""), "salt.hash: \"farm\" is not a salt hash"),
        (&good.replace("\"buckets\": 16", "\"buckets\": 0"), "salt: "),
        (&good.replace("\"device_id\"\n", "\"device\"\n"), "salt.from[0]: \"device\" is not a field of Reading"),
        (&good.replace("\"width\"", "\"widht\""), "fields[2].width: missing"),
        (&good.replace("\"max_len\"", "\"maxlen\""), "maxlen: not a key of this object"),
        (&good.replace("\"utf8\"", "\"text\""), "fields[0].encoding: \"text\" is not an encoding"),
        (&good.replace("\"rowkey_schema\": 1", "\"rowkey_schema\": 2"), "rowkey_schema: version 2"),
        (&good.replace("\"max\": 9223372036854775807", "\"max\": -1"), "fields[2].reverse.max: expected an integer"),
        (&good.replace("\"width\": 19", "\"width\": 39"), "fields[2].width: a decimal field is 1 to 38 digits wide"),
        (&good.replace("\"width\": 19", "\"width\": 0"), "fields[2].width: a decimal field is 1 to 38 digits wide"),
        (
            &good.replace("\"format\": \"delimited\"", "\"format\": \"tuples\""),
            "format: \"tuples\" is not a format: ordered, delimited, fdb_tuple, memcomparable, hbase",
        ),
    ];
    for (text, expected) in cases {
        let err = Schema::from_json(text).err().unwrap_or_else(|| panic!("accepted: {text}")).to_string();
        assert!(err.contains(expected), "{expected:?} not in {err:?}");
    }
}

/// A signed `i64` at width 20 (one more digit than it needs): a small negative value's
/// complement passes `u64::MAX`, and the key was written with `u64::MAX`'s digits.
#[test]
fn a_wide_signed_decimal_writes_and_reads_its_negative_values() {
    let file = r##"{"rowkey_schema": 1, "type": "Wide", "format": "delimited", "delimiter": "#",
        "fields": [{"name": "n", "type": "i64", "encoding": "decimal", "width": 20, "signed": true},
                   {"name": "tail", "type": "u8", "encoding": "decimal", "width": 3, "signed": false}]}"##;
    let schema = Schema::from_json(file).unwrap();
    let mut keys = Vec::new();
    for n in [i64::MIN, -5, -1, 0, 5, i64::MAX] {
        let key = schema.encode(&[("n", n.to_string().as_str()), ("tail", "7")]).unwrap();
        assert_eq!(schema.inspect(&key).unwrap().value("n"), Some(&rowkey::schema::Value::Int(n.into())));
        keys.push(key);
    }
    assert_eq!(keys[1].as_bytes(), b"-99999999999999999994#007");
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "negative values sort before positive, larger magnitudes lower");
}

/// A value a reversed field cannot take is refused as such, by `encode` and by a re-keying
/// into the field, rather than read back as a stored value that is "not MAX - v".
#[test]
fn a_reversed_field_refuses_a_negative_value_by_name() {
    let new = Schema::from_json(
        r##"{"rowkey_schema": 1, "type": "New", "format": "delimited", "delimiter": "#",
        "fields": [{"name": "ts", "type": "u64", "encoding": "decimal", "width": 20, "signed": false,
                    "reverse": {"max": 18446744073709551615}}]}"##,
    )
    .unwrap();
    let old = Schema::from_json(
        r##"{"rowkey_schema": 1, "type": "Old", "format": "delimited", "delimiter": "#",
        "fields": [{"name": "ts", "type": "i64", "encoding": "decimal", "width": 19, "signed": true}]}"##,
    )
    .unwrap();
    // The words of the typed path (`Reversed<u64>`), at the field.
    let expected = "in field 0 (`ts`) at byte 0: cannot encode this u64: -5 is negative; reversing it as MAX - v would \
                    overflow, so only values >= 0 can be reversed";
    let err = new.encode(&[("ts", "-5")]).unwrap_err().to_string();
    assert!(err.contains(expected), "{err}");
    let err = new.encode_values(&[rowkey::schema::Value::Int(-5)]).unwrap_err().to_string();
    assert!(err.contains(expected), "{err}");
    let rekey = rowkey::rekey::Rekey::builder(old, new).build().unwrap();
    // A re-key says where the value came from and what to change, at the same field and byte.
    let err = rekey.rekey(&old.encode(&[("ts", "-5")]).unwrap()).unwrap_err().to_string();
    let expected = "in field 0 (`ts`) at byte 0: cannot encode this u64: the old field `ts` (i64) holds -5, which does \
                    not fit the new field's type u64 (0 to 18446744073709551615); give `ts` a type that holds the old \
                    field's values (such as i64)";
    assert!(err.contains(expected), "{err}");
    assert_eq!(rekey.rekey(&old.encode(&[("ts", "5")]).unwrap()).unwrap().as_bytes(), b"18446744073709551610");
}

#[test]
fn the_readme_schema_file_is_the_quickstart_keys() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/reading.schema.json");
    let file = std::fs::read_to_string(path).unwrap();
    assert_eq!(file.trim_end(), Reading::SCHEMA.to_json(), "regenerate {path} from Reading::SCHEMA.to_json()");
}

// The store formats: a raw prefix, a bucket as the format's number or MD5 text, a descending
// field, a flattened struct and HBase's `numeric` field, read from the file as by the type.
#[test]
fn fdb_tuple_reading() {
    check(strategies::fdb_reading());
}

#[test]
fn memcomparable_reading() {
    check(strategies::mc_reading());
}

#[test]
fn hbase_visit() {
    check(strategies::hbase_visit());
    // The field model says what a `numeric` field is: HBase's `OrderedNumeric`, in the file too.
    use common::stores::HBaseVisit;
    let amount = HBaseVisit::SCHEMA.field("amount").unwrap();
    assert_eq!(amount.encoding, rowkey::schema::Encoding::Numeric);
    assert!(HBaseVisit::SCHEMA.to_json().contains(r#""encoding": "numeric""#), "{}", HBaseVisit::SCHEMA.to_json());
}
