//! chrono's date and time types as key fields (feature `chrono`): see
//! [`Timestamp`](crate::field::Timestamp) for the encodings.
//!
//! ```
//! use chrono::{DateTime, NaiveDate, Utc};
//! use rowkey::RowKey;
//!
//! let at: DateTime<Utc> = "2020-05-01T00:00:00.5Z".parse().unwrap();
//! let key = ("meter", at).to_key()?;
//! assert_eq!(<(String, DateTime<Utc>)>::from_key(&key)?.1, at);
//!
//! let text = rowkey::format::Delimited::default().to_key(&("meter", at, NaiveDate::from_ymd_opt(2020, 5, 1).unwrap()))?;
//! assert_eq!(text.as_bytes(), b"meter#2020-05-01T00:00:00.500000Z#2020-05-01");
//! # Ok::<(), rowkey::Error>(())
//! ```

use ::chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Utc};

use crate::error::{Error, Result};
use crate::field::calendar::{SECS_PER_DAY, days_from_civil};
use crate::field::instant::{CalendarDate, Timestamp, check_micros};
use crate::field::instant_fields::{date_field, timestamp_field};

/// chrono's dates run from -262143-01-01 to +262142-12-31 (its `NaiveDate::MIN` and `MAX`).
const MIN_DAYS: i64 = days_from_civil(-262_143, 1, 1);
const MAX_DAYS: i64 = days_from_civil(262_142, 12, 31);
const MIN_SECS: i64 = MIN_DAYS * SECS_PER_DAY;
const MAX_SECS: i64 = MAX_DAYS * SECS_PER_DAY + SECS_PER_DAY - 1;

/// chrono represents a leap second as a nanosecond count of one second or more.
fn unix_parts(ty: &'static str, secs: i64, nanos: u32) -> Result<(i64, u32)> {
    if nanos >= 1_000_000_000 {
        return Err(Error::unencodable(
            ty,
            "it is a leap second, which has no place of its own on the Unix time line (nor in Bigtable's \
             TIMESTAMP): use the second before or after it",
        ));
    }
    Ok((secs, nanos))
}

fn utc(ty: &'static str, secs: i64, nanos: u32) -> Result<DateTime<Utc>> {
    DateTime::from_timestamp(secs, nanos)
        .ok_or_else(|| Error::invalid(ty, format!("{secs} s from the epoch is outside chrono's range")))
}

impl Timestamp for DateTime<Utc> {
    const NAME: &'static str = "DateTime<Utc>";
    const MIN_SECS: i64 = MIN_SECS;
    const MAX_SECS: i64 = MAX_SECS;

    fn to_unix(&self) -> Result<(i64, u32)> {
        unix_parts(Self::NAME, self.timestamp(), self.timestamp_subsec_nanos())
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        utc(Self::NAME, secs, nanos)
    }

    #[inline]
    fn to_unix_micros(&self) -> Result<i64> {
        micros_of(Self::NAME, self)
    }

    #[inline]
    fn from_unix_micros(micros: i64) -> Result<Self> {
        from_micros(Self::NAME, micros)
    }
}

/// chrono counts microseconds itself; the checks are the leap second and the fraction.
fn micros_of(ty: &'static str, t: &DateTime<Utc>) -> Result<i64> {
    let nanos = t.timestamp_subsec_nanos();
    if nanos >= 1_000_000_000 {
        unix_parts(ty, 0, nanos)?;
    }
    check_micros::<DateTime<Utc>>(nanos).map_err(|e| rename(e, ty))?;
    Ok(t.timestamp_micros())
}

fn from_micros(ty: &'static str, micros: i64) -> Result<DateTime<Utc>> {
    DateTime::from_timestamp_micros(micros)
        .ok_or_else(|| Error::invalid(ty, format!("{micros} µs from the epoch is outside chrono's range")))
}

/// The same error, naming the type the caller encodes.
fn rename(err: Error, ty: &'static str) -> Error {
    match err {
        Error::Unencodable { at, detail, .. } => Error::Unencodable { at, ty, detail },
        other => other,
    }
}

/// By its instant: keys compare instants, as `DateTime`'s own `Ord` does, and a key decodes
/// with offset zero (an equal `DateTime`).
impl Timestamp for DateTime<FixedOffset> {
    const NAME: &'static str = "DateTime<FixedOffset>";
    const MIN_SECS: i64 = MIN_SECS;
    const MAX_SECS: i64 = MAX_SECS;

    fn to_unix(&self) -> Result<(i64, u32)> {
        unix_parts(Self::NAME, self.timestamp(), self.timestamp_subsec_nanos())
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        utc(Self::NAME, secs, nanos).map(|t| t.fixed_offset())
    }

    #[inline]
    fn to_unix_micros(&self) -> Result<i64> {
        micros_of(Self::NAME, &self.to_utc())
    }

    #[inline]
    fn from_unix_micros(micros: i64) -> Result<Self> {
        from_micros(Self::NAME, micros).map(|t| t.fixed_offset())
    }
}

/// As a UTC time.
impl Timestamp for NaiveDateTime {
    const NAME: &'static str = "NaiveDateTime";
    const MIN_SECS: i64 = MIN_SECS;
    const MAX_SECS: i64 = MAX_SECS;

    fn to_unix(&self) -> Result<(i64, u32)> {
        let utc = self.and_utc();
        unix_parts(Self::NAME, utc.timestamp(), utc.timestamp_subsec_nanos())
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        utc(Self::NAME, secs, nanos).map(|t| t.naive_utc())
    }

    #[inline]
    fn to_unix_micros(&self) -> Result<i64> {
        micros_of(Self::NAME, &self.and_utc())
    }

    #[inline]
    fn from_unix_micros(micros: i64) -> Result<Self> {
        from_micros(Self::NAME, micros).map(|t| t.naive_utc())
    }
}

impl CalendarDate for NaiveDate {
    const NAME: &'static str = "NaiveDate";
    const MIN_DAYS: i64 = MIN_DAYS;
    const MAX_DAYS: i64 = MAX_DAYS;

    fn to_days(&self) -> i64 {
        // 0001-01-01 is day 1 of the common era.
        i64::from(::chrono::Datelike::num_days_from_ce(self)) - 1 + days_from_civil(1, 1, 1)
    }

    fn from_days(days: i64) -> Result<Self> {
        i32::try_from(days - days_from_civil(1, 1, 1) + 1)
            .ok()
            .and_then(NaiveDate::from_num_days_from_ce_opt)
            .ok_or_else(|| Error::invalid(Self::NAME, format!("day {days} from the epoch is outside chrono's range")))
    }
}

timestamp_field!(DateTime<Utc>);
timestamp_field!(DateTime<FixedOffset>);
timestamp_field!(NaiveDateTime);
date_field!(NaiveDate);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_chronos() {
        assert_eq!(NaiveDate::MIN.to_days(), MIN_DAYS);
        assert_eq!(NaiveDate::MAX.to_days(), MAX_DAYS);
        assert_eq!(NaiveDateTime::MIN.and_utc().timestamp(), MIN_SECS);
        assert_eq!(NaiveDateTime::MAX.and_utc().timestamp(), MAX_SECS);
        assert_eq!(NaiveDate::from_days(-1).unwrap(), NaiveDate::from_ymd_opt(1969, 12, 31).unwrap());
        assert_eq!(NaiveDate::from_ymd_opt(2000, 2, 29).unwrap().to_days(), 11_016);
    }

    #[test]
    fn leap_seconds_are_refused() {
        let leap = NaiveDate::from_ymd_opt(2016, 12, 31).unwrap().and_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap();
        assert!(leap.to_unix().is_err());
    }
}
