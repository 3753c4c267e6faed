//! One key-level trait under every format: [`KeyFormat`] says how a key of a format is framed
//! (where it starts, how its fields are written and read, how it ends), [`FormatKey`] is a key
//! type's fields in that format, and [`encode_key`] / [`decode_key`] are the one pair that
//! every format's `to_key` and `from_key`, the derive and the schema go through.
//!
//! The field model sits below it: a format's [`Values`](KeyFormat::Values) is the type
//! parameter of [`WriteField`] and [`ReadField`], and the capability traits
//! ([`Ints`](crate::field::Ints), [`Strings`](crate::field::Strings), ...) say which values it
//! holds. A format of your own is a type that implements [`KeyFormat`], a writer that
//! implements [`KeyWriter`] and a reader that implements [`KeyReader`]; tuples and
//! `#[derive(RowKey)]` with `#[rowkey(format = path::ToFormat)]` then write and read keys in it.
//!
//! | layer | says | implemented by |
//! |---|---|---|
//! | [`KeyFormat`] | how a key starts, is framed and ends | a format |
//! | [`KeyWriter`], [`KeyReader`] | how one field and a prefix are written and read | the format's writer and reader |
//! | [`ValueFormat`] + capabilities | which values a field can hold, and their bytes | the format's value type |
//! | [`FormatKey`] | a key type's fields in order | tuples, derived keys |
//!
//! ```
//! use rowkey::format::{FdbTuple, Ordered, decode_key, encode_key};
//!
//! let mut key = rowkey::Key::new();
//! encode_key(&Ordered, &("phone", 7u8), &mut key)?;
//! assert_eq!(key.as_bytes(), b"phone\x00\x01\x87");
//! encode_key(&FdbTuple::default(), &("phone", 7u8), &mut key)?;
//! assert_eq!(key.as_bytes(), b"\x02phone\x00\x15\x07");
//! let (kind, n): (&str, u8) = decode_key(&FdbTuple::default(), &key)?;
//! assert_eq!((kind, n), ("phone", 7));
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! # A format of your own
//!
//! A legacy layout of fixed-width big-endian unsigned integers with no separators, written
//! outside rowkey: the format, its writer and reader, and the values it holds.
//! `tests/custom_format.rs` in the repository goes on to text, scans, a schema and
//! `#[derive(RowKey)]` with `#[rowkey(format = ...)]`.
//!
//! ```
//! use rowkey::field::{Ints, ReadField, Sink, ValueFormat, WriteField};
//! use rowkey::format::{KeyFormat, KeyReader, KeyWriter};
//! use rowkey::{Error, Key, Result};
//!
//! #[derive(Default)]
//! struct Fixed;
//! struct FixedWriter<'a> { out: &'a mut Key, index: usize }
//! struct FixedReader<'de> { key: &'de [u8], pos: usize, index: usize }
//!
//! // The values: integers at their width. A field reader gets the key's cursor.
//! impl ValueFormat for Fixed {
//!     type Input<'r, 'de> = &'r mut FixedReader<'de> where 'de: 'r;
//! }
//! macro_rules! fixed_ints { ($($t:ty),*) => {$(
//!     impl Ints<$t> for Fixed {
//!         fn write_int<S: Sink>(value: $t, out: &mut S) -> Result<()> {
//!             out.write(&value.to_be_bytes());
//!             Ok(())
//!         }
//!         fn read_int(r: &mut FixedReader<'_>) -> Result<$t> {
//!             let n = size_of::<$t>();
//!             let bytes = r.key.get(r.pos..r.pos + n).ok_or_else(|| Error::invalid(stringify!($t), "the key ends in it"))?;
//!             r.pos += n;
//!             Ok(<$t>::from_be_bytes(bytes.try_into().expect("n bytes")))
//!         }
//!     }
//! )*}}
//! fixed_ints!(u8, u16, u32);
//!
//! // The framing: none, and a prefix as raw bytes.
//! impl KeyFormat for Fixed {
//!     type Values = Fixed;
//!     type Writer<'a> = FixedWriter<'a>;
//!     type Reader<'a, 'de> = FixedReader<'de>;
//!     const NAME: &'static str = "fixed";
//!     fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> FixedWriter<'a> {
//!         FixedWriter { out, index: 0 }
//!     }
//!     fn reader<'de>(&self, key: &'de [u8], _: usize) -> FixedReader<'de> {
//!         FixedReader { key, pos: 0, index: 0 }
//!     }
//! }
//!
//! impl FixedWriter<'_> {
//!     fn push<T: WriteField<Fixed> + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
//!         let (index, at) = (self.index, self.out.len());
//!         self.index += 1;
//!         value.write(self.out).map_err(|e| e.in_field(index, name, at))?;
//!         Ok(self)
//!     }
//! }
//! impl KeyWriter<Fixed> for FixedWriter<'_> {
//!     fn field<T: WriteField<Fixed> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
//!         self.push(None, value)
//!     }
//!     fn named_field<T: WriteField<Fixed> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
//!         self.push(Some(name), value)
//!     }
//!     fn prefix(&mut self, prefix: &'static [u8]) -> Result<&mut Self> {
//!         self.out.extend_from_slice(prefix);
//!         Ok(self)
//!     }
//! }
//!
//! impl<'de> FixedReader<'de> {
//!     fn pull<T: ReadField<'de, Fixed>>(&mut self, name: Option<&'static str>) -> Result<T> {
//!         let (index, at) = (self.index, self.pos);
//!         self.index += 1;
//!         T::read(self).map_err(|e| e.in_field(index, name, at))
//!     }
//! }
//! impl<'de> KeyReader<'de, Fixed> for FixedReader<'de> {
//!     fn field<T: ReadField<'de, Fixed>>(&mut self) -> Result<T> {
//!         self.pull(None)
//!     }
//!     fn named_field<T: ReadField<'de, Fixed>>(&mut self, name: &'static str) -> Result<T> {
//!         self.pull(Some(name))
//!     }
//!     fn prefix(&mut self, prefix: &'static [u8]) -> Result<()> {
//!         if !self.key[self.pos..].starts_with(prefix) {
//!             return Err(Error::invalid("prefix", "another prefix").in_field(0, Some("prefix"), self.pos));
//!         }
//!         self.pos += prefix.len();
//!         Ok(())
//!     }
//!     fn position(&self) -> usize {
//!         self.pos
//!     }
//!     fn field_index(&self) -> usize {
//!         self.index
//!     }
//!     fn finish(self) -> Result<()> {
//!         match self.key.len() - self.pos {
//!             0 => Ok(()),
//!             len => Err(Error::TrailingBytes { offset: self.pos, len }),
//!         }
//!     }
//! }
//!
//! // Tuples are keys of it now.
//! let key = Fixed.to_key(&(7u8, 258u16))?;
//! assert_eq!(key.as_bytes(), [7, 1, 2]);
//! let (kind, id): (u8, u16) = Fixed.from_key(&key)?;
//! assert_eq!((kind, id), (7, 258));
//! let err = Fixed.from_key::<(u8, u16)>(&[7, 1]).unwrap_err();
//! assert_eq!(err.location().field(), Some(1)); // the second field is cut short
//! assert!(Fixed.from_key::<(u8,)>(&[7, 0]).is_err()); // a byte after the last field
//! # Ok::<(), rowkey::Error>(())
//! ```

use crate::error::Result;
use crate::field::description::CustomFormat;
use crate::field::{Alphabet, ReadField, ValueFormat, WriteField};
use crate::format::tuple_shapes::for_each_tuple;
use crate::key::Key;

/// A key format: how the fields of one key are framed into its bytes.
///
/// A format value carries what a key of it needs besides its fields (the delimited format's
/// delimiter, a FoundationDB subspace's prefix); a unit type for a format that needs nothing.
/// See the [module docs](self) for where it sits, and `tests/custom_format.rs` in the
/// repository for a format written outside this crate.
///
/// ```
/// use rowkey::format::{FormatKey, KeyFormat, Memcomparable, Ordered};
///
/// // Any format, any key of it.
/// fn key_of<'de, F: KeyFormat, K: FormatKey<'de, F>>(format: &F, key: &K) -> rowkey::Result<Vec<u8>> {
///     Ok(format.to_key(key)?.as_bytes().to_vec())
/// }
/// assert_eq!(key_of(&Memcomparable, &(1u8, true))?, [1, 1]);
/// assert_eq!(key_of(&Ordered, &(1u8, true))?, [0x81, 0, 1, 0x81]);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait KeyFormat: Sized + 'static {
    /// The format's parameter of the field model: what [`WriteField`] and [`ReadField`] are
    /// implemented for. Often the format type itself.
    type Values: ValueFormat;

    /// The format's name in a key's schema and in messages (`"ordered"`, `"hbase"`, ...).
    const NAME: &'static str;

    /// What a derived key's [`Schema`](crate::schema::Schema) knows of a format defined
    /// outside rowkey ([`Format::Custom`](crate::schema::Format::Custom)): by default its
    /// name alone; [`CustomFormat::of::<Self>()`](CustomFormat::of) for a
    /// [`SchemaFormat`](crate::schema::SchemaFormat), whose keys the schema then reads and
    /// writes. The built-in formats have schema formats of their own and ignore it.
    const SCHEMA_FORMAT: CustomFormat = CustomFormat::named(Self::NAME);

    /// Writes one key's fields.
    type Writer<'a>: KeyWriter<Self::Values>;

    /// Reads one key's fields; `'a` is the format value's borrow, `'de` the key's.
    type Reader<'a, 'de>: KeyReader<'de, Self::Values>;

    /// Whether a key's constant prefix (`#[rowkey(prefix = "...")]`) is a field of the key,
    /// counted in [`FormatKey::FIELDS`] (the ordered and delimited formats), or raw bytes
    /// before the first field (the store formats, and the default).
    /// A format defined outside rowkey keeps the default: the derived scan builder and the
    /// schema write its prefix as raw bytes, as [`KeyWriter::prefix`] should.
    const PREFIX_IS_FIELD: bool = false;

    /// A writer of a key of `fields` fields, appending to `out` (empty when a whole key is
    /// written). It writes whatever the format puts before the fields.
    fn writer<'a>(&'a self, out: &'a mut Key, fields: usize) -> Self::Writer<'a>;

    /// Checks what every key of the format starts with, before any field is read: a
    /// FoundationDB subspace's prefix, say. Nothing by default.
    ///
    /// # Errors
    ///
    /// When the key does not start as the format's keys do.
    #[inline]
    fn check_start(&self, key: &[u8]) -> Result<()> {
        let _ = key;
        Ok(())
    }

    /// A reader of `key`, a key of `fields` fields whose start
    /// [`check_start`](Self::check_start) accepted.
    fn reader<'a, 'de>(&'a self, key: &'de [u8], fields: usize) -> Self::Reader<'a, 'de>;

    /// The key of `value` in this format.
    ///
    /// # Errors
    ///
    /// As [`encode_key`].
    ///
    /// ```
    /// use rowkey::format::{HBase, KeyFormat};
    ///
    /// assert_eq!(KeyFormat::to_key(&HBase, &(5i32,))?.as_bytes(), [0x2b, 0x80, 0, 0, 5]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    fn to_key<'de, T: FormatKey<'de, Self>>(&self, value: &T) -> Result<Key> {
        let mut key = Key::new();
        encode_key(self, value, &mut key)?;
        Ok(key)
    }

    /// Reads a key of this format back as a `T`.
    ///
    /// # Errors
    ///
    /// As [`decode_key`].
    ///
    /// ```
    /// use rowkey::format::{HBase, KeyFormat};
    ///
    /// let (n,): (i32,) = KeyFormat::from_key(&HBase, &[0x2b, 0x80, 0, 0, 5])?;
    /// assert_eq!(n, 5);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    // The name every format's inherent method has: a key is read with its format's settings.
    #[allow(clippy::wrong_self_convention)]
    fn from_key<'de, T: FormatKey<'de, Self>>(&self, bytes: &'de [u8]) -> Result<T> {
        decode_key(self, bytes)
    }
}

/// Writes the fields of one key, naming each in its errors.
///
/// ```
/// use rowkey::format::{KeyWriter, Memcomparable, MemcomparableWriter};
///
/// let mut key = rowkey::Key::new();
/// let mut w = MemcomparableWriter::new(&mut key);
/// KeyWriter::<Memcomparable>::named_field(&mut w, "id", &7u8)?;
/// assert_eq!(key.as_bytes(), [7]);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait KeyWriter<F: ValueFormat> {
    /// Appends the next field.
    ///
    /// # Errors
    ///
    /// What the field's encoder returns, with the field's index and offset filled in.
    fn field<T: WriteField<F> + ?Sized>(&mut self, value: &T) -> Result<&mut Self>;

    /// Appends the next field, naming it in any error.
    ///
    /// # Errors
    ///
    /// What the field's encoder returns, with the field's index, name and offset filled in.
    fn named_field<T: WriteField<F> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self>;

    /// Appends the key's constant prefix (`#[rowkey(prefix = "...")]` or `prefix = b"..."`): raw bytes before the
    /// first field unless the format makes it a field ([`KeyFormat::PREFIX_IS_FIELD`]).
    ///
    /// # Errors
    ///
    /// What the format's encoder of a prefix field returns.
    fn prefix(&mut self, prefix: &'static [u8]) -> Result<&mut Self>;

    /// Completes the key once every field is written (the ordered format writes `00 00` for
    /// a key whose fields were all empty).
    #[inline]
    fn finish(self)
    where
        Self: Sized,
    {
    }
}

/// Reads the fields of one key in order, naming each in its errors.
///
/// ```
/// use rowkey::format::{KeyReader, Memcomparable, MemcomparableReader};
///
/// let mut r = MemcomparableReader::new(&[7, 1]);
/// let id: u8 = KeyReader::<Memcomparable>::named_field(&mut r, "id")?;
/// assert_eq!((id, r.field_index(), r.position()), (7, 1, 1));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait KeyReader<'de, F: ValueFormat> {
    /// Reads the next field.
    ///
    /// # Errors
    ///
    /// When the bytes are not a value of `T` in this format, located at the field.
    fn field<T: ReadField<'de, F>>(&mut self) -> Result<T>;

    /// Reads the next field, naming it in any error.
    ///
    /// # Errors
    ///
    /// When the bytes are not a value of `T` in this format, located at the field.
    fn named_field<T: ReadField<'de, F>>(&mut self, name: &'static str) -> Result<T>;

    /// Reads and checks the key's constant prefix, as [`KeyWriter::prefix`] wrote it.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) naming the prefix when the key does
    /// not hold it.
    fn prefix(&mut self, prefix: &'static [u8]) -> Result<()>;

    /// The offset of the next field in the key.
    fn position(&self) -> usize;

    /// The 0-based index of the next field to read.
    fn field_index(&self) -> usize;

    /// Checks that the key ends where its last field did.
    ///
    /// # Errors
    ///
    /// [`Error::TrailingBytes`](crate::Error::TrailingBytes) (or the format's own error) for
    /// bytes after the last field.
    fn finish(self) -> Result<()>
    where
        Self: Sized;
}

/// A key type whose fields format `F` writes and reads: `()`, tuples of 1 to 12 field types
/// of `F`, and derived keys of `F`.
///
/// ```
/// use rowkey::format::{FdbTuple, FormatKey};
///
/// fn field_count<'de, T: FormatKey<'de, FdbTuple>>(_: &T) -> usize {
///     T::FIELDS
/// }
/// assert_eq!(field_count(&("a", 1u8, true)), 3);
/// ```
pub trait FormatKey<'de, F: KeyFormat>: Sized {
    /// How many fields the key has (a raw prefix not counted).
    const FIELDS: usize;

    /// What field `index` can hold, when it is known before any value is (see
    /// [`WriteField::ALPHABET`]); `None` by default. The delimited format checks its delimiter
    /// against it.
    #[must_use]
    fn alphabet(index: usize) -> Option<Alphabet> {
        let _ = index;
        None
    }

    /// Writes the fields, in order.
    ///
    /// # Errors
    ///
    /// What a field's encoder returns.
    fn write_fields(&self, w: &mut F::Writer<'_>) -> Result<()>;

    /// Reads the fields, in order.
    ///
    /// # Errors
    ///
    /// What the reader or a field's decoder returns.
    fn read_fields(r: &mut F::Reader<'_, 'de>) -> Result<Self>;
}

/// Clears `out` and writes `value` into it as a key of `format`; on error `out` is left
/// empty. What every format's `encode_into` is.
///
/// # Errors
///
/// What a field's encoder returns, located at the field.
#[inline]
pub fn encode_key<'de, F: KeyFormat, T: FormatKey<'de, F>>(format: &F, value: &T, out: &mut Key) -> Result<()> {
    out.rewrite(|out| {
        let mut w = format.writer(out, T::FIELDS);
        value.write_fields(&mut w).map(|()| w.finish())
    })
}

/// Reads a whole key of `format` as a `T`, refusing bytes after its last field. What every
/// format's `from_key` is.
///
/// # Errors
///
/// When the bytes are not a key of `T` in this format: the error names the field and the
/// offset.
#[inline]
pub fn decode_key<'de, F: KeyFormat, T: FormatKey<'de, F>>(format: &F, bytes: &'de [u8]) -> Result<T> {
    format.check_start(bytes)?;
    let mut r = format.reader(bytes, T::FIELDS);
    T::read_fields(&mut r).and_then(|value| r.finish().map(|()| value))
}

/// The key of no fields, in every format.
impl<'de, F: KeyFormat> FormatKey<'de, F> for () {
    const FIELDS: usize = 0;

    #[inline]
    fn write_fields(&self, _: &mut F::Writer<'_>) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn read_fields(_: &mut F::Reader<'_, 'de>) -> Result<Self> {
        Ok(())
    }
}

macro_rules! format_tuples {
    ($( ($n:expr; $($name:ident . $idx:tt),+) )+) => {$(
        impl<'de, Fmt: KeyFormat, $($name),+> FormatKey<'de, Fmt> for ($($name,)+)
        where
            $($name: WriteField<Fmt::Values> + ReadField<'de, Fmt::Values>,)+
        {
            const FIELDS: usize = $n;

            fn alphabet(index: usize) -> Option<Alphabet> {
                [$(<$name as WriteField<Fmt::Values>>::ALPHABET),+].get(index).copied().flatten()
            }

            #[inline]
            fn write_fields(&self, w: &mut Fmt::Writer<'_>) -> Result<()> {
                $(KeyWriter::<Fmt::Values>::field(w, &self.$idx)?;)+
                Ok(())
            }

            fn read_fields(r: &mut Fmt::Reader<'_, 'de>) -> Result<Self> {
                Ok(($(KeyReader::<Fmt::Values>::field::<$name>(r)?,)+))
            }
        }
    )+};
}

for_each_tuple!(format_tuples);

/// [`KeyWriter`] and [`KeyReader`] for a store format's writer and reader, whose inherent
/// methods already have the trait's shape: the key's prefix is raw bytes.
macro_rules! store_key_io {
    ($values:ty, $writer:ident, $reader:ident) => {
        impl $crate::format::KeyWriter<$values> for $writer<'_> {
            #[inline(always)]
            fn field<T: $crate::field::WriteField<$values> + ?Sized>(
                &mut self,
                value: &T,
            ) -> $crate::error::Result<&mut Self> {
                $writer::field(self, value).map(|_| ())?;
                Ok(self)
            }

            #[inline(always)]
            fn named_field<T: $crate::field::WriteField<$values> + ?Sized>(
                &mut self,
                name: &'static str,
                value: &T,
            ) -> $crate::error::Result<&mut Self> {
                $writer::named_field(self, name, value).map(|_| ())?;
                Ok(self)
            }

            #[inline]
            fn prefix(&mut self, prefix: &'static [u8]) -> $crate::error::Result<&mut Self> {
                Ok($writer::raw_prefix(self, prefix))
            }
        }

        impl<'de> $crate::format::KeyReader<'de, $values> for $reader<'de> {
            #[inline(always)]
            fn field<T: $crate::field::ReadField<'de, $values>>(&mut self) -> $crate::error::Result<T> {
                $reader::field(self)
            }

            #[inline(always)]
            fn named_field<T: $crate::field::ReadField<'de, $values>>(
                &mut self,
                name: &'static str,
            ) -> $crate::error::Result<T> {
                $reader::named_field(self, name)
            }

            #[inline]
            fn prefix(&mut self, prefix: &'static [u8]) -> $crate::error::Result<()> {
                $reader::raw_prefix(self, prefix)
            }

            #[inline(always)]
            fn position(&self) -> usize {
                $reader::position(self)
            }

            #[inline(always)]
            fn field_index(&self) -> usize {
                $reader::field_index(self)
            }

            #[inline]
            fn finish(self) -> $crate::error::Result<()> {
                $reader::finish(&self)
            }
        }
    };
}
pub(crate) use store_key_io;
