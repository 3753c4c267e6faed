//! The struct attributes that take settings in parentheses, `salt(...)` and `dynamodb(...)`:
//! what each holds, and the parsing of its inside (the keywords are `attr`'s).

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Ident, LitInt, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::meta::{integer, set, skip_value, string, unknown};
use crate::symbol::{BUCKETS, DYNAMODB_WORDS, FARMHASH, FROM, HASH, MD5, MODULO, PARTITION, SALT_WORDS, SORT_PREFIX};

/// `salt(buckets = N, from = [a, b], hash = "...")`.
pub struct Salt {
    /// The `salt` keyword.
    pub span: Span,
    pub buckets: u32,
    pub from: Vec<Ident>,
    pub hash: SaltHash,
    /// The `hash = "..."` value, when given.
    pub hash_lit: Option<LitStr>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SaltHash {
    FarmHash,
    Modulo,
    Md5Hex,
}

impl Salt {
    /// `Salt::new(buckets, SaltHash::...)` of the runtime, whose `?` the generated code
    /// propagates (it never fails for a salt that passed the checks).
    pub fn new_expr(&self, p: &proc_macro2::TokenStream) -> proc_macro2::TokenStream {
        let buckets = proc_macro2::Literal::u32_unsuffixed(self.buckets);
        let hash = self.hash.runtime(p);
        quote::quote!(#p::Salt::new(#buckets, #hash))
    }
}

impl SaltHash {
    /// The runtime's `SaltHash` variant.
    pub fn runtime(self, p: &proc_macro2::TokenStream) -> proc_macro2::TokenStream {
        match self {
            SaltHash::FarmHash => quote::quote!(#p::SaltHash::FarmHash),
            SaltHash::Modulo => quote::quote!(#p::SaltHash::Modulo),
            SaltHash::Md5Hex => quote::quote!(#p::SaltHash::Md5Hex),
        }
    }
}

/// `dynamodb(partition = [a, b], sort_prefix = "ORDER")`: the fields of the DynamoDB partition
/// key, the rest making the sort key, after the constant if given.
pub struct DynamoDb {
    /// The `dynamodb` keyword.
    pub span: Span,
    pub partition: Vec<Ident>,
    pub sort_prefix: Option<LitStr>,
}

/// The inside of `salt(...)`.
pub(crate) fn salt(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Salt> {
    let span = meta.path.span();
    if !meta.input.peek(syn::token::Paren) {
        skip_value(meta)?;
        return Err(syn::Error::new(
            span,
            "`salt` takes its settings in parentheses: `salt(buckets = 16, from = [device_id])`",
        ));
    }
    let mut buckets: Option<(u32, LitInt)> = None;
    let mut from: Option<Vec<Ident>> = None;
    let mut hash: Option<LitStr> = None;
    meta.parse_nested_meta(|inner| {
        let at = inner.path.span();
        if inner.path == BUCKETS {
            let (n, lit) = integer::<u32>(&inner, BUCKETS, "buckets = 16")?;
            set(cx, &mut buckets, BUCKETS, at, (n, lit));
        } else if inner.path == FROM {
            let fields = source_fields(&inner)?;
            set(cx, &mut from, FROM, at, fields);
        } else if inner.path == HASH {
            let lit = string(&inner, HASH, "hash = \"farmhash\"")?;
            set(cx, &mut hash, HASH, at, lit);
        } else {
            unknown(cx, &inner, "salt", SALT_WORDS, &[])?;
        }
        Ok(())
    })?;
    let hash_kind = match &hash {
        None => SaltHash::FarmHash,
        Some(lit) if lit.value() == FARMHASH.as_str() => SaltHash::FarmHash,
        Some(lit) if lit.value() == MODULO.as_str() => SaltHash::Modulo,
        Some(lit) if lit.value() == MD5.as_str() => SaltHash::Md5Hex,
        Some(lit) => {
            cx.error(
                lit,
                format!(
                    "unknown salt hash {:?}: expected \"{FARMHASH}\" (FarmHash Fingerprint64 of the source fields), \
                     \"{MODULO}\" (one integer field modulo the bucket count) or \"{MD5}\" (the first hex digits \
                     of MD5 of the source fields)",
                    lit.value()
                ),
            );
            SaltHash::FarmHash
        }
    };
    if buckets.is_none() {
        cx.error_at(span, "`salt` needs a bucket count: `salt(buckets = 16, from = [...])`");
    }
    // Checked once the hash is known, so that an MD5 salt's count gets its own advice only.
    match &buckets {
        Some((n, lit)) if hash_kind == SaltHash::Md5Hex && ![16, 256, 4096, 65_536].contains(n) => cx.error(
            lit,
            format!(
                "an md5 salt's buckets are the first 1 to 4 hex digits of the digest, so there are 16, 256, 4096 or \
                 65536 of them, not {n}: Tablestore's 4-character prefix is `buckets = 65536`"
            ),
        ),
        Some((n, lit)) if !(1..=65_536).contains(n) => {
            cx.error(lit, "a salt has 1 to 65536 buckets; a few times the number of servers is typical, such as 16");
        }
        _ => {}
    }
    if from.is_none() {
        cx.error_at(
            span,
            "`salt` needs its source fields, the ones the bucket is computed from: `salt(buckets = 16, from = [device_id])`",
        );
    }
    Ok(Salt {
        span,
        buckets: buckets.map_or(1, |(n, _)| n),
        from: from.unwrap_or_default(),
        hash: hash_kind,
        hash_lit: hash,
    })
}

/// The inside of `dynamodb(...)`.
pub(crate) fn dynamodb(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<DynamoDb> {
    let span = meta.path.span();
    if !meta.input.peek(syn::token::Paren) {
        skip_value(meta)?;
        return Err(syn::Error::new(
            span,
            "`dynamodb` takes its settings in parentheses: `dynamodb(partition = [tenant], sort_prefix = \"ORDER\")`",
        ));
    }
    let mut partition: Option<Vec<Ident>> = None;
    let mut sort_prefix: Option<LitStr> = None;
    meta.parse_nested_meta(|inner| {
        let at = inner.path.span();
        if inner.path == PARTITION {
            let fields = field_list(
                &inner,
                "`partition` needs the partition key's fields: `partition = [tenant]`",
                "`partition` is empty: name the key's leading fields that make the partition key, such as `partition = [tenant]`",
            )?;
            set(cx, &mut partition, PARTITION, at, fields);
        } else if inner.path == SORT_PREFIX {
            let lit = string(&inner, SORT_PREFIX, "sort_prefix = \"ORDER\"")?;
            if lit.value().is_empty() {
                cx.error(&lit, "`sort_prefix` is empty: name the entity (`sort_prefix = \"ORDER\"`) or leave it out");
            }
            set(cx, &mut sort_prefix, SORT_PREFIX, at, lit);
        } else {
            unknown(cx, &inner, "dynamodb", DYNAMODB_WORDS, &[])?;
        }
        Ok(())
    })?;
    if partition.is_none() {
        cx.error_at(
            span,
            "`dynamodb` needs the partition key's fields, the key's leading ones: `dynamodb(partition = [tenant])`",
        );
    }
    Ok(DynamoDb { span, partition: partition.unwrap_or_default(), sort_prefix })
}

/// `from = [a, b]`, or `from = a` for one field.
fn source_fields(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<Ident>> {
    field_list(
        meta,
        "`from` needs the salt source fields: `from = [device_id]`",
        "`from` is empty: name the fields the bucket is computed from, such as `from = [device_id]`",
    )
}

/// `name = [a, b]`, or `name = a` for one field; `missing` when there is no `=`, `empty` for `[]`.
fn field_list(meta: &ParseNestedMeta<'_>, missing: &str, empty: &str) -> syn::Result<Vec<Ident>> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(missing));
    }
    let input = meta.value()?;
    if input.peek(syn::token::Bracket) {
        let content;
        syn::bracketed!(content in input);
        let fields = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
        if fields.is_empty() {
            return Err(syn::Error::new(content.span(), empty));
        }
        Ok(fields.into_iter().collect())
    } else {
        Ok(vec![input.parse::<Ident>()?])
    }
}
