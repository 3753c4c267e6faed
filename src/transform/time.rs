//! Reversed timestamps: the newest row of a series first.

use crate::{Error, Result};

/// Reverses a non-negative timestamp so that later times sort first: `i64::MAX - ts`.
///
/// A range-partitioned store sorts keys ascending, so a series keyed by time reads its oldest
/// rows first. Bigtable's and HBase's schema guides store `Long.MAX_VALUE - ts` instead, and a
/// scan of the series' prefix returns the newest rows first; "the latest N readings" becomes a
/// scan with a row limit. Written as a big-endian `i64` (8 bytes) or as 19 zero-padded digits,
/// the result keeps this order bytewise, since every result is non-negative.
///
/// Reversal does not cure a write hotspot: a reversed clock still moves monotonically, only
/// downward. Put something with spread (a salt bucket, a device id) before it.
///
/// # Errors
///
/// [`Error::InvalidArgument`] for a negative `ts`: `i64::MAX - ts` would overflow, and a
/// wrapped value would sort among the wrong rows. Shift such times by a fixed offset first.
///
/// # Examples
///
/// The value Bigtable's documentation stores for 2020-05-01T00:00:00Z in milliseconds:
///
/// ```
/// use rowkey::transform::reverse_timestamp;
///
/// let ts = 1_588_291_200_000;
/// assert_eq!(reverse_timestamp(ts)?, 9_223_370_448_563_575_807);
/// // A later reading sorts before an earlier one.
/// assert!(reverse_timestamp(ts + 1)? < reverse_timestamp(ts)?);
/// // Zero-padded, it is a text key field.
/// assert_eq!(format!("{:019}", reverse_timestamp(ts)?), "9223370448563575807");
/// assert!(reverse_timestamp(-1).is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn reverse_timestamp(ts: i64) -> Result<i64> {
    if ts < 0 {
        return Err(Error::argument(
            "timestamp",
            format!(
                "{ts} is negative, and i64::MAX - {ts} does not fit in an i64; reversed \
                 timestamps need times at or after the epoch, so add a fixed offset to older ones"
            ),
        ));
    }
    Ok(i64::MAX - ts)
}

/// Recovers the timestamp from a value of [`reverse_timestamp`].
///
/// The reversal is its own inverse on `0..=i64::MAX`, so this is the same subtraction; it is a
/// separate function so that a decode path says what it means and rejects what no encode
/// produced.
///
/// # Errors
///
/// [`Error::InvalidArgument`] for a negative `reversed`: [`reverse_timestamp`] never returns
/// one, so the value was not written by it (or was decoded from the wrong field).
///
/// # Examples
///
/// ```
/// use rowkey::transform::{reverse_timestamp, unreverse_timestamp};
///
/// assert_eq!(unreverse_timestamp(9_223_370_448_563_575_807)?, 1_588_291_200_000);
/// assert_eq!(unreverse_timestamp(reverse_timestamp(42)?)?, 42);
/// assert!(unreverse_timestamp(-5).is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn unreverse_timestamp(reversed: i64) -> Result<i64> {
    if reversed < 0 {
        return Err(Error::argument(
            "reversed timestamp",
            format!(
                "{reversed} is negative, but reverse_timestamp only returns values in \
                 0..=i64::MAX; check that this field was written as a reversed timestamp"
            ),
        ));
    }
    Ok(i64::MAX - reversed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_of_the_range_swap() {
        assert_eq!(reverse_timestamp(0), Ok(i64::MAX));
        assert_eq!(reverse_timestamp(i64::MAX), Ok(0));
        assert_eq!(unreverse_timestamp(0), Ok(i64::MAX));
        assert_eq!(unreverse_timestamp(i64::MAX), Ok(0));
    }

    #[test]
    fn negatives_are_rejected_with_a_remedy() {
        for bad in [-1, i64::MIN] {
            let err = reverse_timestamp(bad).unwrap_err();
            assert!(matches!(err, Error::InvalidArgument { what: "timestamp", .. }));
            assert!(err.to_string().contains("offset"), "{err}");
            assert!(unreverse_timestamp(bad).is_err());
        }
    }
}
