//! `Schema::inspect`: keys decoded from the schema alone give back the struct's values, and
//! bytes that are not a key fail where, and as, the derived `from_key` fails.

mod common;

use common::keys::{DeviceReading, EveryField, EveryText, Monitor, OrderedReading, TenantReading, WebPage};
use common::schema_checks::{agrees_with_from_key, encode_takes_what_the_type_takes, mutations};
use common::strategies::{every_field, every_text, fdb_reading, hbase_visit, mc_every, mc_reading};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::salt::Salt;
use rowkey::schema::{Inspection, Schema, Value};
use rowkey::{Error, RowKey};

/// Every ordered-format encoding and transform, behind a prefix.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "acct", salt(buckets = 8, from = [note, id]))]
struct Account {
    kind: String,
    #[rowkey(bit_reverse)]
    seq: i64,
    #[rowkey(bit_reverse)]
    id: u64,
    #[rowkey(big_endian)]
    account: u32,
    #[rowkey(desc, big_endian)]
    balance: Option<i64>,
    #[rowkey(reverse)]
    version: u64,
    #[rowkey(desc)]
    tags: Vec<u8>,
    note: Option<String>,
    flag: bool,
    score: f64,
    at: SystemTime,
    small: i8,
}

/// Every delimited-format text encoding and transform, behind a prefix and a salt.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "t", salt(buckets = 100, from = [host, day]))]
struct TextFields {
    #[rowkey(reverse_domain)]
    host: Option<String>,
    #[rowkey(hex)]
    digest: Vec<u8>,
    #[rowkey(hex)]
    short: Option<[u8; 2]>,
    #[rowkey(width = 8)]
    day: Option<u32>,
    #[rowkey(bit_reverse)]
    seq: u64,
    delta: i16,
    flag: bool,
}

/// Flattening, in both formats.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Device {
    kind: String,
    id: u32,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "s")]
struct Sample {
    #[rowkey(flatten)]
    device: Device,
    #[rowkey(desc)]
    ts: i64,
}

fn at_micros(micros: i64) -> SystemTime {
    if micros >= 0 {
        UNIX_EPOCH + Duration::from_micros(micros.unsigned_abs())
    } else {
        UNIX_EPOCH - Duration::from_micros(micros.unsigned_abs())
    }
}

fn micros(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_micros()).unwrap(),
        Err(before) => -i64::try_from(before.duration().as_micros()).unwrap(),
    }
}

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn int(n: impl Into<i128>) -> Value {
    Value::Int(n.into())
}

fn opt(value: Option<Value>) -> Value {
    value.unwrap_or(Value::Null)
}

/// The inspection's fields as (name, value) pairs.
fn pairs(inspection: &Inspection) -> Vec<(&'static str, Value)> {
    inspection.fields().iter().map(|f| (f.name(), f.value().clone())).collect()
}

fn inspect(schema: &Schema, key: &[u8]) -> Vec<(&'static str, Value)> {
    pairs(&schema.inspect(key).unwrap_or_else(|e| panic!("{e}: {:?}", rowkey::Key::from(key))))
}

#[test]
fn device_reading_reads_back_and_prints() {
    let row = DeviceReading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 };
    let key = row.to_key().unwrap();
    let inspection = DeviceReading::SCHEMA.inspect(&key).unwrap();
    assert_eq!(inspection.type_name(), "DeviceReading");
    assert_eq!(inspection.to_string(), "device_type=phone device_id=4c410523 ts_millis=1588291200000 (reversed)");
    let offsets: Vec<_> = inspection.fields().iter().map(|f| f.offset()).collect();
    assert_eq!(offsets, [0, 6, 15]);
}

#[test]
fn tenant_key_prints_hex_as_hex() {
    let row =
        TenantReading { tenant: "acme".into(), device_type: "phone".into(), device_id: 0x0c41_0523, date: 20200501 };
    let inspection = TenantReading::SCHEMA.inspect(&row.to_key().unwrap()).unwrap();
    assert_eq!(inspection.to_string(), "tenant=acme device_type=phone device_id=0c410523 date=20200501");
    assert_eq!(inspection.value("device_id"), Some(&int(0x0c41_0523)));
}

#[test]
fn web_page_shows_the_host_and_the_time() {
    let page = WebPage {
        host: "maps.google.com".into(),
        path: "/index.html".into(),
        crawled: at_micros(1_588_291_200_000_000),
    };
    let inspection = WebPage::SCHEMA.inspect(&page.to_key().unwrap()).unwrap();
    assert_eq!(
        inspection.to_string(),
        "host=maps.google.com (reversed domain) path=/index.html crawled=2020-05-01T00:00:00Z (desc)"
    );
}

#[test]
fn salted_keys_show_their_bucket() {
    let row = Monitor { time: 1_588_291_200_003, host: "web 1".into(), metric: "cpu".into() };
    let inspection = Monitor::SCHEMA.inspect(&row.to_key().unwrap()).unwrap();
    assert_eq!(inspection.to_string(), r#"bucket=3 time=1588291200003 host="web 1" metric=cpu"#);

    let row =
        OrderedReading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 };
    let inspection = OrderedReading::SCHEMA.inspect(&row.to_key().unwrap()).unwrap();
    assert_eq!(inspection.to_string(), "bucket=1 device_type=phone device_id=4c410523 ts_millis=1588291200000 (desc)");
}

#[test]
fn flattened_fields_are_inlined() {
    let sample = Sample { device: Device { kind: "phone".into(), id: 7 }, ts: -1 };
    let inspection = Sample::SCHEMA.inspect(&sample.to_key().unwrap()).unwrap();
    assert_eq!(inspection.to_string(), "prefix=s kind=phone id=7 ts=-1 (desc)");
}

fn account_values(a: &Account) -> Vec<(&'static str, Value)> {
    let bucket = Salt::farmhash(8).unwrap().bucket(&(a.note.as_deref(), a.id)).unwrap();
    vec![
        ("prefix", s("acct")),
        ("bucket", int(bucket)),
        ("kind", s(&a.kind)),
        ("seq", int(a.seq)),
        ("id", int(a.id)),
        ("account", int(a.account)),
        ("balance", opt(a.balance.map(int))),
        ("version", int(a.version)),
        ("tags", Value::Bytes(a.tags.clone())),
        ("note", opt(a.note.as_deref().map(s))),
        ("flag", Value::Bool(a.flag)),
        ("score", Value::Float(a.score)),
        ("at", Value::Timestamp(micros(a.at))),
        ("small", int(a.small)),
    ]
}

fn text_values(t: &TextFields) -> Vec<(&'static str, Value)> {
    let bucket = Salt::farmhash(100).unwrap().bucket(&(t.host.as_deref(), t.day)).unwrap();
    vec![
        ("prefix", s("t")),
        ("bucket", int(bucket)),
        ("host", opt(t.host.as_deref().map(s))),
        ("digest", Value::Bytes(t.digest.clone())),
        ("short", opt(t.short.map(|b| Value::Bytes(b.to_vec())))),
        ("day", opt(t.day.map(int))),
        ("seq", int(t.seq)),
        ("delta", int(t.delta)),
        ("flag", Value::Bool(t.flag)),
    ]
}

fn hosts() -> impl Strategy<Value = String> {
    prop_oneof![Just("maps.google.com".to_owned()), "[a-z]{1,8}(\\.[a-z]{1,8}){0,3}", Just("10.0.0.1".to_owned())]
}

fn accounts() -> impl Strategy<Value = Account> {
    (
        (any::<String>(), any::<i64>(), any::<u64>(), any::<u32>(), proptest::option::of(0..=i64::MAX)),
        (any::<u64>(), proptest::collection::vec(any::<u8>(), 0..6), proptest::option::of("[\\x00a]{0,3}")),
        (any::<bool>(), any::<f64>().prop_filter("NaN has many keys' worth of payloads", |x| !x.is_nan())),
        (-(1i64 << 60)..(1i64 << 60), any::<i8>()),
    )
        .prop_map(|((kind, seq, id, account, balance), (version, tags, note), (flag, score), (at, small))| {
            Account { kind, seq, id, account, balance, version, tags, note, flag, score, at: at_micros(at), small }
        })
}

fn text_fields() -> impl Strategy<Value = TextFields> {
    (
        proptest::option::of(hosts()),
        proptest::collection::vec(any::<u8>(), 0..5),
        any::<Option<[u8; 2]>>(),
        proptest::option::of(0u32..100_000_000),
        any::<u64>(),
        any::<i16>(),
        any::<bool>(),
    )
        .prop_map(|(host, digest, short, day, seq, delta, flag)| TextFields {
            host,
            digest,
            short,
            day,
            seq,
            delta,
            flag,
        })
}

proptest! {
    /// The schema's text path and the type's code take the same values, over every field type
    /// of the fixtures, in every format.
    #[test]
    fn encode_takes_what_the_type_takes_in_every_format(
        (a, b) in (every_field(), every_field()),
        (c, d) in (every_text(), every_text()),
        (e, f) in (mc_every(), mc_every()),
        (g, h) in (fdb_reading(), fdb_reading()),
        (i, j) in (hbase_visit(), hbase_visit()),
        (k, l) in (mc_reading(), mc_reading()),
        pick: usize,
    ) {
        encode_takes_what_the_type_takes(&a, &b, pick)?;
        encode_takes_what_the_type_takes(&c, &d, pick)?;
        encode_takes_what_the_type_takes(&e, &f, pick)?;
        encode_takes_what_the_type_takes(&g, &h, pick)?;
        encode_takes_what_the_type_takes(&i, &j, pick)?;
        encode_takes_what_the_type_takes(&k, &l, pick)?;
    }

    #[test]
    fn device_readings_inspect_to_their_fields(
        device_type in "[a-z]{0,8}", device_id in "[0-9a-f]{0,10}", ts_millis in 0..=i64::MAX,
    ) {
        let row = DeviceReading { device_type, device_id, ts_millis };
        let got = inspect(&DeviceReading::SCHEMA, &row.to_key().unwrap());
        prop_assert_eq!(got, vec![
            ("device_type", s(&row.device_type)),
            ("device_id", s(&row.device_id)),
            ("ts_millis", int(row.ts_millis)),
        ]);
    }

    #[test]
    fn tenant_readings_inspect_to_their_fields(
        tenant in "[a-z0-9-]{0,6}", device_type in "[a-z]{1,5}", device_id: u32, date in 0u32..100_000_000,
    ) {
        let row = TenantReading { tenant, device_type, device_id, date };
        let got = inspect(&TenantReading::SCHEMA, &row.to_key().unwrap());
        prop_assert_eq!(got, vec![
            ("tenant", s(&row.tenant)),
            ("device_type", s(&row.device_type)),
            ("device_id", int(row.device_id)),
            ("date", int(row.date)),
        ]);
    }

    #[test]
    fn web_pages_inspect_to_their_fields(host in hosts(), path in any::<String>(), at in -(1i64 << 60)..(1i64 << 60)) {
        let page = WebPage { host, path, crawled: at_micros(at) };
        let got = inspect(&WebPage::SCHEMA, &page.to_key().unwrap());
        prop_assert_eq!(got, vec![("host", s(&page.host)), ("path", s(&page.path)), ("crawled", Value::Timestamp(at))]);
    }

    #[test]
    fn monitors_inspect_to_their_fields(time: i64, host: String, metric in "[a-z\\x00]{0,4}") {
        let row = Monitor { time, host, metric };
        let got = inspect(&Monitor::SCHEMA, &row.to_key().unwrap());
        prop_assert_eq!(got, vec![
            ("bucket", int(time.rem_euclid(16))),
            ("time", int(time)),
            ("host", s(&row.host)),
            ("metric", s(&row.metric)),
        ]);
    }

    #[test]
    fn accounts_inspect_to_their_fields(account in accounts()) {
        let got = inspect(&Account::SCHEMA, &account.to_key().unwrap());
        prop_assert_eq!(got, account_values(&account));
    }

    #[test]
    fn text_fields_inspect_to_their_fields(row in text_fields()) {
        let got = inspect(&TextFields::SCHEMA, &row.to_key().unwrap());
        prop_assert_eq!(got, text_values(&row));
    }

    #[test]
    fn inspect_fails_where_from_key_fails(
        bytes in (any::<String>(), any::<i64>(), "[a-z\\x00]{0,3}")
            .prop_flat_map(|(host, time, metric)| mutations(Monitor { time, host, metric }.to_key().unwrap().into_vec())),
        reading in (any::<String>(), "[0-9a-f\\x00\\xff]{0,5}", any::<i64>())
            .prop_flat_map(|(device_type, device_id, ts_millis)| {
                mutations(OrderedReading { device_type, device_id, ts_millis }.to_key().unwrap().into_vec())
            }),
    ) {
        agrees_with_from_key::<Monitor>(&Monitor::SCHEMA, &bytes);
        agrees_with_from_key::<OrderedReading>(&OrderedReading::SCHEMA, &reading);
    }

    #[test]
    fn inspect_fails_where_from_key_fails_for_every_encoding(
        account in accounts().prop_flat_map(|a| mutations(a.to_key().unwrap().into_vec())),
        text in text_fields().prop_flat_map(|t| mutations(t.to_key().unwrap().into_vec())),
        tenant in ("[a-z0-9-]{0,6}", any::<u32>(), 0u32..100_000_000).prop_flat_map(|(tenant, device_id, date)| {
            mutations(TenantReading { tenant, device_type: "phone".into(), device_id, date }.to_key().unwrap().into_vec())
        }),
        device in (any::<i64>(), "[a-z]{0,3}").prop_flat_map(|(ts_millis, device_id)| {
            mutations(DeviceReading { device_type: "x".into(), device_id, ts_millis: ts_millis.max(0) }
                .to_key().unwrap().into_vec())
        }),
    ) {
        agrees_with_from_key::<Account>(&Account::SCHEMA, &account);
        agrees_with_from_key::<TextFields>(&TextFields::SCHEMA, &text);
        agrees_with_from_key::<TenantReading>(&TenantReading::SCHEMA, &tenant);
        agrees_with_from_key::<DeviceReading>(&DeviceReading::SCHEMA, &device);
    }

    #[test]
    fn inspect_fails_where_from_key_fails_for_every_field_type(
        ordered in (0u32..64).prop_flat_map(|n| mutations(EveryField::sample(n).to_key().unwrap().into_vec())),
        text in (0u32..64).prop_flat_map(|n| mutations(EveryText::sample(n).to_key().unwrap().into_vec())),
    ) {
        agrees_with_from_key::<EveryField>(&EveryField::SCHEMA, &ordered);
        agrees_with_from_key::<EveryText>(&EveryText::SCHEMA, &text);
    }
}

#[test]
fn every_field_type_inspects_its_own_keys() {
    for n in 0..64 {
        let ordered = EveryField::sample(n).to_key().unwrap();
        assert_eq!(EveryField::from_key(&ordered).unwrap(), EveryField::sample(n));
        EveryField::SCHEMA.inspect(&ordered).unwrap_or_else(|e| panic!("{n}: {e}: {ordered:?}"));
        let text = EveryText::sample(n).to_key().unwrap();
        assert_eq!(EveryText::from_key(&text).unwrap(), EveryText::sample(n));
        EveryText::SCHEMA.inspect(&text).unwrap_or_else(|e| panic!("{n}: {e}: {text:?}"));
    }
}

fn error(schema: &Schema, key: &[u8]) -> Error {
    schema.inspect(key).expect_err("not a key of the schema")
}

#[test]
fn a_bad_digit_is_located_in_its_field() {
    // Located as `from_key` locates it, at the field's start (byte 15); the message says
    // which of the field's bytes is not a digit.
    let key = b"phone#4c410523#92233704485635758x7";
    let err = error(&DeviceReading::SCHEMA, key);
    assert_eq!((err.location().name(), err.location().offset()), (Some("ts_millis"), Some(15)));
    assert!(err.to_string().contains("'x' at byte 17 of the field is not a decimal digit"), "{err}");
    assert_eq!(DeviceReading::from_key(key).unwrap_err(), err);

    let key = b"acme#phone#0000000g#20200501";
    let err = error(&TenantReading::SCHEMA, key);
    assert_eq!((err.location().name(), err.location().offset()), (Some("device_id"), Some(11)));
    assert_eq!(TenantReading::from_key(key).unwrap_err().location(), err.location());
}

#[test]
fn a_missing_field_is_located_at_the_end() {
    let err = error(&DeviceReading::SCHEMA, b"phone#4c410523");
    assert!(matches!(err, Error::Truncated { .. }), "{err}");
    assert_eq!((err.location().name(), err.location().offset()), (Some("device_id"), Some(14)));

    let err = error(&DeviceReading::SCHEMA, b"phone#4c410523#9223370448563575807#extra");
    assert_eq!(err, Error::TrailingBytes { offset: 34, len: 6 });
}

#[test]
fn a_wrong_prefix_or_bucket_is_refused() {
    let key = Sample { device: Device { kind: "phone".into(), id: 7 }, ts: 1 }.to_key().unwrap();
    let mut other = key.into_vec();
    other[0] = b't';
    let err = error(&Sample::SCHEMA, &other);
    assert_eq!(err.location().name(), Some("prefix"));
    assert!(err.to_string().contains(r#"starts with "t", not this type's prefix "s""#), "{err}");

    let mut key = Monitor { time: 5, host: "h".into(), metric: "m".into() }.to_key().unwrap().into_vec();
    key[0] = 0x86; // bucket 6, but 5 % 16 is 5
    let err = error(&Monitor::SCHEMA, &key);
    assert_eq!((err.location().name(), err.location().offset()), (Some("bucket"), Some(0)));
    assert!(err.to_string().contains("the key is in bucket 6, but its salt source fields give bucket 5"), "{err}");
}

#[test]
fn bad_field_bytes_are_named_with_the_rust_type() {
    // A u32 that does not fit, inside a flattened struct.
    let key = ("s", "phone", 1i64 << 40, rowkey::Desc(1i64)).to_key().unwrap();
    let err = error(&Sample::SCHEMA, &key);
    assert_eq!((err.location().name(), err.location().offset()), (Some("id"), Some(10)));
    assert!(matches!(err, Error::OutOfRange { ty: "u32", .. }), "{err}");

    // Text that is not UTF-8.
    let key = ("s", &b"ph\xffne"[..], 7u32, rowkey::Desc(1i64)).to_key().unwrap();
    let err = error(&Sample::SCHEMA, &key);
    assert_eq!(err.location().name(), Some("kind"));
    assert!(err.to_string().contains("invalid UTF-8 at byte 2"), "{err}");
}

/// A mutated key whose bucket the salt sources (one of them an optional text, `Some("\0")`)
/// do not give: the interpreter and `from_key` refuse it, and the compiled plan did not.
#[test]
fn a_bucket_that_an_optional_source_does_not_give_is_refused_by_the_plan_too() {
    let key: rowkey::Key = r#"acct\x00\x01\x82\x00\x01\x22\xc2\xa5\xf0\x90\xa8\x96\xc3\x9a\xf0\x90\x80\xb9*lW\xf0\x91\x9a\x84\xf0\x91\x96\x97\x00\x01\xff\x88\xbd\xb6\xdd0#\xa6\xbf\x00\x01\x08\x19\xd2\x1b&\xd8zk\xf2\x00\x01\x00\xff\x00\xff\x00\xff\x00\xffSiK?\x00\x01\xf1\xe0\xe6\x9bLZ\x9c`\xff\xfe\x08M\xc4\xd7\xcf\xe1\xb6\x11\x1e\x00\x01\xd2\x7f\xff\xfe\x00\xff\x00\xff\x00\x01\x80\x00\x01\x80\x00\x01\x00\xffu9O\x13\x07=P\xc7\x00\x01\xc0p"#.parse().unwrap();
    let typed = Account::from_key(&key).unwrap_err().to_string();
    assert_eq!(Account::SCHEMA.inspect(&key).unwrap_err().to_string(), typed);
    assert_eq!(rowkey::schema::KeyPlan::new(&Account::SCHEMA).inspect(&key).unwrap_err().to_string(), typed);
}

/// The plan's bucket of an optional text source is the type's: `Some("")`, `Some("\0")` and
/// `Some("\0\0")` hash apart, as `from_key` expects (the plan once hashed `Some("\0")` as the
/// type hashes `Some("")`), so the plan reads each key and refuses it moved to any other bucket.
#[test]
fn the_plan_salts_an_optional_text_source_as_the_type_does() {
    let plan = rowkey::schema::KeyPlan::new(&Account::SCHEMA);
    // The bucket is the ordered `u32` after the prefix: one byte, `80` + bucket.
    let at = b"acct\x00\x01".len();
    let notes = [None, Some(""), Some("\0"), Some("\0\0"), Some("a")];
    for (note, id) in notes.into_iter().flat_map(|note| (0..8).map(move |id| (note, id))) {
        let account = Account {
            kind: "k".into(),
            seq: 1,
            id,
            account: 3,
            balance: None,
            version: 4,
            tags: vec![],
            note: note.map(String::from),
            flag: true,
            score: 0.5,
            at: at_micros(0),
            small: 0,
        };
        let key = account.to_key().unwrap();
        let read = plan.inspect(&key).unwrap_or_else(|e| panic!("{note:?} {id}: {e}"));
        assert_eq!(read.value("bucket"), Account::SCHEMA.inspect(&key).unwrap().value("bucket"));
        for bucket in (0x80..0x88).filter(|&b| b != key[at]) {
            let mut moved = key.to_vec();
            moved[at] = bucket;
            assert!(Account::from_key(&moved).is_err(), "{note:?} {id} in bucket {bucket:#x}");
            assert!(plan.inspect(&moved).is_err(), "the plan read {note:?} {id} in bucket {bucket:#x}");
        }
    }
}
