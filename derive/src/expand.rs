//! Code generation: parse, validate, then the impls for the key's format and its schema.
//!
//! Generated code names the runtime only through `::rowkey::__private` (or the `crate = "..."`
//! path) and the standard library only through `::core` and `__private`, so it compiles under
//! `#![no_implicit_prelude]` and next to any user item names. Locals it introduces are
//! `mixed_site` and prefixed `rowkey_`, so neither the user's locals nor constants collide
//! with them.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident};

use crate::ast::{Field, Input};
use crate::attr::SaltHash;
use crate::context::{
    Context, Spec, field_count, field_reads, field_writes, item, lifetimes, local, mentions_type_param, salt,
};
use crate::ctxt::Ctxt;
use crate::delimited::delimited_impls;
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
    let spec = Spec::of(input.format());
    let flatten = item(&p, spec.flatten);
    let cx = Context { input, p, lifetimes: lifetimes(input.generics), spec, flatten };
    let schema = schema_impls(&cx);
    let assertions = flatten_assertions(&cx);
    let format = if input.is_delimited() { delimited_impls(&cx) } else { field_impls(&cx) };
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
    let (de, flatten) = (cx.de(), &cx.flatten);
    let value = schema::schema_value(cx.input, p, |field| {
        let ty = cx.lifetimes.decoded(field.ty);
        quote!(<#ty as #flatten<#de>>::SCHEMA)
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
    let de = cx.de();
    let assert = Ident::new(cx.spec.assert_flatten, Span::call_site());
    let checks: Vec<_> = cx
        .input
        .key_fields()
        .filter(|f| f.is_flatten() && !mentions_type_param(f, cx.input.generics))
        .map(|field| {
            let ty = cx.lifetimes.decoded(field.ty);
            quote_spanned!(field.ty.span()=> #p::#assert::<#de, #ty>();)
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

/// The impls of a key in a format whose fields a writer and a reader of the field model take
/// one by one: the ordered format and the store formats.
fn field_impls(cx: &Context<'_, '_>) -> TokenStream {
    let p = &cx.p;
    let de = cx.de();
    let input = cx.input;
    let spec = &cx.spec;
    let store = input.format().is_store();
    let (key_trait, writer, reader) = (item(p, spec.key_trait), item(p, spec.writer), item(p, spec.reader));
    let (value_format, flatten) = (item(p, spec.value_format), &cx.flatten);
    let (encode, decode) = (item(p, spec.encode), item(p, spec.decode));
    let (w, r, value, out, bytes) = (local("w"), local("r"), local("value"), local("out"), local("bytes"));
    let (impl_generics, where_clause) = cx.generics_with_de(|field| {
        cx.field_bound(field, &quote!(#p::WriteField<#value_format> + #p::ReadField<#de, #value_format>))
    });
    let self_type = cx.self_type();
    let flat_fields = item(p, spec.flat_fields);
    // A store format's prefix is raw bytes before the fields, not a field of its own.
    let fields = field_count(cx, !store, |ty| quote!(#flat_fields::<#de, #ty>()));
    let max_len = Literal::usize_unsuffixed(input.max_len());
    let this = quote!(self);
    let this_value = value.to_token_stream();

    let (write_prefix, read_prefix) = match &input.attrs.prefix {
        Some(lit) if store => {
            let raw = Literal::byte_string(lit.value().as_bytes());
            (quote!(#w.raw_prefix(#raw);), quote!(#r.raw_prefix(#raw)?;))
        }
        Some(lit) => {
            let (index, at) = (local("prefix_index"), local("prefix_at"));
            (
                quote!(#w.named_field(#p::Schema::PREFIX_FIELD, #lit)?;),
                // Where the reader is, not 0: a flattened key's prefix is inside the outer key.
                quote! {
                    let (#index, #at) = (#r.field_index(), #r.position());
                    #p::check_prefix(&#r.named_field::<#p::Cow<#de, [u8]>>(#p::Schema::PREFIX_FIELD)?, #lit, #index, #at)?;
                },
            )
        }
        None => (TokenStream::new(), TokenStream::new()),
    };
    let (write_bucket, read_bucket, check_bucket) = match (salt(cx, &this), salt(cx, &this_value)) {
        (Some((make, bucket)), Some((make_again, bucket_of_value))) => {
            let (salt, found, at) = (local("salt"), local("bucket"), local("bucket_at"));
            let index = local("bucket_index");
            let md5 = input.attrs.salt.as_ref().is_some_and(|s| s.hash == SaltHash::Md5Hex);
            let (field, read) = match (store, md5) {
                // The format's own integer, or an MD5 salt's hex digits as its text.
                (true, false) => (
                    quote!(#salt.store_bucket(#bucket)),
                    quote! {
                        #p::read_store_bucket(
                            &#salt,
                            ::core::option::Option::Some(#r.named_field::<u16>(#p::Schema::BUCKET_FIELD)?),
                            ::core::option::Option::None,
                            #index,
                            #at,
                        )?
                    },
                ),
                (true, true) => (
                    quote!(#salt.store_bucket(#bucket)),
                    quote! {
                        #p::read_store_bucket(
                            &#salt,
                            ::core::option::Option::None,
                            ::core::option::Option::Some(&#r.named_field::<#p::Cow<#de, str>>(#p::Schema::BUCKET_FIELD)?),
                            #index,
                            #at,
                        )?
                    },
                ),
                (false, _) => (
                    quote!(#salt.bucket_field(#bucket)),
                    quote! {
                        #p::read_bucket(
                            &#salt,
                            &#r.named_field::<#p::Cow<#de, [u8]>>(#p::Schema::BUCKET_FIELD)?,
                            false,
                            #index,
                            #at,
                        )?
                    },
                ),
            };
            (
                quote! {
                    #make
                    #w.named_field(#p::Schema::BUCKET_FIELD, &#field)?;
                },
                quote! {
                    let (#index, #at) = (#r.field_index(), #r.position());
                    #make
                    let #found = #read;
                },
                quote! {
                    #make_again
                    #p::check_bucket(&#salt, #found, #bucket_of_value, #index, #at)?;
                },
            )
        }
        _ => (TokenStream::new(), TokenStream::new(), TokenStream::new()),
    };
    let writes = field_writes(cx, &w, &item(p, spec.write_flat), |name, value| quote!(#w.named_field(#name, #value)?;));
    let reads = field_reads(cx, &r, &item(p, spec.read_flat), |name, ty| quote!(#r.named_field::<#ty>(#name)?));

    quote! {
        #[automatically_derived]
        impl #impl_generics #key_trait<#de> for #self_type #where_clause {
            const FIELDS: usize = #fields;

            #[inline]
            fn write_fields(&self, #w: &mut #writer<'_>) -> #p::Result<()> {
                #write_prefix
                #write_bucket
                #(#writes)*
                ::core::result::Result::Ok(())
            }

            #[inline]
            fn read_fields(#r: &mut #reader<#de>) -> #p::Result<Self> {
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
                #encode(self, #out, #max_len)
            }

            #[inline]
            fn from_key(#bytes: &#de [u8]) -> #p::Result<Self> {
                #decode(#bytes, #max_len)
            }
        }

        #[automatically_derived]
        impl #impl_generics #flatten<#de> for #self_type #where_clause {
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
        for stub in ["RowKey <", "OrderedKey <", "DelimitedKey <", "KeySchema for", "FlattenOrdered <"] {
            assert!(out.contains(stub), "no stub {stub}: {out}");
        }
    }
}
