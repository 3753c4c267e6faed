//! The field model: a field type says once what value it is, and each key format says how it
//! writes that kind of value.
//!
//! A format is a type parameter (a unit type such as [`Ordered`](crate::format::Ordered)), so
//! every call is resolved at compile time: there is no trait object and no format tag to test
//! at run time. A format implements one capability trait per family of values it can hold
//! ([`Ints`], [`Floats`], [`Bools`], [`Strings`], [`ByteStrings`]); a field type implements
//! [`WriteField<F>`] and [`ReadField<'de, F>`] for every format `F` with the capability it
//! needs. When a format lacks it, the compile error comes from the capability trait, names
//! the format and the type, and says which type the format holds instead.
//!
//! Every field type of this crate is written this way. A format that adds a capability the
//! model lacks defines the trait beside the field types that need it.
//!
//! [`Ints`]: crate::field::Ints
//! [`Floats`]: crate::field::Floats
//! [`Bools`]: crate::field::Bools
//! [`Strings`]: crate::field::Strings
//! [`ByteStrings`]: crate::field::ByteStrings

use crate::error::Result;
use crate::field::alphabet::Alphabet;
use crate::field::{Encoding, Sink};

/// A key format, seen from the field model: what a field reader gets to read one value.
///
/// Implemented by unit types that stand for a format and are only ever used as a type
/// parameter; the framing (separators, escapes, descending fields) stays in the format's
/// writer and reader.
///
/// ```
/// use rowkey::field::{FieldBytes, ValueFormat};
/// use rowkey::format::Ordered;
///
/// // The ordered format hands a field reader the field's unescaped bytes.
/// let input: <Ordered as ValueFormat>::Input<'_, '_> = FieldBytes::borrowed(b"abc");
/// assert_eq!(input.as_slice(), b"abc");
/// ```
pub trait ValueFormat: Sized + 'static {
    /// What a field reader receives: a field already cut from the key (the ordered format's
    /// [`FieldBytes`](super::FieldBytes)), or, for formats whose fields can only be cut once
    /// their type is known, a cursor borrowed (`'r`) from a key that lives for `'de`.
    type Input<'r, 'de>
    where
        'de: 'r;
}

/// What value a field type is, said once for every format.
///
/// ```
/// use rowkey::Desc;
/// use rowkey::field::{Encoding, FieldType};
///
/// assert_eq!(<std::net::Ipv4Addr as FieldType>::ENCODING, Encoding::Ipv4);
/// assert!(<Desc<i64> as FieldType>::DESCENDING);
/// assert!(!<i64 as FieldType>::DESCENDING);
/// ```
pub trait FieldType {
    /// What the field's value is, for the key's [`Schema`](super::description::Schema):
    /// exported, inspected and shown as this. [`Encoding::Custom`] shows the bytes as they are.
    const ENCODING: Encoding = Encoding::Custom;

    /// Whether the field sorts in descending order ([`Desc`](crate::Desc) sets it); the format
    /// reads it to frame the field.
    const DESCENDING: bool = false;

    /// Whether the value is written as a byte string by a format that has no type of its own
    /// for it (bytes, byte arrays, UUIDs, ULIDs, addresses, durations, hashes). HBase reads it
    /// for a `None` of the last field, which it writes apart for byte strings (`fa ff` when
    /// descending, where any other type's is `fa`). A type of your own that writes through a
    /// byte string sets it too, so that its `None` is HBase's.
    ///
    /// ```
    /// use rowkey::Desc;
    /// use rowkey::field::FieldType;
    /// use rowkey::format::HBase;
    ///
    /// assert!(<Vec<u8> as FieldType>::BYTE_STRING && !<String as FieldType>::BYTE_STRING);
    /// let key = HBase.to_key(&(1i8, Desc(None::<Vec<u8>>)))?;
    /// assert_eq!(key.as_bytes(), [0x29, 0x81, 0xfa, 0xff]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    const BYTE_STRING: bool = false;
}

/// A field type that format `F` can write.
///
/// ```
/// use rowkey::field::WriteField;
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// WriteField::<Ordered>::write(&64i64, &mut bytes)?;
/// assert_eq!(bytes, [0xc0, 0x40]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a `{F}` key",
    label = "not a field type of the `{F}` format",
    note = "a type of your own implements `FieldType`, `WriteField<F>` and `ReadField<'de, F>` by \
            delegating to a field type the format holds"
)]
pub trait WriteField<F: ValueFormat>: FieldType {
    /// The bytes `F` can write for this field, when they are known before any value is: a
    /// format that does not escape its separator (the delimited one) checks the separator
    /// against them once, before writing. `None` (the default) when any byte can appear, or
    /// when the format does not say; such a field is then checked value by value.
    ///
    /// A field type takes it from the capability it writes through, so it is always the
    /// format's word on how it writes that kind of value.
    ///
    /// ```
    /// use rowkey::field::{Alphabet, WriteField};
    /// use rowkey::format::{DelimitedText, Ordered};
    ///
    /// assert_eq!(<u32 as WriteField<DelimitedText>>::ALPHABET, Some(Alphabet::DIGITS));
    /// assert_eq!(<String as WriteField<DelimitedText>>::ALPHABET, None);
    /// assert_eq!(<u32 as WriteField<Ordered>>::ALPHABET, None); // the ordered format escapes
    /// ```
    const ALPHABET: Option<Alphabet> = None;

    /// What the field is in `F`'s keys, for the key's
    /// [`Schema`](super::description::Schema): [`FieldType::ENCODING`] unless `F` writes the
    /// value in a form of its own (the delimited format writes a hash as hex digits).
    ///
    /// ```
    /// use rowkey::field::{Encoding, WriteField};
    /// use rowkey::format::{DelimitedText, Ordered};
    ///
    /// assert_eq!(<std::net::Ipv4Addr as WriteField<DelimitedText>>::KEY_ENCODING, Encoding::Ipv4);
    /// assert_eq!(<u32 as WriteField<Ordered>>::KEY_ENCODING, Encoding::Custom);
    /// ```
    const KEY_ENCODING: Encoding = <Self as FieldType>::ENCODING;

    /// Writes the field's bytes, before any escaping or framing by the format.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the value has no encoding in `F`
    /// that keeps order.
    fn write<S: Sink>(&self, out: &mut S) -> Result<()>;
}

/// A field type that format `F` can read back from a key whose bytes live for `'de`.
///
/// ```
/// use rowkey::field::{FieldBytes, ReadField};
/// use rowkey::format::Ordered;
///
/// let n = <i64 as ReadField<'_, Ordered>>::read(FieldBytes::borrowed(&[0xc0, 0x40]))?;
/// assert_eq!(n, 64);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a field of a `{F}` key",
    label = "not a field type of the `{F}` format",
    note = "a type of your own implements `FieldType`, `WriteField<F>` and `ReadField<'de, F>` by \
            delegating to a field type the format holds"
)]
pub trait ReadField<'de, F: ValueFormat>: FieldType + Sized {
    /// Reads the value from the field.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not a value of
    /// this type, [`Error::OutOfRange`](crate::Error::OutOfRange) when the value does not fit.
    fn read(input: F::Input<'_, 'de>) -> Result<Self>;
}

// A reference to (or a box of) a field type is that field type, in every format.
impl<T: FieldType + ?Sized> FieldType for &T {
    const ENCODING: Encoding = T::ENCODING;
    const DESCENDING: bool = T::DESCENDING;
    const BYTE_STRING: bool = T::BYTE_STRING;
}

impl<F: ValueFormat, T: WriteField<F> + ?Sized> WriteField<F> for &T {
    const ALPHABET: Option<Alphabet> = T::ALPHABET;
    const KEY_ENCODING: Encoding = T::KEY_ENCODING;

    #[inline(always)]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        (**self).write(out)
    }
}

impl<T: FieldType + ?Sized> FieldType for Box<T> {
    const ENCODING: Encoding = T::ENCODING;
    const DESCENDING: bool = T::DESCENDING;
    const BYTE_STRING: bool = T::BYTE_STRING;
}

impl<F: ValueFormat, T: WriteField<F> + ?Sized> WriteField<F> for Box<T> {
    const ALPHABET: Option<Alphabet> = T::ALPHABET;
    const KEY_ENCODING: Encoding = T::KEY_ENCODING;

    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        (**self).write(out)
    }
}

impl<'de, F: ValueFormat, T: ReadField<'de, F>> ReadField<'de, F> for Box<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        T::read(input).map(Box::new)
    }
}
