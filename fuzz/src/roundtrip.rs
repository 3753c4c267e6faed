//! Values built with `arbitrary`: every value that encodes decodes to itself, and two values'
//! keys compare as the values do (for key types whose fields all keep order).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt::Debug;

use arbitrary::{Arbitrary, Unstructured};
use rowkey::{RowKey, RowKeyOwned};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::derived::{Tiny, TinyText};
use crate::keys::{EveryField, EveryText};
use crate::serde_types::{Event, Kind};
use crate::show;

/// Ascending fields of most types: the key order is the derived `Ord`.
#[derive(RowKey, Arbitrary, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Plain {
    pub a: String,
    pub b: i32,
    pub c: Option<u64>,
    pub d: Vec<u8>,
    pub e: bool,
    pub f: char,
    pub g: [u8; 2],
    pub h: i128,
    pub i: Option<Vec<u8>>,
}

/// Descending and reversed fields: the key order reverses theirs.
#[derive(RowKey, Arbitrary, Clone, Debug, PartialEq, Eq)]
#[rowkey(prefix = "n")]
pub struct Newest {
    pub a: String,
    #[rowkey(desc)]
    pub b: i64,
    #[rowkey(reverse)]
    pub c: u32,
    #[rowkey(desc)]
    pub d: Option<String>,
    pub e: Option<u8>,
}

impl Newest {
    fn key_order(&self, other: &Self) -> Ordering {
        (self.a.cmp(&other.a))
            .then(other.b.cmp(&self.b))
            .then(other.c.cmp(&self.c))
            .then(other.d.cmp(&self.d))
            .then(self.e.cmp(&other.e))
    }
}

/// The delimited format's text encodings, in order.
#[derive(RowKey, Arbitrary, Clone, Debug, PartialEq, Eq)]
#[rowkey(delimited = "#")]
pub struct Text {
    pub a: String,
    pub b: u32,
    #[rowkey(hex)]
    pub c: u16,
    #[rowkey(width = 6)]
    pub d: Option<u32>,
    pub e: i16,
    #[rowkey(reverse)]
    pub f: u8,
    pub g: Option<String>,
}

impl Text {
    fn key_order(&self, other: &Self) -> Ordering {
        (self.a.cmp(&other.a))
            .then(self.b.cmp(&other.b))
            .then(self.c.cmp(&other.c))
            .then(self.d.cmp(&other.d))
            .then(self.e.cmp(&other.e))
            .then(other.f.cmp(&self.f))
            .then(self.g.cmp(&other.g))
    }
}

/// Order-breaking transforms (bit reversal, hex) and every wrapper: round trips only.
#[derive(RowKey, Arbitrary, Clone, Debug, PartialEq, Eq)]
#[rowkey(salt(buckets = 7, from = [a, b]))]
pub struct Spread {
    pub a: String,
    #[rowkey(bit_reverse)]
    pub b: i64,
    #[rowkey(bit_reverse)]
    pub c: u64,
    #[rowkey(big_endian)]
    pub d: u16,
    #[rowkey(desc, big_endian)]
    pub e: Option<u32>,
}

/// Runs one round trip or order check, chosen by the input.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(choice) = u.int_in_range(0u8..=10) else { return };
    let _ = match choice {
        0 => ordered::<Plain>(&mut u, Plain::cmp),
        1 => ordered::<Newest>(&mut u, Newest::key_order),
        2 => ordered::<Text>(&mut u, Text::key_order),
        3 => ordered::<(String, i64, Option<u32>, Vec<u8>, bool)>(&mut u, Ord::cmp),
        4 => serde_ordered::<Event>(&mut u),
        5 => serde_ordered::<(Vec<Kind>, BTreeMap<String, u8>, Option<(i8, String)>)>(&mut u),
        6 => every_field(&mut u),
        7 => every_text(&mut u),
        8 => u.arbitrary().map(|value: Spread| drop(round_trip(&value))),
        9 => tiny(&mut u),
        _ => tiny_text(&mut u),
    };
}

/// Two values: each decodes to itself, and their keys compare as `order` says the values do.
fn ordered<T: RowKeyOwned + for<'a> Arbitrary<'a> + Debug + PartialEq>(
    u: &mut Unstructured<'_>,
    order: fn(&T, &T) -> Ordering,
) -> arbitrary::Result<()> {
    let (a, b): (T, T) = (u.arbitrary()?, u.arbitrary()?);
    let (Some(ka), Some(kb)) = (round_trip(&a), round_trip(&b)) else { return Ok(()) };
    assert_eq!(ka.cmp(&kb), order(&a, &b), "{a:?}: {}\n{b:?}: {}", show(&ka), show(&kb));
    Ok(())
}

/// The value's key, when it has one, after checking that it decodes to the value.
fn round_trip<T: RowKeyOwned + Debug + PartialEq>(value: &T) -> Option<rowkey::Key> {
    let key = value.to_key().ok()?;
    let back = T::from_key(&key).unwrap_or_else(|e| panic!("{value:?}: its key {} does not decode: {e}", show(&key)));
    assert_eq!(&back, value, "{}", show(&key));
    Some(key)
}

fn serde_ordered<T: Serialize + DeserializeOwned + for<'a> Arbitrary<'a> + Debug + Ord>(
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<()> {
    let (a, b): (T, T) = (u.arbitrary()?, u.arbitrary()?);
    let keys = [&a, &b].map(|value| {
        let key = rowkey::to_key(value).ok()?;
        let back: T =
            rowkey::from_key(&key).unwrap_or_else(|e| panic!("{value:?}: {} does not decode: {e}", show(&key)));
        assert_eq!(&back, value, "{}", show(&key));
        Some(key)
    });
    if let [Some(ka), Some(kb)] = keys {
        assert_eq!(ka.cmp(&kb), a.cmp(&b), "{a:?}: {}\n{b:?}: {}", show(&ka), show(&kb));
    }
    Ok(())
}

/// A value of a type with floats: it decodes to a value with the same key, and to an equal
/// value unless a float is NaN (which is not equal to itself).
fn float_round_trip<T: RowKeyOwned + Debug + PartialEq>(value: &T, has_nan: bool) {
    let Ok(key) = value.to_key() else { return };
    let back = T::from_key(&key).unwrap_or_else(|e| panic!("{value:?}: its key {} does not decode: {e}", show(&key)));
    assert_eq!(back.to_key().ok().as_ref(), Some(&key), "{value:?}");
    if !has_nan {
        assert_eq!(&back, value, "{}", show(&key));
    }
}

fn every_field(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let mut v = EveryField::sample(u.int_in_range(0..=63)?);
    v.name = u.arbitrary()?;
    v.letter = u.arbitrary()?;
    v.maybe_letter = u.arbitrary()?;
    v.level = u.arbitrary()?;
    v.score = u.arbitrary()?;
    v.code = u.arbitrary()?;
    v.tags = u.arbitrary()?;
    v.rank = u.arbitrary()?;
    v.version = u.arbitrary()?;
    v.id = u.arbitrary()?;
    v.seq = u.arbitrary()?;
    v.account = u.arbitrary()?;
    v.balance = u.arbitrary()?;
    v.flag = u.arbitrary()?;
    v.small = u.arbitrary()?;
    v.count = u.arbitrary()?;
    v.host = host(u)?.unwrap_or(v.host);
    v.shard.shard = u.arbitrary()?;
    v.shard.region = u.arbitrary()?;
    v.user = uuid::Uuid::from_u128(u.arbitrary()?);
    v.order = u.arbitrary::<Option<u128>>()?.map(ulid::Ulid::from);
    v.ip = if u.arbitrary()? { <[u8; 4]>::arbitrary(u)?.into() } else { <[u8; 16]>::arbitrary(u)?.into() };
    v.v4 = u32::arbitrary(u)?.into();
    v.v6 = u128::arbitrary(u)?.into();
    if let Some(seen) = chrono::DateTime::from_timestamp_micros(u.arbitrary()?) {
        v.seen = seen;
    }
    if let Some(day) = chrono::NaiveDate::from_num_days_from_ce_opt(u.arbitrary()?) {
        v.day = day;
    }
    if let Ok(newest) = time::OffsetDateTime::from_unix_timestamp_nanos(u.arbitrary()?) {
        v.newest = newest;
    }
    if let Ok(exact) = jiff::Timestamp::from_nanosecond(u.arbitrary()?) {
        v.exact = exact;
    }
    let due: Option<(i16, i8, i8)> = u.arbitrary()?;
    v.due = due.and_then(|(y, m, d)| jiff::civil::Date::new(y, m, d).ok());
    let has_nan = v.level.is_nan() || v.score.is_some_and(f64::is_nan);
    float_round_trip(&v, has_nan);
    if let Ok(key) = v.to_key() {
        EveryField::SCHEMA.inspect(&key).unwrap_or_else(|e| panic!("{v:?}: {}: {e}", show(&key)));
    }
    Ok(())
}

fn every_text(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let mut v = EveryText::sample(u.int_in_range(0..=63)?);
    v.name = u.arbitrary()?;
    v.letter = u.arbitrary()?;
    v.maybe_letter = u.arbitrary()?;
    v.code = u.arbitrary()?;
    v.digest = u.arbitrary()?;
    v.id = u.arbitrary()?;
    v.day_number = u.arbitrary()?;
    v.version = u.arbitrary()?;
    v.seq = u.arbitrary()?;
    v.delta = u.arbitrary()?;
    v.count = u.arbitrary()?;
    v.flag = u.arbitrary()?;
    if u.arbitrary()? {
        v.host = host(u)?;
    }
    v.shard.shard = u.arbitrary()?;
    v.shard.region = u.arbitrary()?;
    v.user = uuid::Uuid::from_u128(u.arbitrary()?);
    v.order = ulid::Ulid::from(u128::arbitrary(u)?);
    v.ip = if u.arbitrary()? { <[u8; 4]>::arbitrary(u)?.into() } else { <[u8; 16]>::arbitrary(u)?.into() };
    v.v4 = u.arbitrary::<Option<u32>>()?.map(Into::into);
    v.v6 = u128::arbitrary(u)?.into();
    if let Some(seen) = chrono::DateTime::from_timestamp_micros(u.arbitrary()?) {
        v.seen = seen;
    }
    if let Ok(day) = time::Date::from_julian_day(u.arbitrary()?) {
        v.day = day;
    }
    if let Ok(newest) = jiff::Timestamp::from_microsecond(u.arbitrary()?) {
        v.newest = newest;
    }
    let exact: Option<i64> = u.arbitrary()?;
    v.exact = exact.map(|nanos| chrono::DateTime::from_timestamp_nanos(nanos).naive_utc());
    if let Some(due) = chrono::NaiveDate::from_num_days_from_ce_opt(u.arbitrary()?) {
        v.due = due;
    }
    float_round_trip(&v, false);
    if let Ok(key) = v.to_key() {
        EveryText::SCHEMA.inspect(&key).unwrap_or_else(|e| panic!("{v:?}: {}: {e}", show(&key)));
    }
    Ok(())
}

/// A host name as a `reverse_domain` field holds it: the key keeps host names in their one
/// form, lowercase without a trailing dot (they are case-insensitive), so an arbitrary name
/// is put in that form first; `None` for text that is no host name.
fn host(u: &mut Unstructured<'_>) -> arbitrary::Result<Option<String>> {
    let name: String = u.arbitrary()?;
    let reversed = rowkey::transform::reverse_domain(&name).ok();
    Ok(reversed.and_then(|r| rowkey::transform::unreverse_domain(&r).ok()))
}

fn tiny(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let v = Tiny { c: u.arbitrary()?, x: u.arbitrary()?, a: u.arbitrary()?, d: u.arbitrary()? };
    float_round_trip(&v, v.x.is_nan());
    Ok(())
}

fn tiny_text(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let v = TinyText { c: u.arbitrary()?, a: u.arbitrary()?, n: u.arbitrary()?, s: u.arbitrary()? };
    float_round_trip(&v, false);
    Ok(())
}
