//! Derived keys in the store formats (FoundationDB tuples, memcomparable, HBase): the same
//! reading in each store's own bytes, with a raw prefix, a salt, a descending or reversed
//! field, an optional one and a flattened part. Their generated values are in
//! [`strategies`](super::strategies).

use rowkey::RowKey;

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
