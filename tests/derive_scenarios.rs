//! `#[derive(RowKey)]` on the key designs of the Bigtable and Tablestore guides: they
//! round-trip, scan as expected over a `BTreeMap` standing in for the table, and are
//! byte-identical to the equivalent tuple, `Delimited` and `Salt` keys built by hand.

mod common;

use common::keys::{DeviceReading, Monitor, Reading, TenantReading, WebPage};

use std::collections::BTreeMap;
use std::ops::Bound;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::field::{Hex, Padded, Reversed};
use rowkey::format::Delimited;
use rowkey::salt::{Salt, SaltHash};
use rowkey::scan::{DelimitedScan, OrderedScan};
use rowkey::transform::ReversedDomain;
use rowkey::{Desc, Error, Key, KeyRanges, RowKey};

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

#[test]
fn salted_device_reading_matches_salt_delimited_key() {
    let row = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 };
    assert_eq!(row.to_key().unwrap(), "01#phone#4c410523#9223370448563575807");
    let salt = Salt::farmhash(16).unwrap();
    for (device_type, device_id, ts) in [("phone", "4c410523", 1_588_291_200_000i64), ("tablet", "", 0), ("a", "b", 7)]
    {
        let row = Reading { device_type: device_type.into(), device_id: device_id.into(), ts_millis: ts };
        let key = row.to_key().unwrap();
        let by_hand =
            salt.delimited_key(&Delimited::default(), &(device_id,), &(device_type, device_id, Reversed(ts))).unwrap();
        assert_eq!(key, by_hand);
        assert_eq!(&key[2..3], b"#", "16 buckets take two digits: {key}");
        assert_eq!(Reading::from_key(&key).unwrap(), row);
    }
}

#[test]
fn salted_key_with_a_wrong_bucket_is_refused() {
    let row = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1 };
    let mut bytes = row.to_key().unwrap().into_vec();
    let bucket = (u32::from(bytes[0] - b'0') * 10 + u32::from(bytes[1] - b'0') + 1) % 16;
    bytes[..2].copy_from_slice(format!("{bucket:02}").as_bytes());
    let err = Reading::from_key(&bytes).unwrap_err();
    assert!(matches!(err, Error::InvalidField { .. }), "{err}");
    assert_eq!(err.location().name(), Some("bucket"));
    assert!(err.to_string().contains("salt source fields give bucket"), "{err}");
    // A bucket of the wrong width is refused too.
    let err = Reading::from_key(&bytes[1..]).unwrap_err();
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

proptest! {
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

/// Every key type this file defines, through `rowkey::testing`: arbitrary bytes never make a
/// decoder panic, and the ones with a natural order keep it in their bytes.
#[test]
fn every_scenario_key_passes_the_testing_helpers() {
    use rowkey::testing::{assert_decode_total, assert_order_preserving_with, assert_prefix_isolated, edge_i64};

    assert_decode_total::<DeviceReading>();
    assert_decode_total::<Reading>();
    assert_decode_total::<TenantReading>();
    assert_decode_total::<WebPage>();
    assert_decode_total::<Monitor>();
    assert_decode_total::<SeriesPoint>();
    assert_decode_total::<MonitorText>();
    // The device key: type, id, then time newest first.
    let device = || ("[a-c]{0,3}", "[0-9a-f]{2}", 0i64..i64::MAX).prop_map(|(t, id, ts)| reading(&t, &id, ts));
    let by_key_order = |a: &DeviceReading, b: &DeviceReading| {
        (&a.device_type, &a.device_id, b.ts_millis).cmp(&(&b.device_type, &b.device_id, a.ts_millis))
    };
    assert_order_preserving_with((device(), device()), by_key_order);

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
