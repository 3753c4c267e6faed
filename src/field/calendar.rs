//! The proleptic Gregorian calendar, and the fixed-width text of dates and instants that the
//! delimited format writes: one writer and one parser for each, shared by every date and time
//! type (chrono, time, jiff) and by key inspection.
//!
//! | value | text | width |
//! |---|---|---|
//! | a date | `2020-05-01` | 10 |
//! | an instant, microseconds | `2020-05-01T00:00:00.500000Z` | 27 |
//! | an instant, nanoseconds | `2020-05-01T00:00:00.500000000Z` | 30 |
//!
//! Every field has a fixed width and the most significant comes first, so the text sorts
//! as the instant does, but only for the years 0000 to 9999: a fifth digit or a sign would
//! break it, so those years are refused.

// The shared half of the chrono, time and jiff support: without those features only key
// inspection and `Nanos<SystemTime>` use it.
#![cfg_attr(
    not(any(feature = "chrono", feature = "time", feature = "jiff")),
    allow(dead_code, unused_macros, unused_imports)
)]

use crate::error::{Error, Result};
use crate::field::Sink;

pub(crate) const SECS_PER_DAY: i64 = 86_400;
pub(crate) const NANOS_PER_SEC: u32 = 1_000_000_000;
/// The byte length of a date's text.
pub(crate) const DATE_LEN: usize = 10;

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`):
/// years start in March, so the leap day is the last day of a year.
pub(crate) const fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let month_from_march = ((month + 9) % 12) as i64;
    let day_of_year = (153 * month_from_march + 2) / 5 + day as i64 - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count from 1970-01-01, the inverse of [`days_from_civil`].
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // 1..=31 and 1..=12 by construction.
    (year, u32::try_from(month).unwrap_or(0), u32::try_from(day).unwrap_or(0))
}

fn days_in_month(year: i64, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Writes `value` as exactly `N` decimal digits (the caller keeps it in range).
fn digits<const N: usize>(out: &mut [u8], value: u64) {
    let mut v = value;
    for slot in out[..N].iter_mut().rev() {
        // `v % 10` is a digit.
        *slot = b'0' + (v % 10) as u8;
        v /= 10;
    }
}

/// Reads exactly the digits of `text`, or `None` when one is not a digit.
fn read_digits(text: &[u8]) -> Option<u64> {
    text.iter().try_fold(0u64, |acc, &b| b.is_ascii_digit().then(|| acc * 10 + u64::from(b - b'0')))
}

fn year_out_of_text(ty: &'static str, year: i64) -> Error {
    Error::unencodable(
        ty,
        format!(
            "year {year} has no 4-digit text, and text of another width would not sort: a delimited key holds the \
             years 0000 to 9999; use the ordered format for other years"
        ),
    )
}

/// Writes the date `days` from the epoch as `YYYY-MM-DD`.
pub(crate) fn write_date<S: Sink>(out: &mut S, days: i64, ty: &'static str) -> Result<()> {
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return Err(year_out_of_text(ty, year));
    }
    let mut text = *b"0000-00-00";
    date_digits(&mut text, year, month, day);
    out.write(&text);
    Ok(())
}

fn date_digits(text: &mut [u8], year: i64, month: u32, day: u32) {
    digits::<4>(&mut text[0..4], year.unsigned_abs());
    digits::<2>(&mut text[5..7], month.into());
    digits::<2>(&mut text[8..10], day.into());
}

/// Reads `YYYY-MM-DD` back into days from the epoch. Only the text [`write_date`] writes is
/// accepted: one width, `-` separators, a day that exists in its month.
pub(crate) fn parse_date(text: &[u8], ty: &'static str) -> Result<i64> {
    if text.len() != DATE_LEN {
        return Err(Error::invalid(
            ty,
            format!("a date is {DATE_LEN} bytes of YYYY-MM-DD text, the field has {}", text.len()),
        ));
    }
    parse_date_digits(text, ty)
}

fn parse_date_digits(text: &[u8], ty: &'static str) -> Result<i64> {
    let shape = |detail: &'static str| Error::invalid(ty, detail);
    if text[4] != b'-' || text[7] != b'-' {
        return Err(shape("expected YYYY-MM-DD: '-' after the year and after the month"));
    }
    let (Some(year), Some(month), Some(day)) =
        (read_digits(&text[0..4]), read_digits(&text[5..7]), read_digits(&text[8..10]))
    else {
        return Err(shape("expected YYYY-MM-DD: the year, month and day are decimal digits"));
    };
    // At most 4 and 2 digits.
    let (year, month, day) = (year as i64, month as u32, day as u32);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return Err(Error::invalid(ty, format!("{year:04}-{month:02}-{day:02} is not a date")));
    }
    Ok(days_from_civil(year, month, day))
}

/// The text length of an instant with `fraction` fraction digits (6 or 9).
pub(crate) const fn instant_len(fraction: usize) -> usize {
    DATE_LEN + 10 + fraction + 1
}

/// Writes the instant `secs` + `nanos` from the epoch as `YYYY-MM-DDTHH:MM:SS.fffZ` with
/// `fraction` digits (6 or 9). A value with more precision than the digits hold is refused:
/// rounding it would give two instants one key.
pub(crate) fn write_instant<S: Sink>(
    out: &mut S,
    secs: i64,
    nanos: u32,
    fraction: usize,
    ty: &'static str,
) -> Result<()> {
    let days = secs.div_euclid(SECS_PER_DAY);
    let in_day = secs.rem_euclid(SECS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return Err(year_out_of_text(ty, year));
    }
    let mut text = *b"0000-00-00T00:00:00.000000000Z";
    date_digits(&mut text, year, month, day);
    // `in_day` is below 86,400.
    let in_day = in_day as u64;
    digits::<2>(&mut text[11..13], in_day / 3600);
    digits::<2>(&mut text[14..16], in_day / 60 % 60);
    digits::<2>(&mut text[17..19], in_day % 60);
    if fraction == 6 {
        digits::<6>(&mut text[20..26], u64::from(nanos / 1000));
        text[26] = b'Z';
    } else {
        digits::<9>(&mut text[20..29], u64::from(nanos));
    }
    out.write(&text[..instant_len(fraction)]);
    Ok(())
}

/// Reads the text [`write_instant`] writes, and only that, back into seconds and
/// nanoseconds from the epoch.
pub(crate) fn parse_instant(text: &[u8], fraction: usize, ty: &'static str) -> Result<(i64, u32)> {
    let len = instant_len(fraction);
    if text.len() != len {
        return Err(Error::invalid(
            ty,
            format!(
                "an instant is {len} bytes of YYYY-MM-DDTHH:MM:SS.{}Z text, the field has {}",
                "f".repeat(fraction),
                text.len()
            ),
        ));
    }
    let days = parse_date_digits(&text[..DATE_LEN], ty)?;
    let punctuation = [(10, b'T'), (13, b':'), (16, b':'), (19, b'.'), (len - 1, b'Z')];
    if punctuation.iter().any(|&(at, byte)| text[at] != byte) {
        return Err(Error::invalid(ty, format!("expected YYYY-MM-DDTHH:MM:SS.{}Z", "f".repeat(fraction))));
    }
    let (Some(hour), Some(minute), Some(second), Some(fraction_value)) = (
        read_digits(&text[11..13]),
        read_digits(&text[14..16]),
        read_digits(&text[17..19]),
        read_digits(&text[20..len - 1]),
    ) else {
        return Err(Error::invalid(ty, "the time of day and its fraction are decimal digits"));
    };
    if hour > 23 || minute > 59 || second > 59 {
        return Err(Error::invalid(
            ty,
            format!("{hour:02}:{minute:02}:{second:02} is not a time of day (leap seconds are never written)"),
        ));
    }
    // At most 9 digits.
    let nanos = if fraction == 6 { fraction_value as u32 * 1000 } else { fraction_value as u32 };
    // At most 86,399.
    let in_day = (hour * 3600 + minute * 60 + second) as i64;
    Ok((days * SECS_PER_DAY + in_day, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first and last instants the text can hold: 0000-01-01T00:00:00Z and
    /// 9999-12-31T23:59:59Z (with any fraction).
    const TEXT_MIN_SECS: i64 = -62_167_219_200;
    const TEXT_MAX_SECS: i64 = 253_402_300_799;

    fn instant(secs: i64, nanos: u32, fraction: usize) -> String {
        let mut out = Vec::new();
        write_instant(&mut out, secs, nanos, fraction, "t").unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn days_round_trip_through_the_calendar() {
        for days in (-800_000..800_000).step_by(97).chain([-719_528, 0, 10_957, 2_932_896]) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
        assert_eq!(days_from_civil(2000, 2, 29), 11_016);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn instants_write_fixed_width_text() {
        assert_eq!(instant(1_588_291_200, 500_000_000, 6), "2020-05-01T00:00:00.500000Z");
        assert_eq!(instant(1_588_291_200, 1, 9), "2020-05-01T00:00:00.000000001Z");
        assert_eq!(instant(-1, 999_999_000, 6), "1969-12-31T23:59:59.999999Z");
        assert_eq!(instant(TEXT_MIN_SECS, 0, 6), "0000-01-01T00:00:00.000000Z");
        assert_eq!(instant(TEXT_MAX_SECS, 0, 6), "9999-12-31T23:59:59.000000Z");
        assert!(write_instant(&mut Vec::new(), TEXT_MAX_SECS + 1, 0, 6, "t").is_err());
        assert!(write_instant(&mut Vec::new(), TEXT_MIN_SECS - 1, 0, 6, "t").is_err());
    }

    #[test]
    fn instants_parse_only_what_is_written() {
        assert_eq!(parse_instant(b"2020-05-01T00:00:00.500000Z", 6, "t").unwrap(), (1_588_291_200, 500_000_000));
        for bad in [
            &b"2020-05-01T00:00:00.50000Z"[..],
            b"2020-05-01 00:00:00.500000Z",
            b"2020-05-01T24:00:00.000000Z",
            b"2020-05-01T23:59:60.000000Z",
            b"2021-02-29T00:00:00.000000Z",
            b"2020-13-01T00:00:00.000000Z",
            b"2020-05-01T00:00:00.5000a0Z",
            b"2020-05-01T00:00:00.500000z",
        ] {
            assert!(parse_instant(bad, 6, "t").is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn dates_parse_only_what_is_written() {
        let mut out = Vec::new();
        write_date(&mut out, 0, "d").unwrap();
        assert_eq!(out, b"1970-01-01");
        assert_eq!(parse_date(b"2000-02-29", "d").unwrap(), 11_016);
        for bad in [&b"2001-02-29"[..], b"2000-2-29", b"2000-02-00", b"2000_02_01", b"+200-02-01"] {
            assert!(parse_date(bad, "d").is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
