//! MD5 hex-prefix salts in derived keys: the bucket field is the digest's first hex digits in
//! both formats, keys sort by (bucket, fields), scans fan out exactly, inspection agrees.

mod common;

use std::cmp::{Ordering, Reverse};
use std::net::Ipv4Addr;

use chrono::{DateTime, Utc};
use common::typed::{MachineMetric, MachineMetricOrdered};
use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::field::Cidr;
use rowkey::salt::Salt;
use rowkey::testing::{assert_order_preserving_with, assert_scan_exact, ip_addrs, ipv4s, text_timestamps, timestamps};

fn metric() -> impl Strategy<Value = MachineMetric> {
    (ipv4s(), text_timestamps(), "(cpu|mem|disk)").prop_map(|(ip, at, metric)| MachineMetric { ip, at, metric })
}

fn ordered_metric() -> impl Strategy<Value = MachineMetricOrdered> {
    (ip_addrs(), "(cpu|mem)", timestamps()).prop_map(|(ip, metric, at)| MachineMetricOrdered { ip, metric, at })
}

#[test]
fn delimited_keys_start_with_the_md5_prefix_and_sort_by_it() {
    let salt = Salt::md5_hex(65_536).unwrap();
    let bucket = |m: &MachineMetric| salt.bucket(&(m.ip,)).unwrap();
    let cmp = |a: &MachineMetric, b: &MachineMetric| {
        (bucket(a), a.ip, a.at, &a.metric).cmp(&(bucket(b), b.ip, b.at, &b.metric))
    };
    assert_order_preserving_with((metric(), metric()), cmp);
}

#[test]
fn ordered_keys_sort_by_bucket_then_fields() {
    let salt = Salt::md5_hex(256).unwrap();
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
fn a_bad_bucket_is_refused_naming_it() -> rowkey::Result<()> {
    let row =
        MachineMetric { ip: Ipv4Addr::LOCALHOST, at: "2020-05-01T00:00:00Z".parse().unwrap(), metric: "cpu".into() };
    let key = row.to_key()?.to_string();
    let (bucket, rest) = key.split_once('#').unwrap();
    let wrong = format!("{:04x}", (u32::from_str_radix(bucket, 16).unwrap() + 1) % 65_536);
    for bad in [bucket.to_uppercase(), bucket[..3].to_owned(), format!("{bucket}0"), "zzzz".to_owned(), wrong] {
        if bad == bucket {
            continue;
        }
        let bytes = format!("{bad}#{rest}");
        let err = MachineMetric::from_key(bytes.as_bytes()).unwrap_err();
        assert_eq!(err.location().name(), Some("bucket"), "{bad}: {err}");
        let inspected = MachineMetric::SCHEMA.inspect(bytes.as_bytes()).unwrap_err();
        assert_eq!(inspected.location().name(), Some("bucket"), "{bad}: {inspected}");
    }
    Ok(())
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

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

    #[test]
    fn inspect_agrees_with_from_key(row in ordered_metric(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut key = row.to_key().unwrap().as_bytes().to_vec();
        let i = at.index(key.len());
        key[i] = byte;
        let inspected = MachineMetricOrdered::SCHEMA.inspect(&key);
        let decoded = MachineMetricOrdered::from_key(&key);
        prop_assert_eq!(inspected.is_ok(), decoded.is_ok(), "{:?} / {:?}", inspected.map(|i| i.to_string()), decoded);
        if let (Err(a), Err(b)) = (&inspected, &decoded) {
            prop_assert_eq!(a.location(), b.location());
        }
    }
}

#[test]
fn ordering_of_buckets_is_hex_order() {
    // Bucket fields sort as their numbers: hex digits of one width do.
    let salt = Salt::md5_hex(16).unwrap();
    let prefixes = salt.ordered_prefixes();
    assert!(prefixes.windows(2).all(|w| w[0].cmp(&w[1]) == Ordering::Less));
    assert_eq!(prefixes[10].as_bytes(), b"a");
}
