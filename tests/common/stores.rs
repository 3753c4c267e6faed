//! Derived keys in the store formats (FoundationDB tuples, memcomparable, HBase) and their
//! generated values: the same reading in each store's own bytes, with a raw prefix, a salt, a
//! descending or reversed field, an optional one and a flattened part.

use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::testing::{edge_bytes, edge_i64, edge_strings};

/// A reading in a FoundationDB directory (`\x15\x02`, the subspace `(2,)`), behind a bucket
/// of the device: the tuple layer has no descending order, so the newest-first sequence is
/// reversed.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(fdb_tuple, prefix = "\u{15}\u{02}", salt(buckets = 8, from = [device]))]
pub struct FdbReading {
    pub device: String,
    pub at: i64,
    pub tag: Option<String>,
    pub ok: bool,
    #[rowkey(reverse)]
    pub seq: u64,
    pub data: Vec<u8>,
}

/// A flattened part of [`McReading`].
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable)]
pub struct McPlace {
    pub city: String,
    pub zone: Option<u8>,
}

/// A RisingWave-style row key: a table prefix, then columns, one of them descending.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable, prefix = "t7_")]
pub struct McReading {
    pub region: String,
    #[rowkey(desc)]
    pub score: i32,
    #[rowkey(flatten)]
    pub place: McPlace,
    pub note: Option<String>,
}

/// An HBase row key of `Ordered*` types behind an MD5 bucket of the host: a descending time,
/// an `OrderedNumeric` amount, and the row's bytes last (`BlobCopy`).
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase, salt(buckets = 16, from = [host], hash = "md5"))]
pub struct HBaseVisit {
    pub host: String,
    #[rowkey(desc)]
    pub ts: i64,
    #[rowkey(numeric)]
    pub amount: i64,
    pub row: Vec<u8>,
}

/// A short text from a small alphabet, so that generated rows share values and prefixes.
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

/// An order line behind a bucket of its order number, in memcomparable: split inside buckets
/// along the number.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable, prefix = "o_", salt(buckets = 4, from = [number]))]
pub struct McOrder {
    pub number: u32,
    pub line: u16,
}

/// An HBase key that leads with a descending sequence number, unsalted.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase)]
pub struct HBaseSeq {
    #[rowkey(desc)]
    pub seq: i64,
    pub name: String,
}

/// One field of each std type a store key holds, in memcomparable: the schema reads and
/// writes each as its type does.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable)]
pub struct McEvery {
    pub letter: char,
    pub code: [u8; 3],
    pub ratio: f32,
    #[rowkey(desc)]
    pub score: f64,
    pub wide: i128,
    pub small: Option<u16>,
    #[rowkey(bit_reverse)]
    pub seq: i64,
    #[rowkey(reverse)]
    pub version: u32,
    pub v4: std::net::Ipv4Addr,
    pub ip: std::net::IpAddr,
    pub at: std::time::SystemTime,
    pub flag: bool,
}

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
