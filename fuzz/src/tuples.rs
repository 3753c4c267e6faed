//! Tuples of field types as keys, in both formats, chosen by a selector byte: every field
//! type and wrapper a tuple can hold.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::{NonZeroI64, NonZeroU32};
use std::time::{Duration, SystemTime};

use rowkey::field::{Hex, Nanos, Padded, Reversed};
use rowkey::format::Delimited;
use rowkey::transform::{BitReversed, ReversedDomain};
use rowkey::{BigEndian, Desc, RowKeyOwned};

use crate::checks::{canonical, canonical_in};

/// How many types [`check`] chooses from.
pub const COUNT: u8 = 16;

/// Checks `bytes` as a key of the tuple type `selector` names (modulo [`COUNT`]): when it
/// decodes, it re-encodes to exactly `bytes`.
pub fn check(selector: u8, bytes: &[u8]) {
    let hash = Delimited::default();
    let colons = Delimited::new("!!").expect("a delimiter");
    match selector % COUNT {
        0 => canonical::<(String, i64)>(bytes),
        1 => canonical::<(u64, Desc<String>, Option<u32>)>(bytes),
        2 => canonical::<(f64, f32, bool, char)>(bytes),
        3 => canonical::<(Vec<u8>, [u8; 2], Option<Vec<u8>>, Desc<Option<i16>>)>(bytes),
        4 => canonical::<(i128, u128, Duration, NonZeroU32, NonZeroI64)>(bytes),
        5 => canonical::<(BigEndian<i64>, Reversed<u32>, BitReversed<u64>, BitReversed<i64>)>(bytes),
        6 => canonical::<(Ipv4Addr, Ipv6Addr, IpAddr, uuid::Uuid, ulid::Ulid)>(bytes),
        7 => canonical::<(SystemTime, Desc<SystemTime>, ReversedDomain<String>)>(bytes),
        8 => canonical::<(chrono::DateTime<chrono::Utc>, chrono::NaiveDate, jiff::Timestamp, time::OffsetDateTime)>(
            bytes,
        ),
        9 => canonical::<(Nanos<jiff::Timestamp>, Desc<Option<time::Date>>, Option<u8>)>(bytes),
        10 => canonical_in::<_, (String, u32, Hex<u32>, Padded<u32, 8>)>(&hash, bytes),
        11 => canonical_in::<_, (Option<i16>, bool, Reversed<i64>, char)>(&hash, bytes),
        12 => canonical_in::<_, (Ipv4Addr, IpAddr, uuid::Uuid, ulid::Ulid, Duration)>(&hash, bytes),
        13 => canonical_in::<_, (chrono::DateTime<chrono::Utc>, time::Date, Option<u8>, Hex<[u8; 2]>)>(&hash, bytes),
        14 => canonical_in::<_, (String, Option<String>, ReversedDomain<String>, i128)>(&colons, bytes),
        _ => canonical_in::<_, (Hex<Vec<u8>>, Ipv6Addr, Nanos<jiff::Timestamp>)>(&colons, bytes),
    }
}

/// Keys of a few of the types to start from, each behind its selector byte.
pub fn seeds() -> Vec<Vec<u8>> {
    fn with<T: RowKeyOwned>(selector: u8, value: &T) -> Option<Vec<u8>> {
        value.to_key().ok().map(|key| [&[selector][..], key.as_bytes()].concat())
    }
    let hash = Delimited::default();
    let text =
        |selector: u8, key: rowkey::Result<rowkey::Key>| key.ok().map(|k| [&[selector][..], k.as_bytes()].concat());
    [
        with(0, &("bobby".to_owned(), 14242i64)),
        with(1, &(u64::MAX, Desc("a\0b".to_owned()), Some(7u32))),
        with(2, &(-0.5f64, f32::INFINITY, true, 'é')),
        with(3, &(vec![0u8, 0xff], [0u8, 1], Some(Vec::new()), Desc(Some(-1i16)))),
        with(4, &(i128::MIN, u128::MAX, Duration::new(5, 7), NonZeroU32::MIN, NonZeroI64::MAX)),
        with(5, &(BigEndian(1i64), Reversed(9u32), BitReversed(3u64), BitReversed(-3i64))),
        with(
            6,
            &(
                Ipv4Addr::LOCALHOST,
                Ipv6Addr::LOCALHOST,
                IpAddr::from([10, 0, 0, 1]),
                uuid::Uuid::nil(),
                ulid::Ulid::nil(),
            ),
        ),
        text(10, hash.to_key(&("phone", 7u32, Hex(0x4c41_0523u32), Padded::<u32, 8>(20200501)))),
        text(11, hash.to_key(&(Some(-5i16), false, Reversed(1_588_291_200_000i64), 'x'))),
        text(
            12,
            hash.to_key(&(
                Ipv4Addr::new(10, 0, 0, 1),
                IpAddr::from(Ipv6Addr::LOCALHOST),
                uuid::Uuid::max(),
                ulid::Ulid::nil(),
                Duration::from_millis(1500),
            )),
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}
