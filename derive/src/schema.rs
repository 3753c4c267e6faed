//! The `SCHEMA` constant: a static description of the key, built from the same model the
//! codecs are, so that it names exactly the encodings the key is written with.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use crate::ast::{Field, Input, KeyFormat};
use crate::types::{Bytes, Class, Time, last_segment};

/// The `rowkey::schema::Schema` value for the key.
/// `flattened` gives the `&'static Schema` of a flattened field's type.
pub fn schema_value(input: &Input<'_>, p: &TokenStream, flattened: impl Fn(&Field<'_>) -> TokenStream) -> TokenStream {
    let type_name = input.ident.to_string();
    let format = match (input.format(), &input.attrs.delimited) {
        (KeyFormat::Delimited, Some(lit)) => quote!(#p::Format::Delimited(#lit)),
        (KeyFormat::FdbTuple, _) => quote!(#p::Format::FdbTuple),
        (KeyFormat::Memcomparable, _) => quote!(#p::Format::Memcomparable),
        (KeyFormat::HBase, _) => quote!(#p::Format::HBase),
        (KeyFormat::Custom, _) => {
            let format = input.attrs.format.as_ref().expect("a custom format's path");
            quote!(#p::Format::Custom(<#format as #p::KeyFormat>::SCHEMA_FORMAT))
        }
        _ => quote!(#p::Format::Ordered),
    };
    let prefix = match &input.attrs.prefix {
        Some(prefix) => {
            let lit = prefix.byte_string();
            quote!(::core::option::Option::Some(#lit))
        }
        None => quote!(::core::option::Option::None),
    };
    let salt = match &input.attrs.salt {
        Some(salt) => {
            let buckets = Literal::u32_unsuffixed(salt.buckets);
            let hash = salt.hash.runtime(p);
            let from =
                salt.from.iter().map(|ident| input.field_named(ident).map_or_else(|| ident.to_string(), Field::name));
            quote!(::core::option::Option::Some(#p::SaltSchema { buckets: #buckets, hash: #hash, from: &[#(#from),*] }))
        }
        None => quote!(::core::option::Option::None),
    };
    let max_len = Literal::usize_unsuffixed(input.max_len());
    let type_params: Vec<String> = input.generics.type_params().map(|t| t.ident.to_string()).collect();
    let fields = input.key_fields().map(|field| field_schema(field, input.is_delimited(), &type_params, p, &flattened));
    quote! {
        #p::Schema {
            type_name: #type_name,
            format: #format,
            prefix: #prefix,
            salt: #salt,
            max_len: #max_len,
            fields: &[#(#fields),*],
        }
    }
}

fn field_schema(
    field: &Field<'_>,
    delimited: bool,
    type_params: &[String],
    p: &TokenStream,
    flattened: &impl Fn(&Field<'_>) -> TokenStream,
) -> TokenStream {
    let name = field.name();
    let rust_name = field.rust_name();
    let rust_type = type_text(field.ty);
    let encoding = if field.is_flatten() {
        let schema = flattened(field);
        quote!(#p::Encoding::Flattened(#schema))
    } else {
        encoding(field, delimited, type_params, p)
    };
    let transform = transform(field, p);
    let optional = field.shape.optional;
    let descending = field.attrs.desc.is_some();
    let monotonic = field.attrs.monotonic.is_some();
    let sensitive = field.attrs.sensitive.is_some();
    quote! {
        #p::FieldSchema {
            name: #name,
            rust_name: #rust_name,
            rust_type: #rust_type,
            encoding: #encoding,
            transform: #transform,
            optional: #optional,
            descending: #descending,
            monotonic: #monotonic,
            sensitive: #sensitive,
        }
    }
}

/// The encoding of the bytes the key holds for `field` (of the transformed value, if any).
fn encoding(field: &Field<'_>, delimited: bool, type_params: &[String], p: &TokenStream) -> TokenStream {
    let attrs = &field.attrs;
    let decimal = |width: u32, signed: bool| {
        let width = Literal::u8_unsuffixed(u8::try_from(width).unwrap_or(u8::MAX));
        quote!(#p::Encoding::Decimal { width: #width, signed: #signed })
    };
    let hex = |digits: Option<u32>| match digits.and_then(|d| u8::try_from(d).ok()) {
        Some(digits) => {
            let digits = Literal::u8_unsuffixed(digits);
            quote!(#p::Encoding::Hex { digits: ::core::option::Option::Some(#digits) })
        }
        None => quote!(#p::Encoding::Hex { digits: ::core::option::Option::None }),
    };
    let name = match field.class() {
        Class::Int(int) if attrs.hex.is_some() => return hex(Some(2 * u32::from(int.bytes))),
        Class::Bytes(Bytes::Array(len)) if attrs.hex.is_some() => return hex(len.map(|n| 2 * n)),
        Class::Bytes(_) if attrs.hex.is_some() => return hex(None),
        Class::Int(int) if delimited => {
            return match &attrs.width {
                Some((width, _)) => decimal(*width, int.signed),
                // `reverse` stores MAX - v >= 0; the other integers keep their sign.
                None => decimal(u32::from(int.digits), int.signed && attrs.reverse.is_none()),
            };
        }
        Class::Int(_) | Class::Float if attrs.numeric.is_some() => "Numeric",
        Class::Int(_) if attrs.big_endian.is_some() => "BigEndianInt64",
        Class::Int(int) if int.unsigned_64() => "Uint64",
        Class::Int(_) => "Int64",
        Class::Str(_) => "Utf8",
        // `char`, `f32` and arrays decode a subset of their encoding's bytes: the schema names
        // them so that inspecting a key refuses what their decoders refuse.
        Class::Char => "Char",
        Class::Bytes(Bytes::Array(_)) => {
            let inner = field.shape.inner;
            return quote!(#p::Encoding::ByteArray { len: ::core::mem::size_of::<#inner>() });
        }
        Class::Bytes(_) => "Bytes",
        Class::Bool => "Bool",
        Class::Float if last_segment(field.shape.inner).is_some_and(|name| name == "f32") => "Float32",
        Class::Float => "Float64",
        Class::Time(Time::System) => "TimestampMicros",
        // A type parameter's encoding is not known where `SCHEMA` is defined.
        Class::Time(_) | Class::Other if mentions(field.shape.inner, type_params) => "Custom",
        Class::Time(_) | Class::Other => {
            // The type's own field impls say what their bytes are.
            let inner = field.shape.inner;
            let ty = if attrs.nanos.is_some() { quote!(#p::Nanos<#inner>) } else { quote!(#inner) };
            let encode = if delimited { quote!(#p::EncodeText) } else { quote!(#p::FieldType) };
            return quote!(<#ty as #encode>::ENCODING);
        }
    };
    let name = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
    quote!(#p::Encoding::#name)
}

fn transform(field: &Field<'_>, p: &TokenStream) -> TokenStream {
    let attrs = &field.attrs;
    match field.class() {
        Class::Int(int) if attrs.reverse.is_some() => {
            let max = Literal::u64_unsuffixed(int.max);
            quote!(#p::Transform::Reverse { max: #max })
        }
        Class::Int(int) if attrs.bit_reverse.is_some() => {
            let keep_sign = int.signed;
            quote!(#p::Transform::BitReverse { keep_sign: #keep_sign })
        }
        Class::Time(Time::Instant) if attrs.reverse.is_some() => {
            quote!(#p::Transform::Reverse { max: 9223372036854775807 })
        }
        Class::Time(Time::Date) if attrs.reverse.is_some() => quote!(#p::Transform::Reverse { max: 2147483647 }),
        _ if attrs.reverse_domain.is_some() => quote!(#p::Transform::ReverseDomain),
        _ => quote!(#p::Transform::None),
    }
}

/// Whether `ty` names one of the struct's type parameters anywhere in it.
fn mentions(ty: &syn::Type, type_params: &[String]) -> bool {
    fn walk(tokens: TokenStream, type_params: &[String]) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => type_params.iter().any(|p| ident == p),
            proc_macro2::TokenTree::Group(group) => walk(group.stream(), type_params),
            _ => false,
        })
    }
    !type_params.is_empty() && walk(ty.to_token_stream(), type_params)
}

/// The type as a person writes it: `Option<u32>`, `&'a str`, `[u8; 4]`.
pub fn type_text(ty: impl ToTokens) -> String {
    let text = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let before = out.chars().last();
            let after = chars.peek().copied();
            let tight_before = matches!(before, Some('<' | '&' | '\'' | ':' | '(' | '['));
            let tight_after = matches!(after, Some('<' | '>' | ',' | ';' | ':' | ')' | ']'));
            if tight_before || tight_after {
                continue;
            }
        }
        out.push(c);
    }
    out
}
