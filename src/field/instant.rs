//! Dates and instants of the date-time crates (chrono, time, jiff): the [`Timestamp`] and
//! [`CalendarDate`] traits that each type implements, the encodings they share, and
//! [`Nanos`] for keys that keep nanoseconds.
//!
//! | kind | ordered format | delimited format |
//! |---|---|---|
//! | instant | microseconds since 1970-01-01 UTC as an orderedcode int64 (Bigtable `TIMESTAMP`, `unix_micros_int64`) | `2020-05-01T00:00:00.500000Z` |
//! | instant, [`Nanos`] | nanoseconds since the epoch as an `i128` (16 bytes) | `2020-05-01T00:00:00.500000000Z` |
//! | date | days since 1970-01-01 as an orderedcode int64 | `2020-05-01` |
//! | instant, `reverse` | `i64::MAX - micros` as an int64 | `i64::MAX - micros`, 19 digits |
//! | date, `reverse` | `i32::MAX - days` as an int64 | `i32::MAX - days`, 10 digits |
//!
//! An instant that holds a fraction finer than the field keeps (nanoseconds in a microsecond
//! field) is an [`Error::Unencodable`]: rounding it would give two instants one key, and
//! reading the key back would return another value. Truncate it first, or keep nanoseconds
//! with [`Nanos`] (`#[rowkey(nanos)]` in a derived key). Leap seconds (chrono can hold one)
//! are refused the same way. The text holds the years 0000 to 9999 only, the years whose
//! text sorts; `reverse` holds instants and dates from 1970 on (`MAX - v` needs `v >= 0`).

// The shared half of the chrono, time and jiff support: without those features only key
// inspection and `Nanos<SystemTime>` use it.
#![cfg_attr(
    not(any(feature = "chrono", feature = "time", feature = "jiff")),
    allow(dead_code, unused_macros, unused_imports)
)]

use crate::error::{Error, Result};
use crate::field::Sink;
use crate::field::alphabet::Alphabet;
use crate::field::calendar::{self, NANOS_PER_SEC};
use crate::field::decimal::{decode_decimal, encode_decimal};
use crate::field::{DateSpec, Encoding, TimeSpec};

const NANOS_PER_MICRO: u32 = 1_000;
const MICROS_PER_SEC: i64 = 1_000_000;

/// An instant type the key formats encode: seconds and nanoseconds since 1970-01-01 UTC.
///
/// Implemented for chrono's `DateTime<Utc>`, `DateTime<FixedOffset>` (by its instant; it
/// decodes with offset zero, an equal value) and `NaiveDateTime` (read as UTC), time's
/// `OffsetDateTime` (by its instant), `UtcDateTime` and `PrimitiveDateTime` (as UTC), and
/// jiff's `Timestamp` and `civil::DateTime` (as UTC), each behind the crate's feature.
///
/// ```
/// # #[cfg(feature = "chrono")] {
/// use rowkey::field::Timestamp;
///
/// let t = chrono::DateTime::from_timestamp(1_588_291_200, 500_000_000).unwrap();
/// assert_eq!(t.to_unix()?, (1_588_291_200, 500_000_000));
/// # }
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait Timestamp: Sized {
    /// The type's name, for error messages.
    const NAME: &'static str;
    /// The earliest whole second the type holds, from the epoch.
    const MIN_SECS: i64;
    /// The latest whole second the type holds (with any fraction), from the epoch.
    const MAX_SECS: i64;

    /// Seconds since the epoch (rounded toward the past) and nanoseconds into that second.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`] for a value with no such pair (a leap second).
    fn to_unix(&self) -> Result<(i64, u32)>;

    /// The value at `secs` + `nanos` from the epoch; `secs` is within
    /// `MIN_SECS..=MAX_SECS` and `nanos` below one second.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] when the type cannot hold it after all.
    fn from_unix(secs: i64, nanos: u32) -> Result<Self>;

    /// Whole microseconds since the epoch, the value of a plain instant field. The provided
    /// method goes through [`to_unix`](Self::to_unix); a type whose crate counts microseconds
    /// directly overrides it, which keeps a timestamp field as cheap as an `i64` one.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`] for a value with a fraction finer than a microsecond, or beyond
    /// `i64` microseconds.
    fn to_unix_micros(&self) -> Result<i64> {
        let (secs, nanos) = self.to_unix()?;
        check_micros::<Self>(nanos)?;
        // Every supported type's range is within i64 microseconds; a custom one may not be.
        secs.checked_mul(MICROS_PER_SEC)
            .and_then(|s| s.checked_add(i64::from(nanos / NANOS_PER_MICRO)))
            .ok_or_else(|| Error::unencodable(Self::NAME, "it is beyond the i64 microseconds a TIMESTAMP field holds"))
    }

    /// The value `micros` from the epoch, within the type's range; provided through
    /// [`from_unix`](Self::from_unix), overridden like [`to_unix_micros`](Self::to_unix_micros).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] when the type cannot hold it.
    fn from_unix_micros(micros: i64) -> Result<Self> {
        // Below one million.
        Self::from_unix(micros.div_euclid(MICROS_PER_SEC), micros.rem_euclid(MICROS_PER_SEC) as u32 * NANOS_PER_MICRO)
    }
}

/// The error for a value finer than the microseconds a plain instant field holds.
///
/// # Errors
///
/// When `nanos` into the second is not whole microseconds.
pub(crate) fn check_micros<T: Timestamp>(nanos: u32) -> Result<()> {
    if nanos.is_multiple_of(NANOS_PER_MICRO) {
        return Ok(());
    }
    Err(Error::unencodable(
        T::NAME,
        format!(
            "it is {nanos} ns into its second, finer than the microseconds the field holds; truncate it to \
             microseconds first, or keep nanoseconds with `#[rowkey(nanos)]` (`rowkey::field::Nanos`)"
        ),
    ))
}

/// A date type the key formats encode: days since 1970-01-01.
///
/// Implemented for chrono's `NaiveDate`, time's `Date` and jiff's `civil::Date`, each behind
/// the crate's feature.
///
/// ```
/// # #[cfg(feature = "chrono")] {
/// use rowkey::field::CalendarDate;
///
/// let day = chrono::NaiveDate::from_ymd_opt(1969, 12, 31).unwrap();
/// assert_eq!(day.to_days(), -1);
/// # }
/// ```
pub trait CalendarDate: Sized {
    /// The type's name, for error messages.
    const NAME: &'static str;
    /// The earliest day the type holds, from the epoch.
    const MIN_DAYS: i64;
    /// The latest day the type holds, from the epoch.
    const MAX_DAYS: i64;

    /// Days since 1970-01-01 (negative before).
    fn to_days(&self) -> i64;

    /// The date `days` from 1970-01-01, within `MIN_DAYS..=MAX_DAYS`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] when the type cannot hold it after all.
    fn from_days(days: i64) -> Result<Self>;
}

/// The schema encoding of a timestamp type's key field.
pub(crate) const fn time_spec<T: Timestamp>(nanos: bool) -> Encoding {
    Encoding::Timestamp(TimeSpec { nanos, min_secs: T::MIN_SECS, max_secs: T::MAX_SECS })
}

/// The schema encoding of a date type's key field.
pub(crate) const fn date_spec<T: CalendarDate>() -> Encoding {
    Encoding::Date(DateSpec { min_days: T::MIN_DAYS, max_days: T::MAX_DAYS })
}

/// The value's instant, refusing a fraction finer than a microsecond.
#[inline(always)]
pub(crate) fn to_micros<T: Timestamp>(value: &T) -> Result<i64> {
    value.to_unix_micros()
}

/// The instant `micros` from the epoch as a `T`, or an error when `T` cannot hold it.
#[inline(always)]
pub(crate) fn from_micros<T: Timestamp>(micros: i64) -> Result<T> {
    // The range in microseconds, folded to constants for each type.
    let min = T::MIN_SECS.saturating_mul(MICROS_PER_SEC);
    let max = T::MAX_SECS.saturating_mul(MICROS_PER_SEC).saturating_add(MICROS_PER_SEC - 1);
    if !(min..=max).contains(&micros) {
        return Err(Error::invalid(T::NAME, format!("{micros} µs from the epoch is outside the range of {}", T::NAME)));
    }
    T::from_unix_micros(micros)
}

fn from_unix_checked<T: Timestamp>(secs: i64, nanos: u32) -> Result<T> {
    if !(T::MIN_SECS..=T::MAX_SECS).contains(&secs) {
        return Err(Error::invalid(T::NAME, format!("{secs} s from the epoch is outside the range of {}", T::NAME)));
    }
    T::from_unix(secs, nanos)
}

pub(crate) fn to_nanos<T: Timestamp>(value: &T) -> Result<i128> {
    let (secs, nanos) = value.to_unix()?;
    Ok(i128::from(secs) * i128::from(NANOS_PER_SEC) + i128::from(nanos))
}

pub(crate) fn from_nanos<T: Timestamp>(nanos: i128) -> Result<T> {
    let per_sec = i128::from(NANOS_PER_SEC);
    let secs = i64::try_from(nanos.div_euclid(per_sec)).map_err(|_| {
        Error::invalid(T::NAME, format!("{nanos} ns from the epoch is outside the range of {}", T::NAME))
    })?;
    // Below one billion.
    from_unix_checked(secs, nanos.rem_euclid(per_sec) as u32)
}

pub(crate) fn encode_micros_text<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
    let (secs, nanos) = value.to_unix()?;
    check_micros::<T>(nanos)?;
    calendar::write_instant(out, secs, nanos, 6, T::NAME)
}

pub(crate) fn decode_micros_text<T: Timestamp>(text: &[u8]) -> Result<T> {
    let (secs, nanos) = calendar::parse_instant(text, 6, T::NAME)?;
    from_unix_checked(secs, nanos)
}

pub(crate) fn from_days_checked<T: CalendarDate>(days: i64) -> Result<T> {
    if !(T::MIN_DAYS..=T::MAX_DAYS).contains(&days) {
        return Err(Error::invalid(T::NAME, format!("day {days} from the epoch is outside the range of {}", T::NAME)));
    }
    T::from_days(days)
}

pub(crate) fn encode_date_text<T: CalendarDate, S: Sink>(value: &T, out: &mut S) -> Result<()> {
    calendar::write_date(out, value.to_days(), T::NAME)
}

pub(crate) fn decode_date_text<T: CalendarDate>(text: &[u8]) -> Result<T> {
    from_days_checked(calendar::parse_date(text, T::NAME)?)
}

/// The millisecond an id minted at `time` or later carries at the least: `time` rounded up to
/// a whole millisecond, which must fit the 48 bits of a ULID or UUID v7.
#[cfg(any(feature = "uuid", feature = "ulid"))]
pub(crate) fn ceil_millis<T: Timestamp>(time: &T, ty: &'static str) -> Result<u64> {
    let (secs, nanos) = time.to_unix()?;
    let millis = i128::from(secs) * 1000 + i128::from(nanos.div_ceil(1_000_000));
    u64::try_from(millis).ok().filter(|&ms| ms < 1 << 48).ok_or_else(|| {
        Error::argument(
            "time range",
            format!("{} ms from the epoch is outside the 48-bit milliseconds from 1970 that a {ty} holds", millis),
        )
    })
}

/// The text alphabet of dates and instants: digits and `-`, `:`, `.`, `T`, `Z`.
pub(crate) const TIME_ALPHABET: Alphabet =
    Alphabet { lowest: b'-', name: "date and time text (digits and '-', ':', '.', 'T', 'Z')" };

/// The largest stored value of a reversed instant (microseconds) and of a reversed date.
pub(crate) const REVERSED_TIME_MAX: i64 = i64::MAX;
pub(crate) const REVERSED_DATE_MAX: i64 = i32::MAX as i64;

pub(crate) fn reversed(value: i64, max: i64, ty: &'static str, unit: &str) -> Result<i64> {
    if value < 0 || value > max {
        return Err(Error::unencodable(
            ty,
            format!(
                "it is {value} {unit} from 1970; `reverse` stores MAX - v (MAX = {max}), which needs 1970 or later: \
                 use `desc` (ordered format) for a newest-first field over earlier times"
            ),
        ));
    }
    Ok(max - value)
}

fn unreversed(stored: i128, max: i64, ty: &'static str) -> Result<i64> {
    match i64::try_from(stored) {
        Ok(v) if (0..=max).contains(&v) => Ok(max - v),
        _ => Err(Error::invalid(ty, format!("{stored} is not MAX - v for any v >= 0 (MAX = {max})"))),
    }
}

pub(crate) fn reversed_micros<T: Timestamp>(value: &T) -> Result<i64> {
    reversed(to_micros(value)?, REVERSED_TIME_MAX, T::NAME, "µs")
}

pub(crate) fn unreversed_micros<T: Timestamp>(stored: i128) -> Result<T> {
    from_micros(unreversed(stored, REVERSED_TIME_MAX, T::NAME)?)
}

pub(crate) fn reversed_days<T: CalendarDate>(value: &T) -> Result<i64> {
    reversed(value.to_days(), REVERSED_DATE_MAX, T::NAME, "days")
}

pub(crate) fn unreversed_days<T: CalendarDate>(stored: i128) -> Result<T> {
    from_days_checked(unreversed(stored, REVERSED_DATE_MAX, T::NAME)?)
}

/// An instant's text at nanoseconds: RFC 3339 in UTC with nine fraction digits.
pub(crate) fn encode_nanos_text<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
    let (secs, nanos) = value.to_unix()?;
    calendar::write_instant(out, secs, nanos, 9, T::NAME)
}

/// Reads what [`encode_nanos_text`] writes.
pub(crate) fn decode_nanos_text<T: Timestamp>(text: &[u8]) -> Result<T> {
    let (secs, nanos) = calendar::parse_instant(text, 9, T::NAME)?;
    from_unix_checked(secs, nanos)
}

/// A reversed instant's text: `i64::MAX` minus its microseconds, in 19 digits.
pub(crate) fn encode_reversed_micros_text<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
    reversed_text(out, reversed_micros(value)?, REVERSED_TIME_MAX, T::NAME)
}

/// Reads what [`encode_reversed_micros_text`] writes.
pub(crate) fn decode_reversed_micros_text<T: Timestamp>(text: &[u8]) -> Result<T> {
    unreversed_micros(reversed_from_text(text, REVERSED_TIME_MAX, T::NAME)?)
}

/// A reversed date's text: `i32::MAX` minus its days, in 10 digits.
pub(crate) fn encode_reversed_days_text<T: CalendarDate, S: Sink>(value: &T, out: &mut S) -> Result<()> {
    reversed_text(out, reversed_days(value)?, REVERSED_DATE_MAX, T::NAME)
}

/// Reads what [`encode_reversed_days_text`] writes.
pub(crate) fn decode_reversed_days_text<T: CalendarDate>(text: &[u8]) -> Result<T> {
    unreversed_days(reversed_from_text(text, REVERSED_DATE_MAX, T::NAME)?)
}

/// The stored value of a reversed field as decimal text: 19 digits for instants, 10 for dates.
pub(crate) fn reversed_text<S: Sink>(out: &mut S, stored: i64, max: i64, ty: &'static str) -> Result<()> {
    encode_decimal(out, stored.into(), reversed_width(max), ty)
}

pub(crate) fn reversed_from_text(text: &[u8], max: i64, ty: &'static str) -> Result<i128> {
    decode_decimal(text, reversed_width(max), false, ty)
}

const fn reversed_width(max: i64) -> usize {
    if max == REVERSED_TIME_MAX { 19 } else { 10 }
}
