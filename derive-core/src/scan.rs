//! The typed scan builder, `T::scan()`.
//!
//! One generated type, `<Name>Scan<'scan, const N: usize>`, whose `N` counts the key fields fixed
//! so far: the method that fixes field `k` exists only on `<Name>Scan<'scan, k>`, so fields are
//! fixed in key order or not at all. The next field may instead take a range (in its value
//! order) or, for a plain string, a prefix; that moves to the final state, `N = usize::MAX`,
//! where only `ranges()` is left. The builder records arguments; `ranges()` replays them
//! through the format's builder (`ScanFormat::scan`, used through `KeyScan`), once when the salt bucket is known
//! (every salt source field fixed) and once per bucket otherwise.
//!
//! A flattened field ends the builder: fields from it on cannot be fixed.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};

use crate::ast::{Field, Input, ScanArg};
use crate::attr::SaltHash;
use crate::codec::{self, Lifetimes};
use crate::context::Spec;

/// A key field the builder can fix, with what it takes.
struct Step<'f, 'a> {
    field: &'f Field<'a>,
    /// The argument type, borrowing for the builder's lifetime (`&'scan str` for a string field).
    arg: TokenStream,
    /// The struct field of the builder holding a fixed value.
    slot: Ident,
    /// The struct field holding a range, when the field's values order its keys.
    range: Option<Ident>,
    /// The struct field holding a `starts_with` prefix, for plain string fields.
    prefix: Option<Ident>,
    /// The struct field holding a host whose sub-domains a scan includes, for ascending
    /// `reverse_domain` fields.
    domain: Option<Ident>,
    /// A `Hashed` field: fixed only, its range and prefix methods refuse to compile.
    hashed: bool,
}

/// Whether the field is a keyed hash (`rowkey::field::Hashed`), known by its type's name as
/// the derive knows every type: its keys keep no order of the values hashed.
fn is_hashed(field: &Field<'_>) -> bool {
    crate::types::last_segment(field.shape.inner).is_some_and(|name| name == "Hashed")
}

fn arg_type(field: &Field<'_>, lifetimes: &Lifetimes) -> TokenStream {
    let lt = &lifetimes.de;
    match field.scan_arg() {
        ScanArg::Str => quote!(&#lt str),
        ScanArg::Bytes => quote!(&#lt [u8]),
        ScanArg::Own => lifetimes.decoded(field.ty),
    }
}

pub fn expand(input: &Input<'_>, p: &TokenStream) -> TokenStream {
    // Type parameters would have to be threaded through the builder; keys rarely have them.
    if input.generics.type_params().next().is_some() || input.generics.const_params().next().is_some() {
        return TokenStream::new();
    }
    // The builder borrows its arguments for a lifetime the struct does not use itself.
    let own: Vec<syn::Lifetime> = input.generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let name = if own.iter().any(|l| l.ident == "scan") { "'rowkey_scan" } else { "'scan" };
    let scan_lifetimes = Lifetimes { de: syn::Lifetime::new(name, Span::call_site()), own };
    let lt = scan_lifetimes.de.clone();
    let steps: Vec<Step<'_, '_>> = input
        .key_fields()
        .take_while(|f| !f.is_flatten())
        .map(|field| {
            let name = field.rust_name();
            let hashed = is_hashed(field);
            let orders = field.attrs.bit_reverse.is_none() && field.attrs.reverse_domain.is_none() && !hashed;
            Step {
                field,
                arg: arg_type(field, &scan_lifetimes),
                // Prefixed, so the only member named after a field is its method.
                slot: format_ident!("rowkey_{}", name, span = Span::mixed_site()),
                range: orders.then(|| format_ident!("rowkey_{}_range", name, span = Span::mixed_site())),
                prefix: field
                    .scan_starts_with()
                    .then(|| format_ident!("rowkey_{}_prefix", name, span = Span::mixed_site())),
                domain: (field.attrs.reverse_domain.is_some() && field.attrs.desc.is_none() && !field.shape.optional)
                    .then(|| format_ident!("rowkey_{}_domain", name, span = Span::mixed_site())),
                hashed,
            }
        })
        .collect();

    let (vis, ident) = (input.vis, input.ident);
    let builder = format_ident!("{}Scan", ident);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let option = quote!(::core::option::Option);
    let slots = steps.iter().map(|s| {
        let (slot, arg) = (&s.slot, &s.arg);
        let range = s.range.as_ref().map(|r| quote!(#r: #option<(#p::Bound<#arg>, #p::Bound<#arg>)>,));
        let prefix = s.prefix.as_ref().map(|r| quote!(#r: #option<&#lt str>,));
        let domain = s.domain.as_ref().map(|r| quote!(#r: #option<&#lt str>,));
        quote!(#slot: #option<#arg>, #range #prefix #domain)
    });
    let empty = steps.iter().map(|s| {
        let slot = &s.slot;
        let range = s.range.as_ref().map(|r| quote!(#r: #option::None,));
        let prefix = s.prefix.as_ref().map(|r| quote!(#r: #option::None,));
        let domain = s.domain.as_ref().map(|r| quote!(#r: #option::None,));
        quote!(#slot: #option::None, #range #prefix #domain)
    });
    let methods = steps.iter().enumerate().map(|(k, step)| step_methods(k, step, &builder, p, &lt));
    let moves = steps.iter().map(|s| {
        let slot = &s.slot;
        let range = s.range.as_ref().map(|r| quote!(#r: self.#r,));
        let prefix = s.prefix.as_ref().map(|r| quote!(#r: self.#r,));
        let domain = s.domain.as_ref().map(|r| quote!(#r: self.#r,));
        quote!(#slot: self.#slot, #range #prefix #domain)
    });
    // Counted here rather than read from the key's trait impl, so a flattened type that does
    // not derive `RowKey` is reported once, not again by the builder. Fixing stops at a
    // flattened field, so fields always follow the fixed ones there.
    let fields = if input.key_fields().any(Field::is_flatten) {
        quote!(usize::MAX)
    } else {
        // A store format's prefix is raw bytes, not a field; the format says which.
        let count = Literal::usize_unsuffixed(steps.len() + usize::from(input.attrs.salt.is_some()));
        match input.attrs.prefix {
            Some(_) => {
                let format = &Spec::of(input, p).format;
                let is_field = quote!(<#format as #p::KeyFormat>::PREFIX_IS_FIELD);
                quote!((#count + <::core::primitive::usize as ::core::convert::From<bool>>::from(#is_field)))
            }
            None => count.into_token_stream(),
        }
    };
    let ranges = ranges_body(input, &steps, p, &fields);
    let doc_type = format!(
        "Scan bounds for [`{ident}`] keys, built field by field in key order (see [`{ident}::scan`]). `N` is \
         how many fields are fixed."
    );
    let doc_scan = format!(
        "Starts scan bounds for [`{ident}`] keys: fix its fields in key order, optionally give the next one a \
         range or a prefix, then call `.ranges()`."
    );
    let phantom = quote!(::core::marker::PhantomData<&#lt ()>);

    quote! {
        #[doc = #doc_type]
        #[allow(clippy::type_complexity)]
        #vis struct #builder<#lt, const N: usize> {
            #(#slots)*
            rowkey_lifetime: #phantom,
        }

        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #doc_scan]
            #[must_use]
            #vis fn scan<#lt>() -> #builder<#lt, 0> {
                #builder { #(#empty)* rowkey_lifetime: ::core::marker::PhantomData }
            }
        }

        #(#methods)*

        #[automatically_derived]
        impl<#lt, const N: usize> #builder<#lt, N> {
            /// The same arguments in another state: a const parameter cannot change through
            /// struct update syntax, so the fields move one by one.
            fn rowkey_into<const M: usize>(self) -> #builder<#lt, M> {
                #builder { #(#moves)* rowkey_lifetime: ::core::marker::PhantomData }
            }

            /// The key ranges holding exactly the keys that match what was fixed: one range
            /// (or two when a fixed field is empty), or one per salt bucket when the bucket is
            /// not known.
            ///
            /// # Errors
            ///
            /// When a fixed value or bound cannot be encoded in the key's format.
            #vis fn ranges(&self) -> #p::Result<#p::KeyRanges> {
                #ranges
            }
        }
    }
}

/// The methods of state `k`: fix field `k`, or give it a range or a prefix.
fn step_methods(k: usize, step: &Step<'_, '_>, builder: &Ident, p: &TokenStream, lt: &syn::Lifetime) -> TokenStream {
    let field = step.field;
    let (name, arg, slot) = (field.rust_name(), &step.arg, &step.slot);
    let fix = format_ident!("{}", name);
    let (here, next) = (Literal::usize_unsuffixed(k), Literal::usize_unsuffixed(k + 1));
    let doc_fix = format!("Fixes `{}`: only keys with this value match.", field.name());
    let range = step.range.as_ref().map(|r| {
        let method = format_ident!("{}_range", name);
        let doc = format!(
            "Keeps the keys whose `{}` is within the range (in the field's value order); no later field can be fixed.",
            field.name()
        );
        quote! {
            #[doc = #doc]
            #[must_use]
            pub fn #method(self, rowkey_range: impl #p::RangeBounds<#arg>) -> #builder<#lt, { usize::MAX }> {
                let mut rowkey_next = self.rowkey_into::<{ usize::MAX }>();
                rowkey_next.#r = ::core::option::Option::Some((
                    #p::RangeBounds::start_bound(&rowkey_range).cloned(),
                    #p::RangeBounds::end_bound(&rowkey_range).cloned(),
                ));
                rowkey_next
            }
        }
    });
    let prefix = step.prefix.as_ref().map(|r| {
        let method = format_ident!("{}_starts_with", name);
        let doc =
            format!("Keeps the keys whose `{}` starts with the prefix; no later field can be fixed.", field.name());
        quote! {
            #[doc = #doc]
            #[must_use]
            pub fn #method(self, rowkey_prefix: &#lt str) -> #builder<#lt, { usize::MAX }> {
                let mut rowkey_next = self.rowkey_into::<{ usize::MAX }>();
                rowkey_next.#r = ::core::option::Option::Some(rowkey_prefix);
                rowkey_next
            }
        }
    });
    let domain = step.domain.as_ref().map(|r| {
        let method = format_ident!("{}_with_subdomains", name);
        let doc = format!(
            "Keeps the keys whose `{}` is the host or one of its sub-domains (`google.com` and `maps.google.com`, \
             not `google-analytics.com`): two ranges, the host and the names under it; no later field can be fixed.",
            field.name()
        );
        quote! {
            #[doc = #doc]
            #[must_use]
            pub fn #method(self, rowkey_host: &#lt str) -> #builder<#lt, { usize::MAX }> {
                let mut rowkey_next = self.rowkey_into::<{ usize::MAX }>();
                rowkey_next.#r = ::core::option::Option::Some(rowkey_host);
                rowkey_next
            }
        }
    });
    let no_order = step.hashed.then(|| no_order_methods(field, builder, p, lt));
    quote! {
        #[automatically_derived]
        impl<#lt> #builder<#lt, #here> {
            #no_order
            #[doc = #doc_fix]
            #[must_use]
            pub fn #fix(self, rowkey_value: #arg) -> #builder<#lt, #next> {
                let mut rowkey_next = self.rowkey_into::<#next>();
                rowkey_next.#slot = ::core::option::Option::Some(rowkey_value);
                rowkey_next
            }

            #range
            #prefix
            #domain
        }
    }
}

/// A `Hashed` field's `_range` and `_starts_with`: methods whose argument must implement a trait
/// no type implements, so a call fails to compile with that trait's message (why a hash has
/// no range) rather than rustc's "no method named ...".
fn no_order_methods(field: &Field<'_>, builder: &Ident, p: &TokenStream, lt: &syn::Lifetime) -> TokenStream {
    let name = field.rust_name();
    let (range, prefix) = (format_ident!("{}_range", name), format_ident!("{}_starts_with", name));
    let doc = format!(
        "`{}` is a keyed hash, which keeps no order of its values: it takes no range and no prefix (this \
         does not compile). Fix it to one value's hash instead.",
        field.name()
    );
    quote! {
        #[doc = #doc]
        #[doc(hidden)]
        pub fn #range<R: #p::HashedHasNoOrder>(self, _: R) -> #builder<#lt, { usize::MAX }> {
            // Never called: no type implements the bound.
            self.rowkey_into::<{ usize::MAX }>()
        }

        #[doc = #doc]
        #[doc(hidden)]
        pub fn #prefix<R: #p::HashedHasNoOrder>(self, _: R) -> #builder<#lt, { usize::MAX }> {
            self.rowkey_into::<{ usize::MAX }>()
        }
    }
}

/// `ranges()`: prefix, bucket, the fixed fields, then the next field's range or prefix.
fn ranges_body(input: &Input<'_>, steps: &[Step<'_, '_>], p: &TokenStream, fields: &TokenStream) -> TokenStream {
    let option = quote!(::core::option::Option);
    let ok = quote!(::core::result::Result::Ok);
    let scan = Ident::new("rowkey_scan", Span::mixed_site());
    let value = Ident::new("rowkey_value", Span::mixed_site());
    let bucket = Ident::new("rowkey_bucket", Span::mixed_site());
    let salt_var = Ident::new("rowkey_salt", Span::mixed_site());
    // Errors name their field and are redacted as the key's own are: the builder encodes the
    // values `to_key` does, so it must say no more of a sensitive one.
    let ident = input.ident;
    let key = if input.generics.lifetimes().next().is_some() {
        let elided = input.generics.lifetimes().map(|_| quote!('_));
        quote!(#ident<#(#elided),*>)
    } else {
        quote!(#ident)
    };
    let about = |name: &str| quote!(|rowkey_error| #p::scan_error::<#key>(rowkey_error, #name));
    // Every format's builder through one trait: the format value (its delimiter) gives it.
    let spec = Spec::of(input, p);
    let format_value = &spec.value;
    let new_scan = quote! {
        let rowkey_format = #format_value;
        let mut #scan = #p::ScanFormat::scan(&rowkey_format, #fields);
    };
    let about_prefix = about("prefix");
    let fix_prefix = input.attrs.prefix.as_ref().map(|prefix| {
        let lit = prefix.byte_string();
        quote!(#p::KeyScan::prefix(&mut #scan, #lit).map_err(#about_prefix)?;)
    });
    let bucket_field = if input.format().is_store() { quote!(store_bucket) } else { quote!(bucket_field) };
    let about_bucket = about("bucket");
    let fix_bucket = input
        .attrs
        .salt
        .as_ref()
        .map(|_| quote!(#p::KeyScan::fix(&mut #scan, &#salt_var.#bucket_field(#bucket)).map_err(#about_bucket)?;));
    let fields = steps.iter().map(|step| {
        let (field, slot) = (step.field, &step.slot);
        let about = about(&field.name());
        let fixed = codec::encode_ref(field, p, &quote!(*#value));
        let owned = codec::encode_owned(field, p, &quote!(*#value));
        let range = step.range.as_ref().map(|r| {
            let (lo, hi) = (Ident::new("rowkey_lo", Span::mixed_site()), Ident::new("rowkey_hi", Span::mixed_site()));
            // Bounds are in value order; a reversed or descending field's keys run the other
            // way, so its end bound starts the key range.
            let (start, end) = if field.scan_reverses_order() { (&hi, &lo) } else { (&lo, &hi) };
            quote! {
                if let #option::Some((#lo, #hi)) = &self.#r {
                    let rowkey_start = #p::Bound::map(#p::Bound::as_ref(#start), |#value| #owned);
                    let rowkey_end = #p::Bound::map(#p::Bound::as_ref(#end), |#value| #owned);
                    break 'rowkey_fields #p::KeyScan::range(
                        &#scan,
                        #p::Bound::as_ref(&rowkey_start),
                        #p::Bound::as_ref(&rowkey_end),
                    )
                    .map_err(#about);
                }
            }
        });
        let prefix = step.prefix.as_ref().map(|r| {
            quote! {
                if let #option::Some(rowkey_prefix) = self.#r {
                    break 'rowkey_fields #p::KeyScan::starts_with(&#scan, rowkey_prefix).map_err(#about);
                }
            }
        });
        let domain = step.domain.as_ref().map(|r| {
            quote! {
                if let #option::Some(rowkey_host) = self.#r {
                    break 'rowkey_fields #p::KeyScan::host_and_subdomains(&#scan, rowkey_host).map_err(#about);
                }
            }
        });
        quote! {
            #range
            #prefix
            #domain
            match &self.#slot {
                #option::Some(#value) => {
                    #p::KeyScan::fix(&mut #scan, #fixed).map_err(#about)?;
                }
                #option::None => break 'rowkey_fields #ok(#p::KeyScan::ranges(&#scan)),
            }
        }
    });
    let body = quote! {
        #new_scan
        #fix_prefix
        #fix_bucket
        'rowkey_fields: {
            #(#fields)*
            #ok(#p::KeyScan::ranges(&#scan))
        }
    };
    let Some(salt) = &input.attrs.salt else {
        return body;
    };
    let new_salt = salt.new_expr(p);
    // The bucket is known when every source field is fixed; the sources hash as they do in
    // `write_fields`, by their plain values.
    let sources: Vec<&Step<'_, '_>> =
        salt.from.iter().filter_map(|ident| steps.iter().find(|s| s.field.ident == ident)).collect();
    let known = (sources.len() == salt.from.len()).then(|| {
        let slots: Vec<&Ident> = sources.iter().map(|s| &s.slot).collect();
        let names = sources.iter().map(|s| s.field.name());
        let bucket_of_sources = if salt.hash == SaltHash::Modulo {
            // The value itself: the bytes of a `u64` can also read as another `i64`.
            quote!(#(#salt_var.modulo_bucket(#p::Integer::to_i128(*#slots)))*)
        } else {
            let about_bucket = about("bucket");
            quote! {
                #p::bucket(&#salt_var, |rowkey_source| {
                    #(rowkey_source.named_field(#names, #slots)?;)*
                    #ok(())
                }).map_err(#about_bucket)?
            }
        };
        quote! {
            if let (#(#option::Some(#slots),)*) = (#(&self.#slots,)*) {
                let #bucket = #bucket_of_sources;
                return { #body };
            }
        }
    });
    quote! {
        let #salt_var = #new_salt?;
        #known
        #salt_var.fan_out(|#bucket| { #body })
    }
}
