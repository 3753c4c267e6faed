//! Tuples as keys, in both formats: `()` and tuples of 1 to 12 fields, each field a field type
//! of the format (`WriteField<Ordered>` / `ReadField<'de, Ordered>` ordered, `EncodeText` / `DecodeText`
//! delimited). Fields are written in order, with no names.

use crate::error::Result;
use crate::field::{Alphabet, DecodeText, EncodeText, ReadField, WriteField};
use crate::format::Ordered;
use crate::format::delimited::{DelimitedKey, DelimitedReader, DelimitedWriter};
use crate::format::ordered::{OrderedKey, OrderedReader, OrderedWriter, decode_key, encode_key};
use crate::key::Key;
use crate::row_key::RowKey;

/// The key with no fields: `00 00`, as Bigtable writes `STRUCT()`.
impl<'de> OrderedKey<'de> for () {
    const FIELDS: usize = 0;

    fn write_fields(&self, _: &mut OrderedWriter<'_>) -> Result<()> {
        Ok(())
    }

    fn read_fields(_: &mut OrderedReader<'de>) -> Result<Self> {
        Ok(())
    }
}

impl<'de> RowKey<'de> for () {
    fn encode_into(&self, out: &mut Key) -> Result<()> {
        encode_key(self, out)
    }

    fn from_key(bytes: &'de [u8]) -> Result<Self> {
        decode_key(bytes)
    }
}

macro_rules! ordered_tuples {
    ($( ($n:expr; $($name:ident . $idx:tt),+) )+) => {$(
        impl<'de, $($name),+> OrderedKey<'de> for ($($name,)+)
        where
            $($name: WriteField<Ordered> + ReadField<'de, Ordered>,)+
        {
            const FIELDS: usize = $n;

            #[inline]
            fn write_fields(&self, w: &mut OrderedWriter<'_>) -> Result<()> {
                $(w.field(&self.$idx)?;)+
                Ok(())
            }

            #[inline]
            fn read_fields(r: &mut OrderedReader<'de>) -> Result<Self> {
                Ok(($(r.field::<$name>()?,)+))
            }
        }

        impl<'de, $($name),+> RowKey<'de> for ($($name,)+)
        where
            $($name: WriteField<Ordered> + ReadField<'de, Ordered>,)+
        {
            #[inline]
            fn encode_into(&self, out: &mut Key) -> Result<()> {
                encode_key(self, out)
            }

            #[inline]
            fn from_key(bytes: &'de [u8]) -> Result<Self> {
                decode_key(bytes)
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

/// The key of no fields: the delimiter alone.
impl<'de> DelimitedKey<'de> for () {
    const FIELDS: usize = 0;

    fn alphabet(_: usize) -> Option<Alphabet> {
        None
    }

    fn write_fields(&self, _: &mut DelimitedWriter<'_>) -> Result<()> {
        Ok(())
    }

    fn read_fields(_: &mut DelimitedReader<'_, 'de>) -> Result<Self> {
        Ok(())
    }
}

macro_rules! delimited_tuples {
    ($( ($n:expr; $($name:ident . $idx:tt),+) )+) => {$(
        impl<'de, $($name),+> DelimitedKey<'de> for ($($name,)+)
        where
            $($name: EncodeText + DecodeText<'de>,)+
        {
            const FIELDS: usize = $n;

            fn alphabet(index: usize) -> Option<Alphabet> {
                [$(<$name as EncodeText>::ALPHABET),+].get(index).copied().flatten()
            }

            fn write_fields(&self, w: &mut DelimitedWriter<'_>) -> Result<()> {
                $(w.field(&self.$idx)?;)+
                Ok(())
            }

            fn read_fields(r: &mut DelimitedReader<'_, 'de>) -> Result<Self> {
                Ok(($(r.field::<$name>()?,)+))
            }
        }
    )+};
}

for_each_tuple!(delimited_tuples);
