//! Key structs whose fields are the date-time, id and address types.

use std::net::{IpAddr, Ipv4Addr};

use chrono::{DateTime, NaiveDate, Utc};
use rowkey::RowKey;
use ulid::Ulid;
use uuid::Uuid;

/// The key a new user tries first: a user, then the time, newest first.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct ByUser {
    pub user: Uuid,
    #[rowkey(desc)]
    pub at: DateTime<Utc>,
}

/// Every type in one ordered key, with the attributes they take.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct Typed {
    pub user: Uuid,
    pub at: DateTime<Utc>,
    #[rowkey(desc)]
    pub seen: time::OffsetDateTime,
    pub ts: jiff::Timestamp,
    pub id: Ulid,
    pub ip: IpAddr,
    pub day: Option<NaiveDate>,
    #[rowkey(nanos)]
    pub exact: jiff::Timestamp,
    #[rowkey(reverse)]
    pub newest: Option<time::UtcDateTime>,
}

/// The readable form: every field is text a person can read in the key.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct Readable {
    pub user: Uuid,
    pub at: DateTime<Utc>,
    pub ip: Ipv4Addr,
    pub day: NaiveDate,
    #[rowkey(reverse)]
    pub newest: jiff::Timestamp,
    #[rowkey(nanos)]
    pub exact: Option<chrono::NaiveDateTime>,
}

/// A time series keyed by its time alone, as a low-rate audit log may be.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
pub struct Audit {
    pub at: DateTime<Utc>,
    pub actor: String,
}

/// Readings by machine address, then time.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct Machine {
    pub ip: Ipv4Addr,
    pub at: DateTime<Utc>,
}

/// Orders by ULID: the ids of a time range are one key range.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
pub struct Order {
    pub id: Ulid,
    pub item: String,
}

/// Tablestore's monitoring table: the first 4 hex digits of MD5 of the machine's address, the
/// address, then the time.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 65536, from = [ip], hash = "md5"))]
pub struct MachineMetric {
    pub ip: Ipv4Addr,
    pub at: DateTime<Utc>,
    pub metric: String,
}

/// The same design in the ordered format, with two hex digits.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "m", salt(buckets = 256, from = [ip, metric], hash = "md5"))]
pub struct MachineMetricOrdered {
    pub ip: IpAddr,
    pub metric: String,
    #[rowkey(desc)]
    pub at: DateTime<Utc>,
}
