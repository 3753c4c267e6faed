//! Derived keys whose fields are UUIDs, ULIDs, chrono / time / jiff instants and dates, and IP
//! addresses: order, round trips, scans over time ranges and CIDR blocks, and inspection.

mod common;

use std::cmp::Ordering;
use std::net::{IpAddr, Ipv4Addr};

use chrono::{DateTime, Utc};
use common::typed::{Audit, ByUser, Machine, Order, Readable, Typed};
use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::field::{Cidr, ulid_range};
use rowkey::testing::{
    assert_order_preserving_with, assert_scan_exact, dates, edge_strings, ip_addrs, ipv4s, text_dates, text_timestamps,
    timestamps, timestamps_nanos, ulids, uuids,
};

fn typed() -> impl Strategy<Value = Typed> {
    (
        (uuids(), timestamps(), timestamps(), timestamps(), ulids()),
        (
            ip_addrs(),
            prop::option::of(dates()),
            timestamps_nanos(),
            prop::option::of(timestamps::<time::UtcDateTime>()),
        ),
    )
        .prop_map(|((user, at, seen, ts, id), (ip, day, exact, newest))| Typed {
            user,
            at,
            seen,
            ts,
            id,
            ip,
            day,
            exact,
            // `reverse` holds times from 1970 on.
            newest: newest.filter(|t| t.unix_timestamp() >= 0),
        })
}

/// Field by field, `seen` newest first and `newest` reversed (with `None` first).
fn typed_cmp(a: &Typed, b: &Typed) -> Ordering {
    let newest = |t: &Typed| t.newest.map(std::cmp::Reverse);
    (a.user, a.at, std::cmp::Reverse(a.seen), a.ts, a.id, a.ip, a.day, a.exact, newest(a)).cmp(&(
        b.user,
        b.at,
        std::cmp::Reverse(b.seen),
        b.ts,
        b.id,
        b.ip,
        b.day,
        b.exact,
        newest(b),
    ))
}

#[test]
fn every_type_in_one_ordered_key_sorts_and_round_trips() {
    // Pairs that share leading fields, so the later fields decide too.
    let pairs = (typed(), typed(), 0usize..9).prop_map(|(a, mut b, shared)| {
        if shared > 0 {
            b.user = a.user;
        }
        if shared > 1 {
            b.at = a.at;
        }
        if shared > 2 {
            b.seen = a.seen;
        }
        if shared > 3 {
            (b.ts, b.id, b.ip) = (a.ts, a.id, a.ip);
        }
        if shared > 5 {
            (b.day, b.exact) = (a.day, a.exact);
        }
        (a, b)
    });
    assert_order_preserving_with(pairs, typed_cmp);
}

fn readable() -> impl Strategy<Value = Readable> {
    (
        uuids(),
        text_timestamps(),
        ipv4s(),
        text_dates(),
        text_timestamps::<jiff::Timestamp>().prop_filter("from 1970", |t| t.as_nanosecond() >= 0),
        prop::option::of(text_timestamps::<chrono::NaiveDateTime>()),
    )
        .prop_map(|(user, at, ip, day, newest, exact)| Readable { user, at, ip, day, newest, exact })
}

#[test]
fn readable_keys_sort_and_round_trip() {
    let cmp = |a: &Readable, b: &Readable| {
        (a.user, a.at, a.ip, a.day, std::cmp::Reverse(a.newest), a.exact).cmp(&(
            b.user,
            b.at,
            b.ip,
            b.day,
            std::cmp::Reverse(b.newest),
            b.exact,
        ))
    };
    let pairs = (readable(), readable(), any::<bool>()).prop_map(|(a, mut b, same_user)| {
        if same_user {
            (b.user, b.at) = (a.user, a.at);
        }
        (a, b)
    });
    assert_order_preserving_with(pairs, cmp);
}

#[test]
fn readable_keys_are_readable() -> rowkey::Result<()> {
    let key = Readable {
        user: "67e55044-10b1-426f-9247-bb680e5fe0c8".parse().unwrap(),
        at: "2020-05-01T00:00:00.5Z".parse().unwrap(),
        ip: Ipv4Addr::new(10, 0, 0, 1),
        day: chrono::NaiveDate::from_ymd_opt(2020, 5, 1).unwrap(),
        newest: "2020-05-01T00:00:00Z".parse().unwrap(),
        exact: None,
    }
    .to_key()?;
    assert_eq!(
        key.to_string(),
        "67e55044-10b1-426f-9247-bb680e5fe0c8#2020-05-01T00:00:00.500000Z#010.000.000.001#2020-05-01#9221783745654775807#"
    );
    assert_eq!(
        Readable::SCHEMA.inspect(&key)?.to_string(),
        "user=67e55044-10b1-426f-9247-bb680e5fe0c8 at=2020-05-01T00:00:00.5Z ip=10.0.0.1 day=2020-05-01 \
         newest=2020-05-01T00:00:00Z (reversed) exact=null"
    );
    Ok(())
}

#[test]
fn the_issues_first_key_compiles_and_round_trips() -> rowkey::Result<()> {
    let row = ByUser { user: uuid::Uuid::nil(), at: "2020-05-01T00:00:00.5Z".parse().unwrap() };
    let key = row.to_key()?;
    assert_eq!(ByUser::from_key(&key)?, row);
    assert_eq!(
        ByUser::SCHEMA.inspect(&key)?.to_string(),
        "user=00000000-0000-0000-0000-000000000000 at=2020-05-01T00:00:00.5Z (desc)"
    );
    Ok(())
}

proptest! {
    /// Inspection decodes exactly the keys `from_key` decodes, mutated ones included.
    #[test]
    fn inspect_agrees_with_from_key(row in typed(), at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<bool>()) {
        let mut key = row.to_key().unwrap().as_bytes().to_vec();
        let i = at.index(key.len());
        if cut { key.truncate(i) } else { key[i] = byte }
        let inspected = Typed::SCHEMA.inspect(&key);
        let decoded = Typed::from_key(&key);
        prop_assert_eq!(inspected.is_ok(), decoded.is_ok(), "inspect: {:?}\nfrom_key: {:?}", inspected.map(|i| i.to_string()), decoded);
    }

    #[test]
    fn readable_inspect_agrees_with_from_key(row in readable(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut key = row.to_key().unwrap().as_bytes().to_vec();
        let i = at.index(key.len());
        key[i] = byte;
        let inspected = Readable::SCHEMA.inspect(&key);
        let decoded = Readable::from_key(&key);
        prop_assert_eq!(inspected.is_ok(), decoded.is_ok(), "inspect: {:?}\nfrom_key: {:?}", inspected.map(|i| i.to_string()), decoded);
    }
}

/// Instants a few seconds apart around a fixed moment, so ranges catch some rows and miss
/// others, with sub-second fractions at the edges.
fn near_instants() -> impl Strategy<Value = DateTime<Utc>> {
    (-5i64..5, prop::sample::select(vec![0u32, 1000, 999_999_000, 500_000_000]))
        .prop_map(|(s, n)| DateTime::from_timestamp(1_588_291_200 + s, n).unwrap())
}

#[test]
fn a_time_range_scan_returns_exactly_its_rows() {
    let rows =
        prop::collection::vec((near_instants(), edge_strings()).prop_map(|(at, actor)| Audit { at, actor }), 0..40);
    assert_scan_exact(
        rows,
        (near_instants(), near_instants()),
        |(t0, t1): &(DateTime<Utc>, DateTime<Utc>)| Audit::scan().at_range(*t0..*t1).ranges(),
        |(t0, t1), row: &Audit| (*t0..*t1).contains(&row.at),
    );
}

#[test]
fn a_cidr_block_is_one_range() {
    let ips = prop_oneof![ipv4s(), (0u8..3, any::<u8>()).prop_map(|(c, d)| Ipv4Addr::new(10, 10, c, d))];
    let rows = prop::collection::vec((ips, near_instants()).prop_map(|(ip, at)| Machine { ip, at }), 0..40);
    let blocks = prop_oneof![Just("10.10.0.0/16"), Just("10.10.1.0/24"), Just("0.0.0.0/0"), Just("10.10.2.7/32")]
        .prop_map(|b| b.parse::<Cidr<Ipv4Addr>>().unwrap());
    assert_scan_exact(
        rows,
        blocks,
        |block: &Cidr<Ipv4Addr>| {
            let ranges = Machine::scan().ip_range(*block).ranges()?;
            assert_eq!(ranges.len(), 1);
            Ok(ranges)
        },
        |block, row: &Machine| block.contains(&row.ip),
    );
}

#[test]
fn the_ulids_of_a_time_range_are_one_range() {
    let minted = (1_588_291_199_998u64..1_588_291_200_003, any::<u128>())
        .prop_map(|(ms, random)| ulid::Ulid::from_parts(ms, random));
    let rows = prop::collection::vec((minted, edge_strings()).prop_map(|(id, item)| Order { id, item }), 0..40);
    let window = (1_588_291_199_998u64..1_588_291_200_004, 0u64..4);
    assert_scan_exact(
        rows,
        window,
        |&(start, len): &(u64, u64)| {
            let t = |ms| std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
            Order::scan().id_range(ulid_range(t(start)..t(start + len))?).ranges()
        },
        |&(start, len), row: &Order| (start..start + len).contains(&row.id.timestamp_ms()),
    );
}

#[test]
fn scan_arguments_take_the_fields_own_types() -> rowkey::Result<()> {
    let user = uuid::Uuid::nil();
    let t0: DateTime<Utc> = "2020-05-01T00:00:00Z".parse().unwrap();
    let ranges = ByUser::scan().user(user).at_range(t0..t0 + chrono::Duration::hours(1)).ranges()?;
    let inside = ByUser { user, at: t0 + chrono::Duration::minutes(5) }.to_key()?;
    let outside = ByUser { user, at: t0 + chrono::Duration::hours(2) }.to_key()?;
    assert!(ranges.contains(&inside) && !ranges.contains(&outside));
    // Fixing fields in order takes each one's own type, an `IpAddr` included.
    let ip = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
    let typed = Typed::scan()
        .user(user)
        .at(t0)
        .seen(time::OffsetDateTime::UNIX_EPOCH)
        .ts(jiff::Timestamp::UNIX_EPOCH)
        .id(ulid::Ulid::nil())
        .ip(ip)
        .ranges()?;
    assert_eq!(typed.len(), 1);
    Ok(())
}
