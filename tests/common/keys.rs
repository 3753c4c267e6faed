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
