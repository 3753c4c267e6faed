//! What the fuzz targets in `fuzz_targets/` share: the key types they decode (the crate's
//! test keys, declared once in `tests/common` and included here, and a few of their own),
//! the checks every decoder must pass, and the seed keys `examples/seeds.rs` writes.
//!
//! Each target's input is its own: the decoder targets read a selector byte (which key type)
//! and then the key; the structured ones build values with `arbitrary`.

#![forbid(unsafe_code)]

pub mod checks;
pub mod derived;
pub mod formats;
pub mod roundtrip;
pub mod scan;
pub mod serde_types;
pub mod tuples;

/// The scenario keys and the keys of every field type, as the crate's tests declare them.
#[allow(dead_code, clippy::all)]
#[path = "../../tests/common/keys.rs"]
pub mod keys;

/// The keys in the store formats (FoundationDB tuples, memcomparable, HBase).
#[allow(dead_code, clippy::all)]
#[path = "../../tests/common/stores.rs"]
pub mod stores;

/// The keys whose fields are the date-time, id and address types.
#[allow(dead_code, clippy::all)]
#[path = "../../tests/common/typed.rs"]
pub mod typed;

/// The readable form of a key, for assertion messages.
pub fn show(bytes: &[u8]) -> String {
    rowkey::Key::from(bytes).to_string()
}
