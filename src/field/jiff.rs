//! jiff's date and time types as key fields (feature `jiff`): see
//! [`Timestamp`](crate::field::Timestamp) for the encodings.
//!
//! ```
//! use jiff::Timestamp;
//! use rowkey::RowKey;
//!
//! let at: Timestamp = "1969-07-20T20:17:40Z".parse().unwrap();
//! let key = ("apollo-11", at).to_key()?;
//! assert_eq!(<(String, Timestamp)>::from_key(&key)?.1, at);
//! let text = rowkey::format::Delimited::default().to_key(&("apollo-11", at))?;
//! assert_eq!(text.as_bytes(), b"apollo-11#1969-07-20T20:17:40.000000Z");
//! # Ok::<(), rowkey::Error>(())
//! ```

use ::jiff::Timestamp as JiffTimestamp;
use ::jiff::civil::{Date, DateTime};

use crate::error::{Error, Result};
use crate::field::calendar::{SECS_PER_DAY, civil_from_days, days_from_civil};
use crate::field::instant::{CalendarDate, Timestamp, check_micros};
use crate::field::instant_fields::{date_field, timestamp_field};

/// jiff's timestamps run from -009999-01-02T01:59:59Z to 9999-12-30T22:00:00.999999999Z, its
/// civil dates from -9999-01-01 to 9999-12-31.
const TIMESTAMP_MIN_SECS: i64 = -377_705_023_201;
const TIMESTAMP_MAX_SECS: i64 = 253_402_207_200;
const MIN_DAYS: i64 = days_from_civil(-9999, 1, 1);
const MAX_DAYS: i64 = days_from_civil(9999, 12, 31);

fn out_of_range(ty: &'static str, e: &::jiff::Error) -> Error {
    Error::invalid(ty, format!("outside jiff's range: {e}"))
}

impl Timestamp for JiffTimestamp {
    const NAME: &'static str = "Timestamp";
    const MIN_SECS: i64 = TIMESTAMP_MIN_SECS;
    const MAX_SECS: i64 = TIMESTAMP_MAX_SECS;

    fn to_unix(&self) -> Result<(i64, u32)> {
        // jiff gives the fraction the sign of the seconds; the key counts forward from the
        // second before.
        let (secs, nanos) = (self.as_second(), self.subsec_nanosecond());
        Ok(if nanos < 0 { (secs - 1, (nanos + 1_000_000_000).unsigned_abs()) } else { (secs, nanos.unsigned_abs()) })
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        // Below one billion.
        JiffTimestamp::new(secs, nanos as i32).map_err(|e| out_of_range(Self::NAME, &e))
    }

    #[inline]
    fn to_unix_micros(&self) -> Result<i64> {
        check_micros::<Self>(self.subsec_nanosecond().unsigned_abs())?;
        Ok(self.as_microsecond())
    }

    #[inline]
    fn from_unix_micros(micros: i64) -> Result<Self> {
        // jiff's microsecond constructor stops at the last whole second of its range, whose
        // fraction `Timestamp::new` still takes.
        JiffTimestamp::from_microsecond(micros).or_else(|_| {
            // Below one million.
            Self::from_unix(micros.div_euclid(1_000_000), micros.rem_euclid(1_000_000) as u32 * 1000)
        })
    }
}

/// As a UTC time.
impl Timestamp for DateTime {
    const NAME: &'static str = "civil::DateTime";
    const MIN_SECS: i64 = MIN_DAYS * SECS_PER_DAY;
    const MAX_SECS: i64 = MAX_DAYS * SECS_PER_DAY + SECS_PER_DAY - 1;

    fn to_unix(&self) -> Result<(i64, u32)> {
        let in_day = i64::from(self.hour()) * 3600 + i64::from(self.minute()) * 60 + i64::from(self.second());
        // A non-negative count below one billion.
        Ok((self.date().to_days() * SECS_PER_DAY + in_day, self.subsec_nanosecond().unsigned_abs()))
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        let date = Date::from_days(secs.div_euclid(SECS_PER_DAY))?;
        let in_day = secs.rem_euclid(SECS_PER_DAY);
        // Each part is within its range by construction.
        let time = ::jiff::civil::Time::new(
            (in_day / 3600) as i8,
            (in_day / 60 % 60) as i8,
            (in_day % 60) as i8,
            nanos as i32,
        )
        .map_err(|e| out_of_range(Self::NAME, &e))?;
        Ok(date.to_datetime(time))
    }
}

impl CalendarDate for Date {
    const NAME: &'static str = "civil::Date";
    const MIN_DAYS: i64 = MIN_DAYS;
    const MAX_DAYS: i64 = MAX_DAYS;

    fn to_days(&self) -> i64 {
        days_from_civil(i64::from(self.year()), self.month().unsigned_abs().into(), self.day().unsigned_abs().into())
    }

    fn from_days(days: i64) -> Result<Self> {
        let (year, month, day) = civil_from_days(days);
        let year = i16::try_from(year)
            .map_err(|_| Error::invalid(Self::NAME, format!("day {days} from the epoch is outside jiff's range")))?;
        // 1..=12 and 1..=31.
        Date::new(year, month as i8, day as i8).map_err(|e| out_of_range(Self::NAME, &e))
    }
}

timestamp_field!(JiffTimestamp);
timestamp_field!(DateTime);
date_field!(Date);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_jiffs() {
        assert_eq!(JiffTimestamp::MIN.as_second(), TIMESTAMP_MIN_SECS);
        assert_eq!(JiffTimestamp::MAX.as_second(), TIMESTAMP_MAX_SECS);
        assert_eq!(Date::MIN.to_days(), MIN_DAYS);
        assert_eq!(Date::MAX.to_days(), MAX_DAYS);
        let before: JiffTimestamp = "1969-12-31T23:59:59.5Z".parse().unwrap();
        assert_eq!(before.to_unix().unwrap(), (-1, 500_000_000));
        assert_eq!(JiffTimestamp::from_unix(-1, 500_000_000).unwrap(), before);
    }
}
