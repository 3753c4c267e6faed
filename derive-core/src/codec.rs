//! How one field is written and read: the runtime wrapper its attributes choose, the type
//! the reader decodes, and the expressions that wrap a value for writing and unwrap it after
//! reading.
//!
//! Attributes map to wrappers of the runtime crate: `desc` to `Desc`, `reverse` to
//! `Reversed`, `bit_reverse` to `BitReversed`, `reverse_domain` to `ReversedDomain`, `hex` to
//! `Hex`, `width = N` to `Padded<T, N>`, `big_endian` to `BigEndian`, `nanos` to `Nanos`, `numeric` to `Numeric`. On an `Option<T>` field
//! the wrapper goes inside (`Option<Reversed<T>>`) and `Desc` outside (`Desc<Option<T>>`), as
//! the runtime requires.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::Lifetime;

use crate::ast::Field;
use crate::types::{Bytes, Class};

/// The value wrapper a field's attributes choose.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wrapper {
    None,
    Reversed,
    BitReversed,
    ReversedDomain,
    HexInt,
    /// `hex` on `Vec<u8>` (written from a slice, read into a vector).
    HexVec,
    /// `hex` on `[u8; N]`.
    HexArray,
    Padded(u32),
    BigEndian,
    Nanos,
    Numeric,
}

impl Wrapper {
    fn of(field: &Field<'_>) -> Wrapper {
        let attrs = &field.attrs;
        if attrs.reverse.is_some() {
            Wrapper::Reversed
        } else if attrs.bit_reverse.is_some() {
            Wrapper::BitReversed
        } else if attrs.reverse_domain.is_some() {
            Wrapper::ReversedDomain
        } else if attrs.hex.is_some() {
            match field.class() {
                Class::Bytes(Bytes::Array(_)) => Wrapper::HexArray,
                Class::Bytes(_) => Wrapper::HexVec,
                _ => Wrapper::HexInt,
            }
        } else if let Some((width, _)) = &attrs.width {
            Wrapper::Padded(*width)
        } else if attrs.big_endian.is_some() {
            Wrapper::BigEndian
        } else if attrs.nanos.is_some() {
            Wrapper::Nanos
        } else if attrs.numeric.is_some() {
            Wrapper::Numeric
        } else {
            Wrapper::None
        }
    }

    /// The wrapper's path, usable as a type (with `<T>` after it) or a constructor.
    fn path(self, p: &TokenStream) -> TokenStream {
        match self {
            Wrapper::None => TokenStream::new(),
            Wrapper::Reversed => quote!(#p::Reversed),
            Wrapper::BitReversed => quote!(#p::BitReversed),
            Wrapper::ReversedDomain => quote!(#p::ReversedDomain),
            Wrapper::HexInt | Wrapper::HexVec | Wrapper::HexArray => quote!(#p::Hex),
            Wrapper::Padded(_) => quote!(#p::Padded),
            Wrapper::BigEndian => quote!(#p::BigEndian),
            Wrapper::Nanos => quote!(#p::Nanos),
            Wrapper::Numeric => quote!(#p::Numeric),
        }
    }
}

/// The struct's lifetimes, and the one decoding borrows from.
pub struct Lifetimes {
    pub de: Lifetime,
    pub own: Vec<Lifetime>,
}

impl Lifetimes {
    /// `ty` with every lifetime of the struct replaced by `'de`: decoding produces fields
    /// that borrow from the key, which then shorten to the struct's lifetimes.
    pub fn decoded(&self, ty: impl ToTokens) -> TokenStream {
        replace_lifetimes(ty.into_token_stream(), &self.own, &self.de)
    }
}

fn replace_lifetimes(tokens: TokenStream, own: &[Lifetime], de: &Lifetime) -> TokenStream {
    let mut out = Vec::new();
    let mut after_quote = false;
    for token in tokens {
        let token = match token {
            TokenTree::Group(group) => {
                let mut new = proc_macro2::Group::new(group.delimiter(), replace_lifetimes(group.stream(), own, de));
                new.set_span(group.span());
                TokenTree::Group(new)
            }
            TokenTree::Ident(ident) if after_quote && own.iter().any(|l| l.ident == ident) => {
                TokenTree::Ident(Ident::new(&de.ident.to_string(), ident.span()))
            }
            other => other,
        };
        after_quote = matches!(&token, TokenTree::Punct(p) if p.as_char() == '\'');
        out.push(token);
    }
    out.into_iter().collect()
}

/// What the reader decodes for `field`: its type with the wrappers around it.
pub fn decode_type(field: &Field<'_>, p: &TokenStream, lifetimes: &Lifetimes) -> TokenStream {
    let wrapper = Wrapper::of(field);
    let inner = lifetimes.decoded(field.shape.inner);
    let path = wrapper.path(p);
    let value = match wrapper {
        Wrapper::None => lifetimes.decoded(field.ty),
        Wrapper::ReversedDomain => quote!(#path<#p::String>),
        Wrapper::HexVec => quote!(#path<#p::Vec<u8>>),
        Wrapper::Padded(width) => {
            let width = proc_macro2::Literal::usize_unsuffixed(width as usize);
            quote!(#path<#inner, #width>)
        }
        _ => quote!(#path<#inner>),
    };
    let value =
        if field.shape.optional && wrapper != Wrapper::None { quote!(::core::option::Option<#value>) } else { value };
    if field.attrs.desc.is_some() { quote!(#p::Desc<#value>) } else { value }
}

/// A reference to the value to write for `field`, whose value is at `place` (`self.x`).
pub fn encode_ref(field: &Field<'_>, p: &TokenStream, place: &TokenStream) -> TokenStream {
    let wrapper = Wrapper::of(field);
    let path = wrapper.path(p);
    let option = quote!(::core::option::Option);
    let constructor = match wrapper {
        Wrapper::Padded(width) => {
            let inner = field.shape.inner;
            let width = proc_macro2::Literal::usize_unsuffixed(width as usize);
            quote!(#path::<#inner, #width>)
        }
        _ => path,
    };
    let value = match (wrapper, field.shape.optional) {
        (Wrapper::None, _) => quote!(&#place),
        (Wrapper::ReversedDomain, false) => quote!(#constructor(&#place)),
        (Wrapper::ReversedDomain, true) => quote!(#option::map(#option::as_ref(&#place), #constructor)),
        (Wrapper::HexVec, false) => quote!(#constructor(::core::ops::Deref::deref(&#place))),
        (Wrapper::HexVec, true) => quote!(#option::map(#option::as_deref(&#place), #constructor)),
        // The rest wrap integers, byte arrays and date-time values, which are `Copy`.
        (_, false) => quote!(#constructor(#place)),
        (_, true) => quote!(#option::map(#place, #constructor)),
    };
    match (field.attrs.desc.is_some(), wrapper) {
        (true, _) => quote!(&#p::Desc(#value)),
        (false, Wrapper::None) => value,
        (false, _) => quote!(&#value),
    }
}

/// The value to write for `field` as an owned expression (a reference only when the field
/// needs no wrapper), for scan bounds that outlive the expression.
pub fn encode_owned(field: &Field<'_>, p: &TokenStream, place: &TokenStream) -> TokenStream {
    let wrapped = encode_ref(field, p, place);
    let needs_no_wrapper = field.attrs.desc.is_none() && Wrapper::of(field) == Wrapper::None;
    if needs_no_wrapper {
        return wrapped;
    }
    // Every wrapped form is `&Wrapper(...)`: drop the borrow.
    let mut tokens = wrapped.into_iter();
    tokens.next();
    tokens.collect()
}

/// The field's value from `decoded`, a value of [`decode_type`].
pub fn unwrap(field: &Field<'_>, decoded: TokenStream) -> TokenStream {
    let value = if field.attrs.desc.is_some() { quote!(#decoded.0) } else { decoded };
    match (Wrapper::of(field), field.shape.optional) {
        (Wrapper::None, _) => value,
        (_, false) => quote!(#value.0),
        (_, true) => {
            let wrapped = Ident::new("rowkey_wrapped", Span::mixed_site());
            quote!(::core::option::Option::map(#value, |#wrapped| #wrapped.0))
        }
    }
}
