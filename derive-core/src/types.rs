//! What a field's type is, as far as the derive can tell from its tokens.
//!
//! A proc macro sees the type as written, not as resolved, so this is a syntactic check: the
//! last path segment decides (`std::string::String`, `String` and `alloc::string::String` are
//! all a string). A type alias or a newtype is [`Class::Other`]: the derive then checks nothing
//! about it, the attributes that need a known type are refused on it, and the schema calls its
//! encoding `Custom`.

use syn::{GenericArgument, PathArguments, Type};

/// A field's type: whether it is an `Option`, and the class of the type inside.
pub struct Shape<'a> {
    /// `Option<inner>`.
    pub optional: bool,
    /// The type inside `Option`, or the whole type.
    pub inner: &'a Type,
    pub class: Class,
}

/// The kinds of type the derive knows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Str(Str),
    Char,
    Bytes(Bytes),
    Int(Int),
    Bool,
    Float,
    /// A date or time type.
    Time(Time),
    Other,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Time {
    /// `SystemTime` (microseconds, ordered format only) and `Instant` (no key encoding).
    System,
    /// An instant of chrono, time or jiff: micros in the ordered format, RFC 3339 text
    /// delimited; `reverse` and `nanos` apply.
    Instant,
    /// A date of chrono, time or jiff: days, or `YYYY-MM-DD`; `reverse` applies.
    Date,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Str {
    Owned,
    Borrowed,
    Cow,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Bytes {
    Vec,
    /// `[u8; N]`, with `N` when it is a literal.
    Array(Option<u32>),
    Slice,
    Cow,
}

/// A primitive integer type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Int {
    pub name: &'static str,
    pub signed: bool,
    /// Its size in bytes (`isize` and `usize` are taken as 64-bit).
    pub bytes: u8,
    /// Decimal digits of its largest magnitude: its default text width.
    pub digits: u8,
    /// Its `MAX`.
    pub max: u64,
}

impl Int {
    /// `u64` and `usize`, which the ordered format writes as orderedcode uint64.
    pub fn unsigned_64(self) -> bool {
        !self.signed && self.bytes == 8
    }
}

const INTS: &[Int] = &[
    Int { name: "i8", signed: true, bytes: 1, digits: 3, max: i8::MAX as u64 },
    Int { name: "i16", signed: true, bytes: 2, digits: 5, max: i16::MAX as u64 },
    Int { name: "i32", signed: true, bytes: 4, digits: 10, max: i32::MAX as u64 },
    Int { name: "i64", signed: true, bytes: 8, digits: 19, max: i64::MAX as u64 },
    Int { name: "isize", signed: true, bytes: 8, digits: 19, max: i64::MAX as u64 },
    Int { name: "u8", signed: false, bytes: 1, digits: 3, max: u8::MAX as u64 },
    Int { name: "u16", signed: false, bytes: 2, digits: 5, max: u16::MAX as u64 },
    Int { name: "u32", signed: false, bytes: 4, digits: 10, max: u32::MAX as u64 },
    Int { name: "u64", signed: false, bytes: 8, digits: 20, max: u64::MAX },
    Int { name: "usize", signed: false, bytes: 8, digits: 20, max: u64::MAX },
];

/// chrono, time and jiff instants (jiff's `Zoned` has no key encoding; it is named here for
/// the hotspot lint).
const INSTANT_TYPES: &[&str] =
    &["DateTime", "NaiveDateTime", "OffsetDateTime", "PrimitiveDateTime", "UtcDateTime", "Timestamp", "Zoned"];
/// chrono's, time's and jiff's dates.
const DATE_TYPES: &[&str] = &["NaiveDate", "Date"];
/// Ids that start with the time they were minted: keys that lead with one grow with time.
pub const TIME_ORDERED_IDS: &[&str] = &["Ulid"];

pub fn shape(ty: &Type) -> Shape<'_> {
    let ty = ungroup(ty);
    if let Some(inner) = generic_arg(ty, "Option") {
        return Shape { optional: true, inner, class: class(inner) };
    }
    Shape { optional: false, inner: ty, class: class(ty) }
}

pub fn ungroup(mut ty: &Type) -> &Type {
    while let Type::Group(syn::TypeGroup { elem, .. }) | Type::Paren(syn::TypeParen { elem, .. }) = ty {
        ty = elem;
    }
    ty
}

/// The last path segment's name, when the type is a path.
pub fn last_segment(ty: &Type) -> Option<String> {
    match ungroup(ty) {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// `T` in `Name<T>` (or `Name<'a, T>`), when the last path segment is `Name`.
fn generic_arg<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ungroup(ty) else { return None };
    let segment = path.path.segments.last()?;
    if segment.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &segment.arguments else { return None };
    let mut types = args.args.iter().filter_map(|arg| match arg {
        GenericArgument::Type(ty) => Some(ty),
        _ => None,
    });
    let first = types.next()?;
    types.next().is_none().then_some(first)
}

fn is_u8(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|name| name == "u8")
}

fn class(ty: &Type) -> Class {
    match ungroup(ty) {
        Type::Reference(reference) => match ungroup(&reference.elem) {
            Type::Path(_) if last_segment(&reference.elem).is_some_and(|n| n == "str") => Class::Str(Str::Borrowed),
            Type::Slice(slice) if is_u8(&slice.elem) => Class::Bytes(Bytes::Slice),
            _ => Class::Other,
        },
        Type::Array(array) if is_u8(&array.elem) => {
            let len = match &array.len {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) => n.base10_parse().ok(),
                _ => None,
            };
            Class::Bytes(Bytes::Array(len))
        }
        ty @ Type::Path(_) => path_class(ty),
        _ => Class::Other,
    }
}

fn path_class(ty: &Type) -> Class {
    let Some(name) = last_segment(ty) else { return Class::Other };
    if let Some(int) = INTS.iter().find(|i| i.name == name) {
        return Class::Int(*int);
    }
    match name.as_str() {
        "String" => Class::Str(Str::Owned),
        "char" => Class::Char,
        "bool" => Class::Bool,
        "f32" | "f64" => Class::Float,
        "Vec" if generic_arg(ty, "Vec").is_some_and(is_u8) => Class::Bytes(Bytes::Vec),
        "Cow" => match generic_arg(ty, "Cow").map(ungroup) {
            Some(inner) if last_segment(inner).is_some_and(|n| n == "str") => Class::Str(Str::Cow),
            Some(Type::Slice(slice)) if is_u8(&slice.elem) => Class::Bytes(Bytes::Cow),
            _ => Class::Other,
        },
        "SystemTime" | "Instant" => Class::Time(Time::System),
        _ if INSTANT_TYPES.contains(&name.as_str()) => Class::Time(Time::Instant),
        _ if DATE_TYPES.contains(&name.as_str()) => Class::Time(Time::Date),
        _ => Class::Other,
    }
}

impl Class {
    /// How the class is named in error messages.
    pub fn describe(self) -> &'static str {
        match self {
            Class::Str(_) => "a string",
            Class::Char => "a char",
            Class::Bytes(_) => "a byte string",
            Class::Int(_) => "an integer",
            Class::Bool => "a bool",
            Class::Float => "a float",
            Class::Time(Time::Date) => "a date",
            Class::Time(Time::System) => "a std::time type",
            Class::Time(_) => "a time",
            Class::Other => "a type the derive does not know",
        }
    }
}
