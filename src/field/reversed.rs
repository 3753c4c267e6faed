//! [`Reversed`]: an integer stored as `MAX - v`, so larger values sort first (the date and
//! time types' impls are with theirs, in `field::instant`).
//!
//! It is a transform (`rowkey::transform` re-exports it) but is defined here, beside the field
//! types it is built from: the instant and date impls in `field` name it, so a definition in
//! `transform`, which builds on `field`, would make the two modules import each other.

use std::cmp::Ordering;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::decimal::{Integer, narrow};
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
            return Err(negative_reversal(T::NAME, value));
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

/// The error for reversing a negative value of type `ty`; a key's schema says the same of
/// the same value, so that the typed and schema paths give one answer.
pub(crate) fn negative_reversal(ty: &'static str, value: i128) -> Error {
    Error::unencodable(
        ty,
        format!("{value} is negative; reversing it as MAX - v would overflow, so only values >= 0 can be reversed"),
    )
}

impl<T: Integer> FieldType for Reversed<T> {}

/// A format that holds [`Reversed`] integers. By default the stored value (`T::MAX - v`) is
/// the format's `i64`, or its `u64` for a `u64` or `usize` so that the whole range reverses;
/// a format with another form for it overrides the methods (the delimited format writes it in
/// the decimal width of `T`, as Java services write `Long.MAX_VALUE - ts`).
///
/// ```
/// use rowkey::field::{FieldBytes, ReversedInts};
/// use rowkey::format::{DelimitedText, Ordered};
///
/// let mut text = Vec::new();
/// DelimitedText::write_reversed::<u8, _>(250, &mut text)?;
/// assert_eq!(text, b"250");
/// let mut bytes = Vec::new();
/// Ordered::write_reversed::<u8, _>(250, &mut bytes)?;
/// assert_eq!(Ordered::read_reversed::<u8>(FieldBytes::borrowed(&bytes))?, 250);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold reversed integers",
    label = "`{Self}` has no `Reversed` fields",
    note = "store `MAX - v` yourself in an integer type the `{Self}` format holds"
)]
pub trait ReversedInts: Ints<i64> + Ints<u64> {
    /// The bytes a reversed integer's field holds (see [`WriteField::ALPHABET`]).
    const REVERSED_ALPHABET: Option<Alphabet> = None;

    /// Writes the stored value `T::MAX - v`, which is never negative.
    ///
    /// # Errors
    ///
    /// As the format's integers.
    fn write_reversed<T: Integer, S: Sink>(stored: i128, out: &mut S) -> Result<()> {
        match i64::try_from(stored) {
            Ok(v) if T::MAX <= i128::from(i64::MAX) => <Self as Ints<i64>>::write_int(v, out),
            _ => <Self as Ints<u64>>::write_int(
                u64::try_from(stored).map_err(|_| Error::unencodable(T::NAME, "out of range"))?,
                out,
            ),
        }
    }

    /// Reads the stored value back.
    ///
    /// # Errors
    ///
    /// As the format's integers.
    fn read_reversed<T: Integer>(input: Self::Input<'_, '_>) -> Result<i128> {
        Ok(if T::MAX <= i128::from(i64::MAX) {
            i128::from(<Self as Ints<i64>>::read_int(input)?)
        } else {
            i128::from(<Self as Ints<u64>>::read_int(input)?)
        })
    }
}

impl<F: ReversedInts, T: Integer> WriteField<F> for Reversed<T> {
    const ALPHABET: Option<Alphabet> = F::REVERSED_ALPHABET;

    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_reversed::<T, S>(self.reversed()?, out)
    }
}

impl<'de, F: ReversedInts, T: Integer> ReadField<'de, F> for Reversed<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        Self::unreversed(F::read_reversed::<T>(input)?)
    }
}
