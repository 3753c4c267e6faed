//! [`Desc`], a field that sorts in descending order.

use std::cmp::Ordering;

use crate::error::Result;
use crate::field::{Descending, FieldType, ReadField, Sink, WriteField};

/// A field that sorts in descending order: larger values first.
///
/// Any field type can be wrapped, in any position. The ordered format writes a descending
/// field exactly as Bigtable writes a `DESC` struct field: the escaped bytes and a separator,
/// all bitwise negated. `Desc` orders its values in reverse, like [`std::cmp::Reverse`], so a
/// tuple with `Desc` fields compares the way its keys do.
///
/// ```
/// use rowkey::{Desc, RowKey};
///
/// let older = ("sensor-1", Desc(1_700_000_000_000i64)).to_key()?;
/// let newer = ("sensor-1", Desc(1_700_000_000_001i64)).to_key()?;
/// assert!(newer < older);          // newest first
/// assert_eq!(<(String, Desc<i64>)>::from_key(&newer)?.1, Desc(1_700_000_000_001));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Desc<T>(pub T);

impl<T: PartialOrd> PartialOrd for Desc<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        other.0.partial_cmp(&self.0)
    }
}

impl<T: Ord> Ord for Desc<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.cmp(&self.0)
    }
}

impl<T: FieldType> FieldType for Desc<T> {
    const ENCODING: crate::field::Encoding = <T as FieldType>::ENCODING;
    const DESCENDING: bool = !<T as FieldType>::DESCENDING;
}

impl<F: Descending, T: WriteField<F>> WriteField<F> for Desc<T> {
    #[inline]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        self.0.write(out)
    }
}

impl<'de, F: Descending, T: ReadField<'de, F>> ReadField<'de, F> for Desc<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        T::read(input).map(Desc)
    }
}
