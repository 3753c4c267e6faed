//! The key types, one per scenario, and their generated rows. Small pools of values, chosen
//! so that some are byte prefixes of others, make neighbouring keys that a wrong bound would
//! take in or leave out.

use std::ops::Bound;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rowkey::RowKey;

use crate::common::keys::{Reading, TenantReading};

/// The web table: reversed host, path, newest crawl first.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub(crate) struct Page {
    #[rowkey(reverse_domain)]
    pub(crate) host: String,
    pub(crate) path: String,
    #[rowkey(desc)]
    pub(crate) crawled: SystemTime,
}

/// Time series, `device#metric#timestamp`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub(crate) struct Point {
    pub(crate) device: String,
    pub(crate) metric: String,
    #[rowkey(width = 13)]
    pub(crate) ts_secs: i64,
}

/// Spanner's bit-reversed sequence, with child rows under each id.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub(crate) struct OrderLine {
    #[rowkey(bit_reverse)]
    pub(crate) order_id: i64,
    pub(crate) line: u32,
}

/// Tablestore's `time % 16` buckets.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 16, from = [time], hash = "modulo"))]
pub(crate) struct Sample {
    pub(crate) time: i64,
    pub(crate) host: String,
    pub(crate) metric: String,
}

pub(crate) const DEVICE_TYPES: [&str; 4] = ["cam", "meter", "meterx", "valve"];
pub(crate) const DEVICE_IDS: [&str; 8] = ["0", "4c41", "4c410523", "4c4105230", "a0b81f74", "ff", "fff", "ffffffff"];
pub(crate) const TENANTS: [&str; 6] = ["ac", "acme", "acme-eu", "acme2", "acmf", "globex"];
pub(crate) const HOSTS: [&str; 8] = [
    "google.com",
    "maps.google.com",
    "a.maps.google.com",
    "google-analytics.com",
    "googleusercontent.com",
    "com",
    "example.com",
    "www.example.com",
];
pub(crate) const PATHS: [&str; 7] = ["", "/", "/a", "/a\0", "/a#b", "/ab", "/\u{ff}"];
pub(crate) const POINT_DEVICES: [&str; 5] = ["m1", "m10", "m2", "m", "n"];
pub(crate) const METRICS: [&str; 6] = ["cpu", "cpu_user", "disk_read", "disk_write", "mem", "m"];

pub(crate) fn reading(rng: &mut Rng) -> Reading {
    Reading {
        device_type: rng.pick(&DEVICE_TYPES).to_string(),
        device_id: rng.pick(&DEVICE_IDS).to_string(),
        // Now and then the ends of the range, where an off-by-one bound would show.
        ts_millis: if rng.next().is_multiple_of(16) { *rng.pick(&[0, 1, 999_999]) } else { rng.range(0, 1_000_000) },
    }
}

pub(crate) fn tenant_reading(rng: &mut Rng) -> TenantReading {
    TenantReading {
        tenant: rng.pick(&TENANTS).to_string(),
        device_type: rng.pick(&["meter", "valve"]).to_string(),
        device_id: *rng.pick(&[0, 1, 0x10, 0xff, 0x4c41_0523, 0x4c41_0524, 0xffff_fffe, u32::MAX]),
        date: 20200501 + rng.range(0, 31) as u32,
    }
}

pub(crate) fn page(rng: &mut Rng) -> Page {
    Page {
        host: rng.pick(&HOSTS).to_string(),
        path: rng.pick(&PATHS).to_string(),
        crawled: at(rng.range(0, 1_000) as u64),
    }
}

pub(crate) fn point(rng: &mut Rng) -> Point {
    Point {
        device: rng.pick(&POINT_DEVICES).to_string(),
        metric: rng.pick(&METRICS).to_string(),
        ts_secs: rng.range(-2_000, 100_000),
    }
}

pub(crate) fn sample(rng: &mut Rng) -> Sample {
    Sample {
        time: rng.range(-300, 3_000),
        host: rng.pick(&["db-1", "web-1", "web-10", "web-2"]).to_string(),
        metric: rng.pick(&["cpu", "mem"]).to_string(),
    }
}

pub(crate) fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// SplitMix64: deterministic, and good enough to spread picks over small pools.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `low..high`.
    pub(crate) fn range(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low) as u64) as i64
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }

    /// A range within `low..high` whose sides are each inclusive, exclusive or open, and
    /// which may be empty or reversed.
    pub(crate) fn bounds(&mut self, low: i64, high: i64) -> (Bound<i64>, Bound<i64>) {
        let side = |rng: &mut Rng| match rng.next() % 5 {
            0 => Bound::Unbounded,
            1 | 2 => Bound::Included(rng.range(low, high)),
            _ => Bound::Excluded(rng.range(low, high)),
        };
        let start = side(self);
        (start, side(self))
    }
}
