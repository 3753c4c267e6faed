//! Parsing `#[rowkey(...)]`: every keyword is defined here once, as a [`Symbol`].
//!
//! This phase checks what one attribute can tell on its own (a known keyword, given once, with
//! a value of the right kind). Rules that relate attributes to each other or to the field's
//! type are in `valid.rs`. Errors go to the [`Ctxt`] and parsing carries on, so that every
//! mistake in every attribute is reported by one compile.

use std::fmt;

use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Ident, Lit, LitInt, LitStr, Token};

use crate::ctxt::Ctxt;

/// One keyword of the attribute language.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Symbol(&'static str);

impl Symbol {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<Symbol> for syn::Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

/// The attribute's own name.
pub const ROWKEY: Symbol = Symbol("rowkey");

// On the struct.
pub const ORDERED: Symbol = Symbol("ordered");
pub const DELIMITED: Symbol = Symbol("delimited");
pub const FDB_TUPLE: Symbol = Symbol("fdb_tuple");
pub const MEMCOMPARABLE: Symbol = Symbol("memcomparable");
pub const HBASE: Symbol = Symbol("hbase");
pub const FORMAT: Symbol = Symbol("format");
pub const PREFIX: Symbol = Symbol("prefix");
pub const SALT: Symbol = Symbol("salt");
pub const MAX_LEN: Symbol = Symbol("max_len");
pub const ALLOW_HOTSPOT: Symbol = Symbol("allow_hotspot");
pub const CRATE: Symbol = Symbol("crate");
pub const DYNAMODB: Symbol = Symbol("dynamodb");

// Inside `salt(...)`.
pub const BUCKETS: Symbol = Symbol("buckets");
pub const FROM: Symbol = Symbol("from");
pub const HASH: Symbol = Symbol("hash");

// Inside `dynamodb(...)`.
pub const PARTITION: Symbol = Symbol("partition");
pub const SORT_PREFIX: Symbol = Symbol("sort_prefix");

// The values of `hash = "..."`.
pub const FARMHASH: Symbol = Symbol("farmhash");
pub const MODULO: Symbol = Symbol("modulo");
pub const MD5: Symbol = Symbol("md5");

// On a field.
pub const DESC: Symbol = Symbol("desc");
pub const REVERSE: Symbol = Symbol("reverse");
pub const BIT_REVERSE: Symbol = Symbol("bit_reverse");
pub const REVERSE_DOMAIN: Symbol = Symbol("reverse_domain");
pub const HEX: Symbol = Symbol("hex");
pub const WIDTH: Symbol = Symbol("width");
pub const BIG_ENDIAN: Symbol = Symbol("big_endian");
pub const FLATTEN: Symbol = Symbol("flatten");
pub const RENAME: Symbol = Symbol("rename");
pub const SKIP: Symbol = Symbol("skip");
pub const MONOTONIC: Symbol = Symbol("monotonic");
pub const NANOS: Symbol = Symbol("nanos");
pub const NUMERIC: Symbol = Symbol("numeric");
pub const SENSITIVE: Symbol = Symbol("sensitive");
pub const ALLOW_PERSONAL_DATA: Symbol = Symbol("allow_personal_data");

const CONTAINER_WORDS: &[Symbol] = &[
    ORDERED,
    DELIMITED,
    FDB_TUPLE,
    MEMCOMPARABLE,
    HBASE,
    FORMAT,
    PREFIX,
    SALT,
    MAX_LEN,
    ALLOW_HOTSPOT,
    CRATE,
    DYNAMODB,
];
const SALT_WORDS: &[Symbol] = &[BUCKETS, FROM, HASH];
const DYNAMODB_WORDS: &[Symbol] = &[PARTITION, SORT_PREFIX];
const FIELD_WORDS: &[Symbol] = &[
    DESC,
    REVERSE,
    BIT_REVERSE,
    REVERSE_DOMAIN,
    HEX,
    WIDTH,
    BIG_ENDIAN,
    FLATTEN,
    RENAME,
    SKIP,
    MONOTONIC,
    NANOS,
    NUMERIC,
    SENSITIVE,
    ALLOW_PERSONAL_DATA,
];

/// Words people reach for that mean one of ours.
const SYNONYMS: &[(&str, Symbol)] = &[
    ("name", RENAME),
    ("descending", DESC),
    ("reversed", REVERSE),
    ("rev", REVERSE),
    ("delimiter", DELIMITED),
    ("separator", DELIMITED),
    ("bit_reversed", BIT_REVERSE),
    ("reversed_domain", REVERSE_DOMAIN),
    ("domain", REVERSE_DOMAIN),
    ("padded", WIDTH),
    ("pad", WIDTH),
    ("be", BIG_ENDIAN),
    ("bigendian", BIG_ENDIAN),
    ("ignore", SKIP),
    ("default", SKIP),
    ("max_length", MAX_LEN),
    ("maxlen", MAX_LEN),
    ("hotspot", ALLOW_HOTSPOT),
    ("buckets", SALT),
    ("nanoseconds", NANOS),
    ("precision", NANOS),
    ("tuple", FDB_TUPLE),
    ("fdb", FDB_TUPLE),
    ("foundationdb", FDB_TUPLE),
    ("hbase_ordered", HBASE),
    ("ordered_bytes", HBASE),
    ("orderedbytes", HBASE),
    ("decimal", NUMERIC),
    ("pii", SENSITIVE),
    ("secret", SENSITIVE),
    ("redact", SENSITIVE),
    ("redacted", SENSITIVE),
    ("personal_data", ALLOW_PERSONAL_DATA),
    ("allow_pii", ALLOW_PERSONAL_DATA),
    ("dynamo", DYNAMODB),
    ("dynamo_db", DYNAMODB),
    ("partition_key", PARTITION),
    ("hash_key", PARTITION),
    ("pk", PARTITION),
    ("sort_key", SORT_PREFIX),
    ("sort_key_prefix", SORT_PREFIX),
    ("entity", SORT_PREFIX),
];

/// The attributes on the struct.
#[derive(Default)]
pub struct Container {
    pub ordered: Option<Span>,
    pub delimited: Option<LitStr>,
    pub fdb_tuple: Option<Span>,
    pub memcomparable: Option<Span>,
    pub hbase: Option<Span>,
    /// `format = path::ToFormat`: a `KeyFormat` defined outside rowkey.
    pub format: Option<syn::Path>,
    pub prefix: Option<Prefix>,
    pub salt: Option<Salt>,
    pub max_len: Option<(usize, LitInt)>,
    pub allow_hotspot: Option<Span>,
    pub crate_path: Option<(syn::Path, LitStr)>,
    pub dynamodb: Option<DynamoDb>,
}

/// `dynamodb(partition = [a, b], sort_prefix = "ORDER")`: the fields of the DynamoDB partition
/// key, the rest making the sort key, after the constant if given.
pub struct DynamoDb {
    /// The `dynamodb` keyword.
    pub span: Span,
    pub partition: Vec<Ident>,
    pub sort_prefix: Option<LitStr>,
}

/// `prefix = "text"` or `prefix = b"\xbd\x89"`: the bytes every key starts with, and the
/// literal they were written as, for errors.
pub struct Prefix {
    pub bytes: Vec<u8>,
    pub lit: Lit,
}

impl Prefix {
    /// The prefix as a byte string literal, which the runtime takes as `&'static [u8]`
    /// whichever literal the user wrote.
    pub fn byte_string(&self) -> syn::LitByteStr {
        syn::LitByteStr::new(&self.bytes, self.lit.span())
    }
}

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

/// The attributes on one field. Each flag holds its keyword's span.
#[derive(Default)]
pub struct FieldAttrs {
    pub desc: Option<Span>,
    pub reverse: Option<Span>,
    pub bit_reverse: Option<Span>,
    pub reverse_domain: Option<Span>,
    pub hex: Option<Span>,
    pub width: Option<(u32, LitInt)>,
    pub big_endian: Option<Span>,
    pub flatten: Option<Span>,
    pub rename: Option<LitStr>,
    pub skip: Option<Span>,
    pub monotonic: Option<Span>,
    pub nanos: Option<Span>,
    pub numeric: Option<Span>,
    /// Never shown: inspect, errors and the command redact the field's value.
    pub sensitive: Option<Span>,
    /// Silences the personal-data lint on a text field named like personal data.
    pub allow_personal_data: Option<Span>,
    /// Every keyword given, in order, for the rules about combinations.
    pub given: Vec<(Symbol, Span)>,
}

impl Container {
    pub fn from_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> Container {
        let mut out = Container::default();
        for attr in attrs.iter().filter(|a| a.path() == &ROWKEY) {
            let parsed = attr.parse_nested_meta(|meta| {
                let span = meta.path.span();
                if meta.path == ORDERED {
                    flag(cx, &meta, ORDERED, &mut out.ordered)
                } else if meta.path == DELIMITED {
                    let lit = string(&meta, DELIMITED, "delimited = \"#\"")?;
                    if lit.value().is_empty() {
                        cx.error(&lit, "the delimiter is empty: give one or more bytes, such as `delimited = \"#\"`");
                    }
                    set(cx, &mut out.delimited, DELIMITED, span, lit);
                    Ok(())
                } else if meta.path == FDB_TUPLE {
                    flag(cx, &meta, FDB_TUPLE, &mut out.fdb_tuple)
                } else if meta.path == MEMCOMPARABLE {
                    flag(cx, &meta, MEMCOMPARABLE, &mut out.memcomparable)
                } else if meta.path == HBASE {
                    flag(cx, &meta, HBASE, &mut out.hbase)
                } else if meta.path == FORMAT {
                    let path = meta
                        .value()
                        .and_then(|value| value.parse::<syn::Path>())
                        .map_err(|_| meta.error("`format` takes the path of a type that implements `rowkey::format::KeyFormat`: `format = my_store::Layout`"))?;
                    set(cx, &mut out.format, FORMAT, span, path);
                    Ok(())
                } else if meta.path == PREFIX {
                    let prefix = prefix(&meta)?;
                    set(cx, &mut out.prefix, PREFIX, span, prefix);
                    Ok(())
                } else if meta.path == SALT {
                    let salt = salt(cx, &meta)?;
                    set(cx, &mut out.salt, SALT, span, salt);
                    Ok(())
                } else if meta.path == MAX_LEN {
                    let (n, lit) = integer::<usize>(&meta, MAX_LEN, "max_len = 4096")?;
                    if n == 0 {
                        cx.error(&lit, "`max_len = 0` allows no key at all: give the longest key in bytes (Bigtable's limit is 4096, the default)");
                    }
                    set(cx, &mut out.max_len, MAX_LEN, span, (n, lit));
                    Ok(())
                } else if meta.path == ALLOW_HOTSPOT {
                    flag(cx, &meta, ALLOW_HOTSPOT, &mut out.allow_hotspot)
                } else if meta.path == DYNAMODB {
                    let dynamodb = dynamodb(cx, &meta)?;
                    set(cx, &mut out.dynamodb, DYNAMODB, span, dynamodb);
                    Ok(())
                } else if meta.path == CRATE {
                    let lit = string(&meta, CRATE, "crate = \"rowkey\"")?;
                    match lit.parse::<syn::Path>() {
                        Ok(path) => {
                            set(cx, &mut out.crate_path, CRATE, span, (path, lit));
                        }
                        Err(_) => cx.error(
                            &lit,
                            "`crate` takes the path the rowkey crate is reachable at, such as \"rowkey\" or \"::my_facade::rowkey\"",
                        ),
                    }
                    Ok(())
                } else {
                    unknown(cx, &meta, "struct", CONTAINER_WORDS, FIELD_WORDS)
                }
            });
            if let Err(e) = parsed {
                cx.push(e);
            }
        }
        out
    }
}

impl FieldAttrs {
    /// Where the keyword was given, if it was.
    pub fn span_of(&self, word: Symbol) -> Option<Span> {
        self.given.iter().find(|(w, _)| *w == word).map(|&(_, span)| span)
    }

    pub fn from_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> FieldAttrs {
        let mut out = FieldAttrs::default();
        for attr in attrs.iter().filter(|a| a.path() == &ROWKEY) {
            let parsed = attr.parse_nested_meta(|meta| {
                let span = meta.path.span();
                let Some(&word) = FIELD_WORDS.iter().find(|w| meta.path == **w) else {
                    return unknown(cx, &meta, "field", FIELD_WORDS, CONTAINER_WORDS);
                };
                let slot = match word {
                    DESC => &mut out.desc,
                    REVERSE => &mut out.reverse,
                    BIT_REVERSE => &mut out.bit_reverse,
                    REVERSE_DOMAIN => &mut out.reverse_domain,
                    HEX => &mut out.hex,
                    BIG_ENDIAN => &mut out.big_endian,
                    FLATTEN => &mut out.flatten,
                    SKIP => &mut out.skip,
                    MONOTONIC => &mut out.monotonic,
                    NANOS => &mut out.nanos,
                    NUMERIC => &mut out.numeric,
                    SENSITIVE => &mut out.sensitive,
                    ALLOW_PERSONAL_DATA => &mut out.allow_personal_data,
                    WIDTH => {
                        let width = integer::<u32>(&meta, WIDTH, "width = 8")?;
                        if set(cx, &mut out.width, WIDTH, span, width) {
                            out.given.push((WIDTH, span));
                        }
                        return Ok(());
                    }
                    RENAME => {
                        let lit = string(&meta, RENAME, "rename = \"ts\"")?;
                        if lit.value().is_empty() {
                            cx.error(&lit, "a field's key name cannot be empty: give a name, or remove `rename`");
                        }
                        if set(cx, &mut out.rename, RENAME, span, lit) {
                            out.given.push((RENAME, span));
                        }
                        return Ok(());
                    }
                    _ => unreachable!("every field keyword has an arm"),
                };
                let was_set = slot.is_some();
                flag(cx, &meta, word, slot)?;
                if !was_set {
                    out.given.push((word, span));
                }
                Ok(())
            });
            if let Err(e) = parsed {
                cx.push(e);
            }
        }
        out
    }
}

/// Stores `value` unless the keyword was given before; returns whether it stored it.
fn set<T>(cx: &Ctxt, slot: &mut Option<T>, word: Symbol, span: Span, value: T) -> bool {
    if slot.is_some() {
        cx.error_at(span, format!("duplicate `{word}` attribute: give it once"));
        return false;
    }
    *slot = Some(value);
    true
}

/// A keyword that takes no value.
fn flag(cx: &Ctxt, meta: &ParseNestedMeta<'_>, word: Symbol, slot: &mut Option<Span>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        skip_value(meta)?;
        cx.error(&meta.path, format!("`{word}` takes no value: write `#[rowkey({word})]`"));
        return Ok(());
    }
    set(cx, slot, word, meta.path.span(), meta.path.span());
    Ok(())
}

/// `word = "..."`.
fn string(meta: &ParseNestedMeta<'_>, word: Symbol, example: &str) -> syn::Result<LitStr> {
    match value(meta, word, example)? {
        Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => Ok(lit),
        other => Err(syn::Error::new_spanned(other, format!("`{word}` takes a string literal: `{example}`"))),
    }
}

/// `prefix = "text"` or `prefix = b"bytes"`.
fn prefix(meta: &ParseNestedMeta<'_>) -> syn::Result<Prefix> {
    match value(meta, PREFIX, "prefix = \"tenant\"")? {
        Expr::Lit(ExprLit { lit: Lit::Str(text), .. }) => {
            Ok(Prefix { bytes: text.value().into_bytes(), lit: Lit::Str(text) })
        }
        Expr::Lit(ExprLit { lit: Lit::ByteStr(bytes), .. }) => {
            Ok(Prefix { bytes: bytes.value(), lit: Lit::ByteStr(bytes) })
        }
        other => Err(syn::Error::new_spanned(
            other,
            format!(
                "`{PREFIX}` takes a string or byte string literal: `prefix = \"tenant\"` or `prefix = b\"\\xbd\\x89\"`"
            ),
        )),
    }
}

/// `word = N`.
fn integer<N>(meta: &ParseNestedMeta<'_>, word: Symbol, example: &str) -> syn::Result<(N, LitInt)>
where
    N: std::str::FromStr,
    N::Err: fmt::Display,
{
    match value(meta, word, example)? {
        Expr::Lit(ExprLit { lit: Lit::Int(lit), .. }) => match lit.base10_parse::<N>() {
            Ok(n) => Ok((n, lit)),
            Err(_) => Err(syn::Error::new(lit.span(), format!("`{word}` = {lit} is out of range: `{example}`"))),
        },
        other => Err(syn::Error::new_spanned(other, format!("`{word}` takes an integer literal: `{example}`"))),
    }
}

/// The expression after `word =`, with an error that shows the form when `=` is missing.
fn value(meta: &ParseNestedMeta<'_>, word: Symbol, example: &str) -> syn::Result<Expr> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("`{word}` needs a value: `{example}`")));
    }
    meta.value()?.parse()
}

/// Consumes `= value` or `(...)` after a keyword that does not take them.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// Records an unknown keyword, with the likely fix, and skips its value.
fn unknown(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    place: &str,
    words: &[Symbol],
    other_place: &[Symbol],
) -> syn::Result<()> {
    skip_value(meta)?;
    let found = meta.path.to_token_stream().to_string().replace(' ', "");
    let message = if let Some(word) = other_place.iter().find(|w| w.as_str() == found) {
        let (this, other) = if place == "struct" { ("struct", "field") } else { ("field", "struct") };
        format!("`{word}` is a {other} attribute, not a {this} attribute: move it to the {other}")
    } else {
        let list = words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
        match suggestion(&found, words) {
            Some(word) => {
                format!("unknown rowkey {place} attribute `{found}`: did you mean `{word}`? (expected one of {list})")
            }
            None => format!("unknown rowkey {place} attribute `{found}`: expected one of {list}"),
        }
    };
    cx.error(&meta.path, message);
    Ok(())
}

/// A keyword close to `found`: a known synonym, or one a typo away.
fn suggestion(found: &str, words: &[Symbol]) -> Option<Symbol> {
    let synonym = SYNONYMS.iter().find(|(alias, _)| *alias == found).map(|&(_, word)| word);
    synonym.filter(|w| words.contains(w)).or_else(|| {
        words
            .iter()
            .map(|&w| (edit_distance(found, w.as_str()), w))
            .filter(|&(d, w)| d <= 2 && d < w.as_str().len())
            .min_by_key(|&(d, _)| d)
            .map(|(_, w)| w)
    })
}

/// Levenshtein distance, for typo suggestions on short keywords.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The inside of `salt(...)`.
fn salt(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Salt> {
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
fn dynamodb(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<DynamoDb> {
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
