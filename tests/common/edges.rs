//! A key of every field type in each format, and values at each type's edges: NaNs with their
//! sign and payload, `-0.0`, every integer width's extremes, the first and last instants and
//! dates each time type holds, nil and max ids, and text a shell or JSON would escape. For the
//! tests that values printed by `inspect` build the same key with `encode`.
//!
//! The strategies stand on proptest alone (not `rowkey::testing`), so that the command's tests,
//! which build rowkey without its `proptest` feature, share them.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::{NonZeroI64, NonZeroU32};
use std::time::{Duration, SystemTime};

use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::field::{CalendarDate, Timestamp};

/// Every field type in the ordered format, with each attribute that changes how a value is
/// stored, behind a prefix and a salt.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "edge", salt(buckets = 16, from = [text, int64]))]
pub struct EdgeKey {
    pub text: String,
    #[rowkey(desc)]
    pub text_desc: String,
    pub maybe_text: Option<String>,
    pub letter: char,
    pub maybe_letter: Option<char>,
    pub bytes: Vec<u8>,
    #[rowkey(desc)]
    pub array: [u8; 4],
    pub int8: i8,
    pub int16: i16,
    pub int32: i32,
    pub int64: i64,
    pub int_size: isize,
    pub uint8: u8,
    pub uint16: u16,
    pub uint32: u32,
    pub uint64: u64,
    pub uint_size: usize,
    pub int128: i128,
    pub uint128: u128,
    pub nonzero: NonZeroU32,
    #[rowkey(desc)]
    pub desc_int64: Option<i64>,
    #[rowkey(reverse)]
    pub reverse_uint64: u64,
    #[rowkey(reverse)]
    pub reverse_int32: i32,
    #[rowkey(bit_reverse)]
    pub bits_int64: i64,
    #[rowkey(bit_reverse)]
    pub bits_uint64: u64,
    #[rowkey(big_endian)]
    pub big_endian: i64,
    pub float32: f32,
    pub float64: f64,
    #[rowkey(desc)]
    pub desc_float64: Option<f64>,
    pub maybe_float32: Option<f32>,
    pub flag: bool,
    pub duration: Duration,
    pub system_time: SystemTime,
    pub utc: chrono::DateTime<chrono::Utc>,
    pub fixed_offset: chrono::DateTime<chrono::FixedOffset>,
    pub naive: chrono::NaiveDateTime,
    pub naive_date: chrono::NaiveDate,
    pub offset: time::OffsetDateTime,
    pub primitive: time::PrimitiveDateTime,
    #[rowkey(desc)]
    pub utc_time: time::UtcDateTime,
    pub time_date: time::Date,
    pub jiff: jiff::Timestamp,
    pub civil: jiff::civil::DateTime,
    pub civil_date: Option<jiff::civil::Date>,
    #[rowkey(nanos)]
    pub nanos: jiff::Timestamp,
    #[rowkey(nanos)]
    pub nanos_utc: chrono::DateTime<chrono::Utc>,
    #[rowkey(reverse)]
    pub newest: time::OffsetDateTime,
    #[rowkey(reverse)]
    pub newest_day: Option<chrono::NaiveDate>,
    pub uuid: uuid::Uuid,
    pub ulid: Option<ulid::Ulid>,
    pub ip: IpAddr,
    pub v4: Ipv4Addr,
    pub v6: Ipv6Addr,
    #[rowkey(reverse_domain)]
    pub host: String,
}

/// Every field type in the delimited format, with each attribute that changes its text. The
/// delimiter `\x01` lets text hold spaces, quotes, newlines and every other byte but `00`.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "\u{1}", prefix = "edge", salt(buckets = 100, from = [int16], hash = "modulo"))]
pub struct EdgeText {
    pub text: String,
    pub maybe_text: Option<String>,
    pub letter: char,
    pub maybe_letter: Option<char>,
    pub bytes: Vec<u8>,
    #[rowkey(hex)]
    pub hex_bytes: Vec<u8>,
    #[rowkey(hex)]
    pub hex_array: [u8; 3],
    #[rowkey(hex)]
    pub hex_uint64: u64,
    #[rowkey(hex)]
    pub maybe_hex: Option<u16>,
    pub int8: i8,
    pub int16: i16,
    pub int32: i32,
    pub int64: i64,
    pub int_size: isize,
    pub uint8: u8,
    pub uint16: u16,
    pub uint32: u32,
    pub uint64: u64,
    pub uint_size: usize,
    pub int128: i128,
    pub uint128: u128,
    pub nonzero: NonZeroI64,
    #[rowkey(width = 5)]
    pub narrow: Option<u32>,
    #[rowkey(width = 7)]
    pub signed_width: i32,
    #[rowkey(reverse)]
    pub reverse_int64: i64,
    #[rowkey(reverse)]
    pub reverse_uint32: u32,
    #[rowkey(bit_reverse)]
    pub bits_int64: i64,
    #[rowkey(bit_reverse)]
    pub bits_uint64: u64,
    pub flag: bool,
    pub duration: Duration,
    pub utc: chrono::DateTime<chrono::Utc>,
    pub fixed_offset: chrono::DateTime<chrono::FixedOffset>,
    pub naive: chrono::NaiveDateTime,
    pub naive_date: chrono::NaiveDate,
    pub offset: time::OffsetDateTime,
    pub primitive: time::PrimitiveDateTime,
    pub utc_time: time::UtcDateTime,
    pub time_date: time::Date,
    pub jiff: jiff::Timestamp,
    pub civil: jiff::civil::DateTime,
    pub civil_date: Option<jiff::civil::Date>,
    #[rowkey(nanos)]
    pub nanos: Option<chrono::NaiveDateTime>,
    #[rowkey(nanos)]
    pub nanos_offset: time::OffsetDateTime,
    #[rowkey(reverse)]
    pub newest: jiff::Timestamp,
    #[rowkey(reverse)]
    pub newest_day: chrono::NaiveDate,
    pub uuid: uuid::Uuid,
    pub ulid: ulid::Ulid,
    pub ip: IpAddr,
    pub v4: Option<Ipv4Addr>,
    pub v6: Ipv6Addr,
    #[rowkey(reverse_domain)]
    pub host: Option<String>,
}

/// A type's extremes, zero and one, and any value.
macro_rules! edge_int {
    ($t:ty) => {
        prop_oneof![Just(<$t>::MIN), Just(<$t>::MAX), Just(0 as $t), Just(1 as $t), any::<$t>()]
    };
}

/// `f64`s weighted to the values whose text is special: both zeros, both infinities, the
/// canonical NaN and its negation, NaNs with other payloads (quiet and signalling, either
/// sign), the extremes and subnormals; and any bits.
pub fn edge_f64() -> impl Strategy<Value = f64> + Clone {
    let nan = (any::<bool>(), 1u64..1 << 52)
        .prop_map(|(negative, payload)| f64::from_bits(u64::from(negative) << 63 | 0x7ff << 52 | payload));
    prop_oneof![
        Just(0.0),
        Just(-0.0),
        Just(f64::NAN),
        Just(-f64::NAN),
        Just(f64::from_bits(0x7ff0_0000_0000_0001)),
        Just(f64::from_bits(0xfff0_0000_0000_0001)),
        Just(f64::from_bits(0x7ff8_dead_beef_0001)),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::MAX),
        Just(f64::MIN),
        Just(f64::MIN_POSITIVE),
        Just(5e-324),
        Just(-5e-324),
        nan,
        any::<u64>().prop_map(f64::from_bits),
    ]
}

/// [`edge_f64`]'s kinds of value as `f32`s.
pub fn edge_f32() -> impl Strategy<Value = f32> + Clone {
    let nan = (any::<bool>(), 1u32..1 << 23)
        .prop_map(|(negative, payload)| f32::from_bits(u32::from(negative) << 31 | 0xff << 23 | payload));
    prop_oneof![
        Just(0.0),
        Just(-0.0),
        Just(f32::NAN),
        Just(-f32::NAN),
        Just(f32::from_bits(0x7f80_0001)),
        Just(f32::from_bits(0xffc0_0001)),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::MAX),
        Just(f32::MIN),
        Just(f32::from_bits(1)),
        nan,
        any::<u32>().prop_map(f32::from_bits),
    ]
}

/// Characters a shell, JSON or a `name=value` line reads specially, the bytes the ordered
/// format escapes (when `nul` is true), `\u{ff}`, the highest code point, and any other.
fn edge_char(nul: bool) -> impl Strategy<Value = char> + Clone {
    let low: Vec<char> = if nul { vec!['\0', '\u{1}'] } else { vec!['\u{2}'] };
    prop_oneof![
        1 => prop::sample::select(low),
        4 => prop::sample::select(vec![
            '"', '\\', '\'', '\n', '\r', '\t', ' ', '=', '$', '`', '#', '.', '\u{7f}', '\u{ff}', '\u{10ffff}', 'a',
        ]),
        2 => any::<char>().prop_filter("at or below the delimiter", move |c| nul || *c > '\u{1}'),
    ]
}

/// Text of up to 6 [`edge_char`]s, the empty text included.
fn edge_text(nul: bool) -> impl Strategy<Value = String> + Clone {
    prop::collection::vec(edge_char(nul), 0..6).prop_map(|c| c.into_iter().collect())
}

/// Bytes weighted to those the ordered format escapes and to quotes and backslashes; from
/// `lowest` up.
fn edge_bytes(lowest: u8) -> impl Strategy<Value = Vec<u8>> + Clone {
    let byte =
        prop_oneof![prop::sample::select(vec![0x00u8, 0x01, 0x02, b'"', b'\\', b'\n', 0x7f, 0xfe, 0xff]), any::<u8>(),]
            .prop_map(move |b| b.max(lowest));
    prop::collection::vec(byte, 0..6)
}

/// Host names of one to four labels, as `reverse_domain` takes them.
fn host() -> impl Strategy<Value = String> + Clone {
    "([a-z0-9]{1,6}\\.){0,3}[a-z]{1,6}"
}

/// Seconds from the epoch worth trying in every instant type: the epoch and around it, before
/// 1970, and the first and last seconds of the years 0000 to 9999.
const EDGE_SECS: [i64; 6] = [0, -1, 1, -86_400, -62_167_219_200, 253_402_300_799];

/// Instants of `T` from `min` to `max` seconds with fractions in steps of `step` ns: the
/// edges, `min` and `max` themselves with no and the largest fraction, and any between.
fn instants<T: Timestamp + std::fmt::Debug>(min: i64, max: i64, step: u32) -> impl Strategy<Value = T> {
    let edges: Vec<i64> = EDGE_SECS.iter().copied().chain([min, max]).filter(|s| (min..=max).contains(s)).collect();
    let fraction =
        prop_oneof![Just(0u32), Just(999_999_999 / step * step), (0..1_000_000_000 / step).prop_map(move |n| n * step)];
    (prop_oneof![prop::sample::select(edges), min..=max], fraction)
        .prop_filter_map("outside the type's range", |(secs, nanos)| T::from_unix(secs, nanos).ok())
}

/// Instants of `T` in whole microseconds, over its whole range.
pub fn timestamps<T: Timestamp + std::fmt::Debug>() -> impl Strategy<Value = T> {
    instants(T::MIN_SECS, T::MAX_SECS, 1000)
}

/// Instants of `T` to the nanosecond, over its whole range.
pub fn timestamps_nanos<T: Timestamp + std::fmt::Debug>() -> impl Strategy<Value = T> {
    instants(T::MIN_SECS, T::MAX_SECS, 1)
}

/// Instants of `T` in the years 0000 to 9999 (a delimited key's text), from `from` seconds.
fn text_instants<T: Timestamp + std::fmt::Debug>(from: i64, step: u32) -> impl Strategy<Value = T> {
    instants(T::MIN_SECS.max(from).max(-62_167_219_200), T::MAX_SECS.min(253_402_300_799), step)
}

/// Dates of `T` from `min` to `max` days, weighted to the epoch, the day before, 0000-01-01,
/// 9999-12-31 and the ends.
fn days<T: CalendarDate + std::fmt::Debug>(min: i64, max: i64) -> impl Strategy<Value = T> {
    let edges: Vec<i64> =
        [0, -1, 1, -719_528, 2_932_896, min, max].into_iter().filter(|d| (min..=max).contains(d)).collect();
    prop_oneof![prop::sample::select(edges), min..=max]
        .prop_filter_map("outside the type's range", |d| T::from_days(d).ok())
}

fn dates<T: CalendarDate + std::fmt::Debug>() -> impl Strategy<Value = T> {
    days(T::MIN_DAYS, T::MAX_DAYS)
}

fn text_dates<T: CalendarDate + std::fmt::Debug>(from: i64) -> impl Strategy<Value = T> {
    days(T::MIN_DAYS.max(from).max(-719_528), T::MAX_DAYS.min(2_932_896))
}

fn uuids() -> impl Strategy<Value = uuid::Uuid> + Clone {
    prop_oneof![Just(uuid::Uuid::nil()), Just(uuid::Uuid::max()), any::<u128>().prop_map(uuid::Uuid::from_u128)]
}

fn ulids() -> impl Strategy<Value = ulid::Ulid> + Clone {
    prop_oneof![Just(ulid::Ulid::nil()), Just(ulid::Ulid::from(u128::MAX)), any::<u128>().prop_map(ulid::Ulid::from)]
}

fn ipv4s() -> impl Strategy<Value = Ipv4Addr> + Clone {
    prop_oneof![Just(Ipv4Addr::UNSPECIFIED), Just(Ipv4Addr::BROADCAST), any::<u32>().prop_map(Ipv4Addr::from)]
}

fn ipv6s() -> impl Strategy<Value = Ipv6Addr> + Clone {
    prop_oneof![
        Just(Ipv6Addr::UNSPECIFIED),
        Just(Ipv6Addr::from(u128::MAX)),
        ipv4s().prop_map(|v4| v4.to_ipv6_mapped()),
        any::<u128>().prop_map(Ipv6Addr::from),
    ]
}

fn ips() -> impl Strategy<Value = IpAddr> + Clone {
    prop_oneof![ipv4s().prop_map(IpAddr::V4), ipv6s().prop_map(IpAddr::V6)]
}

/// `SystemTime`s a key holds: whole microseconds within `i64` of the epoch, its extremes
/// included.
fn system_times() -> impl Strategy<Value = SystemTime> + Clone {
    let micros = prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0), Just(-1), any::<i64>()];
    micros.prop_map(|micros| {
        let offset = Duration::from_micros(micros.unsigned_abs());
        if micros < 0 { SystemTime::UNIX_EPOCH - offset } else { SystemTime::UNIX_EPOCH + offset }
    })
}

fn durations() -> impl Strategy<Value = Duration> + Clone {
    prop_oneof![
        Just(Duration::ZERO),
        Just(Duration::MAX),
        (any::<u64>(), 0..1_000_000_000u32).prop_map(|(s, n)| Duration::new(s, n))
    ]
}

/// Every integer type at its edges, in the order both edge keys hold them.
type Ints = (i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, i128, u128);

fn edge_ints() -> impl Strategy<Value = Ints> {
    (
        edge_int!(i8),
        edge_int!(i16),
        edge_int!(i32),
        edge_int!(i64),
        edge_int!(isize),
        edge_int!(u8),
        edge_int!(u16),
        edge_int!(u32),
        edge_int!(u64),
        edge_int!(usize),
        edge_int!(i128),
        edge_int!(u128),
    )
}

/// Keys of [`EdgeKey`] over the edges of each field's type.
pub fn edge_key() -> impl Strategy<Value = EdgeKey> {
    let text = (
        edge_text(true),
        edge_text(true),
        prop::option::of(edge_text(true)),
        edge_char(true),
        prop::option::of(edge_char(true)),
        edge_bytes(0),
        any::<[u8; 4]>(),
    );
    let ints = edge_ints();
    let transformed = (
        prop_oneof![Just(NonZeroU32::MIN), Just(NonZeroU32::MAX), any::<NonZeroU32>()],
        prop::option::of(edge_int!(i64)),
        edge_int!(u64),
        prop_oneof![Just(0), Just(i32::MAX), 0..=i32::MAX],
        edge_int!(i64),
        edge_int!(u64),
        prop_oneof![Just(0), Just(i64::MAX), 0..=i64::MAX],
    );
    let floats = (
        edge_f32(),
        edge_f64(),
        prop::option::of(edge_f64()),
        prop::option::of(edge_f32()),
        any::<bool>(),
        durations(),
        system_times(),
    );
    let times = (
        timestamps(),
        timestamps(),
        timestamps(),
        dates(),
        timestamps(),
        timestamps(),
        timestamps(),
        dates(),
        timestamps(),
        timestamps(),
        prop::option::of(dates()),
    );
    let more = (
        timestamps_nanos(),
        timestamps_nanos(),
        instants(0, time::OffsetDateTime::MAX_SECS, 1000),
        prop::option::of(days(0, chrono::NaiveDate::MAX_DAYS)),
        uuids(),
        prop::option::of(ulids()),
        (ips(), ipv4s(), ipv6s(), host()),
    );
    (text, ints, transformed, floats, times, more).prop_map(
        |(
            (text, text_desc, maybe_text, letter, maybe_letter, bytes, array),
            (int8, int16, int32, int64, int_size, uint8, uint16, uint32, uint64, uint_size, int128, uint128),
            (nonzero, desc_int64, reverse_uint64, reverse_int32, bits_int64, bits_uint64, big_endian),
            (float32, float64, desc_float64, maybe_float32, flag, duration, system_time),
            (utc, fixed_offset, naive, naive_date, offset, primitive, utc_time, time_date, jiff, civil, civil_date),
            (nanos, nanos_utc, newest, newest_day, uuid, ulid, (ip, v4, v6, host)),
        )| EdgeKey {
            text,
            text_desc,
            maybe_text,
            letter,
            maybe_letter,
            bytes,
            array,
            int8,
            int16,
            int32,
            int64,
            int_size,
            uint8,
            uint16,
            uint32,
            uint64,
            uint_size,
            int128,
            uint128,
            nonzero,
            desc_int64,
            reverse_uint64,
            reverse_int32,
            bits_int64,
            bits_uint64,
            big_endian,
            float32,
            float64,
            desc_float64,
            maybe_float32,
            flag,
            duration,
            system_time,
            utc,
            fixed_offset,
            naive,
            naive_date,
            offset,
            primitive,
            utc_time,
            time_date,
            jiff,
            civil,
            civil_date,
            nanos,
            nanos_utc,
            newest,
            newest_day,
            uuid,
            ulid,
            ip,
            v4,
            v6,
            host,
        },
    )
}

/// Keys of [`EdgeText`] over the edges of each field's type that its text holds.
pub fn edge_text_key() -> impl Strategy<Value = EdgeText> {
    let text = (
        edge_text(false),
        // `Some("")` is refused: a delimited key's empty field is `None`.
        prop::option::of(edge_text(false).prop_filter("empty", |t| !t.is_empty())),
        edge_char(false),
        prop::option::of(edge_char(false)),
        edge_bytes(2),
        edge_bytes(0),
        any::<[u8; 3]>(),
        edge_int!(u64),
        prop::option::of(edge_int!(u16)),
    );
    let ints = edge_ints();
    let transformed = (
        prop_oneof![Just(NonZeroI64::MIN), Just(NonZeroI64::MAX), any::<NonZeroI64>()],
        prop::option::of(prop_oneof![Just(0u32), Just(99_999), 0..=99_999u32]),
        prop_oneof![Just(-999_999i32), Just(9_999_999), -999_999..=9_999_999i32],
        prop_oneof![Just(0), Just(i64::MAX), 0..=i64::MAX],
        edge_int!(u32),
        edge_int!(i64),
        edge_int!(u64),
    );
    let times = (
        any::<bool>(),
        durations(),
        text_instants(i64::MIN, 1000),
        text_instants(i64::MIN, 1000),
        text_instants(i64::MIN, 1000),
        text_dates(i64::MIN),
        text_instants(i64::MIN, 1000),
        text_instants(i64::MIN, 1000),
        text_instants(i64::MIN, 1000),
        text_dates(i64::MIN),
        text_instants(i64::MIN, 1000),
        text_instants(i64::MIN, 1000),
    );
    let more = (
        prop::option::of(text_dates(i64::MIN)),
        prop::option::of(text_instants(i64::MIN, 1)),
        text_instants(i64::MIN, 1),
        text_instants(0, 1000),
        text_dates(0),
        uuids(),
        ulids(),
        (ips(), prop::option::of(ipv4s()), ipv6s(), prop::option::of(host())),
    );
    (text, ints, transformed, times, more).prop_map(
        |(
            (text, maybe_text, letter, maybe_letter, bytes, hex_bytes, hex_array, hex_uint64, maybe_hex),
            (int8, int16, int32, int64, int_size, uint8, uint16, uint32, uint64, uint_size, int128, uint128),
            (nonzero, narrow, signed_width, reverse_int64, reverse_uint32, bits_int64, bits_uint64),
            (flag, duration, utc, fixed_offset, naive, naive_date, offset, primitive, utc_time, time_date, jiff, civil),
            (civil_date, nanos, nanos_offset, newest, newest_day, uuid, ulid, (ip, v4, v6, host)),
        )| EdgeText {
            text,
            maybe_text,
            letter,
            maybe_letter,
            bytes,
            hex_bytes,
            hex_array,
            hex_uint64,
            maybe_hex,
            int8,
            int16,
            int32,
            int64,
            int_size,
            uint8,
            uint16,
            uint32,
            uint64,
            uint_size,
            int128,
            uint128,
            nonzero,
            narrow,
            signed_width,
            reverse_int64,
            reverse_uint32,
            bits_int64,
            bits_uint64,
            flag,
            duration,
            utc,
            fixed_offset,
            naive,
            naive_date,
            offset,
            primitive,
            utc_time,
            time_date,
            jiff,
            civil,
            civil_date,
            nanos,
            nanos_offset,
            newest,
            newest_day,
            uuid,
            ulid,
            ip,
            v4,
            v6,
            host,
        },
    )
}
