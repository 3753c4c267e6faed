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
use syn::{DeriveInput, GenericParam, Generics, Ident, Lifetime, LifetimeParam, WherePredicate};

use crate::ast::{Field, Input, KeyFormat};
use crate::attr::SaltHash;
use crate::codec::{self, Lifetimes};
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

/// A local variable of generated code. `mixed_site` keeps the user's locals out, but a
/// pattern still resolves to a constant in scope with the same name, so the names are
/// prefixed to stay clear of the user's items too.
fn local(name: &str) -> Ident {
    Ident::new(&format!("rowkey_{name}"), Span::mixed_site())
}

/// What every impl needs: the paths, the generics with `'de`, and the field bounds.
struct Context<'i, 'a> {
    input: &'i Input<'a>,
    /// `::rowkey::__private`.
    p: TokenStream,
    lifetimes: Lifetimes,
    /// The runtime items of the key's format.
    spec: Spec,
    /// `FlattenOrdered`, `FlattenFdb`, ...: what a flattened field's type implements.
    flatten: TokenStream,
}

/// The runtime items a key format's impls name, all under `__private`.
struct Spec {
    /// `OrderedKey`, `FdbKey`, ...
    key_trait: &'static str,
    /// The writer and reader `write_fields` and `read_fields` take.
    writer: &'static str,
    reader: &'static str,
    /// `Ordered`, `FdbTuple`, ...: the format parameter of the field model.
    value_format: &'static str,
    /// The flattening trait and its functions: `FlattenOrdered`, `assert_flatten_ordered`,
    /// `ordered_fields`, `write_ordered`, `read_ordered`.
    flatten: &'static str,
    assert_flatten: &'static str,
    flat_fields: &'static str,
    write_flat: &'static str,
    read_flat: &'static str,
    /// `RowKey`'s two bodies: `encode_ordered`, `decode_ordered`.
    encode: &'static str,
    decode: &'static str,
}

impl Spec {
    fn of(format: KeyFormat) -> Spec {
        match format {
            KeyFormat::Ordered => Spec {
                key_trait: "OrderedKey",
                writer: "OrderedWriter",
                reader: "OrderedReader",
                value_format: "Ordered",
                flatten: "FlattenOrdered",
                assert_flatten: "assert_flatten_ordered",
                flat_fields: "ordered_fields",
                write_flat: "write_ordered",
                read_flat: "read_ordered",
                encode: "encode_ordered",
                decode: "decode_ordered",
            },
            KeyFormat::Delimited => Spec {
                key_trait: "DelimitedKey",
                writer: "DelimitedWriter",
                reader: "DelimitedReader",
                value_format: "Delimited",
                flatten: "FlattenDelimited",
                assert_flatten: "assert_flatten_delimited",
                flat_fields: "delimited_fields",
                write_flat: "write_delimited",
                read_flat: "read_delimited",
                encode: "encode_delimited",
                decode: "decode_delimited",
            },
            KeyFormat::FdbTuple => Spec {
                key_trait: "FdbKey",
                writer: "TupleWriter",
                reader: "TupleReader",
                value_format: "FdbTuple",
                flatten: "FlattenFdb",
                assert_flatten: "assert_flatten_fdb",
                flat_fields: "fdb_fields",
                write_flat: "write_fdb",
                read_flat: "read_fdb",
                encode: "encode_fdb",
                decode: "decode_fdb",
            },
            KeyFormat::Memcomparable => Spec {
                key_trait: "MemcomparableKey",
                writer: "MemcomparableWriter",
                reader: "MemcomparableReader",
                value_format: "Memcomparable",
                flatten: "FlattenMemcomparable",
                assert_flatten: "assert_flatten_memcomparable",
                flat_fields: "memcomparable_fields",
                write_flat: "write_memcomparable",
                read_flat: "read_memcomparable",
                encode: "encode_memcomparable",
                decode: "decode_memcomparable",
            },
            KeyFormat::HBase => Spec {
                key_trait: "HBaseKey",
                writer: "HBaseWriter",
                reader: "HBaseReader",
                value_format: "HBase",
                flatten: "FlattenHBase",
                assert_flatten: "assert_flatten_hbase",
                flat_fields: "hbase_fields",
                write_flat: "write_hbase",
                read_flat: "read_hbase",
                encode: "encode_hbase",
                decode: "decode_hbase",
            },
        }
    }
}

/// `#p::name`, for a name of [`Spec`].
fn item(p: &TokenStream, name: &str) -> TokenStream {
    let ident = Ident::new(name, Span::call_site());
    quote!(#p::#ident)
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
    let personal_data = crate::valid::personal_data_warnings(input);
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

fn lifetimes(generics: &Generics) -> Lifetimes {
    let own: Vec<Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let name = if own.iter().any(|l| l.ident == "de") { "'__de" } else { "'de" };
    Lifetimes { de: Lifetime::new(name, Span::call_site()), own }
}

impl Context<'_, '_> {
    /// `impl<'de: 'a + ..., 'a, T> ... where <struct bounds> + <field bounds>`.
    fn generics_with_de(&self, bound: impl Fn(&Field<'_>) -> Vec<TokenStream>) -> (TokenStream, TokenStream) {
        let mut generics = self.input.generics.clone();
        let mut de = LifetimeParam::new(self.lifetimes.de.clone());
        de.bounds.extend(self.lifetimes.own.iter().cloned());
        generics.params.insert(0, GenericParam::Lifetime(de));
        self.split(generics, bound)
    }

    fn generics_plain(&self, bound: impl Fn(&Field<'_>) -> Vec<TokenStream>) -> (TokenStream, TokenStream) {
        self.split(self.input.generics.clone(), bound)
    }

    fn split(
        &self,
        mut generics: Generics,
        bound: impl Fn(&Field<'_>) -> Vec<TokenStream>,
    ) -> (TokenStream, TokenStream) {
        let where_clause = generics.make_where_clause();
        for field in self.input.key_fields() {
            for predicate in bound(field) {
                where_clause.predicates.push(syn::parse2::<WherePredicate>(predicate).expect("a where predicate"));
            }
        }
        let (impl_generics, _, where_clause) = generics.split_for_impl();
        (impl_generics.to_token_stream(), where_clause.to_token_stream())
    }

    /// `Reading<'a, T>`.
    fn self_type(&self) -> TokenStream {
        let ident = self.input.ident;
        let (_, ty_generics, _) = self.input.generics.split_for_impl();
        quote!(#ident #ty_generics)
    }

    fn de(&self) -> &Lifetime {
        &self.lifetimes.de
    }

    /// `Inner: FlattenOrdered<'de>` for a flattened field: every impl that uses the field
    /// assumes it, so a type that does not derive `RowKey` is reported once, by
    /// [`flatten_assertions`], not again in each generated body. A type with lifetimes gets
    /// no bound: `Inner<'a>` is written and `Inner<'de>` read, and bounds on both would be
    /// ambiguous to the trait solver; its impl is then found directly.
    fn flatten_bound(&self, field: &Field<'_>) -> Vec<TokenStream> {
        if !field.is_flatten() || has_lifetime(field.ty.to_token_stream()) {
            return Vec::new();
        }
        let (ty, de, flatten) = (field.ty, self.de(), &self.flatten);
        vec![quote!(#ty: #flatten<#de>)]
    }

    /// The bounds a field needs: a flattened one's, or for a field whose type names a type
    /// parameter, `T: WriteField<Ordered> + ReadField<'de, Ordered>`.
    fn field_bound(&self, field: &Field<'_>, traits: &TokenStream) -> Vec<TokenStream> {
        if field.is_flatten() {
            return self.flatten_bound(field);
        }
        let ty = self.lifetimes.decoded(field.ty);
        if mentions_type_param(field, self.input.generics) { vec![quote!(#ty: #traits)] } else { Vec::new() }
    }
}

/// Whether the field's type names one of the struct's type parameters: such fields get
/// where-bounds, the others are checked where they are used.
fn mentions_type_param(field: &Field<'_>, generics: &Generics) -> bool {
    fn walk(tokens: TokenStream, params: &[&Ident]) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => params.iter().any(|p| **p == ident),
            proc_macro2::TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    let params: Vec<&Ident> = generics.type_params().map(|t| &t.ident).collect();
    !params.is_empty() && walk(field.ty.to_token_stream(), &params)
}

fn has_lifetime(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|token| match token {
        proc_macro2::TokenTree::Punct(p) => p.as_char() == '\'',
        proc_macro2::TokenTree::Group(group) => has_lifetime(group.stream()),
        _ => false,
    })
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

/// The number of key fields: `1 + 1 + 3 + <inner fields>`.
fn field_count(
    cx: &Context<'_, '_>,
    prefix_is_field: bool,
    flattened: impl Fn(&TokenStream) -> TokenStream,
) -> TokenStream {
    let attrs = &cx.input.attrs;
    let fixed = usize::from(prefix_is_field && attrs.prefix.is_some())
        + usize::from(attrs.salt.is_some())
        + cx.input.key_fields().filter(|f| !f.is_flatten()).count();
    let fixed = Literal::usize_unsuffixed(fixed);
    let nested = cx.input.key_fields().filter(|f| f.is_flatten()).map(|f| flattened(&cx.lifetimes.decoded(f.ty)));
    quote!(#fixed #(+ #nested)*)
}

/// `let salt = Salt::new(...)?;`, and the expression for the bucket of the source fields of
/// `value` (`self` when writing, the decoded struct when reading).
fn salt(cx: &Context<'_, '_>, value: &TokenStream) -> Option<(TokenStream, TokenStream)> {
    let salt_attr = cx.input.attrs.salt.as_ref()?;
    let p = &cx.p;
    let (salt, writer) = (local("salt"), local("source"));
    let new_salt = salt_attr.new_expr(p);
    let sources = salt_attr.from.iter().filter_map(|ident| cx.input.field_named(ident)).map(|field| {
        let (ident, name) = (field.ident, field.name());
        quote!(#writer.named_field(#name, &#value.#ident)?;)
    });
    let make = quote!(let #salt = #new_salt?;);
    let modulo_source = (salt_attr.hash == SaltHash::Modulo)
        .then(|| salt_attr.from.first().and_then(|ident| cx.input.field_named(ident)))
        .flatten();
    let bucket = match modulo_source {
        // The value itself: the bytes of a `u64` can also read as another `i64`.
        Some(field) => {
            let ident = field.ident;
            quote!(#salt.modulo_bucket(#p::Integer::to_i128(#value.#ident)))
        }
        None => quote! {
            #p::bucket(&#salt, |#writer| {
                #(#sources)*
                ::core::result::Result::Ok(())
            })?
        },
    };
    Some((make, bucket))
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

fn delimited_impls(cx: &Context<'_, '_>) -> TokenStream {
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

/// `write_fields`' statements for the struct's fields (after the prefix and bucket).
fn field_writes(
    cx: &Context<'_, '_>,
    w: &Ident,
    write_flattened: &TokenStream,
    write: impl Fn(String, TokenStream) -> TokenStream,
) -> Vec<TokenStream> {
    let p = &cx.p;
    let fields = cx.input.key_fields().map(|field| {
        let ident = field.ident;
        if field.is_flatten() {
            return quote!(#write_flattened(&self.#ident, #w)?;);
        }
        write(field.name(), codec::encode_ref(field, p, &quote!(self.#ident)))
    });
    fields.collect()
}

/// `read_fields`' struct literal fields: each key field read in order, skipped ones from
/// `Default`. `read` reads a field of a given name and decode type.
fn field_reads(
    cx: &Context<'_, '_>,
    r: &Ident,
    read_flattened: &TokenStream,
    read: impl Fn(String, TokenStream) -> TokenStream,
) -> Vec<TokenStream> {
    let fields = cx.input.fields.iter().map(|field| {
        let ident = field.ident;
        let value = if !field.in_key() {
            default_value(field)
        } else if field.is_flatten() {
            let ty = cx.lifetimes.decoded(field.ty);
            quote!(#read_flattened::<#ty>(#r)?)
        } else {
            codec::unwrap(field, read(field.name(), codec::decode_type(field, &cx.p, &cx.lifetimes)))
        };
        quote!(#ident: #value)
    });
    fields.collect()
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

/// A skipped field's value on decode. Spanned on the field's type, so a type without
/// `Default` is reported there.
fn default_value(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
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
