//! Reading one keyword's value (`word = "..."`, `word = N`, a flag), recording a keyword
//! given twice or unknown, for `attr` and `settings`.

use std::fmt;

use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitInt, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::symbol::{Symbol, suggestion};

/// Stores `value` unless the keyword was given before; returns whether it stored it.
pub(crate) fn set<T>(cx: &Ctxt, slot: &mut Option<T>, word: Symbol, span: Span, value: T) -> bool {
    if slot.is_some() {
        cx.error_at(span, format!("duplicate `{word}` attribute: give it once"));
        return false;
    }
    *slot = Some(value);
    true
}

/// A keyword that takes no value.
pub(crate) fn flag(cx: &Ctxt, meta: &ParseNestedMeta<'_>, word: Symbol, slot: &mut Option<Span>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        skip_value(meta)?;
        cx.error(&meta.path, format!("`{word}` takes no value: write `#[rowkey({word})]`"));
        return Ok(());
    }
    set(cx, slot, word, meta.path.span(), meta.path.span());
    Ok(())
}

/// `word = "..."`.
pub(crate) fn string(meta: &ParseNestedMeta<'_>, word: Symbol, example: &str) -> syn::Result<LitStr> {
    match value(meta, word, example)? {
        Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => Ok(lit),
        other => Err(syn::Error::new_spanned(other, format!("`{word}` takes a string literal: `{example}`"))),
    }
}

/// `word = N`.
pub(crate) fn integer<N>(meta: &ParseNestedMeta<'_>, word: Symbol, example: &str) -> syn::Result<(N, LitInt)>
where
    N: std::str::FromStr,
    N::Err: fmt::Display,
{
    match value(meta, word, example)? {
        Expr::Lit(ExprLit { lit: Lit::Int(lit), .. }) => match lit.base10_parse::<N>() {
            Ok(n) => Ok((n, lit)),
            Err(_) => Err(syn::Error::new(lit.span(), format!("`{word}` = {lit} is out of range: `{example}`"))),
        },
        other => Err(syn::Error::new_spanned(other, format!("`{word}` takes an integer literal: `{example}`"))),
    }
}

/// The expression after `word =`, with an error that shows the form when `=` is missing.
pub(crate) fn value(meta: &ParseNestedMeta<'_>, word: Symbol, example: &str) -> syn::Result<Expr> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("`{word}` needs a value: `{example}`")));
    }
    meta.value()?.parse()
}

/// Consumes `= value` or `(...)` after a keyword that does not take them.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// Records an unknown keyword, with the likely fix, and skips its value.
pub(crate) fn unknown(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    place: &str,
    words: &[Symbol],
    other_place: &[Symbol],
) -> syn::Result<()> {
    skip_value(meta)?;
    let found = meta.path.to_token_stream().to_string().replace(' ', "");
    let message = if let Some(word) = other_place.iter().find(|w| w.as_str() == found) {
        let (this, other) = if place == "struct" { ("struct", "field") } else { ("field", "struct") };
        format!("`{word}` is a {other} attribute, not a {this} attribute: move it to the {other}")
    } else {
        let list = words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
        match suggestion(&found, words) {
            Some(word) => {
                format!("unknown rowkey {place} attribute `{found}`: did you mean `{word}`? (expected one of {list})")
            }
            None => format!("unknown rowkey {place} attribute `{found}`: expected one of {list}"),
        }
    };
    cx.error(&meta.path, message);
    Ok(())
}
