//! `Option<T>`: Bigtable v2's `escape_nulls` convention for nullable key fields.

use smallvec::SmallVec;

use crate::error::Result;
use crate::field::{DecodeField, EncodeField, FieldBytes, FieldType, ReadField, Sink, WriteField};
use crate::format::Ordered;

/// `None` is the empty field; `Some(v)` is `v`'s bytes, with one `00` appended when those
/// bytes are empty or all `00`.
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
impl<T: WriteField<Ordered>> EncodeField for Option<T> {
    const ENCODING: crate::field::Encoding = <T as FieldType>::ENCODING;
    fn encode_field<S: Sink>(&self, out: &mut S) -> Result<()> {
        const {
            assert!(
                !<T as FieldType>::DESCENDING,
                "write Desc<Option<T>>, not Option<Desc<T>>: Desc applies to the whole field"
            );
        }
        let Some(value) = self else { return Ok(()) };
        // The marker depends on all of the value's bytes, so they are staged first.
        let mut staged = SmallVec::<[u8; 48]>::new();
        value.write(&mut staged)?;
        out.write(&staged);
        if staged.iter().all(|&b| b == 0) {
            out.write_byte(0);
        }
        Ok(())
    }
}

impl<'de, T: ReadField<'de, Ordered>> DecodeField<'de> for Option<T> {
    fn decode_field(bytes: FieldBytes<'de>) -> Result<Self> {
        let slice = bytes.as_slice();
        if slice.is_empty() {
            return Ok(None);
        }
        if slice.iter().all(|&b| b == 0) {
            let inner = match bytes.as_borrowed() {
                Some(b) => FieldBytes::borrowed(&b[1..]),
                None => FieldBytes::owned(slice[1..].to_vec()),
            };
            return T::read(inner).map(Some);
        }
        T::read(bytes).map(Some)
    }
}
