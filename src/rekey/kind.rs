//! What kind of value a field holds, as far as moving it between key designs goes, and
//! whether an old field's values can fill a new field.

use crate::schema::{Encoding, FieldSchema};

/// What kind of value a field holds, as far as moving it between designs goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Text,
    Bytes,
    Int,
    /// Hex text of an integer or of bytes.
    Hex,
    Float,
    Bool,
    Instant,
    Date,
    Uuid,
    Ulid,
    Ip,
    Custom,
}

impl Kind {
    fn of(field: &FieldSchema) -> Kind {
        match field.encoding {
            Encoding::Utf8 | Encoding::Char => Kind::Text,
            Encoding::Bytes | Encoding::ByteArray { .. } => Kind::Bytes,
            Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. } => Kind::Int,
            Encoding::Hex { .. } => Kind::Hex,
            Encoding::Float64 | Encoding::Float32 => Kind::Float,
            Encoding::Bool => Kind::Bool,
            Encoding::TimestampMicros | Encoding::Timestamp(_) => Kind::Instant,
            Encoding::Date(_) => Kind::Date,
            Encoding::Uuid => Kind::Uuid,
            Encoding::Ulid => Kind::Ulid,
            Encoding::Ipv4 | Encoding::Ipv6 | Encoding::IpAddr => Kind::Ip,
            Encoding::Numeric if matches!(field.rust_type.trim_start_matches("Option<"), t if t.starts_with('f')) => {
                Kind::Float
            }
            Encoding::Numeric => Kind::Int,
            Encoding::Flattened(_) | Encoding::Custom => Kind::Custom,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Text => "text",
            Kind::Bytes => "bytes",
            Kind::Int => "an integer",
            Kind::Hex => "hex",
            Kind::Float => "a float",
            Kind::Bool => "a bool",
            Kind::Instant => "an instant",
            Kind::Date => "a date",
            Kind::Uuid => "a UUID",
            Kind::Ulid => "a ULID",
            Kind::Ip => "an IP address",
            Kind::Custom => "a custom type",
        }
    }
}

/// Why an old field's values cannot fill a new field, if they cannot.
pub(super) fn mismatch(old: &FieldSchema, new: &FieldSchema) -> Option<String> {
    let (a, b) = (Kind::of(old), Kind::of(new));
    let fits = a == b || matches!((a, b), (Kind::Hex, Kind::Int | Kind::Bytes) | (Kind::Int | Kind::Bytes, Kind::Hex));
    if a == Kind::Custom || b == Kind::Custom {
        return Some(format!(
            "{} is of a type the schema cannot see into ({} to {})",
            if a == Kind::Custom { "the old field" } else { "the new field" },
            old.rust_type,
            new.rust_type
        ));
    }
    (!fits)
        .then(|| format!("it holds {} ({}), the new field {} ({})", a.name(), old.rust_type, b.name(), new.rust_type))
}
