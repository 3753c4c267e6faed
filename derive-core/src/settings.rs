//! The struct attributes that take settings in parentheses, `salt(...)` and `dynamodb(...)`
//! (with its `shards(...)`, read as a salt is): what each holds, and the parsing of its inside
//! (the keywords are `symbol`'s).

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Ident, LitInt, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::meta::{flag, integer, set, skip_value, string, unknown};
use crate::symbol::{
    BUCKETS, DYNAMODB_WORDS, FARMHASH, FROM, HASH, MD5, MODULO, PARTITION, RANDOM, SALT, SALT_WORDS, SHARD_WORDS,
    SHARDS, SORT_PREFIX, Symbol,
};

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
    pub shards: Option<Shards>,
}

/// `shards(buckets = N, from = [a], hash = "...")`, or `shards(buckets = N, random)`: the
/// partition key's last part. Computed shards are a salt's settings (`salt.span` is the
/// `shards` keyword); random ones have no sources.
pub struct Shards {
    pub salt: Salt,
    /// The `random` keyword, when given.
    pub random: Option<Span>,
}

/// Which attribute a salt's settings are read for: the key's `salt`, or DynamoDB's `shards`.
#[derive(Clone, Copy)]
struct Place {
    word: Symbol,
    /// What the bucket is called in messages.
    noun: &'static str,
    example: &'static str,
}

const SALT_PLACE: Place = Place { word: SALT, noun: "salt", example: "salt(buckets = 16, from = [device_id])" };
const SHARDS_PLACE: Place = Place { word: SHARDS, noun: "shard", example: "shards(buckets = 8, from = [order])" };

/// The inside of `salt(...)`.
pub(crate) fn salt(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Salt> {
    Ok(bucketed(cx, meta, SALT_PLACE)?.0)
}

/// The inside of `shards(...)`: a salt's settings, or `random` in place of its sources.
fn shards(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Shards> {
    let (salt, random) = bucketed(cx, meta, SHARDS_PLACE)?;
    Ok(Shards { salt, random })
}

/// `buckets`, `from` and `hash` (and `random`, for shards) in parentheses.
fn bucketed(cx: &Ctxt, meta: &ParseNestedMeta<'_>, place: Place) -> syn::Result<(Salt, Option<Span>)> {
    let Place { word, noun, example } = place;
    let span = meta.path.span();
    if !meta.input.peek(syn::token::Paren) {
        skip_value(meta)?;
        return Err(syn::Error::new(span, format!("`{word}` takes its settings in parentheses: `{example}`")));
    }
    let mut buckets: Option<(u32, LitInt)> = None;
    let mut from: Option<Vec<Ident>> = None;
    let mut hash: Option<LitStr> = None;
    let mut random: Option<Span> = None;
    meta.parse_nested_meta(|inner| {
        let at = inner.path.span();
        if inner.path == BUCKETS {
            let (n, lit) = integer::<u32>(&inner, BUCKETS, "buckets = 16")?;
            set(cx, &mut buckets, BUCKETS, at, (n, lit));
        } else if inner.path == FROM {
            let fields = field_list(
                &inner,
                &format!("`from` needs the {noun} source fields: `from = [device_id]`"),
                &format!("`from` is empty: name the fields the {noun} is computed from, such as `from = [device_id]`"),
            )?;
            set(cx, &mut from, FROM, at, fields);
        } else if inner.path == HASH {
            let lit = string(&inner, HASH, "hash = \"farmhash\"")?;
            set(cx, &mut hash, HASH, at, lit);
        } else if inner.path == RANDOM && word == SHARDS {
            flag(cx, &inner, RANDOM, &mut random)?;
        } else {
            let words = if word == SHARDS { SHARD_WORDS } else { SALT_WORDS };
            unknown(cx, &inner, word.as_str(), words, &[])?;
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
                    "unknown {noun} hash {:?}: expected \"{FARMHASH}\" (FarmHash Fingerprint64 of the source fields), \
                     \"{MODULO}\" (one integer field modulo the bucket count) or \"{MD5}\" (the first hex digits \
                     of MD5 of the source fields)",
                    lit.value()
                ),
            );
            SaltHash::FarmHash
        }
    };
    if buckets.is_none() {
        cx.error_at(span, format!("`{word}` needs a bucket count: `{word}(buckets = 16, from = [...])`"));
    }
    // Checked once the hash is known, so that an MD5 salt's count gets its own advice only.
    match &buckets {
        Some((n, lit)) if hash_kind == SaltHash::Md5Hex && ![16, 256, 4096, 65_536].contains(n) => cx.error(
            lit,
            format!(
                "an md5 {noun}'s buckets are the first 1 to 4 hex digits of the digest, so there are 16, 256, 4096 or \
                 65536 of them, not {n}: Tablestore's 4-character prefix is `buckets = 65536`"
            ),
        ),
        Some((n, lit)) if !(1..=65_536).contains(n) => {
            cx.error(
                lit,
                format!("a {noun} has 1 to 65536 buckets; a few times the number of servers is typical, such as 16"),
            );
        }
        _ => {}
    }
    match (random, &from, &hash) {
        (Some(at), Some(_), _) | (Some(at), None, Some(_)) => cx.error_at(
            at,
            "random shards are drawn, not computed from fields: drop `random`, or drop `from` and `hash`",
        ),
        (None, None, _) if word == SHARDS => cx.error_at(
            span,
            "`shards` needs the fields a shard is computed from, or `random`: `shards(buckets = 8, from = [order])` \
             or `shards(buckets = 8, random)`",
        ),
        (None, None, _) => cx.error_at(
            span,
            format!("`{word}` needs its source fields, the ones the bucket is computed from: `{example}`"),
        ),
        _ => {}
    }
    let salt = Salt {
        span,
        buckets: buckets.map_or(1, |(n, _)| n),
        from: from.unwrap_or_default(),
        hash: hash_kind,
        hash_lit: hash,
    };
    Ok((salt, random))
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
    let mut sharded: Option<Shards> = None;
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
        } else if inner.path == SHARDS {
            let read = shards(cx, &inner)?;
            set(cx, &mut sharded, SHARDS, at, read);
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
    Ok(DynamoDb { span, partition: partition.unwrap_or_default(), sort_prefix, shards: sharded })
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
