//! `Option<T>` on the field model; in the ordered format, Bigtable v2's `escape_nulls`
//! convention for nullable key fields.

use crate::error::{Error, Result};
use crate::field::{FieldType, Options, ReadField, Sink, ValueFormat, WriteField};

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
    const ALPHABET: Option<crate::field::Alphabet> = if F::NONE_IS_EMPTY { T::ALPHABET } else { None };
    const KEY_ENCODING: crate::field::Encoding = T::KEY_ENCODING;

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

/// Writes the value of a `Some` in a format whose `None` is one null byte that no value starts
/// with (FoundationDB's tuples, HBase): a value that starts with it is itself a `None` (an
/// `Option<Option<T>>`'s `Some(None)`), which would read back as the outer `None`, so it is
/// refused rather than written as another value's key.
pub(crate) fn write_some<F: ValueFormat, T: WriteField<F> + ?Sized, S: Sink>(
    value: &T,
    out: &mut S,
    null: u8,
    format: &'static str,
) -> Result<()> {
    let mut first = FirstByte { out, first: None };
    value.write(&mut first)?;
    if first.first == Some(null) {
        return Err(Error::unencodable(
            "Option<Option<T>>",
            format!(
                "{format} has one null, so Some(None) would read back as None; \
                 flatten the two options into one, or use a value that stands for the inner None"
            ),
        ));
    }
    Ok(())
}

/// A sink that remembers the first byte written through it.
struct FirstByte<'a, S> {
    out: &'a mut S,
    first: Option<u8>,
}

impl<S: Sink> Sink for FirstByte<'_, S> {
    fn write(&mut self, bytes: &[u8]) {
        if self.first.is_none() {
            self.first = bytes.first().copied();
        }
        self.out.write(bytes);
    }

    fn write_byte(&mut self, byte: u8) {
        if self.first.is_none() {
            self.first = Some(byte);
        }
        self.out.write_byte(byte);
    }

    // The value of an optional last field ends the key as much as the option does.
    fn ends_key(&self) -> bool {
        self.out.ends_key()
    }

    fn descending(&self) -> bool {
        self.out.descending()
    }
}
