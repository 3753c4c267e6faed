//! The derive's model of its input: the struct, its fields and their parsed attributes,
//! borrowing from the syntax tree.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{Data, DeriveInput, Fields, Generics, Ident, Type, Visibility};

use crate::attr::{Container, FieldAttrs};
use crate::ctxt::Ctxt;
use crate::types::{self, Class, Shape};

/// The key names of the prefix and bucket fields, as the runtime's `Schema::PREFIX_FIELD` and
/// `Schema::BUCKET_FIELD` (which generated code uses); a key field may not take them.
pub const PREFIX_FIELD: &str = "prefix";
pub const BUCKET_FIELD: &str = "bucket";

pub struct Input<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub generics: &'a Generics,
    pub attrs: Container,
    /// Every field, in declaration order (which is key order), skipped ones included.
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    pub shape: Shape<'a>,
}

impl<'a> Input<'a> {
    /// The model of a struct with named fields. Anything else is an error, recorded in `cx`
    /// after the container attributes are parsed (so their mistakes show up too).
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Input<'a>> {
        let attrs = Container::from_attrs(cx, &input.attrs);
        let fields = match &input.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => named.named.iter().collect(),
                Fields::Unit => Vec::new(),
                Fields::Unnamed(unnamed) => {
                    cx.error(
                        unnamed,
                        "RowKey cannot be derived for a tuple struct: name its fields (`struct Key { a: A, b: B }`), \
                         which become the key's field names; a plain tuple `(A, B)` is already a RowKey",
                    );
                    return None;
                }
            },
            Data::Enum(data) => {
                cx.error(
                    data.enum_token,
                    "RowKey cannot be derived for an enum (yet): use a struct with named fields, or write the key \
                     with a tuple or by implementing RowKey by hand",
                );
                return None;
            }
            Data::Union(data) => {
                cx.error(data.union_token, "RowKey cannot be derived for a union: use a struct with named fields");
                return None;
            }
        };
        let fields = fields
            .into_iter()
            .map(|field| Field {
                // Named fields always have an ident.
                ident: field.ident.as_ref().expect("a named field"),
                ty: &field.ty,
                attrs: FieldAttrs::from_attrs(cx, &field.attrs),
                shape: types::shape(&field.ty),
            })
            .collect();
        Some(Input { ident: &input.ident, vis: &input.vis, generics: &input.generics, attrs, fields })
    }

    pub fn is_delimited(&self) -> bool {
        self.attrs.delimited.is_some()
    }

    /// The key's format. When several are given (an error `valid` reports), the first of
    /// delimited, FoundationDB tuples, memcomparable and HBase.
    pub fn format(&self) -> KeyFormat {
        let attrs = &self.attrs;
        if attrs.delimited.is_some() {
            KeyFormat::Delimited
        } else if attrs.fdb_tuple.is_some() {
            KeyFormat::FdbTuple
        } else if attrs.memcomparable.is_some() {
            KeyFormat::Memcomparable
        } else if attrs.hbase.is_some() {
            KeyFormat::HBase
        } else if attrs.format.is_some() {
            KeyFormat::Custom
        } else {
            KeyFormat::Ordered
        }
    }

    /// The fields that are part of the key, in key order.
    pub fn key_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields.iter().filter(|f| f.in_key())
    }

    /// The field a `salt(from = [...])` entry names, if it is one.
    pub fn field_named(&self, ident: &Ident) -> Option<&Field<'a>> {
        self.fields.iter().find(|f| f.ident == ident)
    }

    pub fn max_len(&self) -> usize {
        self.attrs.max_len.as_ref().map_or(4096, |(n, _)| *n)
    }

    /// The path generated code names the runtime crate by.
    pub fn crate_path(&self) -> TokenStream {
        crate_path(&self.attrs)
    }
}

/// `::rowkey`, or what `crate = "..."` says.
pub fn crate_path(attrs: &Container) -> TokenStream {
    match &attrs.crate_path {
        Some((path, _)) => path.to_token_stream(),
        None => quote!(::rowkey),
    }
}

impl Field<'_> {
    /// The field's name in the key, in errors and in the schema: `rename`, or the Rust name
    /// without `r#`.
    pub fn name(&self) -> String {
        match &self.attrs.rename {
            Some(lit) => lit.value(),
            None => self.rust_name(),
        }
    }

    pub fn rust_name(&self) -> String {
        let name = self.ident.to_string();
        name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
    }

    pub fn in_key(&self) -> bool {
        self.attrs.skip.is_none()
    }

    pub fn is_flatten(&self) -> bool {
        self.attrs.flatten.is_some()
    }

    pub fn class(&self) -> Class {
        self.shape.class
    }

    /// The span of the field's name, where most errors about the field point.
    pub fn span(&self) -> Span {
        self.ident.span()
    }

    /// What the scan builder takes for this field: a borrowed string or byte slice for
    /// strings and byte strings (so callers need not allocate to fix a field), the field's
    /// own type otherwise.
    pub fn scan_arg(&self) -> ScanArg {
        match self.shape.class {
            Class::Str(_) if !self.shape.optional => ScanArg::Str,
            Class::Bytes(types::Bytes::Vec | types::Bytes::Slice | types::Bytes::Cow) if !self.shape.optional => {
                ScanArg::Bytes
            }
            _ => ScanArg::Own,
        }
    }

    /// Whether the scan builder offers `starts_with` for this field (a string prefix is a
    /// key prefix only for an ascending, untransformed string).
    pub fn scan_starts_with(&self) -> bool {
        matches!(self.shape.class, Class::Str(_))
            && !self.shape.optional
            && self.attrs.desc.is_none()
            && self.attrs.reverse_domain.is_none()
    }

    /// Whether a range over this field's values maps to keys in the opposite order
    /// (`desc`, `reverse`), so the scan builder swaps the bounds.
    pub fn scan_reverses_order(&self) -> bool {
        self.attrs.desc.is_some() != self.attrs.reverse.is_some()
    }
}

/// The format a key is derived in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum KeyFormat {
    Ordered,
    Delimited,
    FdbTuple,
    Memcomparable,
    HBase,
    /// `format = path`: a format of the user's, framed as the store formats are (a raw prefix,
    /// the bucket as the format writes a salt's bucket).
    Custom,
}

impl KeyFormat {
    /// The format's name in messages: "a FoundationDB tuple key" reads as "a {name} key".
    pub fn name(self) -> &'static str {
        match self {
            KeyFormat::Ordered => "ordered",
            KeyFormat::Delimited => "delimited",
            KeyFormat::FdbTuple => "FoundationDB tuple",
            KeyFormat::Memcomparable => "memcomparable",
            KeyFormat::HBase => "HBase",
            KeyFormat::Custom => "custom",
        }
    }

    /// The format's `KeyFormat` type under `__private` (not called for a custom format,
    /// whose path is the user's).
    pub fn runtime_type(self) -> &'static str {
        match self {
            KeyFormat::Ordered => "Ordered",
            KeyFormat::Delimited => "Delimited",
            KeyFormat::FdbTuple => "FdbTuple",
            KeyFormat::Memcomparable => "Memcomparable",
            KeyFormat::HBase => "HBase",
            KeyFormat::Custom => unreachable!("a custom format is named by its path"),
        }
    }

    /// A store format: FoundationDB tuples, memcomparable or HBase, whose prefix is raw bytes
    /// and whose bucket is the format's integer.
    pub fn is_store(self) -> bool {
        matches!(self, KeyFormat::FdbTuple | KeyFormat::Memcomparable | KeyFormat::HBase | KeyFormat::Custom)
    }
}

/// The kind of argument a scan builder method takes for a field.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ScanArg {
    /// `&str`.
    Str,
    /// `&[u8]`.
    Bytes,
    /// The field's type.
    Own,
}
