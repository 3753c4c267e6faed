//! What only a delimited key has: `FormatKey::alphabet`, the bytes each field's text can hold,
//! which the delimited format checks its delimiter against.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::codec;
use crate::context::{Context, local};

/// `fn alphabet(index)` of a delimited key: counts `index` down field by field (the prefix,
/// the bucket, then the struct's fields, a flattened one by its own field count).
pub(crate) fn alphabet_fn(cx: &Context<'_, '_>) -> TokenStream {
    let p = &cx.p;
    let index = local("index");
    let step = |alphabet: TokenStream| {
        quote! {
            if #index == 0 {
                return #alphabet;
            }
            #index -= 1;
        }
    };
    let prefix = cx.input.attrs.prefix.as_ref().map(|_| step(quote!(::core::option::Option::None)));
    let bucket = cx.input.attrs.salt.as_ref().map(|_| step(quote!(<#p::BucketField as #p::EncodeText>::ALPHABET)));
    let fields = field_alphabets(cx, &index);
    quote! {
        fn alphabet(mut #index: usize) -> ::core::option::Option<#p::Alphabet> {
            #prefix
            #bucket
            #(#fields)*
            let _ = #index;
            ::core::option::Option::None
        }
    }
}

/// The steps of `alphabet` for the struct's fields.
fn field_alphabets(cx: &Context<'_, '_>, index: &Ident) -> Vec<TokenStream> {
    let (p, de, format) = (&cx.p, cx.de(), &cx.spec.format);
    let fields = cx.input.key_fields().map(|field| {
        if field.is_flatten() {
            let ty = cx.lifetimes.decoded(field.ty);
            quote! {
                if #index < #p::flat_fields::<#de, #format, #ty>() {
                    return #p::flat_alphabet::<#de, #format, #ty>(#index);
                }
                #index -= #p::flat_fields::<#de, #format, #ty>();
            }
        } else {
            let ty = codec::decode_type(field, p, &cx.lifetimes);
            quote! {
                if #index == 0 {
                    return <#ty as #p::EncodeText>::ALPHABET;
                }
                #index -= 1;
            }
        }
    });
    fields.collect()
}
