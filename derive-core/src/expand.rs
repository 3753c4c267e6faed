//! Code generation: parse, validate, then the impls for the key's format and its schema.
//!
//! Generated code names the runtime only through `::rowkey::__private` (or the `crate = "..."`
//! path) and the standard library only through `::core` and `__private`, so it compiles under
//! `#![no_implicit_prelude]` and next to any user item names. Locals it introduces are
//! `mixed_site` and prefixed `rowkey_`, so neither the user's locals nor constants collide
//! with them.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

use crate::ast::{Field, Input, KeyFormat};
use crate::attr::SaltHash;
use crate::context::{
    Context, Spec, field_count, field_reads, field_writes, lifetimes, local, mentions_type_param, salt,
};
use crate::ctxt::Ctxt;
use crate::{fallback, schema, valid};

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::default();
    let model = Input::from_syn(&cx, input);
    if let Some(model) = &model {
        valid::check(&cx, model);
    }
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand(&model),
        (Err(errors), _) => fallback::expand(input, &errors),
        (Ok(()), None) => unreachable!("a model is missing only after an error"),
    }
}

fn expand(input: &Input<'_>) -> TokenStream {
    let krate = input.crate_path();
    let p = quote!(#krate::__private);
    let spec = Spec::of(input, &p);
    let cx = Context { input, p, lifetimes: lifetimes(input.generics), spec };
    let schema = schema_impls(&cx);
    let assertions = flatten_assertions(&cx);
    let format = key_impls(&cx);
    let scan = scan_builder(&cx);
    let features = feature_checks(&cx);
    let personal_data = crate::lints::personal_data_warnings(input);
    quote! {
        #schema
        #format
        #assertions
        #scan
        #features
        #personal_data
    }
}

/// A compile-time check that the runtime has the features the attributes need: an MD5 salt
/// built without rowkey's `md5` feature would otherwise compile and fail on every key. The
/// runtime's diagnostic says which feature to enable, at the `"md5"` of the attribute.
fn feature_checks(cx: &Context<'_, '_>) -> TokenStream {
    let Some(salt) = cx.input.attrs.salt.as_ref().filter(|s| s.hash == SaltHash::Md5Hex) else {
        return TokenStream::new();
    };
    let span = salt.hash_lit.as_ref().map_or(salt.span, syn::LitStr::span);
    // The whole path on the literal: rustc points at a path's span, and one joined from the
    // runtime path's tokens and the literal's falls back to the derive.
    let p: TokenStream =
        cx.p.clone()
            .into_iter()
            .map(|mut token| {
                token.set_span(span);
                token
            })
            .collect();
    quote_spanned!(span=> const _: () = #p::require_md5::<#p::Md5Feature>();)
}

/// `KeySchema`, and the inherent `SCHEMA` constant.
fn schema_impls(cx: &Context<'_, '_>) -> TokenStream {
    let p = &cx.p;
    let (de, format) = (cx.de(), &cx.spec.format);
    let value = schema::schema_value(cx.input, p, |field| {
        let ty = cx.lifetimes.decoded(field.ty);
        quote!(<#ty as #p::FlattenKey<#de, #format>>::SCHEMA)
    });
    // A flattened field's schema comes through its `'de` bound, so the impls take `'de` too.
    let (impl_generics, where_clause) = if cx.input.key_fields().any(Field::is_flatten) {
        cx.generics_with_de(|field| cx.flatten_bound(field))
    } else {
        cx.generics_plain(|_| Vec::new())
    };
    let self_type = cx.self_type();
    let doc = format!(
        "The layout of `{}` keys: format, prefix, salt and fields, for schema export and key inspection.",
        cx.input.ident
    );
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::KeySchema for #self_type #where_clause {
            const SCHEMA: #p::Schema = #value;
        }

        #[automatically_derived]
        impl #impl_generics #self_type #where_clause {
            #[doc = #doc]
            pub const SCHEMA: #p::Schema = <Self as #p::KeySchema>::SCHEMA;
        }
    }
}

/// One check per flattened field that its type can be flattened, spanned on the type. Types
/// that name the struct's type parameters are left to the where-bounds, which check them
/// where the key is used.
fn flatten_assertions(cx: &Context<'_, '_>) -> TokenStream {
    let p = &cx.p;
    let (de, format) = (cx.de(), &cx.spec.format);
    let checks: Vec<_> = cx
        .input
        .key_fields()
        .filter(|f| f.is_flatten() && !mentions_type_param(f, cx.input.generics))
        .map(|field| {
            let ty = cx.lifetimes.decoded(field.ty);
            quote_spanned!(field.ty.span()=> #p::assert_flatten::<#de, #format, #ty>();)
        })
        .collect();
    if checks.is_empty() {
        return TokenStream::new();
    }
    let (impl_generics, where_clause) = cx.generics_with_de(|_| Vec::new());
    quote! {
        const _: () = {
            #[allow(dead_code)]
            fn flatten_check #impl_generics () #where_clause {
                #(#checks)*
            }
        };
    }
}

/// The key's impls, the same for every format: `FormatKey` (its fields through the format's
/// writer and reader), `RowKey` (through the format value) and `FlattenKey`.
fn key_impls(cx: &Context<'_, '_>) -> TokenStream {
    let p = &cx.p;
    let de = cx.de();
    let input = cx.input;
    let (format, format_value) = (&cx.spec.format, &cx.spec.value);
    let values = cx.spec.values(p);
    let (w, r, value, out, bytes) = (local("w"), local("r"), local("value"), local("out"), local("bytes"));
    let (impl_generics, where_clause) = cx.generics_with_de(|field| {
        cx.field_bound(field, &quote!(#p::WriteField<#values> + #p::ReadField<#de, #values>))
    });
    let self_type = cx.self_type();
    let key_format = quote!(#p::FormatKey<#de, #format>);
    // The prefix is counted when the format makes it a field.
    let prefix_field = input.attrs.prefix.as_ref().map(|_| quote!(+ #p::prefix_fields::<#format>()));
    let fields = field_count(cx, false, |ty| quote!(<#ty as #key_format>::FIELDS));
    let max_len = Literal::usize_unsuffixed(input.max_len());
    let this = quote!(self);
    let this_value = value.to_token_stream();
    let writer = quote!(#p::KeyWriter::<#values>);
    let reader = quote!(#p::KeyReader::<#de, #values>);

    let (write_prefix, read_prefix) = match &input.attrs.prefix {
        Some(prefix) => {
            let lit = prefix.byte_string();
            (quote!(#writer::prefix(#w, #lit)?;), quote!(#reader::prefix(#r, #lit)?;))
        }
        None => (TokenStream::new(), TokenStream::new()),
    };
    let (write_bucket, read_bucket, check_bucket) = match (salt(cx, &this), salt(cx, &this_value)) {
        (Some((make, bucket)), Some((make_again, bucket_of_value))) => {
            let (salt, found, at, index) = (local("salt"), local("bucket"), local("bucket_at"), local("bucket_index"));
            // The ordered and delimited formats write a bucket as its bytes or text; the store
            // formats, and a format from outside, as their integer (an MD5 salt's as text).
            let (write_bucket, read_bucket) = match input.format() {
                KeyFormat::Ordered | KeyFormat::Delimited => {
                    let text = input.format() == KeyFormat::Delimited;
                    (
                        quote!(#p::write_bucket_field::<#values, _>),
                        quote!(#p::read_bucket_field::<#values, _>(#r, &#salt, #text)?),
                    )
                }
                _ => (
                    quote!(#p::write_store_bucket::<#values, _>),
                    quote!(#p::read_store_bucket_field::<#values, _>(#r, &#salt)?),
                ),
            };
            (
                quote! {
                    #make
                    #write_bucket(#w, &#salt, #bucket)?;
                },
                quote! {
                    let (#index, #at) = (#reader::field_index(#r), #reader::position(#r));
                    #make
                    let #found = #read_bucket;
                },
                quote! {
                    #make_again
                    #p::check_bucket(&#salt, #found, #bucket_of_value, #index, #at)?;
                },
            )
        }
        _ => (TokenStream::new(), TokenStream::new(), TokenStream::new()),
    };
    let writes = field_writes(
        cx,
        |ident| quote!(<_ as #key_format>::write_fields(&self.#ident, #w)?;),
        |name, value| quote!(#writer::named_field(#w, #name, #value)?;),
    );
    let reads = field_reads(
        cx,
        |ty| quote!(<#ty as #key_format>::read_fields(#r)?),
        |name, ty| quote!(#reader::named_field::<#ty>(#r, #name)?),
    );
    let alphabet = input.is_delimited().then(|| crate::delimited::alphabet_fn(cx));

    quote! {
        #[automatically_derived]
        impl #impl_generics #key_format for #self_type #where_clause {
            const FIELDS: usize = #fields #prefix_field;

            #alphabet

            #[inline]
            fn write_fields(&self, #w: &mut <#format as #p::KeyFormat>::Writer<'_>) -> #p::Result<()> {
                #write_prefix
                #write_bucket
                #(#writes)*
                ::core::result::Result::Ok(())
            }

            #[inline]
            fn read_fields(#r: &mut <#format as #p::KeyFormat>::Reader<'_, #de>) -> #p::Result<Self> {
                #read_prefix
                #read_bucket
                let #value = Self { #(#reads,)* };
                #check_bucket
                ::core::result::Result::Ok(#value)
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::RowKey<#de> for #self_type #where_clause {
            #[inline]
            fn encode_into(&self, #out: &mut #p::Key) -> #p::Result<()> {
                #p::encode_derived(&#format_value, self, #out, #max_len)
            }

            #[inline]
            fn from_key(#bytes: &#de [u8]) -> #p::Result<Self> {
                #p::decode_derived(&#format_value, #bytes, #max_len)
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::FlattenKey<#de, #format> for #self_type #where_clause {
            const SCHEMA: &'static #p::Schema = &<Self as #p::KeySchema>::SCHEMA;
        }
    }
}

/// The typestate scan builder, `T::scan()`: see [`crate::scan`].
fn scan_builder(cx: &Context<'_, '_>) -> TokenStream {
    crate::scan::expand(cx.input, &cx.p)
}

#[cfg(test)]
mod tests {
    use super::derive;

    fn expand(source: &str) -> String {
        derive(&syn::parse_str(source).expect("a struct")).to_string()
    }

    #[test]
    fn crate_path_is_the_only_way_to_the_runtime() {
        let out = expand(
            r##"#[rowkey(crate = "rk", delimited = "#", prefix = "p", salt(buckets = 4, from = [a]))]
               struct K { a: u32, #[rowkey(flatten)] b: Inner, #[rowkey(skip)] c: u8 }"##,
        );
        assert!(out.contains("rk :: __private"), "{out}");
        assert!(!out.contains("rowkey ::"), "{out}");
        // The standard library only through `::core` and the runtime's re-exports.
        assert!(!out.contains(":: std ::") && !out.contains(":: alloc ::"), "{out}");
    }

    #[test]
    fn only_an_md5_salt_requires_the_md5_feature() {
        let require = "const _ : () = rk :: __private :: require_md5 :: < rk :: __private :: Md5Feature > ()";
        let md5 =
            expand(r#"#[rowkey(crate = "rk", salt(buckets = 256, from = [a], hash = "md5"))] struct K { a: String }"#);
        assert!(md5.contains(require), "{md5}");
        for hash in ["farmhash", "modulo"] {
            let other = expand(&format!(
                r#"#[rowkey(crate = "rk", salt(buckets = 16, from = [a], hash = "{hash}"))] struct K {{ a: u32 }}"#
            ));
            assert!(!other.contains("require_md5"), "{other}");
        }
    }

    #[test]
    fn every_error_is_reported_with_stubs() {
        let out = expand(
            r##"#[rowkey(delimited = "#", salt(buckets = 0, from = [missing]), bogus)]
               struct K { #[rowkey(hex)] a: String, #[rowkey(width = 0)] b: u32 }"##,
        );
        assert_eq!(out.matches("compile_error").count(), 5, "{out}");
        for stub in ["RowKey <", "FormatKey <", "KeySchema for", "FlattenKey <"] {
            assert!(out.contains(stub), "no stub {stub}: {out}");
        }
    }
}
