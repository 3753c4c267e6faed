//! Strategies for the date, time, id and address field types, weighted to their edges.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use crate::field::{CalendarDate, Timestamp};

/// Seconds from the epoch worth trying for any instant type: the epoch and its neighbours,
/// pre-1970 instants, leap days, the 32-bit rollover, the last second of 9999.
const EDGE_SECS: &[i64] = &[
    0,
    -1,
    1,
    -86_400,
    951_782_400,     // 2000-02-29
    1_582_934_400,   // 2020-02-29
    1_588_291_200,   // 2020-05-01
    2_147_483_647,   // 2038-01-19T03:14:07Z
    -2_208_988_800,  // 1900-01-01
    -62_135_596_800, // 0001-01-01
    -62_167_219_200, // 0000-01-01, the first second of the text form
    253_402_300_799, // 9999-12-31T23:59:59Z, the last
];

/// Instants of `T` whose fraction is whole microseconds (what a plain instant field holds):
/// the edges above and `T`'s first and last representable microseconds, with and without a
/// fraction, and arbitrary values across `T`'s whole range.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let t: chrono::DateTime<chrono::Utc> =
///     rowkey::testing::timestamps().new_tree(&mut runner).unwrap().current();
/// assert_eq!(t.timestamp_subsec_nanos() % 1000, 0);
///
/// // A plain field holds i64 microseconds: so do the values, for types that reach further.
/// use rowkey::RowKey;
/// for _ in 0..256 {
///     let t: std::time::SystemTime = rowkey::testing::timestamps().new_tree(&mut runner).unwrap().current();
///     assert!((t,).to_key().is_ok(), "{t:?}");
/// }
/// ```
pub fn timestamps<T: Timestamp + std::fmt::Debug>() -> impl Strategy<Value = T> {
    instants::<T>(T::MIN_SECS.max(MICROS_MIN_SECS), T::MAX_SECS.min(MICROS_MAX_SECS), 1000)
}

/// The whole seconds whose every microsecond an `i64` count of microseconds from the epoch
/// holds: a plain instant field's range, narrower than a `SystemTime`'s.
const MICROS_MIN_SECS: i64 = i64::MIN / 1_000_000;
const MICROS_MAX_SECS: i64 = i64::MAX / 1_000_000 - 1;

/// Instants of `T` with any nanosecond fraction, sub-microsecond ones included: the values a
/// [`Nanos`](crate::field::Nanos) field holds, and that a plain instant field refuses.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _t: jiff::Timestamp = rowkey::testing::timestamps_nanos().new_tree(&mut runner).unwrap().current();
/// ```
pub fn timestamps_nanos<T: Timestamp + std::fmt::Debug>() -> impl Strategy<Value = T> {
    instants::<T>(T::MIN_SECS, T::MAX_SECS, 1)
}

/// Instants of `T` from 0000-01-01 to 9999-12-31, the years a delimited key's text holds, in
/// whole microseconds.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let t: time::OffsetDateTime = rowkey::testing::text_timestamps().new_tree(&mut runner).unwrap().current();
/// assert!((0..=9999).contains(&t.year()));
/// ```
pub fn text_timestamps<T: Timestamp + std::fmt::Debug>() -> impl Strategy<Value = T> {
    instants::<T>(T::MIN_SECS.max(-62_167_219_200), T::MAX_SECS.min(253_402_300_799), 1000)
}

fn instants<T: Timestamp + std::fmt::Debug>(min: i64, max: i64, step: u32) -> impl Strategy<Value = T> {
    let edges: Vec<i64> = EDGE_SECS.iter().copied().chain([min, max]).filter(|s| (min..=max).contains(s)).collect();
    let fraction = prop_oneof![
        3 => Just(0u32),
        1 => Just(999_999_999 / step * step),
        1 => Just(500_000_000),
        2 => (0..1_000_000_000 / step).prop_map(move |n| n * step),
    ];
    let secs = prop_oneof![2 => prop::sample::select(edges), 1 => min..=max];
    (secs, fraction).prop_filter_map("outside the type's range", |(secs, nanos)| T::from_unix(secs, nanos).ok())
}

/// Dates of `T` over its whole range, weighted to the epoch, the day before it, leap days and
/// the type's first and last days.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _d: chrono::NaiveDate = rowkey::testing::dates().new_tree(&mut runner).unwrap().current();
/// ```
pub fn dates<T: CalendarDate + std::fmt::Debug>() -> impl Strategy<Value = T> {
    days::<T>(T::MIN_DAYS, T::MAX_DAYS)
}

/// Dates of `T` from 0000-01-01 to 9999-12-31, the years a delimited key's text holds.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let d: jiff::civil::Date = rowkey::testing::text_dates().new_tree(&mut runner).unwrap().current();
/// assert!((0..=9999).contains(&d.year()));
/// ```
pub fn text_dates<T: CalendarDate + std::fmt::Debug>() -> impl Strategy<Value = T> {
    days::<T>(T::MIN_DAYS.max(-719_528), T::MAX_DAYS.min(2_932_896))
}

fn days<T: CalendarDate + std::fmt::Debug>(min: i64, max: i64) -> impl Strategy<Value = T> {
    let edges: Vec<i64> = [0, -1, 1, 11_016, 18_321, -719_528, 2_932_896, min, max]
        .into_iter()
        .filter(|d| (min..=max).contains(d))
        .collect();
    prop_oneof![2 => prop::sample::select(edges), 1 => min..=max]
        .prop_filter_map("outside the type's range", |d| T::from_days(d).ok())
}

/// IPv4 addresses weighted to `0.0.0.0`, `255.255.255.255`, the `10.10.0.0/16` block and
/// octets at 0, 9, 10, 99, 100 and 255 (where padded text changes width).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _ip = rowkey::testing::ipv4s().new_tree(&mut runner).unwrap().current();
/// ```
pub fn ipv4s() -> impl Strategy<Value = Ipv4Addr> + Clone {
    let octet = prop_oneof![prop::sample::select(vec![0u8, 9, 10, 99, 100, 255]), any::<u8>()];
    prop_oneof![
        Just(Ipv4Addr::UNSPECIFIED),
        Just(Ipv4Addr::BROADCAST),
        (any::<u8>(), any::<u8>()).prop_map(|(c, d)| Ipv4Addr::new(10, 10, c, d)),
        [octet.clone(), octet.clone(), octet.clone(), octet].prop_map(Ipv4Addr::from),
    ]
}

/// IPv6 addresses weighted to `::`, `::1`, the all-ones address, IPv4-mapped addresses and
/// `2001:db8::/32`.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _ip = rowkey::testing::ipv6s().new_tree(&mut runner).unwrap().current();
/// ```
pub fn ipv6s() -> impl Strategy<Value = Ipv6Addr> + Clone {
    prop_oneof![
        Just(Ipv6Addr::UNSPECIFIED),
        Just(Ipv6Addr::LOCALHOST),
        Just(Ipv6Addr::from(u128::MAX)),
        ipv4s().prop_map(|v4| v4.to_ipv6_mapped()),
        any::<u64>().prop_map(|low| Ipv6Addr::from(0x2001_0db8_u128 << 96 | u128::from(low))),
        any::<u128>().prop_map(Ipv6Addr::from),
    ]
}

/// Both versions, with V4 addresses and their IPv4-mapped V6 forms side by side.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _ip = rowkey::testing::ip_addrs().new_tree(&mut runner).unwrap().current();
/// ```
pub fn ip_addrs() -> impl Strategy<Value = IpAddr> + Clone {
    prop_oneof![ipv4s().prop_map(IpAddr::V4), ipv6s().prop_map(IpAddr::V6)]
}

/// UUIDs weighted to the nil and max UUIDs, version 4 (random) and version 7 (time-ordered,
/// milliseconds at the edges of a second), and arbitrary bytes.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _id = rowkey::testing::uuids().new_tree(&mut runner).unwrap().current();
/// ```
#[cfg(feature = "uuid")]
pub fn uuids() -> impl Strategy<Value = uuid::Uuid> + Clone {
    let v4 = any::<u128>().prop_map(|bits| uuid::Builder::from_random_bytes(bits.to_be_bytes()).into_uuid());
    let v7 = (edge_millis(), any::<u128>()).prop_map(|(ms, bits)| {
        let mut bytes = bits.to_be_bytes();
        bytes[..6].copy_from_slice(&ms.to_be_bytes()[2..]);
        uuid::Builder::from_bytes(bytes)
            .with_version(uuid::Version::SortRand)
            .with_variant(uuid::Variant::RFC4122)
            .into_uuid()
    });
    prop_oneof![Just(uuid::Uuid::nil()), Just(uuid::Uuid::max()), v4, v7, any::<u128>().prop_map(uuid::Uuid::from_u128),]
}

/// ULIDs weighted to the nil and max ULIDs, milliseconds at the edges of a second, and the
/// least and greatest random parts.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _id = rowkey::testing::ulids().new_tree(&mut runner).unwrap().current();
/// ```
#[cfg(feature = "ulid")]
pub fn ulids() -> impl Strategy<Value = ulid::Ulid> + Clone {
    let random = prop_oneof![Just(0u128), Just(u128::MAX >> 48), any::<u128>().prop_map(|r| r >> 48)];
    prop_oneof![
        Just(ulid::Ulid::nil()),
        Just(ulid::Ulid::from(u128::MAX)),
        (edge_millis(), random).prop_map(|(ms, r)| ulid::Ulid::from_parts(ms, r)),
        any::<u128>().prop_map(ulid::Ulid::from),
    ]
}

/// Milliseconds since the epoch that fit 48 bits, weighted to the edges of a second.
#[cfg(any(feature = "uuid", feature = "ulid"))]
pub(crate) fn edge_millis() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![
        Just(0u64),
        Just((1 << 48) - 1),
        (1_500_000_000u64..1_600_000_000, prop::sample::select(vec![0u64, 1, 999])).prop_map(|(s, ms)| s * 1000 + ms),
        0u64..1 << 48,
    ]
}

/// Keyed hashes of `N` bytes, weighted to the ones whose bytes the formats treat specially:
/// all `00`, all `ff`, and hashes that start or end with them; and to pairs that share a long
/// first part, which only a later byte tells apart.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let hash: rowkey::field::Hashed<8> = rowkey::testing::hashes().new_tree(&mut runner).unwrap().current();
/// assert_eq!(hash.as_bytes().len(), 8);
/// ```
#[cfg(feature = "hashed")]
pub fn hashes<const N: usize>() -> impl Strategy<Value = crate::field::Hashed<N>> + Clone
where
    crate::field::Hashed<N>: crate::field::HashWidth,
{
    use crate::field::Hashed;
    let special = prop_oneof![Just(0x00u8), Just(0x01), Just(0xfe), Just(0xff)];
    let bytes = prop::collection::vec(prop_oneof![2 => special, 3 => any::<u8>()], N..=N);
    let array = |bytes: Vec<u8>| {
        let mut array = [0u8; N];
        array.copy_from_slice(&bytes);
        Hashed::from_bytes(array)
    };
    prop_oneof![
        1 => Just(Hashed::from_bytes([0x00; N])),
        1 => Just(Hashed::from_bytes([0xff; N])),
        // One byte away from the first: long shared parts.
        2 => (0..N, any::<u8>()).prop_map(move |(at, b)| {
            let mut array = [0xa5u8; N];
            array[at] = b;
            Hashed::from_bytes(array)
        }),
        6 => bytes.prop_map(array),
    ]
}
