//! What the derive emits when the input has errors: the errors, and stub impls of every
//! trait and constant the derive would have generated, so that code using the key type
//! (`to_key()`, `T::SCHEMA`, a struct that flattens it) does not add "trait not implemented"
//! errors on top of the real ones.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{DeriveInput, GenericParam, Lifetime, LifetimeParam};

use crate::ast;
use crate::attr::Container;
use crate::ctxt::Ctxt;

pub fn expand(input: &DeriveInput, errors: &[syn::Error]) -> TokenStream {
    let errors = errors.iter().map(syn::Error::to_compile_error);
    // The crate path as written, if it parses; its own errors are among `errors` already.
    let krate = ast::crate_path(&Container::from_attrs(&Ctxt::default(), &input.attrs));
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let type_name = ident.to_string();

    let (plain_impl, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut with_de = input.generics.clone();
    let taken = with_de.lifetimes().any(|l| l.lifetime.ident == "de");
    let de = Lifetime::new(if taken { "'__de" } else { "'de" }, Span::call_site());
    with_de.params.insert(0, GenericParam::Lifetime(LifetimeParam::new(de.clone())));
    let (de_impl, _, _) = with_de.split_for_impl();
    let mut with_format = with_de.clone();
    with_format.params.push(syn::parse_quote!(RowkeyFormat: #p::KeyFormat));
    let (de_generic_impl, _, _) = with_format.split_for_impl();
    let stub = quote!(::core::unimplemented!("`#[derive(RowKey)]` reported errors for this type"));

    quote! {
        #(#errors)*

        impl #plain_impl #p::KeySchema for #ident #ty_generics #where_clause {
            const SCHEMA: #p::Schema = #p::Schema {
                type_name: #type_name,
                format: #p::Format::Ordered,
                prefix: ::core::option::Option::None,
                salt: ::core::option::Option::None,
                max_len: 0,
                fields: &[],
                dynamodb: ::core::option::Option::None,
            };
        }

        impl #plain_impl #ident #ty_generics #where_clause {
            #[doc(hidden)]
            pub const SCHEMA: #p::Schema = <Self as #p::KeySchema>::SCHEMA;
        }

        impl #de_impl #p::RowKey<#de> for #ident #ty_generics #where_clause {
            fn encode_into(&self, _: &mut #p::Key) -> #p::Result<()> {
                #stub
            }

            fn from_key(_: &#de [u8]) -> #p::Result<Self> {
                #stub
            }
        }

        // Generic over the format, so that no use of the key in any format adds an error.
        impl #de_generic_impl #p::FormatKey<#de, RowkeyFormat> for #ident #ty_generics #where_clause {
            const FIELDS: usize = 0;

            fn write_fields(&self, _: &mut <RowkeyFormat as #p::KeyFormat>::Writer<'_>) -> #p::Result<()> {
                #stub
            }

            fn read_fields(_: &mut <RowkeyFormat as #p::KeyFormat>::Reader<'_, #de>) -> #p::Result<Self> {
                #stub
            }
        }

        impl #de_generic_impl #p::FlattenKey<#de, RowkeyFormat> for #ident #ty_generics #where_clause {
            const SCHEMA: &'static #p::Schema = &<Self as #p::KeySchema>::SCHEMA;
        }
    }
}
