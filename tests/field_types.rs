//! The field types of the date-time, id and address crates, and the std ones without an
//! orderedcode form: byte order equals value order and decoding inverts encoding, in both
//! formats, plain, inside `Option`, under `desc` and under `reverse`.

use std::cmp::Ordering;
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::{NonZeroI64, NonZeroU32};
use std::time::Duration;

use proptest::prelude::*;
use rowkey::field::{DecodeText, EncodeText, Nanos, ReadField, Reversed, WriteField};
use rowkey::format::Delimited;
use rowkey::format::Ordered;
use rowkey::testing::{
    dates, ip_addrs, ipv4s, ipv6s, text_dates, text_timestamps, timestamps, timestamps_nanos, ulids, uuids,
};
use rowkey::{Desc, RowKey};

/// `(a,)` and `(b,)` as ordered keys sort as `cmp` says, and each decodes back to itself.
fn ordered<T>(a: &T, b: &T, cmp: Ordering) -> Result<(), TestCaseError>
where
    T: WriteField<Ordered> + for<'de> ReadField<'de, Ordered> + PartialEq + Debug + Clone,
{
    let (ka, kb) = ((a.clone(),).to_key().unwrap(), (b.clone(),).to_key().unwrap());
    prop_assert_eq!(ka.cmp(&kb), cmp, "keys {} and {} of {:?} and {:?}", ka, kb, a, b);
    for (value, key) in [(a, &ka), (b, &kb)] {
        let (back,): (T,) = RowKey::from_key(key.as_bytes()).unwrap();
        prop_assert_eq!(&back, value, "key {}", key.to_string());
    }
    Ok(())
}

/// The same for delimited keys `x#a` and `x#b`, where the field must also keep its place
/// before a following field.
fn delimited<T>(a: &T, b: &T, cmp: Ordering) -> Result<(), TestCaseError>
where
    T: EncodeText + for<'de> DecodeText<'de> + PartialEq + Debug + Clone,
{
    let format = Delimited::default();
    let ka = format.to_key(&("x".to_owned(), a.clone(), "z".to_owned())).unwrap();
    let kb = format.to_key(&("x".to_owned(), b.clone(), "a".to_owned())).unwrap();
    let expected = cmp.then(Ordering::Greater);
    prop_assert_eq!(ka.cmp(&kb), expected, "keys {} and {} of {:?} and {:?}", ka, kb, a, b);
    for (value, key) in [(a, &ka), (b, &kb)] {
        let (_, back, _): (String, T, String) = format.from_key(key.as_bytes()).unwrap();
        prop_assert_eq!(&back, value, "key {}", key.to_string());
    }
    Ok(())
}

/// Order and round trip of a type in both formats, as a plain field, in an `Option` (with
/// `None`), and under `Desc` (ordered format).
macro_rules! both_formats {
    ($name:ident, $ty:ty, $any:expr, $text:expr) => {
        proptest! {
            #[test]
            fn $name(a in $any, b in $any, ta in $text, tb in $text, none in any::<bool>()) {
                let (a, b): ($ty, $ty) = (a, b);
                ordered(&a, &b, a.cmp(&b))?;
                ordered(&Desc(a), &Desc(b), b.cmp(&a))?;
                let oa = if none { None } else { Some(a) };
                ordered(&oa, &Some(b), oa.cmp(&Some(b)))?;
                ordered(&Desc(oa), &Desc(Some(b)), Some(b).cmp(&oa))?;
                let (ta, tb): ($ty, $ty) = (ta, tb);
                delimited(&ta, &tb, ta.cmp(&tb))?;
                let ota = if none { None } else { Some(ta) };
                delimited(&ota, &Some(tb), ota.cmp(&Some(tb)))?;
            }
        }
    };
}

both_formats!(chrono_utc, chrono::DateTime<chrono::Utc>, timestamps(), text_timestamps());
both_formats!(chrono_naive, chrono::NaiveDateTime, timestamps(), text_timestamps());
both_formats!(chrono_date, chrono::NaiveDate, dates(), text_dates());
both_formats!(time_offset, time::OffsetDateTime, timestamps(), text_timestamps());
both_formats!(time_utc, time::UtcDateTime, timestamps(), text_timestamps());
both_formats!(time_primitive, time::PrimitiveDateTime, timestamps(), text_timestamps());
both_formats!(time_date, time::Date, dates(), text_dates());
both_formats!(jiff_timestamp, jiff::Timestamp, timestamps(), text_timestamps());
both_formats!(jiff_datetime, jiff::civil::DateTime, timestamps(), text_timestamps());
both_formats!(jiff_date, jiff::civil::Date, dates(), text_dates());
both_formats!(uuid, uuid::Uuid, uuids(), uuids());
both_formats!(ulid, ulid::Ulid, ulids(), ulids());
both_formats!(ipv4, Ipv4Addr, ipv4s(), ipv4s());
both_formats!(ipv6, Ipv6Addr, ipv6s(), ipv6s());
both_formats!(ip, IpAddr, ip_addrs(), ip_addrs());
both_formats!(duration, Duration, durations(), durations());
both_formats!(u128s, u128, edge_u128(), edge_u128());

proptest! {
    /// `timestamps()` keeps to what a plain field holds, for `SystemTime` too, whose own range
    /// (i64 seconds) is wider than a field's (i64 microseconds). The ordered format only: the
    /// delimited one has no `SystemTime` fields.
    #[test]
    fn system_time(a in timestamps::<std::time::SystemTime>(), b in timestamps::<std::time::SystemTime>()) {
        ordered(&a, &b, a.cmp(&b))?;
        ordered(&Desc(a), &Desc(b), b.cmp(&a))?;
        ordered(&Some(a), &None, Ordering::Greater)?;
    }
}
both_formats!(i128s, i128, edge_i128(), edge_i128());
both_formats!(nonzero_u32, NonZeroU32, any::<NonZeroU32>(), any::<NonZeroU32>());
both_formats!(nonzero_i64, NonZeroI64, any::<NonZeroI64>(), any::<NonZeroI64>());

fn durations() -> impl Strategy<Value = Duration> {
    prop_oneof![
        Just(Duration::ZERO),
        Just(Duration::MAX),
        (any::<u64>(), 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n))
    ]
}

fn edge_u128() -> impl Strategy<Value = u128> {
    prop_oneof![Just(0), Just(u128::MAX), (0u32..128).prop_map(|s| 1u128 << s), any::<u128>()]
}

fn edge_i128() -> impl Strategy<Value = i128> {
    prop_oneof![Just(i128::MIN), Just(i128::MAX), Just(0), Just(-1), any::<i128>()]
}

/// `reverse` on instants and dates from 1970 on: newest first, in both formats.
macro_rules! reversed {
    ($name:ident, $ty:ty, $any:expr, $since_1970:expr) => {
        proptest! {
            #[test]
            fn $name(a in $any.prop_filter("from 1970", $since_1970), b in $any.prop_filter("from 1970", $since_1970)) {
                let (a, b): ($ty, $ty) = (a, b);
                ordered(&Reversed(a), &Reversed(b), b.cmp(&a))?;
                delimited(&Reversed(a), &Reversed(b), b.cmp(&a))?;
            }
        }
    };
}

reversed!(reversed_chrono, chrono::DateTime<chrono::Utc>, timestamps(), |t: &chrono::DateTime<chrono::Utc>| t
    .timestamp()
    >= 0);
reversed!(reversed_time, time::OffsetDateTime, timestamps(), |t: &time::OffsetDateTime| t.unix_timestamp() >= 0);
reversed!(reversed_jiff, jiff::Timestamp, timestamps(), |t: &jiff::Timestamp| t.as_nanosecond() >= 0);
reversed!(reversed_chrono_date, chrono::NaiveDate, dates(), |d: &chrono::NaiveDate| d
    .and_hms_opt(0, 0, 0)
    .unwrap()
    .and_utc()
    .timestamp()
    >= 0);
reversed!(reversed_jiff_date, jiff::civil::Date, dates(), |d: &jiff::civil::Date| d.year() >= 1970);

proptest! {
    /// `Nanos` keeps sub-microsecond fractions, which the plain field refuses, in order.
    #[test]
    fn nanos_keep_every_fraction(a in timestamps_nanos::<jiff::Timestamp>(), b in timestamps_nanos::<jiff::Timestamp>()) {
        ordered(&Nanos(a), &Nanos(b), a.cmp(&b))?;
        ordered(&Desc(Nanos(a)), &Desc(Nanos(b)), b.cmp(&a))?;
        if a.subsec_nanosecond() % 1000 != 0 {
            prop_assert!((a,).to_key().is_err());
        }
    }

    #[test]
    fn nanos_text_sorts(
        a in text_timestamps::<chrono::DateTime<chrono::Utc>>().prop_filter("room for a microsecond", |t| t.timestamp() < 253_402_300_799),
        extra in 0u32..1000,
    ) {
        let a = a + chrono::Duration::nanoseconds(i64::from(extra));
        let b = a + chrono::Duration::nanoseconds(1);
        delimited(&Nanos(a), &Nanos(b), Ordering::Less)?;
    }

    /// A ULID's text and bytes sort alike, and `ulid_range` holds exactly the ids minted in it.
    #[test]
    fn ulid_ranges_are_exact_at_millisecond_edges(start in 0u64..1 << 40, len in 0u64..5000, id in ulids()) {
        let t = |ms: u64| std::time::UNIX_EPOCH + Duration::from_millis(ms);
        let range = rowkey::field::ulid_range(t(start)..t(start + len)).unwrap();
        let minted = id.timestamp_ms();
        prop_assert_eq!(range.contains(&id), (start..start + len).contains(&minted));
    }

    #[test]
    fn uuid_v7_ranges_are_exact_at_millisecond_edges(start in 0u64..1 << 40, len in 0u64..5000, id in uuids()) {
        let t = |ms: u64| std::time::UNIX_EPOCH + Duration::from_millis(ms);
        let range = rowkey::field::uuid_v7_range(t(start)..t(start + len)).unwrap();
        if id.get_version_num() == 7 {
            let minted = u64::from_be_bytes([0, 0, id.as_bytes()[0], id.as_bytes()[1], id.as_bytes()[2], id.as_bytes()[3], id.as_bytes()[4], id.as_bytes()[5]]);
            prop_assert_eq!(range.contains(&id), (start..start + len).contains(&minted));
        }
    }
}

#[test]
fn sub_microsecond_values_are_refused_not_rounded() {
    let t = chrono::DateTime::from_timestamp(1_588_291_200, 1).unwrap();
    let err = (t,).to_key().unwrap_err().to_string();
    assert!(err.contains("1 ns into its second") && err.contains("#[rowkey(nanos)]"), "{err}");
    assert!(Delimited::default().to_key(&(t,)).is_err());
}

#[test]
fn text_holds_the_years_whose_text_sorts() {
    let year_10000 = chrono::NaiveDate::from_ymd_opt(10_000, 1, 1).unwrap();
    let err = Delimited::default().to_key(&(year_10000,)).unwrap_err().to_string();
    assert!(err.contains("year 10000") && err.contains("ordered format"), "{err}");
    // The ordered format holds it, after every earlier date.
    let year_9999 = chrono::NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
    assert!((year_9999,).to_key().unwrap() < (year_10000,).to_key().unwrap());
}

#[test]
fn reverse_refuses_times_before_1970() {
    let t = chrono::DateTime::from_timestamp(-1, 0).unwrap();
    let err = (Reversed(t),).to_key().unwrap_err().to_string();
    assert!(err.contains("use `desc`"), "{err}");
}

#[test]
fn offsets_compare_by_instant() {
    // The serde path's 01:00+02:00 after 00:00:01Z: here the instants decide.
    let day = time::Date::from_calendar_date(2020, time::Month::May, 1).unwrap();
    let early = day.with_hms(1, 0, 0).unwrap().assume_offset(time::UtcOffset::from_hms(2, 0, 0).unwrap());
    let late = day.with_hms(0, 0, 1).unwrap().assume_utc();
    assert!((early,).to_key().unwrap() < (late,).to_key().unwrap());
    let fixed: chrono::DateTime<chrono::FixedOffset> = "2020-05-01T01:00:00+02:00".parse().unwrap();
    let (back,): (chrono::DateTime<chrono::FixedOffset>,) = RowKey::from_key(&(fixed,).to_key().unwrap()).unwrap();
    assert_eq!(back, fixed);
}

#[test]
fn decoders_accept_only_what_encoders_write() {
    let hash = Delimited::default();
    for bad in [
        &b"2020-05-01T00:00:00.5Z"[..],
        b"2020-05-01T00:00:00.500000+00:00",
        b"2020-02-30T00:00:00.000000Z",
        b"2020-05-01t00:00:00.000000Z",
    ] {
        assert!(hash.from_key::<(chrono::DateTime<chrono::Utc>,)>(bad).is_err(), "{}", String::from_utf8_lossy(bad));
    }
    assert!(hash.from_key::<(uuid::Uuid,)>(b"67E55044-10B1-426F-9247-BB680E5FE0C8").is_err());
    assert!(hash.from_key::<(Ipv4Addr,)>(b"10.0.0.1").is_err());
    assert!(hash.from_key::<(IpAddr,)>(b"010.000.000.001").is_err());
    // Ordered: a 15-byte uuid, an IpAddr with an unknown tag.
    assert!(<(uuid::Uuid,)>::from_key(&[1u8; 15]).is_err());
    assert!(<(IpAddr,)>::from_key(&[5, 1, 2, 3, 4]).is_err());
}
