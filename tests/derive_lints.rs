//! Derived code is clean under strict lints in the user's crate: CI's
//! `cargo clippy --all-targets -- -D warnings` checks this file with `clippy::pedantic` (and
//! rustc's stricter lint groups) denied.

#![deny(clippy::pedantic, clippy::nursery, missing_docs, unused, rust_2018_idioms, unreachable_pub)]
#![deny(missing_debug_implementations, trivial_casts, unused_qualifications)]

use std::borrow::Cow;
use std::time::SystemTime;

use rowkey::RowKey;

/// An ordered key with every field attribute.
#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
#[rowkey(prefix = "ev", salt(buckets = 16, from = [source]), max_len = 256)]
pub struct Event<'a> {
    /// Where it came from.
    pub source: &'a str,
    /// A borrowed or owned label.
    pub label: Cow<'a, str>,
    /// Newest first.
    #[rowkey(desc)]
    pub at: SystemTime,
    /// Newest version first.
    #[rowkey(reverse)]
    pub version: u32,
    /// A sequence, bit-reversed.
    #[rowkey(bit_reverse, monotonic)]
    pub seq: i64,
    /// Fixed-width bytes.
    #[rowkey(big_endian)]
    pub size: Option<u64>,
    /// The host, reversed.
    #[rowkey(reverse_domain, rename = "site")]
    pub host: String,
    /// A nested key.
    #[rowkey(flatten)]
    pub device: Device,
    /// Not part of the key.
    #[rowkey(skip)]
    pub note: Option<String>,
}

/// Flattened into [`Event`].
#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
pub struct Device {
    /// The kind.
    pub kind: String,
    /// The id.
    pub id: [u8; 4],
}

/// A delimited key with every text attribute, behind a byte-string prefix.
#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
#[rowkey(delimited = "#", prefix = b"\xbd\x89", salt(buckets = 10, from = [day], hash = "modulo"))]
pub struct Daily {
    /// The day, as eight digits.
    #[rowkey(width = 8)]
    pub day: u32,
    /// A hex id.
    #[rowkey(hex)]
    pub id: Option<u64>,
    /// Hex bytes.
    #[rowkey(hex)]
    pub digest: Vec<u8>,
    /// A flag.
    pub flag: bool,
    /// A signed number.
    pub delta: i8,
    /// A char.
    pub grade: char,
}

/// A generic key.
#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
#[rowkey(allow_hotspot)]
pub struct Generic<T> {
    /// The value.
    #[rowkey(desc)]
    pub value: T,
}

#[test]
fn the_keys_work() {
    let event = Event {
        source: "s",
        label: Cow::Borrowed("l"),
        at: SystemTime::UNIX_EPOCH,
        version: 1,
        seq: 2,
        size: Some(3),
        host: "example.com".into(),
        device: Device { kind: "k".into(), id: [1, 2, 3, 4] },
        note: None,
    };
    let key = event.to_key().unwrap();
    assert_eq!(Event::from_key(&key).unwrap(), event);

    let daily = Daily { day: 19_700_101, id: None, digest: vec![1], flag: true, delta: -3, grade: 'A' };
    let key = daily.to_key().unwrap();
    assert_eq!(Daily::from_key(&key).unwrap(), daily);

    let generic = Generic { value: 5u8 };
    assert_eq!(Generic::<u8>::from_key(&generic.to_key().unwrap()).unwrap(), generic);
}
