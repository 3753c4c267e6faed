//! `#[derive(RowKey)]`'s and the field model's compile-time checks: each file in `tests/ui` breaks one rule (one
//! breaks two) and its `.stderr` pins the error, its span and its advice.
//!
//! After changing a message: `TRYBUILD=overwrite cargo test --test derive_ui`, then read the
//! new `.stderr` files.

#[test]
fn compile_errors() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
