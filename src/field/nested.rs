//! Nested tuples as one field: `()` and tuples of 1 to 12 field types, in a format that can
//! hold a tuple inside a tuple ([`Nested`]; FoundationDB's tuple layer does, with type code
//! `05`).

use crate::error::Result;
use crate::field::{FieldType, ReadField, Sink, ValueFormat, WriteField};
use crate::format::for_each_tuple;

/// A format that holds a tuple of fields as one field: a tuple of field types is then a field
/// type of the format, nested as deep as the types go.
///
/// ```
/// use rowkey::format::FdbTuple;
///
/// // ("user", (7, "ada")): the inner tuple is one field, 05 ... 00.
/// let key = FdbTuple::default().to_key(&("user", (7u8, "ada")))?;
/// assert_eq!(key.as_bytes(), b"\x02user\x00\x05\x15\x07\x02ada\x00\x00");
/// let (_, (id, name)): (String, (u8, String)) = FdbTuple::default().from_key(&key)?;
/// assert_eq!((id, name.as_str()), (7, "ada"));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold a tuple as one field",
    label = "`{Self}` has no nested tuples",
    note = "list the inner tuple's fields in the key itself, or use the `FdbTuple` format"
)]
pub trait Nested: ValueFormat {
    /// Writes what opens a nested tuple.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format has no bytes for it.
    fn write_nested_start<S: Sink>(out: &mut S) -> Result<()>;

    /// Writes one element of a nested tuple (which a format may frame differently from a
    /// top-level field: the tuple layer writes a null inside a nested tuple as `00 ff`).
    ///
    /// # Errors
    ///
    /// As the element's [`WriteField::write`].
    fn write_element<T: WriteField<Self> + ?Sized, S: Sink>(value: &T, out: &mut S) -> Result<()>;

    /// Writes what closes a nested tuple.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format has no bytes for it.
    fn write_nested_end<S: Sink>(out: &mut S) -> Result<()>;

    /// Borrows the input again, so a nested tuple's reader can hand it to each element in turn.
    fn reborrow<'a, 'r: 'a, 'de: 'r>(input: &'a mut Self::Input<'r, 'de>) -> Self::Input<'a, 'de>;

    /// Reads what opens a nested tuple; `ty` names the field type for the error.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not a nested tuple.
    fn read_nested_start(input: Self::Input<'_, '_>, ty: &'static str) -> Result<()>;

    /// Reads what closes a nested tuple; `ty` names the field type for the error.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the nested tuple has more
    /// elements than the type.
    fn read_nested_end(input: Self::Input<'_, '_>, ty: &'static str) -> Result<()>;
}

/// The empty nested tuple.
impl FieldType for () {}

impl<F: Nested> WriteField<F> for () {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_nested_start(out)?;
        F::write_nested_end(out)
    }
}

impl<'de, F: Nested> ReadField<'de, F> for () {
    fn read(mut input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_nested_start(F::reborrow(&mut input), "()")?;
        F::read_nested_end(input, "()")
    }
}

macro_rules! nested_tuples {
    ($( ($n:expr; $($name:ident . $idx:tt),+) )+) => {$(
        impl<$($name: FieldType),+> FieldType for ($($name,)+) {}

        impl<Fmt: Nested, $($name: WriteField<Fmt>),+> WriteField<Fmt> for ($($name,)+) {
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                Fmt::write_nested_start(out)?;
                $(Fmt::write_element(&self.$idx, out)?;)+
                Fmt::write_nested_end(out)
            }
        }

        impl<'de, Fmt: Nested, $($name: ReadField<'de, Fmt>),+> ReadField<'de, Fmt> for ($($name,)+) {
            fn read(mut input: Fmt::Input<'_, 'de>) -> Result<Self> {
                Fmt::read_nested_start(Fmt::reborrow(&mut input), std::any::type_name::<Self>())?;
                let value = ($($name::read(Fmt::reborrow(&mut input))?,)+);
                Fmt::read_nested_end(input, std::any::type_name::<Self>())?;
                Ok(value)
            }
        }
    )+};
}

for_each_tuple!(nested_tuples);
