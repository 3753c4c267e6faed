//! `#[derive(RowKey)]`'s and the field model's compile-time checks: each file in `tests/ui` breaks one rule (one
//! breaks two) and its `.stderr` pins the error, its span and its advice; those in `tests/ui/pass` must compile
//! with no warning their lints deny.
//!
//! After changing a message: `TRYBUILD=overwrite cargo test --test derive_ui`, then read the
//! new `.stderr` files.

#[test]
fn compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    // Keys that must compile without a warning (each denies the lint it is about).
    cases.pass("tests/ui/pass/*.rs");
}
