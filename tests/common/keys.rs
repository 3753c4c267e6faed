//! The scenario keys of the schema guides, declared once for every test that uses them.
//!
//! Each models a key design a store's documentation recommends; where two tests need a
//! design in two forms, the forms have names of their own.

use std::time::SystemTime;

use rowkey::RowKey;

/// Bigtable's device key, as its quickstart writes it: the device type and id, then the time
/// newest first, behind a bucket of the device id so that one moment's writes spread.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
pub struct Reading {
    pub device_type: String,
    pub device_id: String,
    #[rowkey(reverse)]
    pub ts_millis: i64,
}

/// [`Reading`] in the ordered format, newest first by `desc` rather than `reverse`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 16, from = [device_id]))]
pub struct OrderedReading {
    pub device_type: String,
    pub device_id: String,
    #[rowkey(desc)]
    pub ts_millis: i64,
}

/// Bigtable's schema guide key without the salt: `phone#4c410523#<Long.MAX_VALUE - ts>`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct DeviceReading {
    pub device_type: String,
    pub device_id: String,
    #[rowkey(reverse)]
    pub ts_millis: i64,
}

/// Bigtable's multi-tenant key: the tenant first, then the device, its id as 8 hex digits and
/// the day as 8 decimal digits.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct TenantReading {
    pub tenant: String,
    pub device_type: String,
    #[rowkey(hex)]
    pub device_id: u32,
    #[rowkey(width = 8)]
    pub date: u32,
}

/// Bigtable's webtable: the host reversed (`com.google.maps`), the path, the crawl time newest
/// first.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct WebPage {
    #[rowkey(reverse_domain)]
    pub host: String,
    pub path: String,
    #[rowkey(desc)]
    pub crawled: SystemTime,
}

/// [`WebPage`] with the crawl time as `i64::MAX - micros`, a form Bigtable's row key schema
/// can describe (a `desc` field it cannot).
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct WebPageMicros {
    #[rowkey(reverse_domain)]
    pub host: String,
    pub path: String,
    #[rowkey(reverse)]
    pub crawled_micros: i64,
}

/// Tablestore's monitoring key: the time's bucket (`time % 16`) in front, then the time, the
/// host and the metric.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 16, from = [time], hash = "modulo"))]
pub struct Monitor {
    pub time: i64,
    pub host: String,
    pub metric: String,
}

/// A flattened part with its own prefix and salt: its bucket is checked once its own fields
/// are read, before the outer key's.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "sh", salt(buckets = 4, from = [shard], hash = "modulo"))]
pub struct Shard {
    pub shard: u16,
    pub region: Option<String>,
}

/// Every field type the derive knows in the ordered format, with the attributes each takes:
/// for the tests that must see every encoding (`inspect` against `from_key`, canonical
/// decoding, the fuzz targets).
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "every", salt(buckets = 8, from = [name, id]))]
pub struct EveryField {
    pub name: String,
    pub letter: char,
    pub maybe_letter: Option<char>,
    pub level: f32,
    pub score: Option<f64>,
    pub code: [u8; 3],
    #[rowkey(desc)]
    pub tags: Vec<u8>,
    #[rowkey(desc)]
    pub rank: i32,
    #[rowkey(reverse)]
    pub version: u64,
    #[rowkey(bit_reverse)]
    pub id: i64,
    #[rowkey(bit_reverse)]
    pub seq: u64,
    #[rowkey(big_endian)]
    pub account: u32,
    #[rowkey(desc, big_endian)]
    pub balance: Option<i64>,
    pub flag: bool,
    pub small: i8,
    pub count: usize,
    pub at: SystemTime,
    #[rowkey(reverse_domain)]
    pub host: String,
    #[rowkey(flatten)]
    pub shard: Shard,
    pub user: uuid::Uuid,
    pub order: Option<ulid::Ulid>,
    pub ip: std::net::IpAddr,
    pub v4: std::net::Ipv4Addr,
    pub v6: std::net::Ipv6Addr,
    #[rowkey(desc)]
    pub seen: chrono::DateTime<chrono::Utc>,
    pub day: chrono::NaiveDate,
    #[rowkey(reverse)]
    pub newest: time::OffsetDateTime,
    #[rowkey(nanos)]
    pub exact: jiff::Timestamp,
    #[rowkey(reverse)]
    pub due: Option<jiff::civil::Date>,
}

/// A flattened part of [`EveryText`].
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "sh", salt(buckets = 4, from = [shard], hash = "modulo"))]
pub struct ShardText {
    pub shard: u16,
    pub region: Option<String>,
}

/// Every field type the derive knows in the delimited format, with the attributes each takes.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "every", salt(buckets = 256, from = [name, id], hash = "md5"))]
pub struct EveryText {
    pub name: String,
    pub letter: char,
    pub maybe_letter: Option<char>,
    #[rowkey(hex)]
    pub code: [u8; 3],
    #[rowkey(hex)]
    pub digest: Option<Vec<u8>>,
    #[rowkey(hex)]
    pub id: u32,
    #[rowkey(width = 8)]
    pub day_number: Option<u32>,
    #[rowkey(reverse)]
    pub version: i64,
    #[rowkey(bit_reverse)]
    pub seq: u64,
    pub delta: i16,
    pub count: u64,
    pub flag: bool,
    #[rowkey(reverse_domain)]
    pub host: Option<String>,
    #[rowkey(flatten)]
    pub shard: ShardText,
    pub user: uuid::Uuid,
    pub order: ulid::Ulid,
    pub ip: std::net::IpAddr,
    pub v4: Option<std::net::Ipv4Addr>,
    pub v6: std::net::Ipv6Addr,
    pub seen: chrono::DateTime<chrono::Utc>,
    pub day: time::Date,
    #[rowkey(reverse)]
    pub newest: jiff::Timestamp,
    #[rowkey(nanos)]
    pub exact: Option<chrono::NaiveDateTime>,
    #[rowkey(reverse)]
    pub due: chrono::NaiveDate,
}

impl EveryField {
    /// A value that varies with `n` in every field, for keys to start tests and fuzzing from.
    pub fn sample(n: u32) -> EveryField {
        let wide = u64::from(n);
        let signed = i64::from(n);
        EveryField {
            name: ["", "a", "a\0b", "phone", "é"][n as usize % 5].to_owned(),
            letter: char::from_u32(0x61 + n % 26).unwrap_or('a'),
            maybe_letter: (!n.is_multiple_of(3)).then_some(if n.is_multiple_of(2) { '\0' } else { 'ß' }),
            level: n as f32 / 4.0 - 1.5,
            score: (!n.is_multiple_of(4)).then_some(-(n as f64) / 3.0),
            code: [n as u8, 0, 0xff],
            tags: vec![0; n as usize % 3],
            rank: -(n as i32) * 1000,
            version: wide * 77,
            id: signed - 3,
            seq: wide << 40,
            account: n * 1_000_003,
            balance: n.is_multiple_of(2).then_some(signed * 99),
            flag: n % 2 == 1,
            small: -(n as i8),
            count: n as usize * 65_537,
            at: std::time::UNIX_EPOCH + std::time::Duration::from_micros(wide * 1_000_000_007),
            host: ["maps.google.com", "localhost", "a.b"][n as usize % 3].to_owned(),
            shard: Shard { shard: n as u16, region: n.is_multiple_of(2).then(|| "eu".to_owned()) },
            user: uuid::Uuid::from_u128(u128::from(n) * 0x0123_4567_89ab_cdef),
            order: (n % 3 != 1).then(|| ulid::Ulid::from_parts(wide * 1000, u128::from(n))),
            ip: if n.is_multiple_of(2) {
                std::net::IpAddr::from([10, 0, 0, n as u8])
            } else {
                std::net::IpAddr::from([0u16, 0, 0, 0, 0, 0, 0, n as u16])
            },
            v4: std::net::Ipv4Addr::from(n),
            v6: std::net::Ipv6Addr::from(u128::from(n) << 64),
            seen: chrono::DateTime::from_timestamp(signed * 86_400 - 1, n * 1000).unwrap(),
            day: chrono::NaiveDate::from_ymd_opt(1970 + n as i32 % 60, 1 + n % 12, 1 + n % 28).unwrap(),
            newest: time::OffsetDateTime::from_unix_timestamp(signed * 3_600).unwrap(),
            exact: jiff::Timestamp::new(signed * 1_000, n as i32).unwrap(),
            due: (n % 2 == 1).then(|| jiff::civil::date(2000 + n as i16 % 100, 1 + n as i8 % 12, 1 + n as i8 % 28)),
        }
    }
}

impl EveryText {
    /// A value that varies with `n` in every field, for keys to start tests and fuzzing from.
    pub fn sample(n: u32) -> EveryText {
        let wide = u64::from(n);
        let signed = i64::from(n);
        EveryText {
            name: ["", "a", "phone", "é", "x-y"][n as usize % 5].to_owned(),
            letter: char::from_u32(0x61 + n % 26).unwrap_or('a'),
            maybe_letter: (!n.is_multiple_of(3)).then_some(if n.is_multiple_of(2) { 'Z' } else { 'ß' }),
            code: [n as u8, 0, 0xff],
            digest: (n % 3 != 2).then(|| vec![n as u8; n as usize % 4 + 1]),
            id: n.wrapping_mul(0x9e37_79b9),
            day_number: n.is_multiple_of(2).then_some(20_200_501 + n),
            version: signed * 1_000_000_007,
            seq: wide << 33,
            delta: -(n as i16) * 7,
            count: wide * 12_345_678_901,
            flag: n.is_multiple_of(2),
            host: (!n.is_multiple_of(3)).then(|| ["maps.google.com", "localhost", "a.b"][n as usize % 3].to_owned()),
            shard: ShardText { shard: n as u16 * 3, region: (n % 2 == 1).then(|| "us".to_owned()) },
            user: uuid::Uuid::from_u128(u128::from(n) * 0xfedc_ba98_7654_3210),
            order: ulid::Ulid::from_parts(wide * 1000, u128::from(n) << 3),
            ip: if n % 2 == 1 {
                std::net::IpAddr::from([192, 168, 0, n as u8])
            } else {
                std::net::IpAddr::from([0xfe80u16, 0, 0, 0, 0, 0, 0, n as u16])
            },
            v4: n.is_multiple_of(2).then(|| std::net::Ipv4Addr::from(n << 8)),
            v6: std::net::Ipv6Addr::from(u128::from(n)),
            seen: chrono::DateTime::from_timestamp(signed * 86_399, n * 1_000).unwrap(),
            day: time::Date::from_ordinal_date(1990 + n as i32 % 50, 1 + n as u16 % 365).unwrap(),
            newest: jiff::Timestamp::new(signed * 7_777, 1_000 * n as i32).unwrap(),
            exact: (!n.is_multiple_of(3))
                .then(|| chrono::DateTime::from_timestamp(signed * 60, n).unwrap().naive_utc()),
            due: chrono::NaiveDate::from_ymd_opt(2030 - n as i32 % 30, 1 + n % 12, 1 + n % 28).unwrap(),
        }
    }
}

/// [`Reading`] with the device id as 8 hex digits, which spread evenly: a table of it splits
/// inside each bucket along the id as well as at the buckets.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
pub struct HexReading {
    #[rowkey(hex)]
    pub device_id: u32,
    #[rowkey(reverse)]
    pub ts_millis: i64,
}

/// Events by a 4-byte id in descending order behind a modulo bucket of their sequence number:
/// the ordered format's fixed-width bytes, inverted, after the bucket.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 8, from = [seq], hash = "modulo"))]
pub struct EventById {
    #[rowkey(desc)]
    pub id: [u8; 4],
    pub seq: i64,
}

/// The design a [`Reading`] table often starts from: the time first, unsalted, so that every
/// write goes to the tablet at the end of the key space. The key-migration tests move it to
/// [`Reading`].
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", allow_hotspot)]
pub struct ReadingByTime {
    pub ts_millis: i64,
    pub device_type: String,
    pub device_id: String,
}

/// [`Reading`] as a FoundationDB tuple: what an export of the table to FoundationDB keys.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(fdb_tuple, prefix = "\u{15}\u{07}")]
pub struct TupleReading {
    pub device_type: String,
    pub device_id: String,
    #[rowkey(reverse)]
    pub ts_millis: i64,
}

/// [`ReadingByTime`] moved to the device first, its type dropped because the device id decides
/// it (`Rekey`'s `drop_derived`): the migration tests' design with no way back to the old key.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct ReadingById {
    pub device_id: String,
    pub ts_millis: i64,
}
