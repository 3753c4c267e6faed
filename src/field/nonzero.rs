//! The `NonZero` integers as key fields: the encoding of the integer inside, in every format,
//! and a key holding zero refused on decoding.
//!
//! ```
//! use std::num::NonZeroU32;
//! use rowkey::RowKey;
//!
//! let id = NonZeroU32::new(7).unwrap();
//! assert_eq!((id,).to_key()?, (7u32,).to_key()?);
//! assert_eq!(<(NonZeroU32,)>::from_key(&(7u32,).to_key()?)?.0, id);
//! assert!(<(NonZeroU32,)>::from_key(&(0u32,).to_key()?).is_err());
//! # Ok::<(), rowkey::Error>(())
//! ```

use std::num::NonZero;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::{FieldType, Ints, ReadField, Sink, WriteField};

fn zero(ty: &'static str) -> Error {
    Error::invalid(ty, "the field holds 0, which a NonZero integer never is")
}

macro_rules! nonzero {
    ($($int:ty),*) => {$(
        impl FieldType for NonZero<$int> {}

        impl<F: Ints<$int>> WriteField<F> for NonZero<$int> {
            const ALPHABET: Option<Alphabet> = <F as Ints<$int>>::ALPHABET;

            #[inline]
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                F::write_int(self.get(), out)
            }
        }

        impl<'de, F: Ints<$int>> ReadField<'de, F> for NonZero<$int> {
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                NonZero::new(F::read_int(input)?).ok_or_else(|| zero(concat!("NonZero<", stringify!($int), ">")))
            }
        }

    )*};
}

nonzero!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
