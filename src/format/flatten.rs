//! Flattening: a derived key inlined into another derived key of the same format
//! (`#[rowkey(flatten)]`). The derive implements this trait and calls these functions through
//! `__private`; they are not public API.

use crate::field::Alphabet;
use crate::field::description::Schema;
use crate::format::key_format::{FormatKey, KeyFormat};

/// A derived key in format `F`, which `#[rowkey(flatten)]` can inline into another key of `F`.
/// The derive implements it; a struct that flattens a type asserts it once, so a type that
/// does not derive `RowKey` (or derives it in another format) gets one error that says so.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into a `{F}` key",
    label = "`{Self}` does not derive `RowKey` in the `{F}` format",
    note = "`#[rowkey(flatten)]` inlines the fields of a struct that derives `RowKey` in the same format as the \
            outer key: derive it on `{Self}` with the outer key's format attribute, or remove `flatten`"
)]
pub trait FlattenKey<'de, F: KeyFormat>: FormatKey<'de, F> {
    /// The flattened key's schema.
    const SCHEMA: &'static Schema;
}

/// Compiles only when `T` can be flattened into a key of `F`.
pub fn assert_flatten<'de, F: KeyFormat, T: FlattenKey<'de, F>>() {}

/// The number of fields a flattened key adds.
#[must_use]
pub const fn flat_fields<'de, F: KeyFormat, T: FlattenKey<'de, F>>() -> usize {
    T::FIELDS
}

/// The alphabet of a flattened key's field `index`.
#[must_use]
pub fn flat_alphabet<'de, F: KeyFormat, T: FlattenKey<'de, F>>(index: usize) -> Option<Alphabet> {
    T::alphabet(index)
}

/// The fields a key's constant prefix adds in format `F`: one where the prefix is a field,
/// none where it is raw bytes.
#[must_use]
pub const fn prefix_fields<F: KeyFormat>() -> usize {
    if F::PREFIX_IS_FIELD { 1 } else { 0 }
}
