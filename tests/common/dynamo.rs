//! Key designs of DynamoDB tables, and items of them: a sharded time series, a single-table
//! design of two entity types in one partition, and a binary sort key with `\0` and `\xff`.

use proptest::prelude::*;
use rowkey::RowKey;

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

/// Short texts over a few letters, so that values are prefixes of one another.
fn look_alike() -> impl Strategy<Value = String> {
    "[ab]{1,3}"
}

/// Meter readings over two meters and a few days.
pub fn meter_reading() -> impl Strategy<Value = MeterReading> {
    (look_alike(), 20240501u32..20240504, prop_oneof![Just(0u32), Just(u32::MAX), 0u32..6], 0u16..12)
        .prop_map(|(meter, day, at, seq)| MeterReading { meter, day, at, seq })
}

/// Orders with numbers like `1` and `19`, and text whose next prefix is no UTF-8 (after
/// `\x7f`, `\u{7ff}` and `\u{10ffff}`).
pub fn tenant_order() -> impl Strategy<Value = TenantOrder> {
    (look_alike(), 1u32..4, "[19\u{7f}\u{7ff}\u{10ffff}]{1,2}").prop_map(|(tenant, day, number)| TenantOrder {
        tenant,
        day,
        number,
    })
}

/// Invoices of the same tenants.
pub fn tenant_invoice() -> impl Strategy<Value = TenantInvoice> {
    (look_alike(), "[0-9]{1,2}", "(open|paid)").prop_map(|(tenant, number, status)| TenantInvoice {
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
        prop::collection::vec(byte, 0..3),
        prop_oneof![Just(i32::MIN), Just(-1), Just(0), 0..4, Just(i32::MAX)],
    )
        .prop_map(|(owner, blob, version)| BlobVersion { owner, blob, version })
}
