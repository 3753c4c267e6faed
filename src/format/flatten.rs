//! Flattening: a derived key inlined into another derived key of the same format
//! (`#[rowkey(flatten)]`). The derive implements these traits and calls these functions through
//! `__private`; they are not public API.

use crate::error::Result;
use crate::field::Alphabet;
use crate::field::description::Schema;
use crate::format::delimited::{DelimitedKey, DelimitedReader, DelimitedWriter};
use crate::format::fdb_tuple::{FdbKey, TupleReader, TupleWriter};
use crate::format::hbase::{HBaseKey, HBaseReader, HBaseWriter};
use crate::format::memcomparable::{MemcomparableKey, MemcomparableReader, MemcomparableWriter};
use crate::format::ordered::{OrderedKey, OrderedReader, OrderedWriter};

/// A derived key in the ordered format, which `#[rowkey(flatten)]` can inline into another
/// ordered key. The derive implements it; a struct that flattens a type asserts it once, so
/// a type that does not derive `RowKey` (or derives it in the other format) gets one error
/// that says so.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into an ordered key",
    label = "`{Self}` does not derive `RowKey` in the ordered format",
    note = "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the \
            outer key: derive it on `{Self}` (without `delimited`), or remove `flatten`"
)]
pub trait FlattenOrdered<'de>: OrderedKey<'de> {
    /// The flattened key's schema.
    const SCHEMA: &'static Schema;
}

/// As [`FlattenOrdered`], for the delimited format.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into a delimited key",
    label = "`{Self}` does not derive `RowKey` in the delimited format",
    note = "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the \
            outer key: derive it on `{Self}` with `#[rowkey(delimited = \"...\")]`, or remove `flatten`"
)]
pub trait FlattenDelimited<'de>: DelimitedKey<'de> {
    /// The flattened key's schema.
    const SCHEMA: &'static Schema;
}

/// Compiles only when `T` can be flattened into an ordered key.
pub fn assert_flatten_ordered<'de, T: FlattenOrdered<'de>>() {}

/// Compiles only when `T` can be flattened into a delimited key.
pub fn assert_flatten_delimited<'de, T: FlattenDelimited<'de>>() {}

/// The number of fields a flattened ordered key adds.
#[must_use]
pub const fn ordered_fields<'de, T: FlattenOrdered<'de>>() -> usize {
    T::FIELDS
}

/// Writes a flattened ordered key's fields.
///
/// # Errors
///
/// What its fields' encoders return.
#[inline]
pub fn write_ordered<'de, T: FlattenOrdered<'de>>(value: &T, w: &mut OrderedWriter<'_>) -> Result<()> {
    value.write_fields(w)
}

/// Reads a flattened ordered key's fields.
///
/// # Errors
///
/// What the reader or its fields' decoders return.
#[inline]
pub fn read_ordered<'de, T: FlattenOrdered<'de>>(r: &mut OrderedReader<'de>) -> Result<T> {
    T::read_fields(r)
}

/// The number of fields a flattened delimited key adds.
#[must_use]
pub const fn delimited_fields<'de, T: FlattenDelimited<'de>>() -> usize {
    T::FIELDS
}

/// The alphabet of a flattened delimited key's field.
#[must_use]
pub fn delimited_alphabet<'de, T: FlattenDelimited<'de>>(index: usize) -> Option<Alphabet> {
    T::alphabet(index)
}

/// Writes a flattened delimited key's fields.
///
/// # Errors
///
/// What its fields' encodings return.
#[inline]
pub fn write_delimited<'de, T: FlattenDelimited<'de>>(value: &T, w: &mut DelimitedWriter<'_>) -> Result<()> {
    value.write_fields(w)
}

/// Reads a flattened delimited key's fields.
///
/// # Errors
///
/// What the reader or its fields' decodings return.
#[inline]
pub fn read_delimited<'de, T: FlattenDelimited<'de>>(r: &mut DelimitedReader<'_, 'de>) -> Result<T> {
    T::read_fields(r)
}

/// The flattening trait and functions of a store format, whose keys are its writer's and
/// reader's fields with no framing of their own.
macro_rules! store_flatten {
    (
        $flatten:ident: $key:ident, $writer:ident, $reader:ident;
        $assert:ident, $fields:ident, $write:ident, $read:ident;
        $message:literal, $label:literal, $note:literal
    ) => {
        /// As [`FlattenOrdered`], for this format.
        #[diagnostic::on_unimplemented(message = $message, label = $label, note = $note)]
        pub trait $flatten<'de>: $key<'de> {
            /// The flattened key's schema.
            const SCHEMA: &'static Schema;
        }

        /// Compiles only when `T` can be flattened into a key of this format.
        pub fn $assert<'de, T: $flatten<'de>>() {}

        /// The number of fields a flattened key adds.
        #[must_use]
        pub const fn $fields<'de, T: $flatten<'de>>() -> usize {
            T::FIELDS
        }

        /// Writes a flattened key's fields.
        ///
        /// # Errors
        ///
        /// What its fields' encoders return.
        #[inline]
        pub fn $write<'de, T: $flatten<'de>>(value: &T, w: &mut $writer<'_>) -> Result<()> {
            value.write_fields(w)
        }

        /// Reads a flattened key's fields.
        ///
        /// # Errors
        ///
        /// What the reader or its fields' decoders return.
        #[inline]
        pub fn $read<'de, T: $flatten<'de>>(r: &mut $reader<'de>) -> Result<T> {
            T::read_fields(r)
        }
    };
}

store_flatten! {
    FlattenFdb: FdbKey, TupleWriter, TupleReader;
    assert_flatten_fdb, fdb_fields, write_fdb, read_fdb;
    "`{Self}` cannot be flattened into a FoundationDB tuple key",
    "`{Self}` does not derive `RowKey` with `#[rowkey(fdb_tuple)]`",
    "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the outer \
     key: derive it on `{Self}` with `#[rowkey(fdb_tuple)]`, or remove `flatten`"
}

store_flatten! {
    FlattenMemcomparable: MemcomparableKey, MemcomparableWriter, MemcomparableReader;
    assert_flatten_memcomparable, memcomparable_fields, write_memcomparable, read_memcomparable;
    "`{Self}` cannot be flattened into a memcomparable key",
    "`{Self}` does not derive `RowKey` with `#[rowkey(memcomparable)]`",
    "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the outer \
     key: derive it on `{Self}` with `#[rowkey(memcomparable)]`, or remove `flatten`"
}

store_flatten! {
    FlattenHBase: HBaseKey, HBaseWriter, HBaseReader;
    assert_flatten_hbase, hbase_fields, write_hbase, read_hbase;
    "`{Self}` cannot be flattened into an HBase key",
    "`{Self}` does not derive `RowKey` with `#[rowkey(hbase)]`",
    "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the outer \
     key: derive it on `{Self}` with `#[rowkey(hbase)]`, or remove `flatten`"
}
