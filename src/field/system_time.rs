//! [`SystemTime`] as microseconds since the Unix epoch (Bigtable `TIMESTAMP`,
//! `unix_micros_int64` with orderedcode bytes).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};
use crate::field::{FieldType, ReadField, Sink, SystemTimes, Timestamp, WriteField};

/// Microseconds since the epoch, rounded toward the past.
///
/// Flooring (not truncating toward zero) keeps order across 1970: a time a few nanoseconds
/// before the epoch becomes -1 µs, not 0 µs, which would tie it with the epoch itself.
pub(crate) fn to_micros(time: SystemTime) -> Result<i64> {
    let micros = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i128::try_from(after.as_micros()).unwrap_or(i128::MAX),
        Err(before) => {
            let d = before.duration();
            let ceil = d.as_micros() + u128::from(d.subsec_nanos() % 1000 != 0);
            -i128::try_from(ceil).unwrap_or(i128::MAX)
        }
    };
    i64::try_from(micros).map_err(|_| {
        Error::unencodable("SystemTime", "it is more than 292,000 years from 1970, beyond i64 microseconds")
    })
}

pub(crate) fn from_micros(micros: i64) -> Result<SystemTime> {
    let offset = Duration::from_micros(micros.unsigned_abs());
    let time = if micros >= 0 { UNIX_EPOCH.checked_add(offset) } else { UNIX_EPOCH.checked_sub(offset) };
    time.ok_or_else(|| {
        Error::invalid("SystemTime", format!("{micros} µs from the epoch is outside this platform's SystemTime"))
    })
}

/// The Unix time line as `SystemTime` sees it, for [`Nanos`](crate::field::Nanos) and the
/// time-ordered id ranges. The key field of a plain `SystemTime` keeps its own rule (below):
/// whole microseconds, rounded toward the past.
impl Timestamp for SystemTime {
    const NAME: &'static str = "SystemTime";
    const MIN_SECS: i64 = i64::MIN;
    const MAX_SECS: i64 = i64::MAX;

    fn to_unix(&self) -> Result<(i64, u32)> {
        let beyond = || Error::unencodable("SystemTime", "it is beyond i64 seconds from 1970");
        match self.duration_since(UNIX_EPOCH) {
            Ok(after) => Ok((i64::try_from(after.as_secs()).map_err(|_| beyond())?, after.subsec_nanos())),
            Err(before) => {
                let before = before.duration();
                let secs = i64::try_from(before.as_secs()).map_err(|_| beyond())?;
                Ok(match before.subsec_nanos() {
                    0 => (-secs, 0),
                    nanos => (-secs - 1, 1_000_000_000 - nanos),
                })
            }
        }
    }

    fn from_unix(secs: i64, nanos: u32) -> Result<Self> {
        let whole = Duration::from_secs(secs.unsigned_abs());
        let time = if secs >= 0 { UNIX_EPOCH.checked_add(whole) } else { UNIX_EPOCH.checked_sub(whole) };
        time.and_then(|t| t.checked_add(Duration::from_nanos(nanos.into()))).ok_or_else(|| {
            Error::invalid("SystemTime", format!("{secs} s from the epoch is outside this platform's SystemTime"))
        })
    }
}

/// Encodes whole microseconds since 1970-01-01 UTC as an orderedcode int64, the bytes of
/// Bigtable's `TIMESTAMP` key fields.
///
/// Sub-microsecond parts are dropped by rounding toward the past, so
/// `decode(encode(t)) <= t` and order is kept (equal microseconds give equal keys). Times
/// before 1970 are negative and sort first.
impl FieldType for SystemTime {
    const ENCODING: crate::field::Encoding = crate::field::Encoding::TimestampMicros;
}

impl<F: SystemTimes> WriteField<F> for SystemTime {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_int(to_micros(*self)?, out)
    }
}

impl<'de, F: SystemTimes> ReadField<'de, F> for SystemTime {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        from_micros(F::read_int(input)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floors_toward_the_past() {
        assert_eq!(to_micros(UNIX_EPOCH + Duration::from_nanos(1999)).unwrap(), 1);
        assert_eq!(to_micros(UNIX_EPOCH - Duration::from_nanos(1)).unwrap(), -1);
        assert_eq!(to_micros(UNIX_EPOCH - Duration::from_nanos(1000)).unwrap(), -1);
        assert_eq!(to_micros(UNIX_EPOCH - Duration::from_nanos(1001)).unwrap(), -2);
        assert_eq!(from_micros(-2).unwrap(), UNIX_EPOCH - Duration::from_micros(2));
    }
}
