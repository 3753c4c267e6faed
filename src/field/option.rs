//! `Option<T>` on the field model; in the ordered format, Bigtable v2's `escape_nulls`
//! convention for nullable key fields.

use crate::error::Result;
use crate::field::{FieldType, Options, ReadField, Sink, WriteField};

/// An optional field, in every format with [`Options`]. In the ordered format `None` is the
/// empty field; `Some(v)` is `v`'s bytes, with one `00` appended when those bytes are empty or
/// all `00`.
///
/// The extra byte separates `None` from `Some("")` and keeps order:
/// `None < Some("") < Some("\0") < Some("\0\0") < Some("\x01")`. A descending optional field
/// is `Desc<Option<T>>` (`Desc` must be the outer wrapper; `Option<Desc<T>>` does not compile).
///
/// ```
/// use rowkey::RowKey;
///
/// assert_eq!((None::<&str>, "B").to_key()?.as_bytes(), b"\x00\x00\x00\x01B");
/// assert_eq!((Some(""), "B").to_key()?.as_bytes(), b"\x00\xff\x00\x01B");
/// # Ok::<(), rowkey::Error>(())
/// ```
impl<T: FieldType> FieldType for Option<T> {
    const ENCODING: crate::field::Encoding = <T as FieldType>::ENCODING;
}

impl<F: Options, T: WriteField<F>> WriteField<F> for Option<T> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        const {
            assert!(
                !<T as FieldType>::DESCENDING,
                "write Desc<Option<T>>, not Option<Desc<T>>: Desc applies to the whole field"
            );
        }
        F::write_option(self.as_ref(), out)
    }
}

impl<'de, F: Options, T: ReadField<'de, F>> ReadField<'de, F> for Option<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_option(input)
    }
}
