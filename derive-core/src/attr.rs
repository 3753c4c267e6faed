//! Parsing `#[rowkey(...)]` on the struct and its fields (the keywords are `symbol`'s, the
//! settings in parentheses `settings`'s).
//!
//! This phase checks what one attribute can tell on its own (a known keyword, given once, with
//! a value of the right kind). Rules that relate attributes to each other or to the field's
//! type are in `valid.rs`. Errors go to the [`Ctxt`] and parsing carries on, so that every
//! mistake in every attribute is reported by one compile.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitInt, LitStr};

use crate::ctxt::Ctxt;
use crate::meta::{flag, integer, set, string, unknown, value};
pub use crate::settings::{DynamoDb, Salt, SaltHash, Shards};
use crate::settings::{dynamodb, salt};
pub use crate::symbol::*;

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
