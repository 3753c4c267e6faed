//! A key declared at run time, held to the derive's rules: the struct is given as the Rust
//! source a person would write (`#[rowkey(...)] struct Reading { ... }`), and goes through the
//! same phases as `#[derive(RowKey)]` (attributes, model, rules, lints); what comes back is
//! every error with the derive's message, or the key's design as data, with the warnings.
//! The Python package's `@rowkey.key` classes are declared this way, so that a class and a
//! Rust struct of the same design are refused, warned about and encoded alike.
//!
//! ```
//! use rowkey_derive_core::declare::{EncodingChoice, declare};
//!
//! let design = declare(r##"
//!     #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
//!     struct Reading { device_type: String, device_id: String, #[rowkey(reverse)] ts_millis: i64 }
//! "##).unwrap();
//! assert_eq!(design.fields[2].encoding, EncodingChoice::Decimal { width: 19, signed: false });
//!
//! let errors = declare("struct Reading { ts_millis: i64, device_id: String }").unwrap_err();
//! assert!(errors[0].starts_with("`ts_millis` leads the key and is an integer named like a timestamp"));
//! ```

use crate::ast::{Input, KeyFormat};
use crate::attr::{Salt, SaltHash};
use crate::ctxt::Ctxt;
use crate::schema::{encoding_choice, transform_choice, type_text};
use crate::types::last_segment;
use crate::{lints, valid};

pub use crate::schema::{EncodingChoice, TransformChoice};

/// A key's design, as the derive would write its `SCHEMA`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Design {
    pub type_name: String,
    pub format: FormatChoice,
    pub prefix: Option<Vec<u8>>,
    pub salt: Option<SaltChoice>,
    pub max_len: usize,
    /// The key fields, in key order (a `skip` field is not one).
    pub fields: Vec<FieldDesign>,
    pub dynamodb: Option<DynamoChoice>,
    pub warnings: Vec<Warning>,
}

/// The key's format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatChoice {
    Ordered,
    Delimited(String),
    FdbTuple,
    Memcomparable,
    HBase,
    /// `format = path`: the path as written.
    Custom(String),
}

/// `salt(...)`: the bucket count, the hash, and the sources by their key names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaltChoice {
    pub buckets: u32,
    /// `farmhash`, `modulo` or `md5`.
    pub hash: &'static str,
    pub from: Vec<String>,
}

/// `dynamodb(...)`: the partition key's fields by their key names, and the sort prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynamoChoice {
    pub partition: Vec<String>,
    pub sort_prefix: Option<String>,
    pub shards: Option<ShardChoice>,
}

/// `shards(...)`: random ones, or ones computed from fields as a salt's bucket is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardChoice {
    Random { buckets: u32 },
    Computed(SaltChoice),
}

/// One key field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDesign {
    /// Its name in the key (`rename`'s, else the Rust name).
    pub name: String,
    pub rust_name: String,
    /// The type as written, `Option<...>` included.
    pub rust_type: String,
    /// The type inside `Option<...>`, or the type: what an [`EncodingChoice::OfType`] asks of.
    pub inner_type: String,
    /// Its last path segment (`Uuid` of `uuid::Uuid`), when it is a path.
    pub inner_name: Option<String>,
    pub encoding: EncodingChoice,
    pub transform: TransformChoice,
    pub optional: bool,
    pub descending: bool,
    pub monotonic: bool,
    pub sensitive: bool,
}

/// A warning the derive gives on a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What rustc names it: `PersonalDataInKey` or `SensitiveModuloSalt`.
    pub kind: &'static str,
    /// The field's key name.
    pub field: String,
    pub message: String,
}

/// The design of the struct in `source`, or every error the derive gives for it, in the order
/// it gives them (a source that is not a struct with attributes is one syn error).
///
/// # Errors
///
/// The messages, one a rule broken.
pub fn declare(source: &str) -> Result<Design, Vec<String>> {
    let input: syn::DeriveInput = syn::parse_str(source).map_err(|e| messages(vec![e]))?;
    let cx = Ctxt::default();
    let model = Input::from_syn(&cx, &input);
    if let Some(model) = &model {
        valid::check(&cx, model);
    }
    match (cx.check(), model) {
        (Ok(()), Some(model)) => Ok(design(&model)),
        (Err(errors), _) => Err(messages(errors)),
        (Ok(()), None) => unreachable!("a model is missing only after an error"),
    }
}

/// Each error's message, a combined error taken apart.
fn messages(errors: Vec<syn::Error>) -> Vec<String> {
    errors.into_iter().flat_map(IntoIterator::into_iter).map(|e| e.to_string()).collect()
}

fn design(input: &Input<'_>) -> Design {
    let attrs = &input.attrs;
    let format = match (input.format(), &attrs.delimited) {
        (KeyFormat::Delimited, Some(lit)) => FormatChoice::Delimited(lit.value()),
        (KeyFormat::FdbTuple, _) => FormatChoice::FdbTuple,
        (KeyFormat::Memcomparable, _) => FormatChoice::Memcomparable,
        (KeyFormat::HBase, _) => FormatChoice::HBase,
        (KeyFormat::Custom, _) => {
            FormatChoice::Custom(type_text(attrs.format.as_ref().expect("a custom format's path")))
        }
        _ => FormatChoice::Ordered,
    };
    let salt_choice = |salt: &Salt| SaltChoice {
        buckets: salt.buckets,
        hash: match salt.hash {
            SaltHash::FarmHash => "farmhash",
            SaltHash::Modulo => "modulo",
            SaltHash::Md5Hex => "md5",
        },
        from: salt
            .from
            .iter()
            .map(|ident| input.field_named(ident).map_or_else(|| ident.to_string(), |f| f.name()))
            .collect(),
    };
    let salt = attrs.salt.as_ref().map(salt_choice);
    let type_params: Vec<String> = input.generics.type_params().map(|t| t.ident.to_string()).collect();
    let delimited = input.is_delimited();
    let fields = input
        .key_fields()
        .map(|field| FieldDesign {
            name: field.name(),
            rust_name: field.rust_name(),
            rust_type: type_text(field.ty),
            inner_type: type_text(field.shape.inner),
            inner_name: last_segment(field.shape.inner),
            encoding: encoding_choice(field, delimited, &type_params),
            transform: transform_choice(field),
            optional: field.shape.optional,
            descending: field.attrs.desc.is_some(),
            monotonic: field.attrs.monotonic.is_some(),
            sensitive: field.attrs.sensitive.is_some(),
        })
        .collect();
    let warnings = lints::warnings(input)
        .into_iter()
        .map(|w| Warning { kind: w.item, field: w.field.name(), message: w.note })
        .collect();
    Design {
        type_name: input.ident.to_string(),
        format,
        prefix: attrs.prefix.as_ref().map(|p| p.bytes.clone()),
        salt,
        max_len: input.max_len(),
        fields,
        dynamodb: attrs.dynamodb.as_ref().map(|dynamodb| DynamoChoice {
            partition: dynamodb
                .partition
                .iter()
                .map(|ident| input.field_named(ident).map_or_else(|| ident.to_string(), |f| f.name()))
                .collect(),
            sort_prefix: dynamodb.sort_prefix.as_ref().map(syn::LitStr::value),
            shards: dynamodb.shards.as_ref().map(|shards| match shards.random {
                Some(_) => ShardChoice::Random { buckets: shards.salt.buckets },
                None => ShardChoice::Computed(salt_choice(&shards.salt)),
            }),
        }),
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_design_is_what_the_schema_is_written_from() {
        let design = declare(
            r#"
            #[rowkey(hbase, prefix = b"\x01", salt(buckets = 4, from = [id], hash = "modulo"), max_len = 64)]
            struct Visit {
                #[rowkey(rename = "visitor")] id: u64,
                #[rowkey(numeric)] score: Option<f32>,
                #[rowkey(desc, sensitive)] email: String,
                #[rowkey(skip)] cached: u8,
                at: uuid::Uuid,
            }"#,
        )
        .unwrap();
        assert_eq!(design.format, FormatChoice::HBase);
        assert_eq!(design.prefix.as_deref(), Some(&b"\x01"[..]));
        assert_eq!(design.salt, Some(SaltChoice { buckets: 4, hash: "modulo", from: vec!["visitor".into()] }));
        assert_eq!(design.max_len, 64);
        let names: Vec<&str> = design.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["visitor", "score", "email", "at"]);
        let score = &design.fields[1];
        assert_eq!((score.rust_type.as_str(), score.inner_type.as_str()), ("Option<f32>", "f32"));
        assert_eq!((score.encoding.clone(), score.optional), (EncodingChoice::Named("Numeric"), true));
        assert!(design.fields[2].descending && design.fields[2].sensitive);
        assert_eq!(design.fields[3].encoding, EncodingChoice::OfType { nanos: false });
        assert_eq!(design.fields[3].inner_name.as_deref(), Some("Uuid"));
        assert!(design.warnings.is_empty());
    }

    #[test]
    fn every_error_comes_back_in_the_derives_order_and_warnings_with_the_design() {
        let errors = declare(
            r##"#[rowkey(delimited = "#")]
            struct K { #[rowkey(desc)] a: u32, #[rowkey(width = 30)] b: u16, #[rowkey(hex)] c: String }"##,
        )
        .unwrap_err();
        assert_eq!(errors.len(), 3, "{errors:#?}");
        assert!(errors[0].starts_with("a delimited key has no descending fields"));
        assert!(errors[1].starts_with("`width = 30` is wider than any u16 (5 digits at most)"));
        assert!(errors[2].starts_with("`hex` writes integers and byte strings as hex digits, and `c` is a string"));
        assert_eq!(declare("enum K { A }").unwrap_err().len(), 1);
        assert!(declare("struct").is_err());
        let design = declare("struct User { id: u64, name: String }").unwrap();
        assert_eq!(design.warnings.len(), 1);
        assert_eq!((design.warnings[0].kind, design.warnings[0].field.as_str()), ("PersonalDataInKey", "name"));
    }
}
