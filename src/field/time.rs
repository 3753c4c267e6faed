//! The `time` crate's date and time types as key fields (feature `time`): see
//! [`Timestamp`](crate::field::Timestamp) for the encodings.
//!
//! ```
//! use rowkey::{Desc, RowKey};
//! use time::{Date, Month, OffsetDateTime, UtcOffset};
//!
//! // By the instant, whatever the offset: 01:00+02:00 is before 00:00:01Z.
//! let day = Date::from_calendar_date(2020, Month::May, 1).unwrap();
//! let earlier = day.with_hms(1, 0, 0).unwrap().assume_offset(UtcOffset::from_hms(2, 0, 0).unwrap());
//! let later = day.with_hms(0, 0, 1).unwrap().assume_utc();
//! assert!((earlier,).to_key()? < (later,).to_key()?);
//! assert!((Desc(earlier),).to_key()? > (Desc(later),).to_key()?);
//! let (back,): (OffsetDateTime,) = RowKey::from_key(&(earlier,).to_key()?)?;
//! assert_eq!(back, earlier);
//! # Ok::<(), rowkey::Error>(())
//! ```

use ::time::{Date, OffsetDateTime, PrimitiveDateTime, UtcDateTime};

use crate::error::{Error, Result};
use crate::field::calendar::SECS_PER_DAY;
use crate::field::instant::{CalendarDate, Timestamp};
use crate::field::instant_fields::{date_field, timestamp_field};

/// The Julian day number of 1970-01-01.
const EPOCH_JULIAN_DAY: i64 = 2_440_588;
// From time's own limits, which its `large-dates` feature widens.
const MIN_DAYS: i64 = Date::MIN.to_julian_day() as i64 - EPOCH_JULIAN_DAY;
const MAX_DAYS: i64 = Date::MAX.to_julian_day() as i64 - EPOCH_JULIAN_DAY;
const MIN_SECS: i64 = MIN_DAYS * SECS_PER_DAY;
const MAX_SECS: i64 = MAX_DAYS * SECS_PER_DAY + SECS_PER_DAY - 1;

fn utc(ty: &'static str, secs: i64, nanos: u32) -> Result<UtcDateTime> {
    UtcDateTime::from_unix_timestamp(secs)
        .and_then(|t| t.replace_nanosecond(nanos))
        .map_err(|e| Error::invalid(ty, format!("{secs} s from the epoch: {e}")))
}

/// By its instant: keys compare instants, as `OffsetDateTime`'s own `Ord` does, and a key
/// decodes with offset zero (an equal value).
impl Timestamp for OffsetDateTime {
    const NAME: &'static str = "OffsetDateTime";
    const MIN_SECS: i64 = MIN_SECS;
    const MAX_SECS: i64 = MAX_SECS;

    fn to_unix(&self) -> Result<(i64, u32)> {
        Ok((self.unix_timestamp(), self.nanosecond()))
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        utc(Self::NAME, secs, nanos).map(|t| t.to_offset(::time::UtcOffset::UTC))
    }
}

impl Timestamp for UtcDateTime {
    const NAME: &'static str = "UtcDateTime";
    const MIN_SECS: i64 = MIN_SECS;
    const MAX_SECS: i64 = MAX_SECS;

    fn to_unix(&self) -> Result<(i64, u32)> {
        Ok((self.unix_timestamp(), self.nanosecond()))
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        utc(Self::NAME, secs, nanos)
    }
}

/// As a UTC time.
impl Timestamp for PrimitiveDateTime {
    const NAME: &'static str = "PrimitiveDateTime";
    const MIN_SECS: i64 = MIN_SECS;
    const MAX_SECS: i64 = MAX_SECS;

    fn to_unix(&self) -> Result<(i64, u32)> {
        self.as_utc().to_unix()
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        let utc = utc(Self::NAME, secs, nanos)?;
        Ok(PrimitiveDateTime::new(utc.date(), utc.time()))
    }
}

impl CalendarDate for Date {
    const NAME: &'static str = "Date";
    const MIN_DAYS: i64 = MIN_DAYS;
    const MAX_DAYS: i64 = MAX_DAYS;

    fn to_days(&self) -> i64 {
        i64::from(self.to_julian_day()) - EPOCH_JULIAN_DAY
    }

    fn from_days(days: i64) -> Result<Self> {
        i32::try_from(days + EPOCH_JULIAN_DAY)
            .ok()
            .and_then(|day| Date::from_julian_day(day).ok())
            .ok_or_else(|| Error::invalid(Self::NAME, format!("day {days} from the epoch is outside time's range")))
    }
}

timestamp_field!(OffsetDateTime);
timestamp_field!(UtcDateTime);
timestamp_field!(PrimitiveDateTime);
date_field!(Date);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_times() {
        assert_eq!(UtcDateTime::MIN.unix_timestamp(), MIN_SECS);
        assert_eq!(UtcDateTime::MAX.unix_timestamp(), MAX_SECS);
        assert_eq!(Date::from_days(0).unwrap(), Date::from_calendar_date(1970, ::time::Month::January, 1).unwrap());
    }
}
