//! The field types of instants and dates: what makes a [`Timestamp`] or [`CalendarDate`](crate::field::CalendarDate) type
//! a field of every format that holds instants, and [`Nanos`] for keys that keep nanoseconds.

// Without the chrono, time and jiff features only `Nanos<SystemTime>` uses it.
#![cfg_attr(not(any(feature = "chrono", feature = "time", feature = "jiff")), allow(unused_macros, unused_imports))]

use crate::error::Result;
use crate::field::instant::{Timestamp, time_spec};
use crate::field::{Alphabet, Encoding, FieldType, Instants, ReadField, Sink, WriteField};

/// Implements the field traits for an instant type and for `Reversed` of it.
macro_rules! timestamp_field {
    ($ty:ty) => {
        impl $crate::field::FieldType for $ty {
            const ENCODING: $crate::field::Encoding = $crate::field::instant::time_spec::<$ty>(false);
        }

        impl<F: $crate::field::Instants> $crate::field::WriteField<F> for $ty {
            const ALPHABET: Option<$crate::field::Alphabet> = F::TIME_ALPHABET;

            #[inline(always)]
            fn write<S: $crate::field::Sink>(&self, out: &mut S) -> $crate::Result<()> {
                F::write_instant(self, out)
            }
        }

        impl<'de, F: $crate::field::Instants> $crate::field::ReadField<'de, F> for $ty {
            #[inline(always)]
            fn read(input: F::Input<'_, 'de>) -> $crate::Result<Self> {
                F::read_instant(input)
            }
        }

        impl $crate::field::FieldType for $crate::field::Reversed<$ty> {
            const ENCODING: $crate::field::Encoding = $crate::field::instant::time_spec::<$ty>(false);
        }

        impl<F: $crate::field::Instants> $crate::field::WriteField<F> for $crate::field::Reversed<$ty> {
            const ALPHABET: Option<$crate::field::Alphabet> = F::REVERSED_TIME_ALPHABET;

            fn write<S: $crate::field::Sink>(&self, out: &mut S) -> $crate::Result<()> {
                F::write_reversed_instant(&self.0, out)
            }
        }

        impl<'de, F: $crate::field::Instants> $crate::field::ReadField<'de, F> for $crate::field::Reversed<$ty> {
            fn read(input: F::Input<'_, 'de>) -> $crate::Result<Self> {
                F::read_reversed_instant(input).map($crate::field::Reversed)
            }
        }
    };
}

/// Implements the field traits for a date type and for `Reversed` of it.
macro_rules! date_field {
    ($ty:ty) => {
        impl $crate::field::FieldType for $ty {
            const ENCODING: $crate::field::Encoding = $crate::field::instant::date_spec::<$ty>();
        }

        impl<F: $crate::field::Instants> $crate::field::WriteField<F> for $ty {
            const ALPHABET: Option<$crate::field::Alphabet> = F::TIME_ALPHABET;

            #[inline]
            fn write<S: $crate::field::Sink>(&self, out: &mut S) -> $crate::Result<()> {
                F::write_date(self, out)
            }
        }

        impl<'de, F: $crate::field::Instants> $crate::field::ReadField<'de, F> for $ty {
            fn read(input: F::Input<'_, 'de>) -> $crate::Result<Self> {
                F::read_date(input)
            }
        }

        impl $crate::field::FieldType for $crate::field::Reversed<$ty> {
            const ENCODING: $crate::field::Encoding = $crate::field::instant::date_spec::<$ty>();
        }

        impl<F: $crate::field::Instants> $crate::field::WriteField<F> for $crate::field::Reversed<$ty> {
            const ALPHABET: Option<$crate::field::Alphabet> = F::REVERSED_TIME_ALPHABET;

            fn write<S: $crate::field::Sink>(&self, out: &mut S) -> $crate::Result<()> {
                F::write_reversed_date(&self.0, out)
            }
        }

        impl<'de, F: $crate::field::Instants> $crate::field::ReadField<'de, F> for $crate::field::Reversed<$ty> {
            fn read(input: F::Input<'_, 'de>) -> $crate::Result<Self> {
                F::read_reversed_date(input).map($crate::field::Reversed)
            }
        }
    };
}

pub(crate) use {date_field, timestamp_field};

/// An instant kept to the nanosecond: `#[rowkey(nanos)]` on a derived key's field.
///
/// A plain instant field holds microseconds, Bigtable's `TIMESTAMP` precision, and refuses a
/// finer value. `Nanos` holds the nanoseconds: in the ordered format as the `i128` count of
/// nanoseconds since the epoch (16 bytes), in the delimited format with nine fraction
/// digits. Bigtable's schema has no type for it: the schema export calls it `BYTES` (ordered)
/// or `STRING` (delimited) when asked to, and refuses it otherwise.
///
/// ```
/// # #[cfg(feature = "chrono")] {
/// use rowkey::field::Nanos;
/// use rowkey::format::Delimited;
/// use rowkey::RowKey;
///
/// let t = chrono::DateTime::from_timestamp(1_588_291_200, 1).unwrap();
/// assert!(("a", t).to_key().is_err()); // 1 ns: finer than microseconds
/// let key = ("a", Nanos(t)).to_key()?;
/// let (_, Nanos(back)): (String, Nanos<chrono::DateTime<chrono::Utc>>) = RowKey::from_key(&key)?;
/// assert_eq!(back, t);
/// let text = Delimited::default().to_key(&("a", Nanos(t)))?;
/// assert_eq!(text.as_bytes(), b"a#2020-05-01T00:00:00.000000001Z");
/// # }
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nanos<T>(pub T);

impl<T: Timestamp> FieldType for Nanos<T> {
    const ENCODING: Encoding = time_spec::<T>(true);
}

impl<F: Instants, T: Timestamp> WriteField<F> for Nanos<T> {
    const ALPHABET: Option<Alphabet> = F::TIME_ALPHABET;

    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_nanos(&self.0, out)
    }
}

impl<'de, F: Instants, T: Timestamp> ReadField<'de, F> for Nanos<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_nanos(input).map(Nanos)
    }
}
