//! Tuples as row keys: `()` and tuples of 1 to 12 fields are [`RowKey`]s in the ordered
//! format (every format's `FormatKey` impls for them are in `key_format`), and the list of
//! tuple shapes every tuple impl is generated for.

use crate::error::Result;
use crate::field::{ReadField, WriteField};
use crate::format::Ordered;
use crate::format::key_format::{decode_key, encode_key};
use crate::format::tuple_shapes::for_each_tuple;
use crate::key::Key;
use crate::row_key::RowKey;

impl<'de> RowKey<'de> for () {
    fn encode_into(&self, out: &mut Key) -> Result<()> {
        encode_key(&Ordered, self, out)
    }

    fn from_key(bytes: &'de [u8]) -> Result<Self> {
        decode_key(&Ordered, bytes)
    }
}

macro_rules! ordered_tuples {
    ($( ($n:expr; $($name:ident . $idx:tt),+) )+) => {$(
        impl<'de, $($name),+> RowKey<'de> for ($($name,)+)
        where
            $($name: WriteField<Ordered> + ReadField<'de, Ordered>,)+
        {
            #[inline]
            fn encode_into(&self, out: &mut Key) -> Result<()> {
                encode_key(&Ordered, self, out)
            }

            #[inline]
            fn from_key(bytes: &'de [u8]) -> Result<Self> {
                decode_key(&Ordered, bytes)
            }
        }
    )+};
}

for_each_tuple!(ordered_tuples);
