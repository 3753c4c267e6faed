//! One field of a store-format key (FoundationDB tuples, memcomparable, HBase) read and
//! written from its [`FieldSchema`] alone.
//!
//! These formats do not delimit their fields: only a field's type says where its bytes end.
//! So each field is read and written as the Rust type the derive gave it, chosen from the
//! schema's encoding and Rust type name, through the format's own reader and writer: what
//! the schema reads is then what `from_key` reads, and fails where it fails.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::error::{Error, Result};
use crate::field::{FieldType, Numeric, ReadField, Sink, Uuids, ValueFormat, WriteField};
use crate::format::{
    FdbTuple, HBase, HBaseReader, KeyFormat, KeyReader, Memcomparable, MemcomparableReader, TupleReader,
};
use crate::schema::SchemaFormat;
use crate::schema::decode::{
    array, big_endian, days_value, inconsistent, inner_type, micros_value, nanos_value, primitive_int, reversed,
    untransform,
};
use crate::schema::parse::{Number, numeric};
use crate::schema::schema_format::custom;
use crate::schema::stored::{out_of_range, stored};
use crate::schema::{Encoding, FieldSchema, TimeSpec, Transform, Value};

/// The reader a schema reads a key of format `F` with.
pub(super) type SchemaReader<'de, F> = <F as KeyFormat>::Reader<'static, 'de>;

impl SchemaFormat for FdbTuple {
    fn schema_reader(key: &[u8], _: usize) -> TupleReader<'_> {
        TupleReader::new(key)
    }
}

impl SchemaFormat for Memcomparable {
    const DESCENDING: bool = true;

    fn schema_reader(key: &[u8], _: usize) -> MemcomparableReader<'_> {
        MemcomparableReader::new(key)
    }
}

/// Runs `$body` with `$t` the primitive integer type named `$ty` (`"u16"`), or `$other`.
macro_rules! with_int {
    ($ty:expr, $other:ty, |$t:ident| $body:expr) => {
        match $ty {
            "i8" => {
                type $t = i8;
                $body
            }
            "i16" => {
                type $t = i16;
                $body
            }
            "i32" => {
                type $t = i32;
                $body
            }
            "i64" => {
                type $t = i64;
                $body
            }
            "isize" => {
                type $t = isize;
                $body
            }
            "u8" => {
                type $t = u8;
                $body
            }
            "u16" => {
                type $t = u16;
                $body
            }
            "u32" => {
                type $t = u32;
                $body
            }
            "u64" => {
                type $t = u64;
                $body
            }
            "usize" => {
                type $t = usize;
                $body
            }
            "i128" => {
                type $t = i128;
                $body
            }
            "u128" => {
                type $t = u128;
                $body
            }
            _ => {
                type $t = $other;
                $body
            }
        }
    };
}

impl SchemaFormat for HBase {
    const DESCENDING: bool = true;

    fn schema_reader(key: &[u8], fields: usize) -> HBaseReader<'_> {
        HBaseReader::new(key, fields)
    }

    fn read_custom(r: &mut HBaseReader<'_>, field: &FieldSchema, ty: &'static str) -> Result<Option<Value>> {
        match numeric(field) {
            Some(Number::F64) => Ok(read::<HBase, Numeric<f64>>(r, field)?.map(|n| Value::Float(n.0))),
            Some(Number::F32) => Ok(read::<HBase, Numeric<f32>>(r, field)?.map(|n| Value::Float(widen(n.0)))),
            Some(Number::Int) => {
                with_int!(ty, i64, |T| read::<HBase, Numeric<T>>(r, field)?.map(|n| int_value(field, n.0)).transpose())
            }
            None => Err(custom(field)),
        }
    }

    fn write_custom<S: Sink>(field: &FieldSchema, stored: &Value, out: &mut S) -> Result<()> {
        match numeric(field) {
            Some(Number::F64) => put::<HBase, _, S>(field, stored, out, |v| float_of(field, v).map(Numeric)),
            Some(Number::F32) => {
                put::<HBase, _, S>(field, stored, out, |v| narrow(field, float_of(field, v)?).map(Numeric))
            }
            Some(Number::Int) => with_int!(inner_type(field.rust_type), i64, |T| {
                put::<HBase, _, S>(field, stored, out, |v| int_of::<T>(field, v).map(Numeric))
            }),
            None => Err(custom(field)),
        }
    }
}

/// A field framed in reverse order: `Desc` for every store format, as the schema says which
/// formats have descending fields.
pub(super) struct Backwards<T>(pub(super) T);

impl<T: FieldType> FieldType for Backwards<T> {
    const DESCENDING: bool = !T::DESCENDING;
}

impl<F: ValueFormat, T: WriteField<F>> WriteField<F> for Backwards<T> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        self.0.write(out)
    }
}

impl<'de, F: ValueFormat, T: ReadField<'de, F>> ReadField<'de, F> for Backwards<T> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        T::read(input).map(Backwards)
    }
}

/// A 16-byte identifier (`uuid::Uuid`, `ulid::Ulid`) as the format holds one, without the
/// crates' types.
pub(super) struct Id16(pub(super) [u8; 16]);

impl FieldType for Id16 {
    const BYTE_STRING: bool = true;
}

impl<F: Uuids> WriteField<F> for Id16 {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_id(&self.0, out)
    }
}

impl<'de, F: Uuids> ReadField<'de, F> for Id16 {
    fn read(input: F::Input<'_, '_>) -> Result<Self> {
        F::read_id(input, "a 16-byte identifier").map(Id16)
    }
}

/// The field's value before its transform, written as the derive writes the field: a
/// [`WriteField`] of every store format.
pub(super) struct FieldValue<'a> {
    pub(super) field: &'a FieldSchema,
    pub(super) value: &'a Value,
}

impl FieldType for FieldValue<'_> {}

impl<F: SchemaFormat> WriteField<F> for FieldValue<'_> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        write_value::<F, S>(self.field, self.value, out)
    }
}

/// Refuses a field the format cannot hold as the schema describes it.
fn check_direction<F: SchemaFormat>(field: &FieldSchema) -> Result<()> {
    if field.descending && !F::DESCENDING {
        return Err(Error::argument(
            "schema field",
            format!(
                "`{}` is descending, which this format has no way to write; the schema was written by hand wrongly",
                field.name
            ),
        ));
    }
    Ok(())
}

/// Reads `T`, as `Option<T>` and framed descending where the field says.
fn read<'de, F: SchemaFormat, T: ReadField<'de, F>>(
    r: &mut SchemaReader<'de, F>,
    field: &FieldSchema,
) -> Result<Option<T>> {
    let name = field.name;
    match (field.optional, field.descending) {
        (false, false) => r.named_field::<T>(name).map(Some),
        (true, false) => r.named_field::<Option<T>>(name),
        (false, true) => r.named_field::<Backwards<T>>(name).map(|v| Some(v.0)),
        (true, true) => r.named_field::<Backwards<Option<T>>>(name).map(|v| v.0),
    }
}

/// Writes `stored` as a `T` (through `convert`), as `Option<T>` where the field is optional.
fn put<F: SchemaFormat, T: WriteField<F>, S: Sink>(
    field: &FieldSchema,
    stored: &Value,
    out: &mut S,
    convert: impl FnOnce(&Value) -> Result<T>,
) -> Result<()> {
    match stored {
        Value::Null if field.optional => WriteField::<F>::write(&None::<T>, out),
        value if field.optional => WriteField::<F>::write(&Some(convert(value)?), out),
        value => WriteField::<F>::write(&convert(value)?, out),
    }
}

fn int_value<T>(field: &FieldSchema, v: T) -> Result<Value>
where
    i128: TryFrom<T>,
{
    i128::try_from(v).map(Value::Int).map_err(|_| {
        Error::argument("field value", format!("`{}`: the value is beyond what inspect shows (i128)", field.name))
    })
}

fn int_of<T: TryFrom<i128>>(field: &FieldSchema, value: &Value) -> Result<T> {
    match value {
        Value::Int(v) => T::try_from(*v).map_err(|_| out_of_range(field, *v)),
        other => Err(mismatch(field, other)),
    }
}

fn float_of(field: &FieldSchema, value: &Value) -> Result<f64> {
    match value {
        Value::Float(x) => Ok(*x),
        other => Err(mismatch(field, other)),
    }
}

/// An `f32` as the `f64` it widens to, a NaN's sign and payload kept bit for bit (a
/// conversion may quiet a signalling NaN).
fn widen(x: f32) -> f64 {
    if !x.is_nan() {
        return f64::from(x);
    }
    let bits = u64::from(x.to_bits());
    f64::from_bits((bits & 0x8000_0000) << 32 | 0x7ff0_0000_0000_0000 | (bits & 0x007f_ffff) << 29)
}

/// The `f32` that [`widen`]s to `x`.
fn narrow(field: &FieldSchema, x: f64) -> Result<f32> {
    if x.is_nan() {
        let bits = x.to_bits();
        let low = (bits & 0x1fff_ffff) != 0;
        let narrowed = ((bits >> 32) as u32 & 0x8000_0000) | 0x7f80_0000 | ((bits >> 29) as u32 & 0x007f_ffff);
        if !low && narrowed & 0x007f_ffff != 0 {
            return Ok(f32::from_bits(narrowed));
        }
    } else if f64::from(x as f32) == x {
        return Ok(x as f32);
    }
    Err(Error::argument("field value", format!("`{}` is an f32, and {x:?} is no f32 value", field.name)))
}

fn mismatch(field: &FieldSchema, value: &Value) -> Error {
    Error::argument(
        "field value",
        format!("`{}` is {} ({}): {value} is not a value of it", field.name, field.rust_type, field.encoding),
    )
}

/// The integer type a field's key holds: a transform stores an `i64` or a `u64`.
fn stored_int(field: &FieldSchema) -> &'static str {
    match field.transform {
        Transform::Reverse { max } if max > i64::MAX as u64 => "u64",
        Transform::Reverse { .. } | Transform::BitReverse { keep_sign: true } => "i64",
        Transform::BitReverse { keep_sign: false } => "u64",
        _ => match primitive_int(inner_type(field.rust_type)) {
            Some(ty) => ty,
            None if field.encoding == Encoding::Uint64 => "u64",
            None => "i64",
        },
    }
}

/// Reads one field's value, its transform undone, and checks it as the field's type does.
pub(super) fn read_value<F: SchemaFormat>(r: &mut SchemaReader<'_, F>, field: &FieldSchema) -> Result<Value> {
    let (index, offset) = (r.field_index(), r.position());
    let located = |e: Error| e.in_field(index, Some(field.name), offset);
    check_direction::<F>(field)?;
    let ty = inner_type(field.rust_type);
    let stored = match field.encoding {
        Encoding::Utf8 => read::<F, String>(r, field)?.map(Value::Str),
        Encoding::Char => read::<F, char>(r, field)?.map(|c| Value::Str(c.into())),
        Encoding::Bytes => read::<F, Vec<u8>>(r, field)?.map(Value::Bytes),
        Encoding::ByteArray { len } => {
            read::<F, Vec<u8>>(r, field)?.map(|b| array(ty, len, b).map(Value::Bytes)).transpose().map_err(located)?
        }
        Encoding::BigEndianInt64 => read::<F, Vec<u8>>(r, field)?
            .map(|b| big_endian(ty, &b).map(|v| Value::Int(v.into())))
            .transpose()
            .map_err(located)?,
        Encoding::Int64 | Encoding::Uint64 => {
            with_int!(stored_int(field), i64, |T| read::<F, T>(r, field)?.map(|v| int_value(field, v)).transpose()?)
        }
        Encoding::Float64 => read::<F, f64>(r, field)?.map(Value::Float),
        Encoding::Float32 => read::<F, f32>(r, field)?.map(|x| Value::Float(widen(x))),
        Encoding::Bool => read::<F, bool>(r, field)?.map(Value::Bool),
        Encoding::TimestampMicros => read::<F, i64>(r, field)?.map(Value::Timestamp),
        Encoding::Timestamp(spec) if spec.nanos && !reversed(field) => {
            return read::<F, i128>(r, field)?.map_or(Ok(Value::Null), |n| nanos_value(ty, spec, n).map_err(located));
        }
        Encoding::Timestamp(spec) if !spec.nanos => {
            return read::<F, i64>(r, field)?
                .map_or(Ok(Value::Null), |v| micros_value(field, ty, spec, v.into()).map_err(located));
        }
        Encoding::Date(spec) => {
            return read::<F, i64>(r, field)?
                .map_or(Ok(Value::Null), |v| days_value(field, ty, spec, v.into()).map_err(located));
        }
        Encoding::Uuid => read::<F, Id16>(r, field)?.map(|id| Value::Uuid(id.0)),
        Encoding::Ulid => read::<F, Id16>(r, field)?.map(|id| Value::Ulid(u128::from_be_bytes(id.0))),
        Encoding::Ipv4 => read::<F, Ipv4Addr>(r, field)?.map(|ip| Value::Ip(ip.into())),
        Encoding::Ipv6 => read::<F, Ipv6Addr>(r, field)?.map(|ip| Value::Ip(ip.into())),
        Encoding::IpAddr => read::<F, IpAddr>(r, field)?.map(Value::Ip),
        // An `i128` is custom to the Bigtable formats, but every store format holds it. (A
        // `u128` is not read: `Value` holds no integer beyond `i128`.)
        Encoding::Custom if ty == "i128" => {
            with_int!(ty, i128, |T| read::<F, T>(r, field)?.map(|v| int_value(field, v)).transpose()?)
        }
        Encoding::Custom | Encoding::Numeric => F::read_custom(r, field, ty)?,
        Encoding::Decimal { .. } | Encoding::Hex { .. } | Encoding::Timestamp(_) | Encoding::Flattened(_) => {
            return Err(inconsistent(field, "a key of a store format"));
        }
    };
    stored.map_or(Ok(Value::Null), |v| untransform(field, ty, v).map_err(located))
}

/// Writes one field's value, given before its transform.
fn write_value<F: SchemaFormat, S: Sink>(field: &FieldSchema, value: &Value, out: &mut S) -> Result<()> {
    check_direction::<F>(field)?;
    let stored = stored(field, value)?;
    let text = |v: &Value| match v {
        Value::Str(text) => Ok(text.clone()),
        other => Err(mismatch(field, other)),
    };
    let bytes = |v: &Value| match v {
        Value::Bytes(bytes) => Ok(bytes.clone()),
        other => Err(mismatch(field, other)),
    };
    let ip = |v: &Value| match v {
        Value::Ip(ip) => Ok(*ip),
        other => Err(mismatch(field, other)),
    };
    let wrong_family = |ip: IpAddr| mismatch(field, &Value::Ip(ip));
    match field.encoding {
        Encoding::Utf8 => put::<F, String, S>(field, &stored, out, text),
        Encoding::Char => put::<F, char, S>(field, &stored, out, |v| {
            let text = text(v)?;
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(c),
                _ => Err(mismatch(field, v)),
            }
        }),
        Encoding::Bytes | Encoding::ByteArray { .. } => put::<F, Vec<u8>, S>(field, &stored, out, bytes),
        Encoding::BigEndianInt64 => put::<F, Vec<u8>, S>(field, &stored, out, |v| {
            let v = int_of::<i64>(field, v)?;
            if v < 0 {
                return Err(out_of_range(field, v.into()));
            }
            Ok(v.to_be_bytes().to_vec())
        }),
        Encoding::Int64 | Encoding::Uint64 => {
            with_int!(stored_int(field), i64, |T| put::<F, T, S>(field, &stored, out, |v| int_of::<T>(field, v)))
        }
        Encoding::Float64 => put::<F, f64, S>(field, &stored, out, |v| float_of(field, v)),
        Encoding::Float32 => put::<F, f32, S>(field, &stored, out, |v| narrow(field, float_of(field, v)?)),
        Encoding::Bool => put::<F, bool, S>(field, &stored, out, |v| match v {
            Value::Bool(b) => Ok(*b),
            other => Err(mismatch(field, other)),
        }),
        Encoding::Timestamp(spec) if spec.nanos && !reversed(field) => {
            put::<F, i128, S>(field, &stored, out, |v| match v {
                Value::TimestampNanos(nanos) => Ok(*nanos),
                other => Err(mismatch(field, other)),
            })
        }
        Encoding::TimestampMicros | Encoding::Timestamp(TimeSpec { nanos: false, .. }) | Encoding::Date(_) => {
            // A reversed instant or date stores `max - v` as an int64.
            put::<F, i64, S>(field, &stored, out, |v| match v {
                Value::Timestamp(v) | Value::Date(v) => Ok(*v),
                other => int_of::<i64>(field, other),
            })
        }
        Encoding::Uuid => put::<F, Id16, S>(field, &stored, out, |v| match v {
            Value::Uuid(bytes) => Ok(Id16(*bytes)),
            other => Err(mismatch(field, other)),
        }),
        Encoding::Ulid => put::<F, Id16, S>(field, &stored, out, |v| match v {
            Value::Ulid(n) => Ok(Id16(n.to_be_bytes())),
            other => Err(mismatch(field, other)),
        }),
        Encoding::Ipv4 => put::<F, Ipv4Addr, S>(field, &stored, out, |v| match ip(v)? {
            IpAddr::V4(ip) => Ok(ip),
            other => Err(wrong_family(other)),
        }),
        Encoding::Ipv6 => put::<F, Ipv6Addr, S>(field, &stored, out, |v| match ip(v)? {
            IpAddr::V6(ip) => Ok(ip),
            other => Err(wrong_family(other)),
        }),
        Encoding::IpAddr => put::<F, IpAddr, S>(field, &stored, out, ip),
        Encoding::Custom if inner_type(field.rust_type) == "i128" => {
            with_int!(inner_type(field.rust_type), i128, |T| put::<F, T, S>(field, &stored, out, |v| int_of::<T>(
                field, v
            )))
        }
        Encoding::Custom | Encoding::Numeric => F::write_custom(field, &stored, out),
        Encoding::Decimal { .. } | Encoding::Hex { .. } | Encoding::Timestamp(_) | Encoding::Flattened(_) => {
            Err(inconsistent(field, "a key of a store format"))
        }
    }
}
