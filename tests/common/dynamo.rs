//! Key designs of DynamoDB tables, and items of them: a sharded time series, a single-table
//! design of two entity types in one partition, and a binary sort key with `\0` and `\xff`;
//! and the scans of them the tests compare with brute force.

use std::collections::BTreeSet;
use std::ops::Bound;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rowkey::dynamodb::{AttributeType, DynamoKeys, ItemKey, KeyQuery};
use rowkey::key::Key;
use rowkey::range::KeyRanges;
use rowkey::schema::{Encoding, KeyField, ScanNext, Schema};
use rowkey::{RowKey, RowKeyOwned};

/// A meter's readings by day, newest first within a day, their writes spread over four
/// shards by sequence number: partition `bucket#meter`, sort `day#at#seq`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 4, from = [seq]), dynamodb(partition = [meter]))]
pub struct MeterReading {
    pub meter: String,
    pub day: u32,
    #[rowkey(reverse)]
    pub at: u32,
    #[rowkey(width = 3)]
    pub seq: u16,
}

/// A tenant's orders: partition `TENANT#tenant`, sort `ORDER#day#number`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "TENANT", dynamodb(partition = [tenant], sort_prefix = "ORDER"))]
pub struct TenantOrder {
    pub tenant: String,
    pub day: u32,
    pub number: String,
}

/// The same tenants' invoices, in the same partitions: sort `INVOICE#number#status`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "TENANT", dynamodb(partition = [tenant], sort_prefix = "INVOICE"))]
pub struct TenantInvoice {
    pub tenant: String,
    pub number: String,
    pub status: String,
}

/// Versions of an owner's blobs, newest first: ordered keys, binary attributes.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(dynamodb(partition = [owner]))]
pub struct BlobVersion {
    pub owner: String,
    pub blob: Vec<u8>,
    #[rowkey(desc)]
    pub version: i32,
}

/// A sensor's events, their writes spread over four shards drawn at random, the partition
/// key's last part: partition `sensor#shard`, sort `day#seq`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", dynamodb(partition = [sensor], shards(buckets = 4, random)))]
pub struct SensorEvent {
    pub sensor: String,
    pub day: u32,
    #[rowkey(width = 4)]
    pub seq: u16,
}

/// A day's order lines, binary, last line first, each order in one of three shards by its
/// number modulo 3: partition `day 00 01 shard`, sort `order 00 01 line`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(dynamodb(partition = [day], shards(buckets = 3, from = [order], hash = "modulo")))]
pub struct OrderLine {
    pub day: u32,
    pub order: u64,
    #[rowkey(desc)]
    pub line: i16,
}

/// Short texts over a few letters, so that values are prefixes of one another.
fn look_alike() -> impl Strategy<Value = String> {
    "[ab]{1,3}"
}

/// Meter readings over two meters and a few days.
pub fn meter_reading() -> impl Strategy<Value = MeterReading> {
    (look_alike(), 20240501u32..20240504, prop_oneof![Just(0u32), Just(u32::MAX), 0u32..6, 0u32..1000], 0u16..1000)
        .prop_map(|(meter, day, at, seq)| MeterReading { meter, day, at, seq })
}

/// Orders with numbers like `1` and `19`, and text whose next prefix is no UTF-8 (after
/// `\x7f`, `\u{7ff}` and `\u{10ffff}`).
pub fn tenant_order() -> impl Strategy<Value = TenantOrder> {
    (look_alike(), 1u32..4, "[19\u{7f}\u{7ff}\u{10ffff}]{1,5}").prop_map(|(tenant, day, number)| TenantOrder {
        tenant,
        day,
        number,
    })
}

/// Invoices of the same tenants.
pub fn tenant_invoice() -> impl Strategy<Value = TenantInvoice> {
    (look_alike(), "[0-9]{1,4}", "(open|paid)").prop_map(|(tenant, number, status)| TenantInvoice {
        tenant,
        number,
        status,
    })
}

/// Blob versions whose bytes hold `00`, `01` and `ff`.
pub fn blob_version() -> impl Strategy<Value = BlobVersion> {
    let byte = prop_oneof![Just(0u8), Just(1), Just(0x61), Just(0xff)];
    (
        look_alike(),
        prop::collection::vec(byte, 0..5),
        prop_oneof![Just(i32::MIN), Just(-1), Just(0), 0..4, Just(i32::MAX)],
    )
        .prop_map(|(owner, blob, version)| BlobVersion { owner, blob, version })
}

/// Events of a few sensors over three days.
pub fn sensor_event() -> impl Strategy<Value = SensorEvent> {
    (look_alike(), 20240501u32..20240504, prop_oneof![Just(0u16), Just(9999), 0u16..10_000])
        .prop_map(|(sensor, day, seq)| SensorEvent { sensor, day, seq })
}

/// Order lines over three days, order numbers at `u64`'s ends and line numbers at `i16`'s.
pub fn order_line() -> impl Strategy<Value = OrderLine> {
    (1u32..4, prop_oneof![Just(0u64), Just(u64::MAX), 0u64..50], prop_oneof![Just(i16::MIN), -2i16..3, Just(i16::MAX)])
        .prop_map(|(day, order, line)| OrderLine { day, order, line })
}

/// One item of the table: the key it was written from, whether it is of the design queried,
/// and its item key.
pub struct Item {
    pub key: Key,
    pub ours: bool,
    pub item: ItemKey,
}

/// The table's items of `rows`, one a key (a second write of a key replaces the first).
pub fn items<T: RowKeyOwned>(keys: &DynamoKeys, rows: &[T], ours: bool) -> Vec<Item> {
    let mut seen = BTreeSet::new();
    rows.iter()
        .filter(|row| seen.insert(row.to_key().unwrap()))
        .map(|row| {
            let key = row.to_key().unwrap();
            let item = keys.item(&key).unwrap_or_else(|e| panic!("item of {key}: {e}"));
            assert_eq!(keys.key(&item).unwrap(), key, "the item key gives the key back");
            Item { key, ours, item }
        })
        .collect()
}

/// The keys of the design queried that lie in `ranges`.
pub fn expected(ranges: &KeyRanges, table: &[Item]) -> BTreeSet<Key> {
    table.iter().filter(|i| i.ours && ranges.contains(&i.key)).map(|i| i.key.clone()).collect()
}

/// A scan of `schema` made from the values of `seed` and `other` (each a row's field texts):
/// the partition fields and `extra` more fixed from `seed`, then a bound on the next field
/// from both, of the kind `kind` picks.
pub fn scan(
    schema: &Schema,
    seed: &[(String, String)],
    other: &[(String, String)],
    extra: usize,
    kind: u8,
) -> Option<KeyRanges> {
    let fixed: Vec<(&str, &str)> = seed[..extra].iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let next = seed.get(extra).map(|(name, a)| {
        let b = &other[extra].1;
        let (lo, hi) = if a <= b { (a.as_str(), b.as_str()) } else { (b.as_str(), a.as_str()) };
        let bound = |t: &'static str, v| match t {
            "i" => Bound::Included(v),
            "e" => Bound::Excluded(v),
            _ => Bound::Unbounded,
        };
        let kinds = ["i", "e", "u"];
        let query = match kind % 10 {
            9 => {
                let half = a.chars().count().div_ceil(2);
                ScanNext::StartsWith(&a[..a.char_indices().nth(half).map_or(a.len(), |(at, _)| at)])
            }
            k => ScanNext::Range(bound(kinds[usize::from(k % 3)], lo), bound(kinds[usize::from(k / 3 % 3)], hi)),
        };
        (name.as_str(), query)
    });
    let next = if kind >= 10 { None } else { next };
    // A bound the field's order cannot take (a prefix of a number) is no scan.
    schema.scan_query(&fixed, next).ok()
}

/// Each row's fields as `(name, text)`, the value fields only, in key order.
pub fn texts<T: RowKeyOwned>(schema: &Schema, row: &T) -> Vec<(String, String)> {
    let key = row.to_key().unwrap();
    schema
        .inspect(&key)
        .unwrap()
        .fields()
        .iter()
        .filter(|f| matches!(f.key_field(), KeyField::Value(_)))
        .map(|f| (f.name().to_owned(), f.value_text()))
        .collect()
}

/// Whether the field is text, which a prefix scan takes.
pub fn text_field(schema: &Schema, name: &str) -> bool {
    schema.field(name).is_some_and(|f| f.encoding == Encoding::Utf8)
}

/// What the queries read of the table, by the key each item was written from.
pub fn read(queries: &[KeyQuery], table: &[Item], keep_dropped: bool) -> Vec<Key> {
    let mut out = Vec::new();
    for query in queries {
        for item in table {
            let Some(sort) = item.item.sort.as_ref() else { continue };
            let kept = if keep_dropped {
                query.sort.as_ref().is_none_or(|c| c.holds(sort.as_bytes()))
            } else {
                query.keeps(sort.as_bytes())
            };
            if item.item.partition == query.partition && kept {
                out.push(item.key.clone());
            }
        }
    }
    out
}

/// The scan's queries read what its ranges hold, each item once.
pub fn exact(keys: &DynamoKeys, ranges: &KeyRanges, table: &[Item]) -> Result<(), TestCaseError> {
    let queries = keys.queries(ranges).map_err(|e| TestCaseError::fail(format!("{ranges}: {e}")))?;
    // DynamoDB takes text values only as UTF-8.
    for query in queries.iter().filter(|_| keys.attribute_type() == AttributeType::String) {
        let (lo, hi) = query.sort.as_ref().map_or((None, None), |c| {
            let (lo, hi) = c.values();
            (Some(lo), hi)
        });
        for value in [Some(&query.partition), lo, hi].into_iter().flatten() {
            prop_assert!(std::str::from_utf8(value.as_bytes()).is_ok(), "{:?} in {:?}", value, query);
        }
    }
    let got = read(&queries, table, false);
    let unique: BTreeSet<Key> = got.iter().cloned().collect();
    prop_assert_eq!(unique.len(), got.len(), "an item read twice: {:?}", queries);
    prop_assert_eq!(&unique, &expected(ranges, table), "ranges {} queries {:?}", ranges, queries);
    Ok(())
}

/// The scans of `rows`: for each pair of rows, every count of fixed fields from the partition
/// on, and one kind of bound.
pub fn scans_exact<T: RowKeyOwned>(
    keys: &DynamoKeys,
    schema: &Schema,
    partition: usize,
    rows: &[T],
    table: &[Item],
    kinds: &[u8],
) -> Result<usize, TestCaseError> {
    let mut checked = 0;
    for (i, pair) in rows.windows(2).enumerate() {
        let (seed, other) = (texts(schema, &pair[0]), texts(schema, &pair[1]));
        for extra in partition..=seed.len() {
            // A prefix is of text alone; another field takes both bounds included instead.
            let kind = match kinds[i % kinds.len()] {
                9 if seed.get(extra).is_none_or(|(n, _)| !text_field(schema, n)) => 0,
                kind => kind,
            };
            if let Some(ranges) = scan(schema, &seed, &other, extra, kind) {
                exact(keys, &ranges, table)?;
                checked += 1;
            }
        }
    }
    Ok(checked)
}
