//! `#[derive(RowKey)]` at run time: the key designs of the Bigtable and Tablestore guides
//! round-trip, scan as expected over a `BTreeMap` standing in for the table, and are
//! byte-identical to the equivalent tuple, `Delimited` and `Salt` keys built by hand.

mod common;

use common::keys::{DeviceReading, Monitor, TenantReading, WebPage};

use std::collections::BTreeMap;
use std::ops::Bound;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::field::{Hex, Padded, Reversed};
use rowkey::format::{Delimited, DelimitedKey, OrderedKey};
use rowkey::salt::{Salt, SaltHash};
use rowkey::scan::{DelimitedScan, OrderedScan};
use rowkey::schema::{Encoding, Format, KeyField, Transform};
use rowkey::transform::{BitReversed, ReversedDomain};
use rowkey::{BigEndian, Desc, Error, Key, KeyRanges, RowKey};

/// The same key, decoded without copying the strings.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct DeviceReadingRef<'a> {
    device_type: &'a str,
    device_id: &'a str,
    #[rowkey(reverse)]
    ts_millis: i64,
}

fn reading(device_type: &str, device_id: &str, ts_millis: i64) -> DeviceReading {
    DeviceReading { device_type: device_type.into(), device_id: device_id.into(), ts_millis }
}

/// Rows that a table scan must keep apart: ids that are prefixes of each other, two types.
fn readings() -> Vec<DeviceReading> {
    let mut rows = Vec::new();
    for device_type in ["phone", "tablet"] {
        for device_id in ["4c41052", "4c410523", "4c4105230", "a0b81f74"] {
            for ts in [1_588_291_200_000, 1_588_291_260_000, 1_588_291_100_000] {
                rows.push(reading(device_type, device_id, ts));
            }
        }
    }
    rows
}

fn rows_in<V: Clone>(table: &BTreeMap<Key, V>, ranges: &KeyRanges) -> Vec<V> {
    ranges.iter().flat_map(|range| table.range::<[u8], _>(range).map(|(_, v)| v.clone())).collect()
}

#[test]
fn device_reading_is_the_guides_key() {
    let row = reading("phone", "4c410523", 1_588_291_200_000);
    let key = row.to_key().unwrap();
    assert_eq!(key, "phone#4c410523#9223370448563575807");
    let by_hand = Delimited::default().to_key(&("phone", "4c410523", Reversed(1_588_291_200_000i64))).unwrap();
    assert_eq!(key, by_hand);
    assert_eq!(DeviceReading::from_key(&key).unwrap(), row);

    let borrowed = DeviceReadingRef::from_key(&key).unwrap();
    assert_eq!(
        borrowed,
        DeviceReadingRef { device_type: "phone", device_id: "4c410523", ts_millis: 1_588_291_200_000 }
    );
    assert_eq!(borrowed.to_key().unwrap(), key);

    // encode_into reuses one buffer; a failed encode leaves it empty.
    let mut buf = Key::new();
    row.encode_into(&mut buf).unwrap();
    assert_eq!(buf, key);
    assert!(reading("ph#one", "x", 1).encode_into(&mut buf).is_err());
    assert!(buf.is_empty());
}

#[test]
fn device_readings_scan_one_device_newest_first() {
    let table: BTreeMap<Key, DeviceReading> = readings().into_iter().map(|r| (r.to_key().unwrap(), r)).collect();
    let format = Delimited::default();
    for device_type in ["phone", "tablet"] {
        for device_id in ["4c41052", "4c410523", "4c4105230", "a0b81f74"] {
            let mut scan = DelimitedScan::for_key::<DeviceReading>(&format);
            scan.fix(device_type).unwrap().fix(device_id).unwrap();
            let found = rows_in(&table, &scan.ranges());
            let mut expected: Vec<_> =
                readings().into_iter().filter(|r| r.device_type == device_type && r.device_id == device_id).collect();
            expected.sort_by_key(|r| std::cmp::Reverse(r.ts_millis));
            assert_eq!(found, expected, "{device_type}#{device_id}");
        }
    }
}

/// The device key with a salt bucket in front, as the README's tour and the derive's docs show it.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
struct SaltedReading {
    device_type: String,
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

#[test]
fn salted_device_reading_matches_salt_delimited_key() {
    let row = SaltedReading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 };
    assert_eq!(row.to_key().unwrap(), "01#phone#4c410523#9223370448563575807");
    let salt = Salt::farmhash(16).unwrap();
    for (device_type, device_id, ts) in [("phone", "4c410523", 1_588_291_200_000i64), ("tablet", "", 0), ("a", "b", 7)]
    {
        let row = SaltedReading { device_type: device_type.into(), device_id: device_id.into(), ts_millis: ts };
        let key = row.to_key().unwrap();
        let by_hand =
            salt.delimited_key(&Delimited::default(), &(device_id,), &(device_type, device_id, Reversed(ts))).unwrap();
        assert_eq!(key, by_hand);
        assert_eq!(&key[2..3], b"#", "16 buckets take two digits: {key}");
        assert_eq!(SaltedReading::from_key(&key).unwrap(), row);
    }
}

#[test]
fn salted_key_with_a_wrong_bucket_is_refused() {
    let row = SaltedReading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1 };
    let mut bytes = row.to_key().unwrap().into_vec();
    let bucket = (u32::from(bytes[0] - b'0') * 10 + u32::from(bytes[1] - b'0') + 1) % 16;
    bytes[..2].copy_from_slice(format!("{bucket:02}").as_bytes());
    let err = SaltedReading::from_key(&bytes).unwrap_err();
    assert!(matches!(err, Error::InvalidField { .. }), "{err}");
    assert_eq!(err.location().name(), Some("bucket"));
    assert!(err.to_string().contains("salt source fields give bucket"), "{err}");
    // A bucket of the wrong width is refused too.
    let err = SaltedReading::from_key(&bytes[1..]).unwrap_err();
    assert_eq!(err.location().name(), Some("bucket"), "{err}");
}

#[test]
fn tenant_key_is_readable_and_matches_the_tuple() {
    let row =
        TenantReading { tenant: "acme".into(), device_type: "phone".into(), device_id: 0x4c41_0523, date: 20200501 };
    let key = row.to_key().unwrap();
    assert_eq!(key, "acme#phone#4c410523#20200501");
    let by_hand =
        Delimited::default().to_key(&("acme", "phone", Hex(0x4c41_0523u32), Padded::<u32, 8>(20200501))).unwrap();
    assert_eq!(key, by_hand);
    assert_eq!(TenantReading::from_key(&key).unwrap(), row);
    // A date that needs nine digits does not fit its field.
    let too_long = TenantReading { date: 123_456_789, ..row };
    assert!(matches!(too_long.to_key(), Err(Error::Unencodable { .. })));
}

#[test]
fn one_tenants_scan_never_sees_another_tenant() {
    let tenants = ["acme", "acme2", "acme-eu", "acm", "zeta"];
    let mut table = BTreeMap::new();
    for (i, tenant) in tenants.iter().enumerate() {
        for device_id in [1u32, 0x4c41_0523, u32::MAX] {
            for date in [20200501, 20200502] {
                let row = TenantReading { tenant: (*tenant).into(), device_type: "phone".into(), device_id, date };
                table.insert(row.to_key().unwrap(), (i, row));
            }
        }
    }
    let format = Delimited::default();
    for (i, tenant) in tenants.iter().enumerate() {
        let mut scan = DelimitedScan::for_key::<TenantReading>(&format);
        scan.fix(*tenant).unwrap();
        let found: Vec<_> = rows_in(&table, &scan.ranges());
        assert_eq!(found.len(), 6, "{tenant}");
        assert!(found.iter().all(|(j, _)| *j == i), "{tenant}: {found:?}");
        // The date range of one device, through the field's own text encoding.
        let mut scan = DelimitedScan::for_key::<TenantReading>(&format);
        scan.fix(*tenant).unwrap().fix("phone").unwrap().fix(&Hex(1u32)).unwrap();
        let from = Padded::<u32, 8>(20200502);
        let found: Vec<_> = rows_in(&table, &scan.range(Bound::Included(&from), Bound::Unbounded).unwrap());
        assert_eq!(found.iter().map(|(_, r)| r.date).collect::<Vec<_>>(), [20200502], "{tenant}");
    }
}

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

#[test]
fn web_table_groups_a_domain_and_puts_new_crawls_first() {
    let pages = [
        ("maps.google.com", "/index.html", 10),
        ("maps.google.com", "/index.html", 20),
        ("www.google.com", "/", 5),
        ("google.com", "/about", 7),
        ("www.example.com", "/", 9),
        ("googleusercontent.com", "/x", 3),
    ];
    let mut table = BTreeMap::new();
    for (host, path, secs) in pages {
        let page = WebPage { host: host.into(), path: path.into(), crawled: at(secs) };
        let key = page.to_key().unwrap();
        let by_hand = (ReversedDomain(host), path, Desc(at(secs))).to_key().unwrap();
        assert_eq!(key, by_hand);
        assert_eq!(WebPage::from_key(&key).unwrap(), page);
        table.insert(key, page);
    }
    let order: Vec<_> = table.values().map(|p| (p.host.as_str(), p.path.as_str(), p.crawled)).collect();
    assert_eq!(
        order,
        [
            ("www.example.com", "/", at(9)),
            ("google.com", "/about", at(7)),
            ("maps.google.com", "/index.html", at(20)),
            ("maps.google.com", "/index.html", at(10)),
            ("www.google.com", "/", at(5)),
            ("googleusercontent.com", "/x", at(3)),
        ]
    );
    // One host's pages, through the scan bounds of the transformed field.
    let mut scan = OrderedScan::for_key::<WebPage>();
    scan.fix(&ReversedDomain("maps.google.com")).unwrap();
    let found: Vec<_> = rows_in(&table, &scan.ranges());
    assert_eq!(found.iter().map(|p| p.crawled).collect::<Vec<_>>(), [at(20), at(10)]);
}

/// A metric series hashed to one of 8 buckets by host and metric, newest point first.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 8, from = [host, metric]))]
struct SeriesPoint {
    host: String,
    metric: String,
    #[rowkey(desc, monotonic)]
    ts: i64,
}

/// The Tablestore key in the delimited format.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [time], hash = "modulo"))]
struct MonitorText {
    time: i64,
    host: String,
}

#[test]
fn modulo_salt_matches_salt_ordered_key_and_spreads_sequential_times() {
    let salt = Salt::modulo(16).unwrap();
    let mut buckets = std::collections::BTreeSet::new();
    for time in 1_588_291_200_000..1_588_291_200_016i64 {
        let row = Monitor { time, host: "web-1".into(), metric: "cpu".into() };
        let key = row.to_key().unwrap();
        assert_eq!(key, salt.ordered_key(&(time,), &(time, "web-1", "cpu")).unwrap());
        assert_eq!(Monitor::from_key(&key).unwrap(), row);
        buckets.insert(key[0]);

        let text = MonitorText { time, host: "web-1".into() };
        let key = text.to_key().unwrap();
        assert_eq!(key, salt.delimited_key(&Delimited::default(), &(time,), &(time, "web-1")).unwrap());
        assert_eq!(&key[..3], format!("{:02}#", time % 16).as_bytes());
        assert_eq!(MonitorText::from_key(&key).unwrap(), text);
    }
    assert_eq!(buckets.len(), 16, "16 consecutive times land in 16 buckets");
}

#[test]
fn farmhash_salt_matches_and_fans_out_over_every_bucket() {
    let salt = Salt::farmhash(8).unwrap();
    let hosts = ["web-1", "web-2", "db-1", "db-2", "cache"];
    let mut table = BTreeMap::new();
    for host in hosts {
        for ts in [100i64, 200, 300] {
            let point = SeriesPoint { host: host.into(), metric: "cpu".into(), ts };
            let key = point.to_key().unwrap();
            assert_eq!(key, salt.ordered_key(&(host, "cpu"), &(host, "cpu", Desc(ts))).unwrap());
            assert_eq!(SeriesPoint::from_key(&key).unwrap(), point);
            table.insert(key, point);
        }
    }
    // One series: its bucket is known from the source fields, so one range.
    let bucket = salt.bucket(&("web-2", "cpu")).unwrap();
    let mut scan = OrderedScan::for_key::<SeriesPoint>();
    scan.fix(&bucket).unwrap().fix("web-2").unwrap().fix("cpu").unwrap();
    let ranges = scan.ranges();
    assert_eq!(ranges.len(), 1);
    assert_eq!(rows_in(&table, &ranges).iter().map(|p| p.ts).collect::<Vec<_>>(), [300, 200, 100]);
    // All cpu points: the bucket is not known, so every bucket is read.
    let ranges = salt
        .fan_out(|bucket| {
            let mut scan = OrderedScan::for_key::<SeriesPoint>();
            scan.fix(&bucket)?;
            Ok(scan.ranges())
        })
        .unwrap();
    assert_eq!(ranges.len(), 8);
    assert_eq!(rows_in(&table, &ranges).len(), 15);
}

#[test]
fn a_corrupt_bucket_is_refused_in_the_ordered_format() {
    let point = SeriesPoint { host: "web-1".into(), metric: "cpu".into(), ts: 1 };
    let mut bytes = point.to_key().unwrap().into_vec();
    // The bucket is one orderedcode byte, 0x80 + bucket.
    bytes[0] = 0x80 + (bytes[0] - 0x80 + 1) % 8;
    let err = SeriesPoint::from_key(&bytes).unwrap_err();
    assert_eq!((err.location().field(), err.location().name()), (Some(0), Some("bucket")), "{err}");
}

/// A key with a constant prefix, and one with another prefix and the same fields.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix = "user")]
struct UserKey {
    id: u64,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix = "item")]
struct ItemKey {
    id: u64,
}

#[test]
fn prefix_is_a_constant_first_field() {
    let key = UserKey { id: 7 }.to_key().unwrap();
    assert_eq!(key, ("user", 7u64).to_key().unwrap());
    assert_eq!(UserKey::from_key(&key).unwrap(), UserKey { id: 7 });
    let err = ItemKey::from_key(&key).unwrap_err();
    assert_eq!((err.location().field(), err.location().name()), (Some(0), Some("prefix")));
    assert!(err.to_string().contains(r#"starts with "user", not this type's prefix "item""#), "{err}");
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(delimited = "/", prefix = "tenant", max_len = 24)]
struct Path {
    #[rowkey(rename = "tenant_name")]
    name: String,
    #[rowkey(skip)]
    cached_len: usize,
}

#[test]
fn max_len_rename_and_skip() {
    let path = Path { name: "acme".into(), cached_len: 4 };
    let key = path.to_key().unwrap();
    assert_eq!(key, "tenant/acme");
    // A skipped field is not in the key and decodes to its default.
    assert_eq!(Path::from_key(&key).unwrap(), Path { name: "acme".into(), cached_len: 0 });

    let mut buf = Key::from("leftover");
    let long = Path { name: "a_tenant_with_a_long_name".into(), cached_len: 0 };
    assert_eq!(long.encode_into(&mut buf), Err(Error::TooLong { len: 32, max: 24 }));
    assert!(buf.is_empty());

    let err = Path { name: "a/b".into(), cached_len: 0 }.to_key().unwrap_err();
    assert_eq!(err.location().name(), Some("tenant_name"), "{err}");
}

/// Every field attribute of the ordered format against the tuple of wrappers it stands for.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Wrapped {
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
}

#[test]
fn ordered_attributes_are_the_runtime_wrappers() {
    let row = Wrapped {
        kind: "acct".into(),
        seq: 12,
        id: 1,
        account: 42,
        balance: Some(1_000),
        version: 3,
        tags: vec![0, 1, 0xff],
    };
    let key = row.to_key().unwrap();
    let by_hand = (
        "acct",
        BitReversed(12i64),
        BitReversed(1u64),
        BigEndian(42u32),
        Desc(Some(BigEndian(1_000i64))),
        Reversed(3u64),
        Desc(vec![0u8, 1, 0xff]),
    )
        .to_key()
        .unwrap();
    assert_eq!(key, by_hand);
    assert_eq!(Wrapped::from_key(&key).unwrap(), row);
    assert_eq!(<Wrapped as OrderedKey>::FIELDS, 7);

    let err = Wrapped { balance: Some(-1), ..row }.to_key().unwrap_err();
    assert_eq!(err.location().name(), Some("balance"), "{err}");
}

/// The delimited format's attributes, optional fields included.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
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

#[test]
fn delimited_attributes_are_the_runtime_wrappers() {
    let row = TextFields {
        host: Some("maps.google.com".into()),
        digest: vec![0xab, 0x01],
        short: Some([0, 0xff]),
        day: Some(20200501),
        seq: 1,
        delta: -1,
        flag: true,
    };
    let key = row.to_key().unwrap();
    assert_eq!(key, "com.google.maps#ab01#00ff#20200501#09223372036854775808#-99998#true");
    let by_hand = Delimited::default()
        .to_key(&(
            Some(ReversedDomain("maps.google.com")),
            Hex(vec![0xabu8, 0x01]),
            Some(Hex([0u8, 0xff])),
            Some(Padded::<u32, 8>(20200501)),
            BitReversed(1u64),
            -1i16,
            true,
        ))
        .unwrap();
    assert_eq!(key, by_hand);
    assert_eq!(TextFields::from_key(&key).unwrap(), row);

    let empty = TextFields { host: None, short: None, day: None, ..row };
    let key = empty.to_key().unwrap();
    assert_eq!(key, "#ab01###09223372036854775808#-99998#true");
    assert_eq!(TextFields::from_key(&key).unwrap(), empty);
}

/// Flattening inlines another derived key's fields.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Device {
    kind: String,
    id: u32,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
struct Sample {
    #[rowkey(flatten)]
    device: Device,
    #[rowkey(desc)]
    ts: i64,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct DeviceText {
    kind: String,
    #[rowkey(hex)]
    id: u32,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "s")]
struct SampleText {
    #[rowkey(flatten)]
    device: DeviceText,
    #[rowkey(reverse)]
    ts: i64,
}

/// A borrowed key flattened into a borrowed key: both decode without copying.
#[derive(RowKey, Debug, PartialEq)]
struct DeviceRef<'a> {
    kind: &'a str,
    id: &'a [u8],
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix = "r")]
struct SampleRef<'a> {
    #[rowkey(flatten)]
    device: DeviceRef<'a>,
    label: Option<&'a str>,
}

#[test]
fn flatten_inlines_the_fields() {
    let borrowed = SampleRef { device: DeviceRef { kind: "phone", id: b"\x01\x02" }, label: Some("x") };
    let key = borrowed.to_key().unwrap();
    assert_eq!(key, ("r", "phone", &b"\x01\x02"[..], Some("x")).to_key().unwrap());
    assert_eq!(SampleRef::from_key(&key).unwrap(), borrowed);
    assert_eq!(SampleRef::SCHEMA.field_count(), 4);

    let sample = Sample { device: Device { kind: "phone".into(), id: 7 }, ts: 99 };
    let key = sample.to_key().unwrap();
    assert_eq!(key, ("phone", 7u32, Desc(99i64)).to_key().unwrap());
    assert_eq!(Sample::from_key(&key).unwrap(), sample);
    assert_eq!(<Sample as OrderedKey>::FIELDS, 3);
    assert_eq!(Sample::SCHEMA.field_count(), 3);

    let text = SampleText { device: DeviceText { kind: "phone".into(), id: 0x4c41_0523 }, ts: 5 };
    let key = text.to_key().unwrap();
    assert_eq!(key, "s#phone#4c410523#9223372036854775802");
    assert_eq!(SampleText::from_key(&key).unwrap(), text);
    assert_eq!(<SampleText as DelimitedKey>::FIELDS, 4);
    // The delimiter check sees the flattened fields' alphabets: '0' is a hex digit.
    assert!(Delimited::for_key::<SampleText>("#").is_ok());
    assert!(Delimited::for_key::<SampleText>("0").unwrap_err().to_string().contains("field 2"));
}

#[test]
fn schema_describes_the_key() {
    let schema = SaltedReading::SCHEMA;
    assert_eq!(schema.type_name, "SaltedReading");
    assert_eq!(schema.format, Format::Delimited("#"));
    let salt = schema.salt.unwrap();
    assert_eq!((salt.buckets, salt.hash, salt.from), (16, SaltHash::FarmHash, &["device_id"][..]));
    assert_eq!(schema.field_count(), <SaltedReading as DelimitedKey>::FIELDS);
    let ts = schema.field("ts_millis").unwrap();
    assert_eq!(ts.encoding, Encoding::Decimal { width: 19, signed: false });
    assert_eq!(ts.transform, Transform::Reverse { max: i64::MAX.unsigned_abs() });
    assert_eq!(ts.rust_type, "i64");

    let wrapped = Wrapped::SCHEMA;
    let encodings: Vec<_> = wrapped.fields.iter().map(|f| (f.name, f.encoding, f.descending)).collect();
    assert_eq!(
        encodings,
        [
            ("kind", Encoding::Utf8, false),
            ("seq", Encoding::Int64, false),
            ("id", Encoding::Uint64, false),
            ("account", Encoding::BigEndianInt64, false),
            ("balance", Encoding::BigEndianInt64, true),
            ("version", Encoding::Uint64, false),
            ("tags", Encoding::Bytes, true),
        ]
    );
    assert_eq!(wrapped.field("seq").unwrap().transform, Transform::BitReverse { keep_sign: true });
    assert!(wrapped.field("balance").unwrap().optional);

    assert_eq!(WebPage::SCHEMA.field("crawled").unwrap().encoding, Encoding::TimestampMicros);
    assert_eq!(WebPage::SCHEMA.field("host").unwrap().transform, Transform::ReverseDomain);
    assert_eq!(Path::SCHEMA.max_len, 24);
    assert_eq!(Path::SCHEMA.fields.len(), 1, "skipped fields are not part of the key");
    assert_eq!(Path::SCHEMA.key_fields()[0], KeyField::Prefix("tenant"));

    let sample = Sample::SCHEMA;
    assert_eq!(sample.fields[0].encoding, Encoding::Flattened(&Device::SCHEMA));
    let names: Vec<_> = sample.key_fields().iter().map(KeyField::name).collect();
    assert_eq!(names, ["kind", "id", "ts"]);
}

/// An ordered key with descending and optional fields, for the property tests.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Event {
    kind: String,
    #[rowkey(desc)]
    at: i64,
    tag: Option<u32>,
    #[rowkey(desc)]
    note: Option<String>,
}

impl Event {
    /// The order the key must have: field by field, the `desc` ones reversed.
    fn order(&self) -> impl Ord + '_ {
        (&self.kind, std::cmp::Reverse(self.at), self.tag, std::cmp::Reverse(&self.note))
    }
}

fn events() -> impl Strategy<Value = Event> {
    let text = prop_oneof![Just(String::new()), "[a\\x00\\xff]{0,3}", any::<String>()];
    (text.clone(), any::<i64>(), any::<Option<u32>>(), proptest::option::of(text))
        .prop_map(|(kind, at, tag, note)| Event { kind, at, tag, note })
}

proptest! {
    #[test]
    fn event_keys_round_trip_and_match_the_tuple(event in events()) {
        let key = event.to_key().unwrap();
        prop_assert_eq!(Event::from_key(&key).unwrap(), event.clone());
        let tuple = (event.kind.as_str(), Desc(event.at), event.tag, Desc(event.note.as_deref())).to_key().unwrap();
        prop_assert_eq!(key, tuple);
    }

    #[test]
    fn event_keys_sort_like_the_events(a in events(), b in events()) {
        let (ka, kb) = (a.to_key().unwrap(), b.to_key().unwrap());
        prop_assert_eq!(ka.cmp(&kb), a.order().cmp(&b.order()), "{:?} vs {:?}", a, b);
    }

    #[test]
    fn tenant_keys_round_trip_and_sort(
        a in ("[a-z0-9-]{0,6}", "[a-z]{1,5}", any::<u32>(), 0u32..100_000_000),
        b in ("[a-z0-9-]{0,6}", "[a-z]{1,5}", any::<u32>(), 0u32..100_000_000),
    ) {
        let row = |(tenant, device_type, device_id, date): (String, String, u32, u32)| {
            TenantReading { tenant, device_type, device_id, date }
        };
        let (ra, rb) = (row(a.clone()), row(b.clone()));
        let (ka, kb) = (ra.to_key().unwrap(), rb.to_key().unwrap());
        prop_assert_eq!(TenantReading::from_key(&ka).unwrap(), ra);
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
    }
}

/// Generic keys: the type parameters get the bounds their fields need.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
struct Pair<T> {
    first: T,
    #[rowkey(desc)]
    second: T,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
struct Tagged<T> {
    tag: String,
    #[rowkey(flatten)]
    pair: Pair<T>,
}

#[test]
fn generic_keys_and_generic_flatten() {
    let tagged = Tagged { tag: "t".into(), pair: Pair { first: 5u32, second: 6u32 } };
    let key = tagged.to_key().unwrap();
    assert_eq!(key, ("t", 5u32, Desc(6u32)).to_key().unwrap());
    assert_eq!(Tagged::<u32>::from_key(&key).unwrap(), tagged);
    let names: Vec<_> = Tagged::<u32>::SCHEMA.key_fields().iter().map(KeyField::name).collect();
    assert_eq!(names, ["tag", "first", "second"]);
    assert_eq!(Pair::<String>::SCHEMA.fields[0].encoding, Encoding::Custom);
}

/// Every key type this file defines, through `rowkey::testing`: arbitrary bytes never make a
/// decoder panic, and the ones with a natural order keep it in their bytes.
#[test]
fn every_key_type_here_passes_the_testing_helpers() {
    use rowkey::testing::{assert_decode_total, assert_order_preserving_with, assert_prefix_isolated, edge_i64};

    assert_decode_total::<DeviceReading>();
    assert_decode_total::<SaltedReading>();
    assert_decode_total::<TenantReading>();
    assert_decode_total::<WebPage>();
    assert_decode_total::<Monitor>();
    assert_decode_total::<SeriesPoint>();
    assert_decode_total::<MonitorText>();
    assert_decode_total::<UserKey>();
    assert_decode_total::<ItemKey>();
    assert_decode_total::<Path>();
    assert_decode_total::<Wrapped>();
    assert_decode_total::<TextFields>();
    assert_decode_total::<Sample>();
    assert_decode_total::<SampleText>();
    assert_decode_total::<Event>();
    assert_decode_total::<Tagged<u16>>();

    // The device key: type, id, then time newest first.
    let device = || ("[a-c]{0,3}", "[0-9a-f]{2}", 0i64..i64::MAX).prop_map(|(t, id, ts)| reading(&t, &id, ts));
    let by_key_order = |a: &DeviceReading, b: &DeviceReading| {
        (&a.device_type, &a.device_id, b.ts_millis).cmp(&(&b.device_type, &b.device_id, a.ts_millis))
    };
    assert_order_preserving_with((device(), device()), by_key_order);

    // Events: kind, time newest first, tag, note descending.
    let by_event_order = |a: &Event, b: &Event| {
        (&a.kind, Desc(a.at), a.tag, Desc(&a.note)).cmp(&(&b.kind, Desc(b.at), b.tag, Desc(&b.note)))
    };
    assert_order_preserving_with((events(), events()), by_event_order);

    // Tenants never see each other's rows.
    let tenants = ("[$-&a-c]{0,4}", "[a-c]{1,2}", any::<u32>(), 0u32..99_999_999)
        .prop_map(|(tenant, device_type, device_id, date)| TenantReading { tenant, device_type, device_id, date });
    assert_prefix_isolated(
        tenants,
        |t: &TenantReading| t.tenant.clone(),
        |tenant: &String| TenantReading::scan().tenant(tenant).ranges(),
    );

    let monitors =
        (edge_i64(), "[a-c]{0,2}", "[a-c]{0,2}").prop_map(|(time, host, metric)| Monitor { time, host, metric });
    let by_monitor_order = |a: &Monitor, b: &Monitor| (a.time, &a.host, &a.metric).cmp(&(b.time, &b.host, &b.metric));
    // Salted keys sort by bucket first: order holds within a bucket, so compare buckets too.
    let salt = Salt::new(16, SaltHash::Modulo).unwrap();
    let bucket = move |m: &Monitor| salt.bucket(&(m.time,)).unwrap();
    assert_order_preserving_with((monitors.clone(), monitors), move |a, b| {
        bucket(a).cmp(&bucket(b)).then(by_monitor_order(a, b))
    });
}
