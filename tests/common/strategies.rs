//! Generated values of the scenario keys in [`keys`](super::keys) and of the store-format keys
//! in [`stores`](super::stores), for the property tests that run over every scenario.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::testing::{edge_bytes, edge_i64, edge_strings};

use super::keys::*;
use super::stores::*;

/// Text every byte of which sorts above `#`, as a `#`-delimited field needs.
const TEXT: &str = "[a-z0-9.-]{0,8}";

pub fn reading() -> impl Strategy<Value = Reading> {
    (TEXT, "[0-9a-f]{8}", 0..=i64::MAX).prop_map(|(device_type, device_id, ts_millis)| Reading {
        device_type,
        device_id,
        ts_millis,
    })
}

pub fn ordered_reading() -> impl Strategy<Value = OrderedReading> {
    (any::<String>(), any::<String>(), any::<i64>()).prop_map(|(device_type, device_id, ts_millis)| OrderedReading {
        device_type,
        device_id,
        ts_millis,
    })
}

pub fn device_reading() -> impl Strategy<Value = DeviceReading> {
    (TEXT, TEXT, 0..=i64::MAX).prop_map(|(device_type, device_id, ts_millis)| DeviceReading {
        device_type,
        device_id,
        ts_millis,
    })
}

pub fn tenant_reading() -> impl Strategy<Value = TenantReading> {
    (TEXT, TEXT, any::<u32>(), 0..=99_999_999u32).prop_map(|(tenant, device_type, device_id, date)| TenantReading {
        tenant,
        device_type,
        device_id,
        date,
    })
}

/// Host names of one to four labels.
pub fn host() -> impl Strategy<Value = String> {
    "([a-z0-9]{1,6}\\.){0,3}[a-z]{1,6}"
}

fn instant(micros: i64) -> SystemTime {
    if micros >= 0 {
        UNIX_EPOCH + Duration::from_micros(micros.unsigned_abs())
    } else {
        UNIX_EPOCH - Duration::from_micros(micros.unsigned_abs())
    }
}

pub fn web_page() -> impl Strategy<Value = WebPage> {
    (host(), any::<String>(), -(1i64 << 60)..(1i64 << 60)).prop_map(|(host, path, micros)| WebPage {
        host,
        path,
        crawled: instant(micros),
    })
}

pub fn web_page_micros() -> impl Strategy<Value = WebPageMicros> {
    (host(), any::<String>(), 0..=i64::MAX).prop_map(|(host, path, crawled_micros)| WebPageMicros {
        host,
        path,
        crawled_micros,
    })
}

pub fn monitor() -> impl Strategy<Value = Monitor> {
    (any::<i64>(), any::<String>(), "[a-z\\x00]{0,4}").prop_map(|(time, host, metric)| Monitor { time, host, metric })
}

pub fn shard() -> impl Strategy<Value = Shard> {
    (any::<u16>(), proptest::option::of(any::<String>())).prop_map(|(shard, region)| Shard { shard, region })
}

pub fn shard_text() -> impl Strategy<Value = ShardText> {
    (any::<u16>(), proptest::option::of("[a-z]{1,4}")).prop_map(|(shard, region)| ShardText { shard, region })
}

/// [`EveryField::sample`] varies every field with its argument; 0 to 127 keep its `i8` in range.
pub fn every_field() -> impl Strategy<Value = EveryField> {
    (0u32..128).prop_map(EveryField::sample)
}

pub fn every_text() -> impl Strategy<Value = EveryText> {
    (0u32..4_000).prop_map(EveryText::sample)
}

pub fn hex_reading() -> impl Strategy<Value = HexReading> {
    (any::<u32>(), 0..=i64::MAX).prop_map(|(device_id, ts_millis)| HexReading { device_id, ts_millis })
}

pub fn event_by_id() -> impl Strategy<Value = EventById> {
    (any::<[u8; 4]>(), any::<i64>()).prop_map(|(id, seq)| EventById { id, seq })
}

/// A short text from a small alphabet, for the store-format keys, so that generated rows share values and prefixes.
fn word() -> impl Strategy<Value = String> + Clone {
    prop_oneof!["[ab]{0,3}", edge_strings()]
}

pub fn fdb_reading() -> impl Strategy<Value = FdbReading> {
    (word(), prop_oneof![-3i64..3, edge_i64()], prop::option::of(word()), any::<bool>(), any::<u64>(), edge_bytes())
        .prop_map(|(device, at, tag, ok, seq, data)| FdbReading { device, at, tag, ok, seq, data })
}

pub fn mc_reading() -> impl Strategy<Value = McReading> {
    (word(), prop_oneof![-3i32..3, any::<i32>()], word(), prop::option::of(0u8..3), prop::option::of(word()))
        .prop_map(|(region, score, city, zone, note)| McReading { region, score, place: McPlace { city, zone }, note })
}

/// HBase text holds no U+0000, so the host comes from text without it.
pub fn hbase_visit() -> impl Strategy<Value = HBaseVisit> {
    ("[ab]{0,3}", prop_oneof![-3i64..3, edge_i64()], prop_oneof![-3i64..3, any::<i64>()], edge_bytes())
        .prop_map(|(host, ts, amount, row)| HBaseVisit { host, ts, amount, row })
}

/// [`McEvery`]: every std field type a store key holds, instants before and after the epoch.
pub fn mc_every() -> impl Strategy<Value = McEvery> {
    let at = (-(1i64 << 50)..(1i64 << 50)).prop_map(|micros| {
        let offset = std::time::Duration::from_micros(micros.unsigned_abs());
        if micros < 0 { std::time::UNIX_EPOCH - offset } else { std::time::UNIX_EPOCH + offset }
    });
    (
        (any::<char>(), any::<[u8; 3]>(), any::<f32>(), any::<f64>(), any::<i128>()),
        (
            any::<Option<u16>>(),
            any::<i64>(),
            any::<u32>(),
            any::<[u8; 4]>(),
            any::<std::net::IpAddr>(),
            at,
            any::<bool>(),
        ),
    )
        .prop_map(|((letter, code, ratio, score, wide), (small, seq, version, v4, ip, at, flag))| McEvery {
            letter,
            code,
            ratio,
            score,
            wide,
            small,
            seq,
            version,
            v4: v4.into(),
            ip,
            at,
            flag,
        })
}

/// Arbitrary bytes, and keys with one byte changed, cut short or lengthened.
pub fn near_keys(key: impl Strategy<Value = Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..48),
        (key, any::<usize>(), any::<u8>(), 0u8..3).prop_map(|(mut k, at, byte, how)| {
            match how {
                0 if !k.is_empty() => {
                    let i = at % k.len();
                    k[i] = byte;
                }
                1 => k.truncate(at % (k.len() + 1)),
                _ => k.push(byte),
            }
            k
        }),
    ]
}
