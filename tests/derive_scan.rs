//! The generated scan builders against a brute-force filter over a `BTreeMap`: fixed
//! fields, next-field ranges (ascending, descending, reversed), prefixes, salted fan-out and
//! known buckets, in both formats.

mod common;

use common::keys::{Monitor, Reading};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::testing::{assert_decode_total, assert_scan_exact, edge_strings};

/// A tenant table in the ordered format, with a descending time and an optional tag.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "t")]
struct Event {
    tenant: String,
    #[rowkey(desc)]
    at: SystemTime,
    kind: Option<String>,
}

fn reading() -> impl Strategy<Value = Reading> {
    ("(phone|tab|watch)", "[0-9a-f]{2}", 0i64..1_000).prop_map(|(device_type, device_id, ts_millis)| Reading {
        device_type,
        device_id,
        ts_millis,
    })
}

#[test]
fn reading_scans_are_exact() {
    let rows = || prop::collection::vec(reading(), 0..80);
    // One device, a time window: one bucket, one range, newest first.
    assert_scan_exact(
        rows(),
        (reading(), 0i64..1_000, 0i64..1_000),
        |(r, a, b): &(Reading, i64, i64)| {
            Reading::scan().device_type(&r.device_type).device_id(&r.device_id).ts_millis_range(*a..*b).ranges()
        },
        |(r, a, b): &(Reading, i64, i64), row: &Reading| {
            row.device_type == r.device_type && row.device_id == r.device_id && (*a..*b).contains(&row.ts_millis)
        },
    );
    // One type, every device: the bucket is unknown, so 16 ranges.
    assert_scan_exact(
        rows(),
        "(phone|tab|watch)",
        |kind: &String| Reading::scan().device_type(kind).ranges(),
        |kind: &String, row: &Reading| row.device_type == *kind,
    );
    // A prefix of the type.
    assert_scan_exact(
        rows(),
        "(p|t|w|ph|wa)?",
        |start: &String| Reading::scan().device_type_starts_with(start).ranges(),
        |start: &String, row: &Reading| row.device_type.starts_with(start.as_str()),
    );
}

#[test]
fn a_known_bucket_reads_one_range() {
    let ranges = Reading::scan().device_type("phone").device_id("4c410523").ranges().unwrap();
    assert_eq!(ranges.len(), 1, "{ranges}");
    let all = Reading::scan().device_type("phone").ranges().unwrap();
    assert_eq!(all.len(), 16, "{all}");
    let key = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 7 }.to_key().unwrap();
    assert!(ranges.contains(&key) && all.contains(&key));
}

fn event() -> impl Strategy<Value = Event> {
    (edge_strings(), 0u64..50, prop::option::of("[ab]{0,2}")).prop_map(|(tenant, s, kind)| Event {
        tenant,
        at: UNIX_EPOCH + Duration::from_secs(s),
        kind,
    })
}

#[test]
fn event_scans_are_exact() {
    let rows = || prop::collection::vec(event(), 0..80);
    assert_scan_exact(
        rows(),
        (event(), 0u64..50, 0u64..50),
        |(e, a, b): &(Event, u64, u64)| {
            let (a, b) = (UNIX_EPOCH + Duration::from_secs(*a), UNIX_EPOCH + Duration::from_secs(*b));
            Event::scan().tenant(&e.tenant).at_range(a..=b).ranges()
        },
        |(e, a, b): &(Event, u64, u64), row: &Event| {
            let (a, b) = (UNIX_EPOCH + Duration::from_secs(*a), UNIX_EPOCH + Duration::from_secs(*b));
            row.tenant == e.tenant && (a..=b).contains(&row.at)
        },
    );
    assert_scan_exact(
        rows(),
        event(),
        |e: &Event| Event::scan().tenant(&e.tenant).at(e.at).kind_range(..e.kind.clone()).ranges(),
        |e: &Event, row: &Event| row.tenant == e.tenant && row.at == e.at && row.kind < e.kind,
    );
    assert_scan_exact(
        rows(),
        event(),
        |e: &Event| Event::scan().tenant(&e.tenant).at(e.at).kind(e.kind.clone()).ranges(),
        |e: &Event, row: &Event| row == e,
    );
}

#[test]
fn modulo_salted_scans_are_exact() {
    let rows = prop::collection::vec(
        (0i64..200, "[a-c]{1,2}").prop_map(|(time, host)| Monitor { time, host, metric: "cpu".into() }),
        0..80,
    );
    assert_scan_exact(
        rows,
        (0i64..200, "[a-c]{0,2}"),
        |(time, host): &(i64, String)| Monitor::scan().time(*time).host_starts_with(host).ranges(),
        |(time, host): &(i64, String), row: &Monitor| row.time == *time && row.host.starts_with(host.as_str()),
    );
    // A range over the salt source itself: the bucket is unknown, so every bucket is read.
    let ranges = Monitor::scan().time_range(10..20).ranges().unwrap();
    assert_eq!(ranges.len(), 16);
}

#[test]
fn derived_keys_decode_any_bytes() {
    assert_decode_total::<Reading>();
    assert_decode_total::<Event>();
    assert_decode_total::<Monitor>();
}
