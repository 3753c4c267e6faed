//! A schema compiled once into a plan of how each field is checked, written and read, so that
//! a binding that handles many keys of one schema (the Python package, the command in batch,
//! `Rekey`) does not read the field descriptions again for every key.
//!
//! The plan resolves, once: the format value (a delimited key's checked delimiter), the salt
//! and its source fields, the writer's field count, and for each field the check that its
//! value is one the Rust type holds and the writer it goes to. It writes through the formats'
//! own writers and field code: text as a `str` in every format, integers, `f64`, `bool` and
//! UUIDs of the binary formats as their Rust types, a delimited `reverse` field as `Reversed`
//! of its type; any other field through the schema's field writer of its format (the code
//! [`Schema::encode_values`] runs). It reads (`read.rs`) the fields it writes as a Rust type
//! with that type's reader in the format, any other with the interpreter's decoder of the
//! field, and checks the salt bucket against the one the values give.
//!
//! What the plan does not cover it hands to the interpreter, which is the reference: a value
//! its field's type may not hold, a flattened struct, a format from outside rowkey. A key the plan cannot write (a
//! value the format refuses, a key too long) or read (any fault) is also handled again by the
//! interpreter, so that every error is the interpreter's, word for word.

use std::borrow::Borrow;

use crate::error::Result;
use crate::field::{Desc, Reversed};
use crate::format::ordered::OrderedWriter;
use crate::format::{Delimited, FdbTuple, HBase, KeyFormat, KeyWriter, Memcomparable, Ordered};
use crate::key::Key;
use crate::salt::{Salt, SaltHash};
use crate::schema::decode::{Encoded, natural_bytes};
use crate::schema::delimited_keys::FieldText;
use crate::schema::ordered_keys::FieldBytes;
use crate::schema::parse::parse_value;
use crate::schema::store_value::{Backwards, FieldValue, Id16};
use crate::schema::{Encoding, FieldSchema, Format, KeyField, Schema, SchemaFormat, Transform, Value};
use crate::schema::{bare_type, int_range};

mod read;

/// A [`Schema`] compiled for encoding many keys: [`KeyPlan::encode_values`] gives the key and
/// the error [`Schema::encode_values`] gives, for a fraction of the work per key.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::schema::{KeyPlan, Value};
///
/// #[derive(RowKey)]
/// #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
/// struct Reading {
///     device_type: String,
///     device_id: String,
///     #[rowkey(reverse)]
///     ts_millis: i64,
/// }
///
/// let plan = KeyPlan::new(&Reading::SCHEMA);
/// let values = [Value::Str("phone".into()), Value::Str("4c410523".into()), Value::Int(1_588_291_200_000)];
/// let reading = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 };
/// assert_eq!(plan.encode_values(&values)?, reading.to_key()?);
///
/// // A value beyond its field: the schema's own error.
/// let wrong = [Value::Str("phone".into()), Value::Str("4c410523".into()), Value::Int(-1)];
/// let err = plan.encode_values(&wrong).unwrap_err();
/// assert_eq!(err.to_string(), Reading::SCHEMA.encode_values(&wrong).unwrap_err().to_string());
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Debug)]
pub struct KeyPlan {
    schema: Schema,
    format: PlanFormat,
    salt: Option<SaltPlan>,
    fields: Vec<FieldPlan>,
    /// The field count the format's writer is given: the key's fields, a raw prefix not
    /// among them.
    writer_fields: usize,
    /// Whether the plan reads keys itself (see [`KeyPlan::inspect`]).
    reads: bool,
}

/// The format a plan writes, resolved; `Interpreted` for what only the interpreter writes.
#[derive(Debug)]
enum PlanFormat {
    Ordered,
    Delimited(Delimited),
    FdbTuple(FdbTuple),
    Memcomparable,
    HBase,
    Interpreted,
}

#[derive(Debug)]
struct SaltPlan {
    salt: Salt,
    /// The source fields' indexes among the values, in the salt's order.
    sources: Vec<usize>,
}

#[derive(Debug)]
struct FieldPlan {
    field: &'static FieldSchema,
    check: Check,
    write: Write,
}

/// What a value must be for its field's Rust type to hold it, so that the key needs no
/// reading back: the cases [`Schema::encode_values`] trusts, decided once.
#[derive(Clone, Copy, Debug)]
enum Check {
    /// A `String` (without U+0000 in an HBase key, whose text ends at it).
    Text {
        nul: bool,
    },
    /// An integer within the type, and at least zero where it is written reversed or as
    /// unsigned digits.
    Int {
        lo: i128,
        hi: i128,
    },
    Float64,
    Bool,
    Uuid,
    /// Nothing is trusted: every key goes through the interpreter.
    Never,
}

/// How a field reaches the format's writer.
#[derive(Clone, Copy, Debug)]
enum Write {
    /// As a `str`.
    Str,
    /// As its Rust integer type, whose width the store formats write.
    Int(Int),
    F64,
    Bool,
    /// As 16 bytes, as a store format holds a UUID.
    Uuid,
    /// As `Reversed` of its Rust integer type: a delimited field written `max - value` in
    /// the type's own width, as the derive's `reverse` writes it.
    Reversed(Int),
    /// Through the schema's field writer of the format.
    Field,
}

/// The integer types a plan writes as themselves.
#[derive(Clone, Copy, Debug)]
enum Int {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

impl Int {
    fn of(ty: &str) -> Option<Int> {
        Some(match ty {
            "i8" => Int::I8,
            "i16" => Int::I16,
            "i32" => Int::I32,
            "i64" => Int::I64,
            "u8" => Int::U8,
            "u16" => Int::U16,
            "u32" => Int::U32,
            "u64" => Int::U64,
            _ => return None,
        })
    }
}

impl KeyPlan {
    /// Compiles `schema`. What the plan cannot resolve (a delimiter or salt the schema may
    /// not have, never in a derived key's schema) is left to the interpreter, which reports
    /// it when a key is encoded.
    ///
    /// ```
    /// use rowkey::schema::{Encoding, FieldSchema, Format, KeyPlan, Schema, Value};
    ///
    /// static DEVICE: Schema = Schema {
    ///     type_name: "Device",
    ///     format: Format::Ordered,
    ///     prefix: Some(b"dev"),
    ///     salt: None,
    ///     max_len: Schema::DEFAULT_MAX_LEN,
    ///     fields: &[FieldSchema::new("kind", "String", Encoding::Utf8), FieldSchema::new("id", "u32", Encoding::Int64)],
    ///     dynamodb: None,
    /// };
    /// let plan = KeyPlan::new(&DEVICE);
    /// assert_eq!(plan.schema().type_name, "Device");
    /// let values = [Value::Str("phone".into()), Value::Int(7)];
    /// assert_eq!(plan.encode_values(&values)?, DEVICE.encode_values(&values)?);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn new(schema: &Schema) -> KeyPlan {
        let schema = *schema;
        let flattened = schema.fields.iter().any(|f| matches!(f.encoding, Encoding::Flattened(_)));
        let format = match schema.format {
            _ if flattened => PlanFormat::Interpreted,
            Format::Ordered => PlanFormat::Ordered,
            Format::Delimited(delimiter) => match Delimited::new(delimiter) {
                Ok(delimited) => PlanFormat::Delimited(delimited),
                Err(_) => PlanFormat::Interpreted,
            },
            Format::FdbTuple => PlanFormat::FdbTuple(FdbTuple::default()),
            Format::Memcomparable => PlanFormat::Memcomparable,
            Format::HBase => PlanFormat::HBase,
            _ => PlanFormat::Interpreted,
        };
        let fields: Vec<FieldPlan> = schema.fields.iter().map(|field| FieldPlan::new(schema.format, field)).collect();
        let salt = match schema.salt {
            None => None,
            Some(salt) => {
                let sources = salt
                    .from
                    .iter()
                    .map(|name| schema.fields.iter().position(|f| f.name == *name))
                    .collect::<Option<Vec<usize>>>();
                match (sources, salt.salt()) {
                    (Some(sources), Ok(salt)) => Some(SaltPlan { salt, sources }),
                    // A source that is no field, a bucket count out of range: the
                    // interpreter says so.
                    _ => return Self::bare(schema, fields),
                }
            }
        };
        let prefix_is_field = matches!(format, PlanFormat::Ordered | PlanFormat::Delimited(_));
        let writer_fields =
            schema.key_fields().iter().filter(|f| prefix_is_field || !matches!(f, KeyField::Prefix(_))).count();
        let reads = read::reads(&format, &fields);
        KeyPlan { schema, format, salt, fields, writer_fields, reads }
    }

    fn bare(schema: Schema, fields: Vec<FieldPlan>) -> KeyPlan {
        KeyPlan { schema, format: PlanFormat::Interpreted, salt: None, fields, writer_fields: 0, reads: false }
    }

    /// The schema compiled.
    #[must_use]
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The key of the given values, in key order: what [`Schema::encode_values`] returns for
    /// them, key or error.
    ///
    /// # Errors
    ///
    /// As [`Schema::encode_values`].
    pub fn encode_values(&self, values: &[Value]) -> Result<Key> {
        let mut key = Key::new();
        if self.write_trusted(values, &mut key) {
            return Ok(key);
        }
        self.schema.encode_values(values)
    }

    /// Writes the key of `values` to `key` when the plan writes it itself; `false` for what
    /// it leaves to the interpreter.
    pub(crate) fn write_trusted<V: Borrow<Value>>(&self, values: &[V], key: &mut Key) -> bool {
        values.len() == self.fields.len()
            && self.trusts(values)
            && self.write(values, key).is_ok()
            && key.len() <= self.schema.max_len
    }

    /// The key of field values given as text, as [`Schema::encode`] takes them: what it
    /// returns for them, key or error. Each value is parsed by the field's own text parser,
    /// then written as [`encode_values`](Self::encode_values) writes it; a prefix or bucket
    /// given to be checked, a name given twice or unknown, or a text that does not parse goes
    /// to [`Schema::encode`], which names the fault.
    ///
    /// # Errors
    ///
    /// As [`Schema::encode`].
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::KeyPlan;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Visit { host: String, at: u32 }
    ///
    /// let plan = KeyPlan::new(&Visit::SCHEMA);
    /// assert_eq!(plan.encode(&[("at", "7"), ("host", "example.com")])?, "example.com#0000000007");
    /// let err = plan.encode(&[("host", "example.com"), ("at", "soon")]).unwrap_err();
    /// assert_eq!(err.to_string(), Visit::SCHEMA.encode(&[("host", "example.com"), ("at", "soon")]).unwrap_err().to_string());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn encode(&self, texts: &[(&str, &str)]) -> Result<Key> {
        match self.parse(texts) {
            Some(values) => self.encode_values(&values),
            None => self.schema.encode(texts),
        }
    }

    /// The values of `texts` in key order, when each field is given once and parses.
    fn parse(&self, texts: &[(&str, &str)]) -> Option<Vec<Value>> {
        if matches!(self.format, PlanFormat::Interpreted) || texts.len() != self.fields.len() {
            return None;
        }
        let mut values = vec![None; self.fields.len()];
        for &(name, text) in texts {
            let at = self.fields.iter().position(|plan| plan.field.name == name)?;
            let value = parse_value(self.schema.format, self.fields[at].field, text).ok()?;
            if values[at].replace(value).is_some() {
                return None;
            }
        }
        values.into_iter().collect()
    }

    /// Whether the plan writes the key of `values` itself: a format it writes, and every value
    /// one its field's type holds.
    fn trusts<V: Borrow<Value>>(&self, values: &[V]) -> bool {
        !matches!(self.format, PlanFormat::Interpreted)
            && self.fields.iter().zip(values).all(|(plan, value)| plan.holds(value.borrow()))
    }

    fn write<V: Borrow<Value>>(&self, values: &[V], out: &mut Key) -> Result<()> {
        let bucket = match &self.salt {
            Some(salt) => Some((&salt.salt, self.bucket(salt, |i| values[i].borrow())?)),
            None => None,
        };
        match &self.format {
            PlanFormat::Ordered => self.write_as(&Ordered, bucket, values, out),
            PlanFormat::Delimited(delimited) => self.write_as(delimited, bucket, values, out),
            PlanFormat::FdbTuple(fdb) => self.write_as(fdb, bucket, values, out),
            PlanFormat::Memcomparable => self.write_as(&Memcomparable, bucket, values, out),
            PlanFormat::HBase => self.write_as(&HBase, bucket, values, out),
            PlanFormat::Interpreted => unreachable!("an interpreted plan writes no key itself"),
        }
    }

    /// The salt bucket of `values`: the hash of the source fields' ordered encoding, or one
    /// integer field modulo the bucket count, as the derive computes it.
    fn bucket<'v>(&self, plan: &SaltPlan, value: impl Fn(usize) -> &'v Value) -> Result<u32> {
        if plan.salt.hash() == SaltHash::Modulo {
            return match plan.sources.first().map(|&i| value(i)) {
                Some(Value::Int(v)) => Ok(plan.salt.modulo_bucket(*v)),
                _ => Err(crate::Error::argument("salt", "a modulo salt takes one integer field")),
            };
        }
        let delimited = matches!(self.format, PlanFormat::Delimited(_));
        let mut encoded = Key::new();
        let mut w = OrderedWriter::new(&mut encoded);
        for &i in &plan.sources {
            match value(i) {
                // Text is its own bytes, but an `Option`'s `Some` of empty or all-`00` text
                // hashes with one `00` more (see `natural_bytes`), or `Some("\0")` would hash
                // as the type hashes `Some("")`.
                Value::Str(text) if !self.fields[i].field.optional => w.field(&Encoded(text.as_bytes()))?,
                value => {
                    let bytes = natural_bytes(self.fields[i].field, value, delimited)
                        .ok_or_else(|| crate::Error::argument("salt", "a source the schema cannot hash"))?;
                    w.field(&Encoded(&bytes))?
                }
            };
        }
        plan.salt.bucket_of_encoded(&encoded)
    }

    fn write_as<F: Planned>(
        &self,
        format: &F,
        bucket: Option<(&Salt, u32)>,
        values: &[impl Borrow<Value>],
        out: &mut Key,
    ) -> Result<()> {
        let mut w = format.writer(out, self.writer_fields);
        if let Some(prefix) = self.schema.prefix {
            w.prefix(prefix)?;
        }
        if let Some((salt, bucket)) = bucket {
            F::put_bucket(&mut w, salt, bucket)?;
        }
        for (plan, value) in self.fields.iter().zip(values) {
            F::put_field(&mut w, plan, value.borrow())?;
        }
        w.finish();
        Ok(())
    }
}

impl FieldPlan {
    fn new(format: Format, field: &'static FieldSchema) -> FieldPlan {
        let ty = bare_type(field.rust_type);
        let range = int_range(ty);
        let ints = matches!(field.encoding, Encoding::Int64 | Encoding::Uint64 | Encoding::Decimal { .. });
        let check = match (field.transform, field.encoding, range) {
            (Transform::Reverse { max }, _, Some((lo, hi))) if ints => {
                Check::Int { lo: lo.max(0), hi: hi.min(max.into()) }
            }
            (Transform::None, Encoding::Utf8, _) if ty == "String" => Check::Text { nul: format != Format::HBase },
            (Transform::None, Encoding::Int64 | Encoding::Uint64, Some((lo, hi))) => Check::Int { lo, hi },
            (Transform::None, Encoding::Decimal { signed, .. }, Some((lo, hi))) => {
                Check::Int { lo: if signed { lo } else { lo.max(0) }, hi }
            }
            (Transform::None, Encoding::Float64, _) if ty == "f64" => Check::Float64,
            (Transform::None, Encoding::Bool, _) if ty == "bool" => Check::Bool,
            (Transform::None, Encoding::Uuid, _) if ty == "Uuid" => Check::Uuid,
            _ => Check::Never,
        };
        // Typed writes where the format writes the Rust type as the field says: text in every
        // built-in format, integers, floats and bools in the binary ones. An optional or
        // transformed field, a descending one where the format has no descending order, and
        // any other type take the schema's field writer.
        let plain = field.transform == Transform::None
            && !field.optional
            && !(field.descending && matches!(format, Format::FdbTuple | Format::Delimited(_)));
        let binary = matches!(format, Format::Ordered | Format::FdbTuple | Format::Memcomparable | Format::HBase);
        let reversed = match (format, field.transform, field.encoding, range, Int::of(ty)) {
            (
                Format::Delimited(_),
                Transform::Reverse { max },
                Encoding::Decimal { width, .. },
                Some((_, hi)),
                Some(int),
            ) if i128::from(max) == hi && usize::from(width) == hi.to_string().len() && !field.optional => Some(int),
            _ => None,
        };
        let write = match check {
            _ if reversed.is_some() => reversed.map_or(Write::Field, Write::Reversed),
            _ if !plain => Write::Field,
            Check::Text { .. } if binary || matches!(format, Format::Delimited(_)) => Write::Str,
            Check::Int { .. } if binary && matches!(field.encoding, Encoding::Int64 | Encoding::Uint64) => {
                Int::of(ty).map_or(Write::Field, Write::Int)
            }
            Check::Float64 if binary => Write::F64,
            Check::Bool if binary => Write::Bool,
            Check::Uuid if binary && format != Format::Ordered => Write::Uuid,
            _ => Write::Field,
        };
        FieldPlan { field, check, write }
    }

    /// Whether the field's type holds `value` as the key writes it (see [`Check`]).
    #[inline]
    fn holds(&self, value: &Value) -> bool {
        match (self.check, value) {
            // An `Option`'s None, of a field written as it is.
            (_, Value::Null) => {
                self.field.optional && self.field.transform == Transform::None && !matches!(self.check, Check::Never)
            }
            (Check::Text { nul }, Value::Str(text)) => nul || !text.contains('\0'),
            (Check::Int { lo, hi }, Value::Int(v)) => (lo..=hi).contains(v),
            (Check::Float64, Value::Float(_)) | (Check::Bool, Value::Bool(_)) | (Check::Uuid, Value::Uuid(_)) => true,
            _ => false,
        }
    }
}

/// A format the plan writes: how a bucket and a field reach its writer.
trait Planned: KeyFormat {
    fn put_bucket(w: &mut Self::Writer<'_>, salt: &Salt, bucket: u32) -> Result<()>;
    fn put_field(w: &mut Self::Writer<'_>, plan: &FieldPlan, value: &Value) -> Result<()>;
}

/// Writes a field as its Rust type (descending through `$desc`: `Desc`, or the schema's
/// `Backwards` in a format that may have no descending order), or, for `Write::Field`,
/// through `$field`, the schema's field writer of the format. Each value is of the variant
/// its check admitted; were it not, the error sends the key to the interpreter.
macro_rules! put_typed {
    ($w:expr, $plan:expr, $value:expr, $desc:ident, $field:expr) => {{
        let (w, plan, value) = ($w, $plan, $value);
        let (name, desc) = (plan.field.name, plan.field.descending);
        macro_rules! put {
            ($typed:expr) => {
                if desc {
                    w.named_field(name, &$desc($typed)).map(drop)
                } else {
                    w.named_field(name, &$typed).map(drop)
                }
            };
        }
        let wide = || crate::Error::argument("field value", "an integer beyond its type");
        match (plan.write, value) {
            (Write::Str, Value::Str(text)) => put!(text.as_str()),
            (Write::Int(int), Value::Int(v)) => match int {
                Int::I8 => put!(i8::try_from(*v).map_err(|_| wide())?),
                Int::I16 => put!(i16::try_from(*v).map_err(|_| wide())?),
                Int::I32 => put!(i32::try_from(*v).map_err(|_| wide())?),
                Int::I64 => put!(i64::try_from(*v).map_err(|_| wide())?),
                Int::U8 => put!(u8::try_from(*v).map_err(|_| wide())?),
                Int::U16 => put!(u16::try_from(*v).map_err(|_| wide())?),
                Int::U32 => put!(u32::try_from(*v).map_err(|_| wide())?),
                Int::U64 => put!(u64::try_from(*v).map_err(|_| wide())?),
            },
            (Write::F64, Value::Float(x)) => put!(*x),
            (Write::Bool, Value::Bool(b)) => put!(*b),
            (Write::Uuid, Value::Uuid(bytes)) => put!(Id16(*bytes)),
            _ => $field(w, plan, value),
        }
    }};
}

impl Planned for Ordered {
    fn put_bucket(w: &mut Self::Writer<'_>, salt: &Salt, bucket: u32) -> Result<()> {
        w.named_field(Schema::BUCKET_FIELD, &salt.bucket_field(bucket)).map(drop)
    }

    fn put_field(w: &mut Self::Writer<'_>, plan: &FieldPlan, value: &Value) -> Result<()> {
        put_typed!(w, plan, value, Desc, |w: &mut Self::Writer<'_>, plan: &FieldPlan, value| {
            let bytes = FieldBytes { field: plan.field, value };
            if plan.field.descending {
                w.named_field(plan.field.name, &Desc(bytes))
            } else {
                w.named_field(plan.field.name, &bytes)
            }
            .map(drop)
        })
    }
}

impl Planned for Delimited {
    fn put_bucket(w: &mut Self::Writer<'_>, salt: &Salt, bucket: u32) -> Result<()> {
        w.named_field(Schema::BUCKET_FIELD, &salt.bucket_field(bucket)).map(drop)
    }

    fn put_field(w: &mut Self::Writer<'_>, plan: &FieldPlan, value: &Value) -> Result<()> {
        let name = plan.field.name;
        let wide = || crate::Error::argument("field value", "an integer beyond its type");
        match (plan.write, value) {
            (Write::Str, Value::Str(text)) => w.named_field(name, text.as_str()).map(drop),
            (Write::Reversed(int), Value::Int(v)) => match int {
                Int::I8 => w.named_field(name, &Reversed(i8::try_from(*v).map_err(|_| wide())?)),
                Int::I16 => w.named_field(name, &Reversed(i16::try_from(*v).map_err(|_| wide())?)),
                Int::I32 => w.named_field(name, &Reversed(i32::try_from(*v).map_err(|_| wide())?)),
                Int::I64 => w.named_field(name, &Reversed(i64::try_from(*v).map_err(|_| wide())?)),
                Int::U8 => w.named_field(name, &Reversed(u8::try_from(*v).map_err(|_| wide())?)),
                Int::U16 => w.named_field(name, &Reversed(u16::try_from(*v).map_err(|_| wide())?)),
                Int::U32 => w.named_field(name, &Reversed(u32::try_from(*v).map_err(|_| wide())?)),
                Int::U64 => w.named_field(name, &Reversed(u64::try_from(*v).map_err(|_| wide())?)),
            }
            .map(drop),
            _ => w.named_field(name, &FieldText { field: plan.field, value }).map(drop),
        }
    }
}

/// The store formats: a bucket as the format's `u16` (an MD5 salt's, its text), other fields
/// through the schema's field writer, as the interpreter's `add_field` writes them.
macro_rules! planned_store {
    ($($format:ty),*) => {$(
        impl Planned for $format {
            fn put_bucket(w: &mut Self::Writer<'_>, salt: &Salt, bucket: u32) -> Result<()> {
                w.named_field(Schema::BUCKET_FIELD, &salt.store_bucket(bucket)).map(drop)
            }

            fn put_field(w: &mut Self::Writer<'_>, plan: &FieldPlan, value: &Value) -> Result<()> {
                put_typed!(w, plan, value, Backwards, put_store_field::<$format>)
            }
        }
    )*};
}

fn put_store_field<F: SchemaFormat>(w: &mut F::Writer<'_>, plan: &FieldPlan, value: &Value) -> Result<()> {
    let value = FieldValue { field: plan.field, value };
    let name = plan.field.name;
    if plan.field.descending { w.named_field(name, &Backwards(value)) } else { w.named_field(name, &value) }.map(drop)
}

planned_store!(FdbTuple, Memcomparable, HBase);

#[cfg(test)]
mod tests {
    use super::*;

    static BINARY: [FieldSchema; 2] =
        [FieldSchema::new("kind", "String", Encoding::Utf8), FieldSchema::new("id", "i64", Encoding::Int64)];
    static TEXT: [FieldSchema; 2] = [
        FieldSchema::new("kind", "String", Encoding::Utf8),
        FieldSchema::new("id", "i64", Encoding::Decimal { width: 19, signed: true }),
    ];

    fn schema(format: Format) -> Schema {
        let fields = if matches!(format, Format::Delimited(_)) { &TEXT } else { &BINARY };
        Schema { type_name: "T", format, prefix: Some(b"p"), salt: None, max_len: 64, fields, dynamodb: None }
    }

    /// The plan writes keys of the built-in formats itself, and hands a value beyond its type
    /// to the interpreter.
    #[test]
    fn the_plan_writes_what_it_trusts() {
        let good = [Value::Str("phone".into()), Value::Int(-7)];
        let wide = [Value::Str("phone".into()), Value::Int(i128::from(i64::MAX) + 1)];
        for format in [Format::Ordered, Format::Delimited("#"), Format::FdbTuple, Format::Memcomparable, Format::HBase]
        {
            let plan = KeyPlan::new(&schema(format));
            assert!(!matches!(plan.format, PlanFormat::Interpreted), "{format}");
            assert!(plan.trusts(&good) && !plan.trusts(&wide), "{format}");
            let mut key = Key::new();
            plan.write(&good, &mut key).unwrap();
            assert_eq!(key, schema(format).encode_values(&good).unwrap(), "{format}");
        }
    }
}
