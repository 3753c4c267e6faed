//! The impls of a delimited key: each field as text between delimiters, through
//! `EncodeText` and `DecodeText`, and the alphabet of each field for the delimiter checks.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{ToTokens, quote};

use crate::codec;
use crate::context::{Context, field_count, field_reads, field_writes, local, salt};

pub(crate) fn delimited_impls(cx: &Context<'_, '_>) -> TokenStream {
    let p = &cx.p;
    let de = cx.de();
    let input = cx.input;
    let delimiter = input.attrs.delimited.as_ref().expect("a delimited key");
    let (w, r, value, index) = (local("w"), local("r"), local("value"), local("index"));
    let (out, bytes) = (local("out"), local("bytes"));
    let (impl_generics, where_clause) =
        cx.generics_with_de(|field| cx.field_bound(field, &quote!(#p::EncodeText + #p::DecodeText<#de>)));
    let self_type = cx.self_type();
    let fields = field_count(cx, true, |ty| quote!(#p::delimited_fields::<#de, #ty>()));
    let max_len = Literal::usize_unsuffixed(input.max_len());
    let this = quote!(self);
    let this_value = value.to_token_stream();

    let (write_prefix, read_prefix, prefix_alphabet) = match &input.attrs.prefix {
        Some(lit) => (
            quote!(#w.named_field(#p::Schema::PREFIX_FIELD, #lit)?;),
            {
                let (index, at) = (local("prefix_index"), local("prefix_at"));
                quote! {
                    let (#index, #at) = (#r.field_index(), #r.position());
                    #p::check_prefix(#r.named_field::<&#de [u8]>(#p::Schema::PREFIX_FIELD)?, #lit, #index, #at)?;
                }
            },
            quote! {
                if #index == 0 {
                    return ::core::option::Option::None;
                }
                #index -= 1;
            },
        ),
        None => (TokenStream::new(), TokenStream::new(), TokenStream::new()),
    };
    let (write_bucket, read_bucket, check_bucket, bucket_alphabet) = match (salt(cx, &this), salt(cx, &this_value)) {
        (Some((make, bucket)), Some((make_again, bucket_of_value))) => {
            let (salt, found) = (local("salt"), local("bucket"));
            let (index_of, offset) = (local("bucket_index"), local("bucket_at"));
            (
                quote! {
                    #make
                    #w.named_field(#p::Schema::BUCKET_FIELD, &#salt.bucket_field(#bucket))?;
                },
                quote! {
                    let (#index_of, #offset) = (#r.field_index(), #r.position());
                    #make
                    let #found = #p::read_bucket(
                        &#salt,
                        #r.named_field::<&[u8]>(#p::Schema::BUCKET_FIELD)?,
                        true,
                        #index_of,
                        #offset,
                    )?;
                },
                quote! {
                    #make_again
                    #p::check_bucket(&#salt, #found, #bucket_of_value, #index_of, #offset)?;
                },
                quote! {
                    if #index == 0 {
                        return <#p::BucketField as #p::EncodeText>::ALPHABET;
                    }
                    #index -= 1;
                },
            )
        }
        _ => Default::default(),
    };
    let writes =
        field_writes(cx, &w, &quote!(#p::write_delimited), |name, value| quote!(#w.named_field(#name, #value)?;));
    let reads = field_reads(cx, &r, &quote!(#p::read_delimited), |name, ty| quote!(#r.named_field::<#ty>(#name)?));
    let alphabets = field_alphabets(cx, &index);
    let delimiter_text = delimiter.value();

    quote! {
        #[automatically_derived]
        impl #impl_generics #p::DelimitedKey<#de> for #self_type #where_clause {
            const FIELDS: usize = #fields;

            fn alphabet(mut #index: usize) -> ::core::option::Option<#p::Alphabet> {
                #prefix_alphabet
                #bucket_alphabet
                #(#alphabets)*
                let _ = #index;
                ::core::option::Option::None
            }

            #[inline]
            fn write_fields(&self, #w: &mut #p::DelimitedWriter<'_>) -> #p::Result<()> {
                #write_prefix
                #write_bucket
                #(#writes)*
                ::core::result::Result::Ok(())
            }

            #[inline]
            fn read_fields(#r: &mut #p::DelimitedReader<'_, #de>) -> #p::Result<Self> {
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
                #p::encode_delimited(#delimiter_text, self, #out, #max_len)
            }

            #[inline]
            fn from_key(#bytes: &#de [u8]) -> #p::Result<Self> {
                #p::decode_delimited(#delimiter_text, #bytes, #max_len)
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::FlattenDelimited<#de> for #self_type #where_clause {
            const SCHEMA: &'static #p::Schema = &<Self as #p::KeySchema>::SCHEMA;
        }
    }
}

/// The body of `DelimitedKey::alphabet` for the struct's fields: counts `index` down field by
/// field, a flattened one by its own field count.
fn field_alphabets(cx: &Context<'_, '_>, index: &Ident) -> Vec<TokenStream> {
    let (p, de) = (&cx.p, cx.de());
    let fields = cx.input.key_fields().map(|field| {
        if field.is_flatten() {
            let ty = cx.lifetimes.decoded(field.ty);
            quote! {
                if #index < #p::delimited_fields::<#de, #ty>() {
                    return #p::delimited_alphabet::<#de, #ty>(#index);
                }
                #index -= #p::delimited_fields::<#de, #ty>();
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
