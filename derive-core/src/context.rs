//! What every generated impl needs: the runtime paths of the key's format, the generics with
//! `'de` and the field bounds, and the statements that write and read the struct's fields.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Ident, Lifetime, LifetimeParam, WherePredicate};

use crate::ast::{Field, Input, KeyFormat};
use crate::attr::SaltHash;
use crate::codec::{self, Lifetimes};

/// A local variable of generated code. `mixed_site` keeps the user's locals out, but a
/// pattern still resolves to a constant in scope with the same name, so the names are
/// prefixed to stay clear of the user's items too.
pub(crate) fn local(name: &str) -> Ident {
    Ident::new(&format!("rowkey_{name}"), Span::mixed_site())
}

/// What every impl needs: the paths, the generics with `'de`, and the field bounds.
pub(crate) struct Context<'i, 'a> {
    pub(crate) input: &'i Input<'a>,
    /// `::rowkey::__private`.
    pub(crate) p: TokenStream,
    pub(crate) lifetimes: Lifetimes,
    /// The key's format.
    pub(crate) spec: Spec,
}

/// A key's format as generated code names it: its `KeyFormat` type and the value a key is
/// written with. The one place the derive's table of formats (`KeyFormat` in `ast`) meets the
/// runtime.
pub(crate) struct Spec {
    /// `#p::Ordered`, `#p::FdbTuple`, ..., or the path of `format = ...`.
    pub(crate) format: TokenStream,
    /// The format value: `<F as Default>::default()`, or the delimited format of the key's
    /// delimiter (an expression that may return early with its error).
    pub(crate) value: TokenStream,
}

impl Spec {
    pub(crate) fn of(input: &Input<'_>, p: &TokenStream) -> Spec {
        let format = match input.format() {
            KeyFormat::Custom => input.attrs.format.as_ref().expect("a custom format's path").to_token_stream(),
            builtin => item(p, builtin.runtime_type()),
        };
        let value = match &input.attrs.delimited {
            Some(delimiter) => quote!(#p::Delimited::new(#delimiter)?),
            None => quote!(<#format as ::core::default::Default>::default()),
        };
        Spec { format, value }
    }

    /// `<F as KeyFormat>::Values`, the format's parameter of the field model.
    pub(crate) fn values(&self, p: &TokenStream) -> TokenStream {
        let format = &self.format;
        quote!(<#format as #p::KeyFormat>::Values)
    }
}

/// `#p::name`, for a name of [`Spec`].
pub(crate) fn item(p: &TokenStream, name: &str) -> TokenStream {
    let ident = Ident::new(name, Span::call_site());
    quote!(#p::#ident)
}

pub(crate) fn lifetimes(generics: &Generics) -> Lifetimes {
    let own: Vec<Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let name = if own.iter().any(|l| l.ident == "de") { "'__de" } else { "'de" };
    Lifetimes { de: Lifetime::new(name, Span::call_site()), own }
}

impl Context<'_, '_> {
    /// `impl<'de: 'a + ..., 'a, T> ... where <struct bounds> + <field bounds>`.
    pub(crate) fn generics_with_de(
        &self,
        bound: impl Fn(&Field<'_>) -> Vec<TokenStream>,
    ) -> (TokenStream, TokenStream) {
        let mut generics = self.input.generics.clone();
        let mut de = LifetimeParam::new(self.lifetimes.de.clone());
        de.bounds.extend(self.lifetimes.own.iter().cloned());
        generics.params.insert(0, GenericParam::Lifetime(de));
        self.split(generics, bound)
    }

    pub(crate) fn generics_plain(&self, bound: impl Fn(&Field<'_>) -> Vec<TokenStream>) -> (TokenStream, TokenStream) {
        self.split(self.input.generics.clone(), bound)
    }

    pub(crate) fn split(
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
    pub(crate) fn self_type(&self) -> TokenStream {
        let ident = self.input.ident;
        let (_, ty_generics, _) = self.input.generics.split_for_impl();
        quote!(#ident #ty_generics)
    }

    pub(crate) fn de(&self) -> &Lifetime {
        &self.lifetimes.de
    }

    /// `Inner: FlattenKey<'de, F>` for a flattened field: every impl that uses the field
    /// assumes it, so a type that does not derive `RowKey` is reported once, by
    /// [`flatten_assertions`], not again in each generated body. A type with lifetimes gets
    /// no bound: `Inner<'a>` is written and `Inner<'de>` read, and bounds on both would be
    /// ambiguous to the trait solver; its impl is then found directly.
    pub(crate) fn flatten_bound(&self, field: &Field<'_>) -> Vec<TokenStream> {
        if !field.is_flatten() || has_lifetime(field.ty.to_token_stream()) {
            return Vec::new();
        }
        let (ty, de, p, format) = (field.ty, self.de(), &self.p, &self.spec.format);
        vec![quote!(#ty: #p::FlattenKey<#de, #format>)]
    }

    /// The bounds a field needs: a flattened one's, or for a field whose type names a type
    /// parameter, `T: WriteField<Values> + ReadField<'de, Values>`.
    pub(crate) fn field_bound(&self, field: &Field<'_>, traits: &TokenStream) -> Vec<TokenStream> {
        if field.is_flatten() {
            return self.flatten_bound(field);
        }
        let ty = self.lifetimes.decoded(field.ty);
        if mentions_type_param(field, self.input.generics) { vec![quote!(#ty: #traits)] } else { Vec::new() }
    }
}

/// Whether the field's type names one of the struct's type parameters: such fields get
/// where-bounds, the others are checked where they are used.
pub(crate) fn mentions_type_param(field: &Field<'_>, generics: &Generics) -> bool {
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

pub(crate) fn has_lifetime(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|token| match token {
        proc_macro2::TokenTree::Punct(p) => p.as_char() == '\'',
        proc_macro2::TokenTree::Group(group) => has_lifetime(group.stream()),
        _ => false,
    })
}

/// The number of key fields: `1 + 1 + 3 + <inner fields>`.
pub(crate) fn field_count(
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
pub(crate) fn salt(cx: &Context<'_, '_>, value: &TokenStream) -> Option<(TokenStream, TokenStream)> {
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

/// `write_fields`' statements for the struct's fields (after the prefix and bucket).
pub(crate) fn field_writes(
    cx: &Context<'_, '_>,
    write_flattened: impl Fn(&Ident) -> TokenStream,
    write: impl Fn(String, TokenStream) -> TokenStream,
) -> Vec<TokenStream> {
    let p = &cx.p;
    let fields = cx.input.key_fields().map(|field| {
        let ident = field.ident;
        if field.is_flatten() {
            return write_flattened(ident);
        }
        write(field.name(), codec::encode_ref(field, p, &quote!(self.#ident)))
    });
    fields.collect()
}

/// `read_fields`' struct literal fields: each key field read in order, skipped ones from
/// `Default`. `read` reads a field of a given name and decode type.
pub(crate) fn field_reads(
    cx: &Context<'_, '_>,
    read_flattened: impl Fn(&TokenStream) -> TokenStream,
    read: impl Fn(String, TokenStream) -> TokenStream,
) -> Vec<TokenStream> {
    let fields = cx.input.fields.iter().map(|field| {
        let ident = field.ident;
        let value = if !field.in_key() {
            default_value(field)
        } else if field.is_flatten() {
            read_flattened(&cx.lifetimes.decoded(field.ty))
        } else {
            codec::unwrap(field, read(field.name(), codec::decode_type(field, &cx.p, &cx.lifetimes)))
        };
        quote!(#ident: #value)
    });
    fields.collect()
}

/// A skipped field's value on decode. Spanned on the field's type, so a type without
/// `Default` is reported there.
pub(crate) fn default_value(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
}
