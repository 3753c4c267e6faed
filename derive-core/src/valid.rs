//! The rules that relate attributes to each other, to the field types and to the key as a
//! whole. Each breach is an error on the token to change, saying how to fix it; every rule
//! runs, so one compile reports all of them.

use std::collections::HashMap;

use proc_macro2::Span;

use crate::ast::KeyFormat;
use crate::ast::{BUCKET_FIELD, Field, Input, PREFIX_FIELD};
use crate::attr::{
    self, BIG_ENDIAN, BIT_REVERSE, DELIMITED, DESC, DynamoDb, FDB_TUPLE, FLATTEN, FORMAT, HBASE, HEX, MEMCOMPARABLE,
    NANOS, NUMERIC, ORDERED, REVERSE, REVERSE_DOMAIN, SKIP, Salt, SaltHash, Shards, Symbol, WIDTH,
};
use crate::ctxt::Ctxt;
use crate::lints;
use crate::types::{self, Bytes, Class, Int, Str, Time};

/// The attributes that choose how a field's value becomes bytes: a field has one.
const ENCODINGS: &[Symbol] = &[REVERSE, BIT_REVERSE, REVERSE_DOMAIN, HEX, WIDTH, BIG_ENDIAN, NANOS, NUMERIC];

pub fn check(cx: &Ctxt, input: &Input<'_>) {
    check_format(cx, input);
    for field in &input.fields {
        check_combinations(cx, field);
        check_format_fit(cx, input, field);
        check_type_fit(cx, field);
        check_hash_width(cx, field);
    }
    check_names(cx, input);
    check_salt(cx, input);
    check_dynamodb(cx, input);
    check_delimiter(cx, input);
    lints::check_hotspot(cx, input);
}

fn check_format(cx: &Ctxt, input: &Input<'_>) {
    let attrs = &input.attrs;
    let given: Vec<(Symbol, Span)> = [
        (ORDERED, attrs.ordered),
        (DELIMITED, attrs.delimited.as_ref().map(syn::LitStr::span)),
        (FDB_TUPLE, attrs.fdb_tuple),
        (MEMCOMPARABLE, attrs.memcomparable),
        (HBASE, attrs.hbase),
        (FORMAT, attrs.format.as_ref().map(syn::spanned::Spanned::span)),
    ]
    .into_iter()
    .filter_map(|(word, span)| span.map(|span| (word, span)))
    .collect();
    if let [(first, _), rest @ ..] = given.as_slice() {
        for (word, span) in rest {
            cx.error_at(*span, format!("`{first}` and `{word}` are two different formats: keep one"));
        }
    }
    if let Some(prefix) = &attrs.prefix
        && prefix.bytes.is_empty()
    {
        cx.error(
            &prefix.lit,
            "the prefix is empty: give the text every key of this type starts with, or remove `prefix`",
        );
    }
}

/// Attributes that cannot go together on one field.
fn check_combinations(cx: &Ctxt, field: &Field<'_>) {
    let attrs = &field.attrs;
    let name = field.name();
    for &(word, span) in &attrs.given {
        if attrs.skip.is_some() && word != SKIP {
            cx.error_at(
                span,
                format!(
                    "`{word}` has no effect on a field marked `skip`, which is not part of the key: remove one of them"
                ),
            );
        } else if attrs.flatten.is_some() && attrs.skip.is_none() && word != FLATTEN {
            cx.error_at(
                span,
                format!(
                    "`{word}` cannot be combined with `flatten`: a flattened struct's fields keep their own names and \
                     attributes, so put `{word}` on those fields"
                ),
            );
        }
    }
    if attrs.skip.is_some() || attrs.flatten.is_some() {
        return;
    }
    let encodings: Vec<_> = attrs.given.iter().filter(|(w, _)| ENCODINGS.contains(w)).collect();
    if let [(first, _), rest @ ..] = encodings.as_slice() {
        for (word, span) in rest {
            cx.error_at(
                *span,
                format!(
                    "`{word}` and `{first}` both choose how `{name}` is encoded, and a field has one encoding: keep one"
                ),
            );
        }
    }
    if let (Some(desc), Some(_)) = (attrs.desc, attrs.reverse) {
        cx.error_at(
            desc,
            format!("`{REVERSE}` already puts larger values first, and `{DESC}` on top would undo it: keep one"),
        );
    }
}

/// Attributes and types that do not fit the key's format, and flattened types that cannot be
/// flattened.
fn check_format_fit(cx: &Ctxt, input: &Input<'_>, field: &Field<'_>) {
    let attrs = &field.attrs;
    if attrs.skip.is_some() {
        return;
    }
    let name = field.name();
    let class = field.class();
    let what = class.describe();
    if attrs.flatten.is_some() {
        if field.shape.optional || !matches!(field.shape.inner, syn::Type::Path(_)) {
            cx.error(
                field.ty,
                "`flatten` takes a struct that derives RowKey; an `Option` or reference cannot be flattened",
            );
        }
        return;
    }
    let delimited = input.is_delimited();
    if delimited {
        if let Some(span) = attrs.desc {
            cx.error_at(
                span,
                "a delimited key has no descending fields (its text is written as is): use `reverse` on an integer \
                 field to put larger values first, or the ordered format, which supports `desc` on any field",
            );
        }
        if let Some(span) = attrs.big_endian {
            cx.error_at(
                span,
                "`big_endian` writes raw bytes, which break the delimited format's rule that every byte is above the \
                 delimiter: use `width = N` or `hex` for fixed-width text, or the ordered format",
            );
        }
        let encoded = attrs.given.iter().any(|(w, _)| ENCODINGS.contains(w));
        if !encoded && matches!(class, Class::Float | Class::Time(Time::System)) {
            cx.error(
                field.ty,
                format!(
                    "`{name}` is {what}, which has no text encoding in a delimited key: store it as an integer \
                     (such as milliseconds in an i64){}, or use the ordered format",
                    if class == Class::Float { "" } else { ", use a chrono, time or jiff type (RFC 3339 text)" }
                ),
            );
        }
    } else {
        let format = input.format().name();
        for (word, span) in [(HEX, attrs.hex), (WIDTH, attrs.span_of(WIDTH))] {
            if let Some(span) = span {
                cx.error_at(
                    span,
                    format!(
                        "`{word}` chooses a text encoding, for delimited keys; the {format} format already writes \
                         every field so it sorts: remove `{word}`, or make the key `#[rowkey(delimited = \"#\")]`"
                    ),
                );
            }
        }
    }
    if input.format() == KeyFormat::FdbTuple
        && let Some(span) = attrs.desc
    {
        cx.error_at(
            span,
            "FoundationDB's tuple layer has no descending order, so a tuple key cannot hold `desc`: use `reverse` on \
             an integer or a date or instant field to put larger values first",
        );
    }
    if let Some(span) = attrs.numeric {
        if input.format() != KeyFormat::HBase {
            cx.error_at(
                span,
                format!(
                    "`{NUMERIC}` writes HBase's `OrderedNumeric`, which only the HBase format has: remove it, or make \
                     the key `#[rowkey(hbase)]`"
                ),
            );
        } else if !matches!(class, Class::Int(_) | Class::Float) {
            cx.error_at(span, format!("`{NUMERIC}` writes a number, and `{name}` is {what}: remove `{NUMERIC}`"));
        }
    }
}

/// Attributes that do not fit the field's type.
/// `Hashed<N>` with a literal width outside 8 to 32: said once, at the number, rather than as
/// the unmet trait bounds of every impl that needs a width.
fn check_hash_width(cx: &Ctxt, field: &Field<'_>) {
    let syn::Type::Path(path) = types::ungroup(field.shape.inner) else { return };
    let Some(segment) = path.path.segments.last().filter(|s| s.ident == "Hashed") else { return };
    let syn::PathArguments::AngleBracketed(args) = &segment.arguments else { return };
    for arg in &args.args {
        let syn::GenericArgument::Const(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(width), .. })) = arg else {
            continue;
        };
        if width.base10_parse::<usize>().is_ok_and(|n| (8..=32).contains(&n)) {
            continue;
        }
        cx.error(
            width,
            format!(
                "`Hashed<{width}>` is not a width a keyed hash can have: a `Hashed` field is 8 to 32 bytes wide \
                 (HMAC-SHA-256 gives 32, and fewer than 8 let two values share a hash too often); `Hashed` alone is 16"
            ),
        );
    }
}

fn check_type_fit(cx: &Ctxt, field: &Field<'_>) {
    let attrs = &field.attrs;
    if attrs.skip.is_some() || attrs.flatten.is_some() {
        return;
    }
    let name = field.name();
    let class = field.class();
    let what = class.describe();
    let int = match class {
        Class::Int(int) => Some(int),
        _ => None,
    };
    let time_reversible = matches!(class, Class::Time(Time::Instant | Time::Date));
    if let Some(span) = attrs.reverse
        && int.is_none()
        && !time_reversible
    {
        cx.error_at(
            span,
            format!(
                "`{REVERSE}` stores MAX - v, so it needs an integer or a chrono, time or jiff date or instant, and `{name}` is {what}; for a \
                     descending field of any type, use `desc` (ordered format)"
            ),
        );
    }
    if let Some(span) = attrs.nanos
        && class != Class::Time(Time::Instant)
    {
        cx.error_at(
            span,
            format!(
                "`{NANOS}` keeps the nanoseconds of a chrono, time or jiff instant, and `{name}` is {what}: remove \
                 `{NANOS}`"
            ),
        );
    }
    if let Some(span) = attrs.bit_reverse
        && !int.is_some_and(|i| i.bytes == 8 && (i.name == "i64" || i.name == "u64"))
    {
        cx.error_at(
            span,
            format!(
                "`{BIT_REVERSE}` applies to i64 fields (Spanner's bit-reversed sequences, sign kept) and u64 fields \
                     (all 64 bits), and `{name}` is {}: change its type, or remove `{BIT_REVERSE}`",
                int.map_or(what, |i| i.name)
            ),
        );
    }
    if let Some(span) = attrs.reverse_domain {
        match class {
            Class::Str(Str::Owned) => {}
            Class::Str(_) => cx.error_at(
                span,
                format!(
                    "`{REVERSE_DOMAIN}` needs an owned String: the key holds the reversed host name, so decoding \
                     builds a new string and cannot borrow `{name}` from the key"
                ),
            ),
            _ => cx.error_at(
                span,
                format!("`{REVERSE_DOMAIN}` applies to a String holding a host name, and `{name}` is {what}"),
            ),
        }
    }
    if let Some(span) = attrs.hex {
        match class {
            Class::Int(_) | Class::Bytes(Bytes::Vec | Bytes::Array(_)) => {}
            Class::Bytes(_) => cx.error_at(
                span,
                format!("`{HEX}` needs `Vec<u8>` or `[u8; N]`: decoding hex makes new bytes, so `{name}` cannot borrow them"),
            ),
            _ => cx.error_at(
                span,
                format!(
                    "`{HEX}` writes integers and byte strings as hex digits, and `{name}` is {what}{}",
                    if matches!(class, Class::Str(_)) {
                        ", which a delimited key holds as is: remove `hex` (or make the field `Vec<u8>` if it holds bytes)"
                    } else {
                        ""
                    }
                ),
            ),
        }
    }
    if let Some((width, lit)) = &attrs.width {
        let keyword = attrs.span_of(WIDTH).unwrap_or_else(|| lit.span());
        check_width(cx, &name, class, int, *width, lit, keyword);
    }
    if let Some(span) = attrs.big_endian
        && int.is_none()
    {
        cx.error_at(
            span,
            format!(
                "`{BIG_ENDIAN}` writes an integer as 8 big-endian bytes, and `{name}` is {what}: remove \
                     `{BIG_ENDIAN}`, or put it on an integer field"
            ),
        );
    }
}

/// `width = N`: at least one digit, and no wider than the type's largest value. A width
/// narrower than the type is allowed (a `u32` date of 8 digits); a value that does not fit
/// is an encode error at run time.
fn check_width(cx: &Ctxt, name: &str, class: Class, int: Option<Int>, width: u32, lit: &syn::LitInt, keyword: Span) {
    let Some(int) = int else {
        cx.error_at(
            keyword,
            format!(
                "`{WIDTH}` pads an integer's decimal text, and `{name}` is {}: remove `{WIDTH}`{}",
                class.describe(),
                if class == Class::Float {
                    " (a float has no text encoding: store it as a scaled integer, or use the ordered format)"
                } else {
                    ""
                }
            ),
        );
        return;
    };
    if width == 0 {
        cx.error(
            lit,
            format!("`width = 0` is too small for any value: give the digits `{name}` needs, 1 to {}", int.digits),
        );
    } else if width > u32::from(int.digits) {
        cx.error(
            lit,
            format!(
                "`width = {width}` is wider than any {} ({} digits at most), so its keys would start with zeros \
                 that say nothing: use `width = {}` or less, or remove `width` for the type's full width",
                int.name, int.digits, int.digits
            ),
        );
    }
}

/// Key names are unique, and do not take the names of the prefix and bucket fields.
fn check_names(cx: &Ctxt, input: &Input<'_>) {
    let mut seen: HashMap<String, &Field<'_>> = HashMap::new();
    for field in input.key_fields().filter(|f| !f.is_flatten()) {
        let name = field.name();
        let at = field.attrs.rename.as_ref().map_or(field.span(), syn::LitStr::span);
        if let Some(other) = seen.get(&name) {
            cx.error_at(
                at,
                format!(
                    "two fields are named `{name}` in the key (`{}` and `{}`): rename one",
                    other.rust_name(),
                    field.rust_name()
                ),
            );
        }
        let reserved = [(attr::PREFIX, input.attrs.prefix.is_some()), (attr::SALT, input.attrs.salt.is_some())];
        for (word, used) in reserved {
            let field_name = if word == attr::SALT { BUCKET_FIELD } else { PREFIX_FIELD };
            if used && name == field_name {
                cx.error_at(
                    at,
                    format!(
                        "the key's `{word}` field is named `{field_name}` in errors and in the schema: give this field \
                         another key name with `#[rowkey(rename = \"...\")]`"
                    ),
                );
            }
        }
        seen.insert(name, field);
    }
}

/// `dynamodb(...)`: a format DynamoDB's key types hold, and a partition key of the key's
/// leading fields, in order, each matched as it is (so never `desc`).
fn check_dynamodb(cx: &Ctxt, input: &Input<'_>) {
    let Some(dynamodb) = &input.attrs.dynamodb else { return };
    if !matches!(input.format(), KeyFormat::Delimited | KeyFormat::Ordered) {
        cx.error_at(
            dynamodb.span,
            "DynamoDB keys are strings or binary that sort as bytes: `dynamodb` takes the delimited format (strings, \
             `delimited = \"#\"`) or the ordered one (binary, no format attribute)",
        );
    }
    let fields: Vec<&Field<'_>> = input.key_fields().collect();
    let names = || fields.iter().map(|f| format!("`{}`", f.ident)).collect::<Vec<_>>().join(", ");
    for (index, ident) in dynamodb.partition.iter().enumerate() {
        if dynamodb.partition[..index].contains(ident) {
            cx.error(ident, format!("`{ident}` is listed twice in `partition`: list each field once"));
            continue;
        }
        let Some(field) = input.field_named(ident) else {
            cx.error(ident, format!("`{ident}` is not a field of `{}`: its key fields are {}", input.ident, names()));
            continue;
        };
        if !field.in_key() {
            cx.error(ident, format!("`{ident}` is marked `skip`: the partition key is made of key fields"));
        } else if field.is_flatten() {
            cx.error(ident, format!("`{ident}` is a flattened struct: the partition key takes the key's own fields"));
        } else if fields.get(index).is_none_or(|f| f.ident != ident) {
            let expected = fields[..=index.min(fields.len() - 1)].iter().map(|f| format!("`{}`", f.ident));
            cx.error(
                ident,
                format!(
                    "the partition key is the key's leading fields, in order, and `{ident}` is not field {} of {}: \
                     name {}, or move `{ident}` up",
                    index + 1,
                    names(),
                    expected.collect::<Vec<_>>().join(", ")
                ),
            );
        } else if field.attrs.desc.is_some() {
            cx.error(
                ident,
                format!(
                    "`{ident}` is `desc`, but a partition key is matched, never ordered: drop `desc` from `{ident}`"
                ),
            );
        }
    }
    if let Some(shards) = &dynamodb.shards {
        check_shards(cx, input, dynamodb, shards);
    }
    if let (Some(prefix), Some(delimiter)) = (&dynamodb.sort_prefix, &input.attrs.delimited)
        && !delimiter.value().is_empty()
        && prefix.value().contains(&delimiter.value())
    {
        cx.error(prefix, format!("the sort prefix holds the delimiter {:?}: choose one without it", delimiter.value()));
    }
}

/// `shards(...)`: not beside a salt, whose bucket already shards the partition key, and, when
/// computed, from key fields of which some are sort fields.
fn check_shards(cx: &Ctxt, input: &Input<'_>, dynamodb: &DynamoDb, shards: &Shards) {
    let span = shards.salt.span;
    if input.attrs.salt.is_some() {
        cx.error_at(
            span,
            "the key's salt already shards each partition key (its bucket leads it): keep `salt` or `shards`, not both",
        );
    }
    let from = &shards.salt.from;
    if shards.random.is_some() || from.is_empty() {
        return;
    }
    check_sources(cx, input, &shards.salt, "shard");
    if from.iter().all(|source| dynamodb.partition.contains(source)) {
        cx.error_at(
            span,
            "the shards come from partition fields only, so every item of a partition key gets the same shard: take \
             them from sort fields, or make them `random`",
        );
    }
}

fn check_salt(cx: &Ctxt, input: &Input<'_>) {
    if let Some(salt) = &input.attrs.salt {
        check_sources(cx, input, salt, "salt");
    }
}

/// The sources of a salt, or of DynamoDB shards computed as one (`noun` names which).
fn check_sources(cx: &Ctxt, input: &Input<'_>, salt: &Salt, noun: &str) {
    let mut seen = Vec::new();
    for source in &salt.from {
        if seen.contains(&source) {
            cx.error(source, format!("`{source}` is listed twice in `from`: list each {noun} source field once"));
            continue;
        }
        seen.push(source);
        let Some(field) = input.field_named(source) else {
            let fields: Vec<_> =
                input.key_fields().filter(|f| !f.is_flatten()).map(|f| format!("`{}`", f.ident)).collect();
            cx.error(
                source,
                format!(
                    "{noun} source `{source}` is not a field of `{}`: name key fields the bucket is computed from ({})",
                    input.ident,
                    if fields.is_empty() { "it has none".to_owned() } else { format!("one of {}", fields.join(", ")) }
                ),
            );
            continue;
        };
        if !field.in_key() {
            cx.error(
                source,
                format!("{noun} source `{source}` is marked `skip`: the bucket must come from key fields, so that a reader of the key can check it"),
            );
        } else if field.is_flatten() {
            cx.error(
                source,
                format!("{noun} source `{source}` is a flattened struct: name plain key fields in `from`"),
            );
        } else if salt.hash == SaltHash::Modulo {
            let integer = matches!(field.class(), Class::Int(_)) && !field.shape.optional;
            if !integer {
                cx.error(
                    source,
                    format!(
                        "a modulo {noun} takes the bucket from one integer field's value, and `{source}` is {}: use \
                         `hash = \"farmhash\"`, which hashes any fields",
                        if field.shape.optional { "optional" } else { field.class().describe() }
                    ),
                );
            }
        }
    }
    if salt.hash == SaltHash::Modulo && salt.from.len() > 1 {
        let at = salt.hash_lit.as_ref().map_or(salt.span, syn::LitStr::span);
        cx.error_at(
            at,
            format!("a modulo {noun} takes the bucket from exactly one integer field: list one field in `from`, or use `hash = \"farmhash\"` for several"),
        );
    }
}

/// Bigtable's sorted-mode rule, where the derive knows a field's alphabet: every byte a field
/// can hold is above the delimiter's first byte. These mirror `rowkey::field::Alphabet`.
fn check_delimiter(cx: &Ctxt, input: &Input<'_>) {
    let Some(lit) = &input.attrs.delimited else { return };
    let delimiter = lit.value();
    let Some(&first) = delimiter.as_bytes().first() else { return };
    let shown = |b: u8| format!("{:?} ({b:#04x})", char::from(b));
    if let Some(prefix) = &input.attrs.prefix {
        let bytes = &prefix.bytes;
        if let (Some(&byte), Some(&lowest)) = (bytes.iter().find(|&&b| b <= first), bytes.iter().min()) {
            cx.error(
                &prefix.lit,
                format!(
                    "the prefix holds {}, which is not above the delimiter {delimiter:?}'s first byte {}, so keys would \
                     not sort or split correctly: leave such bytes out of the prefix, or choose a delimiter below {}",
                    shown(byte),
                    shown(first),
                    shown(lowest)
                ),
            );
        }
    }
    if let Some(salt) = &input.attrs.salt
        && first >= b'0'
    {
        let digits = if salt.hash == SaltHash::Md5Hex { "hex digits (0-9, a-f)" } else { "decimal digits" };
        cx.error_at(
            salt.span,
            format!(
                "the bucket is written as {digits}, and the delimiter {delimiter:?} starts with {}, which is \
                     not below '0': choose a delimiter below '0', such as \"#\"",
                shown(first)
            ),
        );
    }
    for field in input.key_fields().filter(|f| !f.is_flatten()) {
        let Some((lowest, alphabet)) = alphabet(field) else { continue };
        if first >= lowest {
            cx.error(
                field.ty,
                format!(
                    "`{}` is written as {alphabet} (lowest byte {}), and the delimiter {delimiter:?} starts with {}, \
                     which is not below it, so keys would not sort by value: choose a delimiter below {}, such as \"#\"",
                    field.name(),
                    shown(lowest),
                    shown(first),
                    shown(lowest)
                ),
            );
        }
    }
}

/// The lowest byte of a field's text encoding and its name, when fixed.
fn alphabet(field: &Field<'_>) -> Option<(u8, &'static str)> {
    const DIGITS: (u8, &str) = (b'0', "decimal digits 0-9");
    const SIGNED_DIGITS: (u8, &str) = (b'-', "'-' and decimal digits 0-9");
    const HEX_DIGITS: (u8, &str) = (b'0', "lowercase hex digits 0-9 a-f");
    const BOOL: (u8, &str) = (b'a', "the letters of false/true");
    let attrs = &field.attrs;
    match field.class() {
        _ if attrs.reverse_domain.is_some() => None,
        Class::Int(_) if attrs.hex.is_some() || attrs.reverse.is_some() => {
            Some(if attrs.hex.is_some() { HEX_DIGITS } else { DIGITS })
        }
        Class::Bytes(_) if attrs.hex.is_some() => Some(HEX_DIGITS),
        Class::Int(int) => Some(if int.signed { SIGNED_DIGITS } else { DIGITS }),
        Class::Bool => Some(BOOL),
        _ => None,
    }
}
