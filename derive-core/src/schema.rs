//! The `SCHEMA` constant: a static description of the key, built from the same model the
//! codecs are, so that it names exactly the encodings the key is written with.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use crate::ast::{Field, Input, KeyFormat};
use crate::attr::Salt;
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
    let salt_schema = |salt: &Salt| {
        let buckets = Literal::u32_unsuffixed(salt.buckets);
        let hash = salt.hash.runtime(p);
        let from =
            salt.from.iter().map(|ident| input.field_named(ident).map_or_else(|| ident.to_string(), Field::name));
        quote!(#p::SaltSchema { buckets: #buckets, hash: #hash, from: &[#(#from),*] })
    };
    let salt = match &input.attrs.salt {
        Some(salt) => {
            let salt = salt_schema(salt);
            quote!(::core::option::Option::Some(#salt))
        }
        None => quote!(::core::option::Option::None),
    };
    let max_len = Literal::usize_unsuffixed(input.max_len());
    let dynamodb = match &input.attrs.dynamodb {
        Some(dynamodb) => {
            let partition = dynamodb
                .partition
                .iter()
                .map(|ident| input.field_named(ident).map_or_else(|| ident.to_string(), Field::name));
            let sort_prefix = match &dynamodb.sort_prefix {
                Some(lit) => quote!(::core::option::Option::Some(#lit)),
                None => quote!(::core::option::Option::None),
            };
            let shards = match &dynamodb.shards {
                Some(shards) if shards.random.is_some() => {
                    let buckets = Literal::u32_unsuffixed(shards.salt.buckets);
                    quote!(::core::option::Option::Some(#p::DynamoShards::Random { buckets: #buckets }))
                }
                Some(shards) => {
                    let salt = salt_schema(&shards.salt);
                    quote!(::core::option::Option::Some(#p::DynamoShards::Computed(#salt)))
                }
                None => quote!(::core::option::Option::None),
            };
            quote!(::core::option::Option::Some(#p::DynamoSchema {
                partition: &[#(#partition),*],
                sort_prefix: #sort_prefix,
                shards: #shards,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
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
            dynamodb: #dynamodb,
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

/// How a field's bytes are encoded, decided once: written into the generated `SCHEMA` as
/// tokens, and handed as it is to a key declared at run time ([`crate::declare`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodingChoice {
    /// A unit variant of `rowkey::schema::Encoding`, by name (`Int64`, `Utf8`, ...).
    Named(&'static str),
    /// `Encoding::Decimal`.
    Decimal { width: u8, signed: bool },
    /// `Encoding::Hex`.
    Hex { digits: Option<u8> },
    /// `Encoding::ByteArray` of a `[u8; N]`, `N` when written as a number.
    ByteArray { len: Option<u32> },
    /// What the field's type says of itself (`FieldType::ENCODING`, or in a delimited key
    /// `EncodeText::ENCODING`), of `Nanos<T>` when `nanos`: a type the derive does not know.
    OfType { nanos: bool },
    /// `Encoding::Flattened`: the flattened type's own schema.
    Flattened,
}

/// What a field's value goes through before it is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransformChoice {
    /// `Transform::None`.
    None,
    /// `Transform::Reverse`.
    Reverse { max: u64 },
    /// `Transform::BitReverse`.
    BitReverse { keep_sign: bool },
    /// `Transform::ReverseDomain`.
    ReverseDomain,
}

/// The encoding of the bytes the key holds for `field` (of the transformed value, if any).
fn encoding(field: &Field<'_>, delimited: bool, type_params: &[String], p: &TokenStream) -> TokenStream {
    match encoding_choice(field, delimited, type_params) {
        EncodingChoice::Named(name) => {
            let name = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
            quote!(#p::Encoding::#name)
        }
        EncodingChoice::Decimal { width, signed } => {
            let width = Literal::u8_unsuffixed(width);
            quote!(#p::Encoding::Decimal { width: #width, signed: #signed })
        }
        EncodingChoice::Hex { digits: Some(digits) } => {
            let digits = Literal::u8_unsuffixed(digits);
            quote!(#p::Encoding::Hex { digits: ::core::option::Option::Some(#digits) })
        }
        EncodingChoice::Hex { digits: None } => quote!(#p::Encoding::Hex { digits: ::core::option::Option::None }),
        EncodingChoice::ByteArray { .. } => {
            let inner = field.shape.inner;
            quote!(#p::Encoding::ByteArray { len: ::core::mem::size_of::<#inner>() })
        }
        EncodingChoice::OfType { nanos } => {
            // The type's own field impls say what their bytes are.
            let inner = field.shape.inner;
            let ty = if nanos { quote!(#p::Nanos<#inner>) } else { quote!(#inner) };
            let encode = if delimited { quote!(#p::EncodeText) } else { quote!(#p::FieldType) };
            quote!(<#ty as #encode>::ENCODING)
        }
        EncodingChoice::Flattened => unreachable!("a flattened field's encoding is its type's schema"),
    }
}

/// The encoding `field` is written with, by the first rule that applies.
pub fn encoding_choice(field: &Field<'_>, delimited: bool, type_params: &[String]) -> EncodingChoice {
    let attrs = &field.attrs;
    if field.is_flatten() {
        return EncodingChoice::Flattened;
    }
    let hex = |digits: Option<u32>| EncodingChoice::Hex { digits: digits.and_then(|d| u8::try_from(d).ok()) };
    let name = match field.class() {
        Class::Int(int) if attrs.hex.is_some() => return hex(Some(2 * u32::from(int.bytes))),
        Class::Bytes(Bytes::Array(len)) if attrs.hex.is_some() => return hex(len.map(|n| 2 * n)),
        Class::Bytes(_) if attrs.hex.is_some() => return hex(None),
        Class::Int(int) if delimited => {
            return match &attrs.width {
                Some((width, _)) => {
                    EncodingChoice::Decimal { width: u8::try_from(*width).unwrap_or(u8::MAX), signed: int.signed }
                }
                // `reverse` stores MAX - v >= 0; the other integers keep their sign.
                None => EncodingChoice::Decimal { width: int.digits, signed: int.signed && attrs.reverse.is_none() },
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
        Class::Bytes(Bytes::Array(len)) => return EncodingChoice::ByteArray { len },
        Class::Bytes(_) => "Bytes",
        Class::Bool => "Bool",
        Class::Float if last_segment(field.shape.inner).is_some_and(|name| name == "f32") => "Float32",
        Class::Float => "Float64",
        Class::Time(Time::System) => "TimestampMicros",
        // A type parameter's encoding is not known where `SCHEMA` is defined.
        Class::Time(_) | Class::Other if mentions(field.shape.inner, type_params) => "Custom",
        Class::Time(_) | Class::Other => return EncodingChoice::OfType { nanos: attrs.nanos.is_some() },
    };
    EncodingChoice::Named(name)
}

fn transform(field: &Field<'_>, p: &TokenStream) -> TokenStream {
    match transform_choice(field) {
        TransformChoice::Reverse { max } => {
            let max = Literal::u64_unsuffixed(max);
            quote!(#p::Transform::Reverse { max: #max })
        }
        TransformChoice::BitReverse { keep_sign } => quote!(#p::Transform::BitReverse { keep_sign: #keep_sign }),
        TransformChoice::ReverseDomain => quote!(#p::Transform::ReverseDomain),
        TransformChoice::None => quote!(#p::Transform::None),
    }
}

/// The transform `field`'s value goes through, by the first rule that applies.
pub fn transform_choice(field: &Field<'_>) -> TransformChoice {
    let attrs = &field.attrs;
    match field.class() {
        Class::Int(int) if attrs.reverse.is_some() => TransformChoice::Reverse { max: int.max },
        Class::Int(int) if attrs.bit_reverse.is_some() => TransformChoice::BitReverse { keep_sign: int.signed },
        Class::Time(Time::Instant) if attrs.reverse.is_some() => {
            TransformChoice::Reverse { max: i64::MAX.unsigned_abs() }
        }
        Class::Time(Time::Date) if attrs.reverse.is_some() => {
            TransformChoice::Reverse { max: i32::MAX.unsigned_abs().into() }
        }
        _ if attrs.reverse_domain.is_some() => TransformChoice::ReverseDomain,
        _ => TransformChoice::None,
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
