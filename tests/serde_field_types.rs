//! Date-time, id and address types through serde: their own impls mis-sort or are refused,
//! and the `as_field` adapter gives exactly the derived key's bytes.

mod common;

use std::net::IpAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};

use chrono::{DateTime, NaiveDate, Utc};
use common::typed::Typed;
use proptest::prelude::*;
use rowkey::serde::AsField;
use rowkey::testing::{Serde, assert_order_preserving, dates, ip_addrs, timestamps, timestamps_nanos, ulids, uuids};
use rowkey::{Desc, RowKey};
use serde::{Deserialize, Serialize};

/// time's `OffsetDateTime` with its own serde impl: the local date and time, then the offset.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct PlainOffset {
    at: time::OffsetDateTime,
}

/// The same through the adapter.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct AdaptedOffset {
    #[serde(with = "rowkey::serde::as_field")]
    at: time::OffsetDateTime,
}

/// Instants around 2020-05-01T00:00Z written with offsets from -12:00 to +14:00.
fn offset_instants() -> impl Strategy<Value = time::OffsetDateTime> {
    (-7200i64..7200, -12i8..=14).prop_map(|(secs, hours)| {
        let utc = time::OffsetDateTime::from_unix_timestamp(1_588_291_200 + secs).unwrap();
        utc.to_offset(time::UtcOffset::from_hms(hours, 0, 0).unwrap())
    })
}

impl Arbitrary for PlainOffset {
    type Parameters = ();
    type Strategy = BoxedStrategy<Self>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        offset_instants().prop_map(|at| PlainOffset { at }).boxed()
    }
}

impl Arbitrary for AdaptedOffset {
    type Parameters = ();
    type Strategy = BoxedStrategy<Self>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        offset_instants().prop_map(|at| AdaptedOffset { at }).boxed()
    }
}

fn panic_text(f: impl FnOnce()) -> Option<String> {
    let err = catch_unwind(AssertUnwindSafe(f)).err()?;
    Some(
        err.downcast_ref::<String>()
            .cloned()
            .or_else(|| err.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default(),
    )
}

#[test]
fn times_own_serde_impl_mis_sorts_and_the_order_check_catches_it() {
    // The example: 01:00+02:00 is 23:00Z the day before, yet its key sorts after 00:00:01Z.
    let day = time::Date::from_calendar_date(2020, time::Month::May, 1).unwrap();
    let early =
        PlainOffset { at: day.with_hms(1, 0, 0).unwrap().assume_offset(time::UtcOffset::from_hms(2, 0, 0).unwrap()) };
    let late = PlainOffset { at: day.with_hms(0, 0, 1).unwrap().assume_utc() };
    assert!(early < late);
    assert!(rowkey::to_key(&early).unwrap() > rowkey::to_key(&late).unwrap(), "the plain impl sorts by local time");

    let failure = panic_text(assert_order_preserving::<Serde<PlainOffset>>).expect("the check must fail");
    assert!(failure.contains("key order differs from value order"), "{failure}");
    assert!(panic_text(assert_order_preserving::<Serde<AdaptedOffset>>).is_none());
}

/// chrono's `DateTime` with its own serde impl (RFC 3339 text), and through the adapter.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct PlainChrono {
    at: DateTime<Utc>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct AdaptedChrono {
    #[serde(with = "rowkey::serde::as_field")]
    at: DateTime<Utc>,
}

/// The six instants: whole seconds and fractions, before 1970, and year 10000.
fn chrono_instants() -> impl Strategy<Value = DateTime<Utc>> {
    prop::sample::select(vec![
        "2020-05-01T00:00:40Z",
        "2020-05-01T00:00:40.500Z",
        "2020-05-01T00:00:40.050Z",
        "1969-12-31T23:59:59Z",
        "+10000-01-01T00:00:00Z",
        "2020-05-01T00:00:41Z",
    ])
    .prop_map(|text| text.parse().unwrap())
}

impl Arbitrary for PlainChrono {
    type Parameters = ();
    type Strategy = BoxedStrategy<Self>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        chrono_instants().prop_map(|at| PlainChrono { at }).boxed()
    }
}

impl Arbitrary for AdaptedChrono {
    type Parameters = ();
    type Strategy = BoxedStrategy<Self>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        chrono_instants().prop_map(|at| AdaptedChrono { at }).boxed()
    }
}

#[test]
fn the_order_check_fails_on_plain_chrono_and_passes_with_the_adapter() {
    // chrono serializes as Display text, which the serializer refuses: the check fails on the
    // first key, naming the adapter.
    let failure = panic_text(assert_order_preserving::<Serde<PlainChrono>>).expect("the check must fail");
    assert!(failure.contains("rowkey::serde::as_field"), "{failure}");
    assert!(panic_text(assert_order_preserving::<Serde<AdaptedChrono>>).is_none());
}

#[test]
fn display_text_is_refused_naming_the_field_and_the_adapter() {
    #[derive(Serialize)]
    struct ByUser {
        user: uuid::Uuid,
        at: DateTime<Utc>,
    }
    let row = ByUser { user: uuid::Uuid::nil(), at: "2020-05-01T00:00:40Z".parse().unwrap() };
    let err = rowkey::to_key(&row).unwrap_err();
    assert_eq!((err.location().field(), err.location().name()), (Some(1), Some("at")));
    assert!(err.to_string().contains("#[serde(with = \"rowkey::serde::as_field\")]"), "{err}");

    #[derive(Serialize)]
    struct Stamp {
        at: jiff::Timestamp,
    }
    assert!(rowkey::to_key(&Stamp { at: jiff::Timestamp::UNIX_EPOCH }).is_err());
    // Inside an Option too.
    assert!(rowkey::to_key(&(Some(row.at),)).is_err());
}

#[test]
fn uuids_own_binary_form_is_already_the_keys() -> rowkey::Result<()> {
    let id = uuid::Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap();
    assert_eq!(rowkey::to_key(&(id, "x"))?, (id, "x").to_key()?);
    Ok(())
}

/// `Typed`'s fields through serde, each with the adapter.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct TypedSerde {
    user: AsField<uuid::Uuid>,
    at: AsField<DateTime<Utc>>,
    seen: Desc<AsField<time::OffsetDateTime>>,
    ts: AsField<jiff::Timestamp>,
    id: AsField<ulid::Ulid>,
    ip: AsField<IpAddr>,
    day: Option<AsField<NaiveDate>>,
    exact: AsField<rowkey::field::Nanos<jiff::Timestamp>>,
    newest: Option<AsField<rowkey::field::Reversed<time::UtcDateTime>>>,
}

proptest! {
    #[test]
    fn the_adapter_writes_the_derived_keys_bytes(
        user in uuids(), at in timestamps(), seen in timestamps(), ts in timestamps(), id in ulids(),
        ip in ip_addrs(), day in prop::option::of(dates()), exact in timestamps_nanos(),
        newest in prop::option::of(timestamps::<time::UtcDateTime>().prop_filter("from 1970", |t| t.unix_timestamp() >= 0)),
    ) {
        let derived = Typed { user, at, seen, ts, id, ip, day, exact, newest };
        let serde = TypedSerde {
            user: AsField(user),
            at: AsField(at),
            seen: Desc(AsField(seen)),
            ts: AsField(ts),
            id: AsField(id),
            ip: AsField(ip),
            day: day.map(AsField),
            exact: AsField(rowkey::field::Nanos(exact)),
            newest: newest.map(|t| AsField(rowkey::field::Reversed(t))),
        };
        let key = derived.to_key().unwrap();
        prop_assert_eq!(rowkey::to_key(&serde).unwrap(), key.clone());
        prop_assert_eq!(rowkey::from_key::<TypedSerde>(&key).unwrap(), serde);
    }
}
