//! MD5 hex-prefix salts (Tablestore's "first 4 hex characters of MD5(ip)"): the bucket field is
//! the digest's first hex digits in both formats and at every digit count; derived keys round
//! trip, sort by (bucket, fields), fan out into scans that return exactly the matching keys and
//! merge back into unsalted order; inspection agrees with `from_key`; and a bucket that is not
//! exactly what the salt writes is refused naming the bucket field.
//!
//! The property tests run `PROPTEST_CASES` cases, or a modest count of their own when it is
//! unset (a fan-out over 4096 or 65536 buckets is slow per case).
#![cfg(feature = "md5")]

mod common;

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::net::Ipv4Addr;

use chrono::{DateTime, Utc};
use common::typed::{MachineMetric, MachineMetricOrdered};
use common::{DeviceEvent, DeviceEventText, Md5Name, Md5NameOrdered};
use proptest::prelude::*;
use rowkey::field::Cidr;
use rowkey::format::Delimited;
use rowkey::salt::{Salt, SaltHash};
use rowkey::schema::{Format, KeySchema};
use rowkey::testing::{assert_order_preserving_with, assert_scan_exact, ip_addrs, ipv4s, text_timestamps, timestamps};
use rowkey::{Key, RowKey, RowKeyOwned};

/// `PROPTEST_CASES` when set, else `cases`.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

fn metric() -> impl Strategy<Value = MachineMetric> {
    (ipv4s(), text_timestamps(), "(cpu|mem|disk)").prop_map(|(ip, at, metric)| MachineMetric { ip, at, metric })
}

fn ordered_metric() -> impl Strategy<Value = MachineMetricOrdered> {
    (ip_addrs(), "(cpu|mem)", timestamps()).prop_map(|(ip, metric, at)| MachineMetricOrdered { ip, metric, at })
}

/// Few devices and small sequence numbers, so that rows share devices and buckets.
fn device() -> impl Strategy<Value = String> + Clone {
    "[a-c]{0,2}"
}

fn seq() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![0u64..12, any::<u64>()]
}

fn event() -> impl Strategy<Value = DeviceEvent> {
    (device(), seq()).prop_map(|(device, seq)| DeviceEvent { device, seq })
}

fn event_text() -> impl Strategy<Value = DeviceEventText> {
    (device(), seq()).prop_map(|(device, seq)| DeviceEventText { device, seq })
}

/// The bucket as the key writes it: `digits` lowercase hex digits.
fn hex(bucket: u32, digits: usize) -> String {
    format!("{bucket:0digits$x}")
}

fn md5(buckets: u32) -> Salt {
    Salt::md5_hex(buckets).unwrap()
}

/// The bucket field's text as inspection shows it, and its byte offset in the key.
fn inspected_bucket<T: KeySchema>(key: &[u8]) -> (String, usize) {
    let inspection = T::SCHEMA.inspect(key).unwrap();
    let field = inspection.fields().iter().find(|f| f.name() == "bucket").expect("a bucket field");
    (field.value().as_str().expect("hex text").to_owned(), field.offset())
}

/// A row's key decodes back to it, and shows the bucket its source fields give.
fn assert_round_trip<T>(row: &T, bucket: String) -> Result<(), TestCaseError>
where
    T: RowKeyOwned + KeySchema + PartialEq + Debug,
{
    let key = row.to_key().unwrap();
    let back = T::from_key(&key);
    prop_assert_eq!(back.as_ref().ok(), Some(row), "{}", key);
    prop_assert_eq!(inspected_bucket::<T>(&key).0, bucket, "{}", key);
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]

    /// One, two, three and four digits, in both formats.
    #[test]
    fn md5_keys_round_trip_in_both_formats(
        event in event(), text in event_text(), metric in metric(), ordered in ordered_metric(),
    ) {
        assert_round_trip(&event, hex(md5(16).bucket(&(event.seq,)).unwrap(), 1))?;
        let bucket = md5(256).bucket(&(ordered.ip, ordered.metric.as_str())).unwrap();
        assert_round_trip(&ordered, hex(bucket, 2))?;
        assert_round_trip(&text, hex(md5(4096).bucket(&(text.seq,)).unwrap(), 3))?;
        assert_round_trip(&metric, hex(md5(65_536).bucket(&(metric.ip,)).unwrap(), 4))?;

        // A key without a prefix starts with the digits.
        let (key, digits) = (text.to_key().unwrap(), hex(md5(4096).bucket(&(text.seq,)).unwrap(), 3));
        prop_assert!(key.starts_with(format!("{digits}#").as_bytes()), "{}", key);
    }

    /// The salt API on its own: the same bucket field, read back by its decoders.
    #[test]
    fn salted_tuples_round_trip_in_both_formats(name in "[a-z0-9.]{0,10}", n in 0u64..1000, digits in 1u32..=4) {
        let salt = md5(16u32.pow(digits));
        let bucket = salt.bucket(&(name.as_str(),)).unwrap();
        let ordered = salt.ordered_key(&(name.as_str(),), &(name.as_str(), n)).unwrap();
        prop_assert_eq!(salt.decode_ordered::<(String, u64)>(&ordered).unwrap(), (bucket, (name.clone(), n)));
        let format = Delimited::default();
        let delimited = salt.delimited_key(&format, &(name.as_str(),), &(name.as_str(), n)).unwrap();
        prop_assert!(delimited.starts_with(format!("{}#", hex(bucket, digits as usize)).as_bytes()), "{}", delimited);
        prop_assert_eq!(salt.decode_delimited::<(String, u64)>(&format, &delimited).unwrap(), (bucket, (name, n)));
    }
}

#[test]
fn device_events_sort_by_bucket_then_fields_in_both_formats() {
    let salt = md5(16);
    let bucket = |e: &DeviceEvent| salt.bucket(&(e.seq,)).unwrap();
    assert_order_preserving_with((event(), event()), |a: &DeviceEvent, b: &DeviceEvent| {
        (bucket(a), a).cmp(&(bucket(b), b))
    });
    let salt = md5(4096);
    let bucket = |e: &DeviceEventText| salt.bucket(&(e.seq,)).unwrap();
    assert_order_preserving_with((event_text(), event_text()), |a: &DeviceEventText, b: &DeviceEventText| {
        (bucket(a), a).cmp(&(bucket(b), b))
    });
}

#[test]
fn delimited_keys_start_with_the_md5_prefix_and_sort_by_it() {
    let salt = md5(65_536);
    let bucket = |m: &MachineMetric| salt.bucket(&(m.ip,)).unwrap();
    let cmp = |a: &MachineMetric, b: &MachineMetric| {
        (bucket(a), a.ip, a.at, &a.metric).cmp(&(bucket(b), b.ip, b.at, &b.metric))
    };
    assert_order_preserving_with((metric(), metric()), cmp);
}

#[test]
fn ordered_keys_sort_by_bucket_then_fields() {
    let salt = md5(256);
    let bucket = |m: &MachineMetricOrdered| salt.bucket(&(m.ip, m.metric.as_str())).unwrap();
    let cmp = |a: &MachineMetricOrdered, b: &MachineMetricOrdered| {
        (bucket(a), a.ip, &a.metric, Reverse(a.at)).cmp(&(bucket(b), b.ip, &b.metric, Reverse(b.at)))
    };
    assert_order_preserving_with((ordered_metric(), ordered_metric()), cmp);
}

#[test]
fn the_bucket_is_the_digest_prefix() -> rowkey::Result<()> {
    // MD5 of the address's ordered encoding, its 4 bytes.
    let ip = Ipv4Addr::new(10, 10, 0, 1);
    let row = MachineMetric { ip, at: "2020-05-01T00:00:00Z".parse().unwrap(), metric: "cpu".into() };
    let key = row.to_key()?;
    let bucket = Salt::md5_hex(65_536)?.bucket(&(ip,))?;
    assert_eq!(key.to_string(), format!("{bucket:04x}#010.010.000.001#2020-05-01T00:00:00.000000Z#cpu"));
    assert_eq!(MachineMetric::from_key(&key)?, row);
    assert_eq!(
        MachineMetric::SCHEMA.inspect(&key)?.to_string(),
        format!("bucket={bucket:04x} ip=10.10.0.1 at=2020-05-01T00:00:00Z metric=cpu")
    );
    Ok(())
}

#[test]
fn the_schema_shows_the_hex_digits() {
    let salt = MachineMetric::SCHEMA.salt.expect("a salted key");
    assert_eq!((salt.buckets, salt.hash, salt.from), (65_536, SaltHash::Md5Hex, &["ip"][..]));
    assert_eq!(salt.to_string(), "65536 buckets, md5 hex(4) of ip");
    assert!(DeviceEvent::SCHEMA.to_string().contains("\n  bucket: 16 buckets, md5 hex(1) of seq\n"));
    assert_eq!(Md5Name::SCHEMA.salt.unwrap().to_string(), "65536 buckets, md5 hex(4) of name");
}

#[test]
fn md5_bucket_counts_are_the_powers_of_16() {
    for (digits, buckets) in [(1, 16), (2, 256), (3, 4096), (4, 65_536)] {
        let salt = Salt::new(buckets, SaltHash::Md5Hex).unwrap();
        assert_eq!((salt.hex_digits(), salt.text_width()), (digits, digits), "{buckets}");
        assert_eq!(salt.ordered_prefixes().len(), buckets as usize);
        assert_eq!(
            salt.delimited_prefixes(&Delimited::default()).last().unwrap(),
            &*format!("{}#", "f".repeat(digits))
        );
    }
    for buckets in [0, 1, 2, 15, 17, 100, 255, 1000, 65_535, 65_537, 1 << 20, u32::MAX] {
        let err = Salt::new(buckets, SaltHash::Md5Hex).unwrap_err().to_string();
        assert!(err.contains("16, 256, 4096 or 65536") && err.contains(&buckets.to_string()), "{buckets}: {err}");
    }
}

fn near_instants() -> impl Strategy<Value = DateTime<Utc>> {
    (-3i64..3).prop_map(|s| DateTime::from_timestamp(1_588_291_200 + s, 0).unwrap())
}

#[test]
fn scans_of_one_machine_a_segment_and_a_window_are_exact() {
    let ips = prop_oneof![(0u8..2, 0u8..3).prop_map(|(c, d)| Ipv4Addr::new(10, 10, c, d)), ipv4s()];
    let rows = prop::collection::vec(
        (ips.clone(), near_instants(), "(cpu|mem)").prop_map(|(ip, at, metric)| MachineMetric { ip, at, metric }),
        0..30,
    );
    // One machine in a time window: one range.
    assert_scan_exact(
        rows,
        (ips, near_instants(), near_instants()),
        |(ip, t0, t1): &(Ipv4Addr, DateTime<Utc>, DateTime<Utc>)| {
            let ranges = MachineMetric::scan().ip(*ip).at_range(*t0..*t1).ranges()?;
            assert!(ranges.len() <= 1, "{ranges}"); // none for an empty window
            Ok(ranges)
        },
        |(ip, t0, t1), row: &MachineMetric| row.ip == *ip && (*t0..*t1).contains(&row.at),
    );
}

/// A device's events in a sequence window: the bucket comes from the sequence number, so the
/// read fans out over every bucket, one range each, and returns exactly the window's events.
#[test]
fn a_device_read_fans_out_and_is_exact_in_both_formats() {
    let window = (device(), seq(), seq());
    assert_scan_exact(
        prop::collection::vec(event(), 0..30),
        window.clone(),
        |(device, lo, hi): &(String, u64, u64)| {
            let ranges = DeviceEvent::scan().device(device).seq_range(*lo..*hi).ranges()?;
            assert!(ranges.len() == 16 || (lo >= hi && ranges.is_empty()), "{ranges}");
            Ok(ranges)
        },
        |(device, lo, hi), e: &DeviceEvent| e.device == *device && (*lo..*hi).contains(&e.seq),
    );
    assert_scan_exact(
        prop::collection::vec(event_text(), 0..30),
        window,
        |(device, lo, hi): &(String, u64, u64)| {
            let ranges = DeviceEventText::scan().device(device).seq_range(*lo..*hi).ranges()?;
            assert!(ranges.len() == 4096 || (lo >= hi && ranges.is_empty()), "{}", ranges.len());
            Ok(ranges)
        },
        |(device, lo, hi), e: &DeviceEventText| e.device == *device && (*lo..*hi).contains(&e.seq),
    );
}

/// One machine's metrics: the bucket needs the metric too, so 256 ranges.
#[test]
fn a_machine_read_fans_out_over_every_bucket() {
    let ips = prop_oneof![Just("10.0.0.1".parse().unwrap()), Just("::1".parse().unwrap()), ip_addrs()];
    assert_scan_exact(
        prop::collection::vec(
            (ips.clone(), "(cpu|mem)", timestamps()).prop_map(|(ip, metric, at)| MachineMetricOrdered {
                ip,
                metric,
                at,
            }),
            0..20,
        ),
        ips,
        |ip: &std::net::IpAddr| {
            let ranges = MachineMetricOrdered::scan().ip(*ip).ranges()?;
            assert_eq!(ranges.len(), 256);
            Ok(ranges)
        },
        |ip, row: &MachineMetricOrdered| row.ip == *ip,
    );
}

/// The keys under each bucket's prefix, in key order: what one scan per bucket returns.
fn bucket_streams(table: &BTreeSet<Key>, prefixes: &[Key]) -> Vec<Vec<Key>> {
    prefixes
        .iter()
        .map(|prefix| table.range(prefix.clone()..).take_while(|k| k.starts_with(prefix.as_bytes())).cloned().collect())
        .collect()
}

proptest! {
    #![proptest_config(config(16))]

    /// A /24 segment: every bucket, the block inside each (65,536 ranges, so few cases).
    #[test]
    fn a_segment_fans_out_over_every_bucket(rows in prop::collection::vec(metric(), 0..20), c in 0u8..2) {
        let block: Cidr<Ipv4Addr> = format!("10.10.{c}.0/24").parse().unwrap();
        let ranges = MachineMetric::scan().ip_range(block).ranges().unwrap();
        prop_assert_eq!(ranges.len(), 65_536);
        for row in rows {
            let key = row.to_key().unwrap();
            prop_assert_eq!(ranges.contains(&key), block.contains(&row.ip));
        }
    }

    /// Each bucket's keys sorted, merged by the unsalted key: every row once, in the order of
    /// its fields, as an unsalted table would list them.
    #[test]
    fn bucket_scans_merge_into_field_order(events in prop::collection::vec(event(), 0..40)) {
        let table: BTreeSet<Key> = events.iter().map(|e| e.to_key().unwrap()).collect();
        let streams = bucket_streams(&table, &md5(16).ordered_prefixes());
        prop_assert_eq!(streams.iter().map(Vec::len).sum::<usize>(), table.len());
        let merged: Vec<DeviceEvent> =
            rowkey::merge(streams, |k| DeviceEvent::SCHEMA.unsalted(k).unwrap().to_vec())
                .map(|k| DeviceEvent::from_key(&k).unwrap())
                .collect();
        let want: Vec<DeviceEvent> = events.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
        prop_assert_eq!(merged, want);
    }

    #[test]
    fn delimited_bucket_scans_merge_into_field_order(events in prop::collection::vec(event_text(), 0..40)) {
        let table: BTreeSet<Key> = events.iter().map(|e| e.to_key().unwrap()).collect();
        let streams = bucket_streams(&table, &md5(4096).delimited_prefixes(&Delimited::default()));
        prop_assert_eq!(streams.iter().map(Vec::len).sum::<usize>(), table.len());
        let merged: Vec<DeviceEventText> =
            rowkey::merge(streams, |k| DeviceEventText::SCHEMA.unsalted(k).unwrap().to_vec())
                .map(|k| DeviceEventText::from_key(&k).unwrap())
                .collect();
        let want: Vec<DeviceEventText> = events.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
        prop_assert_eq!(merged, want);
    }
}

/// `inspect` and `from_key` accept the same bytes and, on an error, blame the same field, and
/// in the bucket field or an ordered key the same byte too. (A delimited integer that is not
/// all digits is located at its first bad digit by `inspect` and at the field's start by
/// `from_key`, with or without a salt; that is not the salt's to settle.)
fn assert_inspect_agrees<T: RowKeyOwned + KeySchema + Debug>(key: &[u8]) -> Result<(), TestCaseError> {
    let inspected = T::SCHEMA.inspect(key);
    let decoded = T::from_key(key);
    prop_assert_eq!(inspected.is_ok(), decoded.is_ok(), "{:?} / {:?}", inspected.map(|i| i.to_string()), decoded);
    if let (Err(a), Err(b)) = (&inspected, &decoded) {
        let (a, b) = (a.location(), b.location());
        prop_assert_eq!((a.field(), a.name()), (b.field(), b.name()), "{:?} / {:?}", a, b);
        if a.name() == Some("bucket") || T::SCHEMA.format == Format::Ordered {
            prop_assert_eq!(a.offset(), b.offset(), "{:?} / {:?}", a, b);
        }
    }
    Ok(())
}

/// `key` with one byte replaced, the replacement landing in the bucket field half the time.
fn mutated(key: &Key, bucket_len: usize, at: prop::sample::Index, in_bucket: bool, byte: u8) -> Vec<u8> {
    let mut key = key.as_bytes().to_vec();
    let i = if in_bucket { at.index(bucket_len) } else { at.index(key.len()) };
    key[i] = byte;
    key
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn inspect_agrees_with_from_key_in_both_formats(
        ordered in ordered_metric(),
        event in event(),
        text in event_text(),
        metric in metric(),
        at in any::<prop::sample::Index>(),
        in_bucket: bool,
        byte in prop_oneof![any::<u8>(), Just(b'#'), Just(b'A'), Just(b'f'), Just(b'0')],
    ) {
        // How many leading bytes hold the bucket: for the ordered metric, the `m` prefix and
        // its terminator come first.
        assert_inspect_agrees::<MachineMetricOrdered>(&mutated(&ordered.to_key().unwrap(), 5, at, in_bucket, byte))?;
        assert_inspect_agrees::<DeviceEvent>(&mutated(&event.to_key().unwrap(), 1, at, in_bucket, byte))?;
        assert_inspect_agrees::<DeviceEventText>(&mutated(&text.to_key().unwrap(), 3, at, in_bucket, byte))?;
        assert_inspect_agrees::<MachineMetric>(&mutated(&metric.to_key().unwrap(), 4, at, in_bucket, byte))?;
    }
}

/// The ways a bucket field can differ from what the salt writes.
#[derive(Clone, Copy, Debug)]
enum BadBucket {
    Uppercase,
    Shorter,
    Longer,
    NotHex(u8),
    /// The right form, but another bucket than the source fields give.
    Wrong(u32),
}

fn bad_bucket() -> impl Strategy<Value = BadBucket> {
    prop_oneof![
        Just(BadBucket::Uppercase),
        Just(BadBucket::Shorter),
        Just(BadBucket::Longer),
        prop::sample::select(&b"gzGAF:/-x"[..]).prop_map(BadBucket::NotHex),
        (1u32..u32::MAX).prop_map(BadBucket::Wrong),
    ]
}

/// The bucket text `bad` makes of `good`, or `None` when it makes the same text (uppercase of
/// digits only).
fn bad_text(good: &str, bucket: u32, buckets: u32, bad: BadBucket) -> Option<String> {
    let text = match bad {
        BadBucket::Uppercase => good.to_uppercase(),
        BadBucket::Shorter => good[1..].to_owned(),
        BadBucket::Longer => format!("{good}0"),
        BadBucket::NotHex(c) => format!("{}{}", char::from(c), &good[1..]),
        BadBucket::Wrong(by) => hex((bucket + by % (buckets - 1) + 1) % buckets, good.len()),
    };
    (text != good).then_some(text)
}

/// Replaces the bucket text of `row`'s key by a bad one (the text holds no byte the ordered
/// format escapes, so it is the same bytes there), and checks that both decoders refuse it at
/// the bucket field with advice.
fn assert_bad_bucket_refused<T>(row: &T, buckets: u32, bad: BadBucket) -> Result<(), TestCaseError>
where
    T: RowKeyOwned + KeySchema + Debug,
{
    let key = row.to_key().unwrap();
    let (good, at) = inspected_bucket::<T>(&key);
    let bucket = u32::from_str_radix(&good, 16).unwrap();
    let Some(text) = bad_text(&good, bucket, buckets, bad) else { return Ok(()) };
    let bytes = [&key[..at], text.as_bytes(), &key[at + good.len()..]].concat();
    let err = T::from_key(&bytes).expect_err("a bad bucket decoded");
    prop_assert_eq!(err.location().name(), Some("bucket"), "{:?} {}: {}", bad, text, err);
    let advice =
        if matches!(bad, BadBucket::Wrong(_)) { "its salt source fields give bucket" } else { "lowercase hex digits" };
    // Except an ordered key's emptied 1-digit bucket: bytes the ordered format itself refuses.
    if !text.is_empty() {
        prop_assert!(err.to_string().contains(advice), "{:?} {}: {}", bad, text, err);
    }
    let inspected = T::SCHEMA.inspect(&bytes).expect_err("a bad bucket inspected");
    prop_assert_eq!(inspected.location(), err.location(), "{:?} {}: {}", bad, text, inspected);
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn bad_bucket_text_is_refused_naming_the_bucket(
        event in event(),
        text in event_text(),
        metric in metric(),
        ordered in ordered_metric(),
        name in "[a-z]{0,6}",
        bad in bad_bucket(),
    ) {
        assert_bad_bucket_refused(&event, 16, bad)?;
        assert_bad_bucket_refused(&ordered, 256, bad)?;
        assert_bad_bucket_refused(&text, 4096, bad)?;
        assert_bad_bucket_refused(&metric, 65_536, bad)?;
        assert_bad_bucket_refused(&Md5Name { name: name.clone() }, 65_536, bad)?;
        assert_bad_bucket_refused(&Md5NameOrdered { name }, 65_536, bad)?;
    }
}

#[test]
fn uppercase_digits_get_a_lowercase_hint() {
    let err = Md5Name::from_key(b"E674!row1").unwrap_err().to_string();
    assert!(err.contains("found \"E674\"; write the digits in lowercase"), "{err}");
    let err = Md5Name::from_key(b"e67!row1").unwrap_err().to_string();
    assert!(err.contains("4 lowercase hex digits, found \"e67\"") && !err.contains("write the digits"), "{err}");
    let err = Md5Name::from_key(b"e675!row1").unwrap_err().to_string();
    assert!(err.contains("bucket e675, but its salt source fields give bucket e674"), "{err}");
}

#[test]
fn ordering_of_buckets_is_hex_order() {
    // Bucket fields sort as their numbers: hex digits of one width do.
    for buckets in [16, 256] {
        let salt = md5(buckets);
        let prefixes = salt.ordered_prefixes();
        assert!(prefixes.windows(2).all(|w| w[0].cmp(&w[1]) == Ordering::Less));
        let prefixes = salt.delimited_prefixes(&Delimited::default());
        assert!(prefixes.windows(2).all(|w| w[0].cmp(&w[1]) == Ordering::Less));
    }
    assert_eq!(md5(16).ordered_prefixes()[10].as_bytes(), b"a");
}
