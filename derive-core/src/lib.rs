//! The model, rules and code generation of `rowkey`'s `#[derive(RowKey)]`, as a library:
//! `rowkey-derive` is the macro's entry, and the Python package runs the same rules on keys
//! declared at run time ([`declare`]). Use the derive through `rowkey`, which re-exports it as
//! `rowkey::RowKey`.
//!
//! One phase a module: `attr` parses the attributes (its keywords in `symbol`, reading a
//! value in `meta`, `salt(...)` and `dynamodb(...)` in `settings`), `ast` models the input (with `types`
//! telling what a field's type is), `valid` checks the rules between attributes, fields and
//! the key, `expand` generates the impls (with `codec` for each field's wrappers and `schema`
//! for `SCHEMA`), and `fallback` stands in for them when there are errors. Errors are
//! collected in a `ctxt::Ctxt`, so one compile reports every mistake.

mod ast;
mod attr;
mod codec;
mod context;
mod ctxt;
pub mod declare;
mod delimited;
mod expand;
mod fallback;
mod lints;
mod meta;
mod scan;
mod schema;
mod settings;
mod symbol;
mod types;
mod valid;

/// The items `#[derive(RowKey)]` generates for `input`: the impls, or, when the attributes
/// break a rule, one error at each token to change (and stand-in impls, so that the errors
/// are all the compiler reports).
#[must_use]
pub fn derive(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    expand::derive(input)
}
