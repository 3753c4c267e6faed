//! The lints on what a key holds, not on how it is declared: a first field that grows with
//! time sends every write to one tablet (an error, unless allowed), and text named like
//! personal data held in clear (a warning, the one kind a derive can raise on stable Rust).

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::ast::{Field, Input};
use crate::ctxt::Ctxt;
use crate::types::{self, Class};

/// Words that, ending (or starting) an integer field's name, mark it as a time.
const TIME_LAST_WORDS: &[&str] = &["ts", "timestamp", "time", "millis", "micros", "nanos", "ms", "secs", "epoch", "at"];
const TIME_FIRST_WORDS: &[&str] = &["ts", "timestamp", "epoch"];

/// The hotspot lint. The first key field (after the prefix and the bucket, which are
/// constant or spread) decides which tablet a write goes to; when it grows with time, every
/// write goes to the tablet at the end of the key space.
pub fn check_hotspot(cx: &Ctxt, input: &Input<'_>) {
    let attrs = &input.attrs;
    if attrs.salt.is_some() || attrs.allow_hotspot.is_some() {
        return;
    }
    let Some(field) = input.key_fields().next() else { return };
    if field.is_flatten() || field.attrs.bit_reverse.is_some() {
        return;
    }
    let name = field.name();
    let rust_name = field.rust_name().to_lowercase();
    let words: Vec<&str> = rust_name.split('_').filter(|w| !w.is_empty()).collect();
    let (why, at): (String, Span) = if let Some(span) = field.attrs.monotonic {
        ("is marked `monotonic`".to_owned(), span)
    } else if types::last_segment(field.shape.inner).is_some_and(|n| types::TIME_ORDERED_IDS.contains(&n.as_str())) {
        ("is a ULID, which starts with the time it was minted".to_owned(), field.ty.span())
    } else if let Class::Time(_) = field.class() {
        (
            format!(
                "is a timestamp (`{}`)",
                quote::ToTokens::to_token_stream(field.shape.inner).to_string().replace(' ', "")
            ),
            field.ty.span(),
        )
    } else if matches!(field.class(), Class::Int(_))
        && (words.last().is_some_and(|w| TIME_LAST_WORDS.contains(w))
            || words.first().is_some_and(|w| TIME_FIRST_WORDS.contains(w)))
    {
        ("is an integer named like a timestamp".to_owned(), field.span())
    } else {
        return;
    };
    let reversed = if field.attrs.reverse.is_some() || field.attrs.desc.is_some() {
        " (reversing it only moves them to the start)"
    } else {
        ""
    };
    cx.error_at(
        at,
        format!(
            "`{name}` leads the key and {why}, so writes would go to one tablet: each new row sorts next to the \
             previous one, at the end of the key space{reversed}. Salt the key \
             (`#[rowkey(salt(buckets = 16, from = [...]))]`), move `{name}` after a high-cardinality field such as a \
             device or user id, or, if the write rate is low, add `#[rowkey(allow_hotspot)]` to the struct"
        ),
    );
}

/// Field names that say a text field holds personal data, compared with the whole name. Short
/// on purpose: a warning on every field that might hold a person's data would be turned off
/// and then help no one. A bare `name` is not among them: keys name jobs, tenants, metrics and
/// files far more often than people (`first_name`, `full_name` and the like are). It counts
/// only in a key whose type names a person ([`PERSON_TYPES`]).
const PERSONAL_DATA_NAMES: &[&str] = &[
    "email",
    "email_address",
    "phone",
    "phone_number",
    "mobile",
    "ssn",
    "social_security_number",
    "first_name",
    "last_name",
    "full_name",
    "given_name",
    "family_name",
    "surname",
    "address",
    "street_address",
    "home_address",
    "postal_address",
    "birth_date",
    "date_of_birth",
    "birthday",
    "dob",
    "passport",
    "passport_number",
];

/// Last words of a key type's name that say its rows are people, so that a bare `name` field
/// of it is a person's name (`Customer`, `ActiveUser`, `PatientVisit` is not: its last word
/// is `Visit`).
const PERSON_TYPES: &[&str] = &[
    "user",
    "person",
    "people",
    "customer",
    "member",
    "employee",
    "patient",
    "contact",
    "client",
    "subscriber",
    "student",
    "account",
    "profile",
    "guest",
    "visitor",
];

/// Last words that mark a name as personal data on their own (`owner_email`, `home_phone`);
/// `name` and `address` are not among them, as `host_name` and `ip_address` are not personal.
const PERSONAL_DATA_LAST_WORDS: &[&str] = &["email", "phone", "ssn", "dob", "birthday", "surname"];

/// A warning on one field: the `#[deprecated]` item rustc names (`PersonalDataInKey`,
/// `SensitiveModuloSalt`), the field's key name and the note.
pub struct Warning<'f, 'a> {
    pub item: &'static str,
    pub field: &'f Field<'a>,
    pub note: String,
}

/// The personal-data lint: a text field named like personal data (an email address, a
/// phone number, a name) that is written into the key in clear, neither hashed nor marked
/// `sensitive`. A warning, not an error: some keys must hold such values. Then the
/// modulo-salt warnings.
pub fn warnings<'f, 'a>(input: &'f Input<'a>) -> Vec<Warning<'f, 'a>> {
    let of_people = names_people(&input.ident.to_string());
    let mut out: Vec<Warning<'f, 'a>> = input
        .key_fields()
        .filter(|field| looks_personal(field, of_people))
        .map(|field| {
            let name = field.name();
            let note = format!(
                "`{name}` is text named like personal data, and the key holds it in clear, where logs, monitoring \
                 and key visualisers show it: key by its hash (`rowkey::field::Hashed`), mark it \
                 `#[rowkey(sensitive)]` so that rowkey never shows it, or, if the key must hold it as it is, add \
                 `#[rowkey(allow_personal_data)]` to the field"
            );
            Warning { item: "PersonalDataInKey", field, note }
        })
        .collect();
    out.extend(modulo_salt_warnings(input));
    out
}

/// The warnings as rustc shows a derive's: a derive cannot emit a warning itself on stable
/// Rust. It can make the crate use a `#[deprecated]` item at the field's own tokens: rustc
/// then warns there, with the item's note, and `#[allow(deprecated)]` or
/// `allow_personal_data` silences it.
pub fn personal_data_warnings(input: &Input<'_>) -> proc_macro2::TokenStream {
    warnings(input).iter().map(|w| warning_at(w.field, w.item, &w.note)).collect()
}

/// A modulo salt over a `sensitive` integer: its bucket is the value's residue (`bucket=679`
/// of 103490972925679 in 1,000 buckets), which every key holds and every output shows, so the
/// marker would hide the value and print part of it. Warned, the same way and with the same
/// way out, and steered to the hashed salt, whose bucket says nothing of the value. DynamoDB
/// shards computed modulo a sensitive integer put the residue in every partition key: the same.
fn modulo_salt_warnings<'f, 'a>(input: &'f Input<'a>) -> Vec<Warning<'f, 'a>> {
    let salt = input.attrs.salt.as_ref().map(|salt| (salt, "salt")).into_iter();
    let shards = input.attrs.dynamodb.as_ref().and_then(|d| d.shards.as_ref()).map(|s| (&s.salt, "shard"));
    let modulo = salt.chain(shards).filter(|(salt, _)| salt.hash == crate::attr::SaltHash::Modulo);
    modulo
        .flat_map(|(salt, noun)| {
            let sources = input.key_fields().filter(|field| {
                salt.from.iter().any(|ident| field.ident == ident)
                    && field.attrs.sensitive.is_some()
                    && field.attrs.allow_personal_data.is_none()
            });
            sources.map(move |field| {
                let name = field.name();
                let note = if noun == "salt" {
                    format!(
                        "`{name}` is marked sensitive, but the modulo salt's bucket is `{name}` modulo the bucket \
                         count: part of the value, in every key and every output that shows the bucket; salt by the \
                         default hash (`salt(buckets = N, from = [{name}])`), whose bucket says nothing of the value, \
                         or add `#[rowkey(allow_personal_data)]` to the field"
                    )
                } else {
                    format!(
                        "`{name}` is marked sensitive, but the modulo shard is `{name}` modulo the shard count: part \
                         of the value, in every item's partition key; shard by the default hash (`shards(buckets = N, \
                         from = [{name}])`), whose shard says nothing of the value, or add \
                         `#[rowkey(allow_personal_data)]` to the field"
                    )
                };
                Warning { item: "SensitiveModuloSalt", field, note }
            })
        })
        .collect()
}

/// A warning at the field's tokens: the use of a `#[deprecated]` item named `item` (which
/// rustc prints) with `note`, the only warning a derive can raise on stable Rust.
fn warning_at(field: &Field<'_>, item: &str, note: &str) -> proc_macro2::TokenStream {
    // The use carries the field's span, so that rustc sees it in the user's code and warns.
    let used = proc_macro2::Ident::new(item, field.span());
    let item = proc_macro2::Ident::new(item, proc_macro2::Span::call_site());
    quote::quote! {
        #[automatically_derived]
        const _: () = {
            #[deprecated(note = #note)]
            struct #item;
            let _ = #used;
        };
    }
}

/// Whether a type's name ends in a word of [`PERSON_TYPES`] (`VipCustomer`, `user`).
fn names_people(type_name: &str) -> bool {
    let start = type_name.char_indices().rev().find(|(_, c)| c.is_uppercase()).map_or(0, |(i, _)| i);
    PERSON_TYPES.contains(&type_name[start..].to_lowercase().as_str())
}

fn looks_personal(field: &Field<'_>, of_people: bool) -> bool {
    let attrs = &field.attrs;
    if !matches!(field.class(), Class::Str(_))
        || field.is_flatten()
        || attrs.sensitive.is_some()
        || attrs.allow_personal_data.is_some()
    {
        return false;
    }
    let name = field.rust_name().to_lowercase();
    let last = name.rsplit('_').next().unwrap_or_default();
    PERSONAL_DATA_NAMES.contains(&name.as_str())
        || PERSONAL_DATA_LAST_WORDS.contains(&last)
        || (of_people && name == "name")
}
