//! [`Reversed`]: an integer stored as `MAX - v`, so larger values sort first (the date and
//! time types' impls are with theirs, in `field::instant`).
//!
//! It is a transform (`rowkey::transform` re-exports it) but is defined here, beside the field
//! types it is built from: the instant and date impls in `field` name it, so a definition in
//! `transform`, which builds on `field`, would make the two modules import each other.

use std::cmp::Ordering;

use crate::error::{Error, Result};
use crate::field::decimal::{Integer, decode_decimal, encode_decimal, narrow};
use crate::field::text::{Alphabet, DecodeText, EncodeText};
use crate::field::{FieldType, Ints, ReadField, Sink, WriteField};

/// A non-negative integer stored as `T::MAX - v`: Bigtable's `Long.MAX_VALUE - timestamp`
/// idiom, which puts the newest rows first in a scan.
///
/// In the delimited format it is zero-padded decimal of the type's full width (19 digits for
/// `i64`), exactly the keys Java services write with `Long.MAX_VALUE - ts`; in the ordered
/// format it is the reversed value's integer encoding. A negative value is an
/// [`Error::Unencodable`] (its reversal would overflow and sort wrong). `Reversed` orders its
/// values in reverse, like [`Desc`](crate::Desc).
///
/// A chrono, time or jiff instant or date is reversed the same way, from 1970 on: `i64::MAX`
/// minus its microseconds, `i32::MAX` minus its days (see [`Timestamp`](crate::field::Timestamp)).
///
/// The reversal does not spread writes: keys that lead with a reversed timestamp still move
/// monotonically, only toward the start of the key space.
///
/// ```
/// use rowkey::field::Reversed;
/// use rowkey::format::Delimited;
///
/// let key = Delimited::default().to_key(&("sensor-7", Reversed(1_588_291_200_000i64)))?;
/// assert_eq!(key.as_bytes(), b"sensor-7#9223370448563575807");
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reversed<T>(pub T);

impl<T: Ord> PartialOrd for Reversed<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Ord> Ord for Reversed<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.cmp(&self.0)
    }
}

impl<T: Integer> Reversed<T> {
    /// `MAX - v`, or an error for a negative `v`.
    fn reversed(self) -> Result<i128> {
        let value = self.0.to_i128();
        if value < 0 {
            return Err(Error::unencodable(
                T::NAME,
                format!(
                    "{value} is negative; reversing it as MAX - v would overflow, so only values >= 0 can be reversed"
                ),
            ));
        }
        Ok(T::MAX - value)
    }

    fn unreversed(stored: i128) -> Result<Self> {
        if !(0..=T::MAX).contains(&stored) {
            return Err(Error::invalid(T::NAME, format!("{stored} is not MAX - v for any v >= 0")));
        }
        narrow(T::MAX - stored).map(Reversed)
    }
}

impl<T: Integer> EncodeText for Reversed<T> {
    const ALPHABET: Option<Alphabet> = Some(Alphabet::DIGITS);

    fn encode_text<S: Sink>(&self, out: &mut S) -> Result<()> {
        encode_decimal(out, self.reversed()?, T::DIGITS, T::NAME)
    }
}

impl<'de, T: Integer> DecodeText<'de> for Reversed<T> {
    fn decode_text(text: &'de [u8]) -> Result<Self> {
        Self::unreversed(decode_decimal(text, T::DIGITS, false, T::NAME)?)
    }
}

impl<T: Integer> FieldType for Reversed<T> {}

// The stored value in the format's i64, or its u64 for a u64 or usize so that the whole range
// reverses.
impl<F: Ints<i64> + Ints<u64>, T: Integer> WriteField<F> for Reversed<T> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        let stored = self.reversed()?;
        match i64::try_from(stored) {
            Ok(v) if T::MAX <= i128::from(i64::MAX) => <F as Ints<i64>>::write_int(v, out),
            _ => <F as Ints<u64>>::write_int(
                u64::try_from(stored).map_err(|_| Error::unencodable(T::NAME, "out of range"))?,
                out,
            ),
        }
    }
}

impl<'de, F: Ints<i64> + Ints<u64>, T: Integer> ReadField<'de, F> for Reversed<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        let stored = if T::MAX <= i128::from(i64::MAX) {
            i128::from(<F as Ints<i64>>::read_int(input)?)
        } else {
            i128::from(<F as Ints<u64>>::read_int(input)?)
        };
        Self::unreversed(stored)
    }
}
