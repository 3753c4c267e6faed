//! Tuples as row keys: `()` and tuples of 1 to 12 fields are [`RowKey`]s in the ordered
//! format (every format's `FormatKey` impls for them are in `key_format`), and the list of
//! tuple shapes every tuple impl is generated for.

use crate::error::Result;
use crate::field::{ReadField, WriteField};
use crate::format::Ordered;
use crate::format::key_format::{decode_key, encode_key};
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
/// Calls `$m!` with the tuple shapes this crate implements key traits for: 1 to 12 fields,
/// each as `(count; Type.index, ...)`.
macro_rules! for_each_tuple {
    ($m:ident) => {
        $m! {
            (1; A.0)
            (2; A.0, B.1)
            (3; A.0, B.1, C.2)
            (4; A.0, B.1, C.2, D.3)
            (5; A.0, B.1, C.2, D.3, E.4)
            (6; A.0, B.1, C.2, D.3, E.4, F.5)
            (7; A.0, B.1, C.2, D.3, E.4, F.5, G.6)
            (8; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7)
            (9; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8)
            (10; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9)
            (11; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10)
            (12; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11)
        }
    };
}
pub(crate) use for_each_tuple;

for_each_tuple!(ordered_tuples);
