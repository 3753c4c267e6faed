//! [`KeyPlan::inspect`]: a key read through the plan. A field the plan writes as a Rust type
//! is read as that type by the format's own reader of it (the code the derived `from_key`
//! runs); any other field by the interpreter's decoder of the format for its description,
//! without the interpreter's walk of the schema. The salt bucket is checked against the
//! bucket the values give. A key the plan does not read (a flattened struct, a format only the
//! interpreter knows) or cannot read (any fault at all) goes to [`Schema::inspect`], so that
//! the answer for a bad key is the interpreter's, word for word.

use crate::error::Result;
use crate::field::{Desc, FieldBytes, FieldType, ReadField, Reversed};
use crate::format::{Delimited, DelimitedText, FdbTuple, HBase, KeyFormat, KeyReader, Memcomparable, Ordered};
use crate::salt::Salt;
use crate::salt::bucket::{read_bucket, read_bucket_field};
use crate::salt::store::read_store_bucket_field;
use crate::schema::decode;
use crate::schema::inspection::{InspectedField, Inspection};
use crate::schema::reading::bucket_shown;
use crate::schema::store_value::{Backwards, Id16, read_value};
use crate::schema::{Encoding, KeyField, Schema, Value, prefix_value};

use super::{FieldPlan, Int, KeyPlan, PlanFormat, Write};

impl KeyPlan {
    /// Reads `key` field by field: what [`Schema::inspect`] returns for it, fields or error.
    ///
    /// # Errors
    ///
    /// As [`Schema::inspect`]: the first place where the bytes stop matching the schema.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::KeyPlan;
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
    /// let key = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 }
    ///     .to_key()?;
    /// let fields = plan.inspect(&key)?;
    /// assert_eq!(fields.to_string(), "bucket=1 device_type=phone device_id=4c410523 ts_millis=1588291200000 (reversed)");
    /// assert_eq!(fields, Reading::SCHEMA.inspect(&key)?);
    ///
    /// // A bucket that is not the one its device gives: the interpreter's error.
    /// let moved = [b"02", &key[2..]].concat();
    /// let err = plan.inspect(&moved).unwrap_err();
    /// assert_eq!(err.to_string(), Reading::SCHEMA.inspect(&moved).unwrap_err().to_string());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn inspect(&self, key: &[u8]) -> Result<Inspection> {
        match self.read(key) {
            Some(fields) => Ok(Inspection { type_name: self.schema.type_name, fields }),
            None => self.schema.inspect(key),
        }
    }

    /// The fields of `key` as the plan reads them; `None` for a key it leaves to the
    /// interpreter.
    pub(super) fn read(&self, key: &[u8]) -> Option<Vec<InspectedField>> {
        if !self.reads || key.len() > self.schema.max_len {
            return None;
        }
        let mut out = Vec::with_capacity(self.writer_fields + 1);
        let found = match &self.format {
            PlanFormat::Ordered => self.read_as(&Ordered, key, &mut out),
            PlanFormat::Delimited(delimited) => self.read_as(delimited, key, &mut out),
            PlanFormat::FdbTuple(fdb) => self.read_as(fdb, key, &mut out),
            PlanFormat::Memcomparable => self.read_as(&Memcomparable, key, &mut out),
            PlanFormat::HBase => self.read_as(&HBase, key, &mut out),
            PlanFormat::Interpreted => return None,
        }
        .ok()?;
        if let (Some(salt), Some(found)) = (&self.salt, found) {
            let lead = out.len() - self.fields.len();
            let expected = self.bucket(salt, |i| &out[lead + i].value).ok()?;
            if expected != found {
                return None;
            }
        }
        Some(out)
    }

    /// Reads the prefix, the bucket and the fields in key order; the bucket as read.
    fn read_as<F: Reads>(&self, format: &F, key: &[u8], out: &mut Vec<InspectedField>) -> Result<Option<u32>> {
        format.check_start(key)?;
        let mut r = format.reader(key, self.writer_fields);
        if let Some(prefix) = self.schema.prefix {
            let offset = r.position();
            let len = F::prefix(&mut r, prefix)?;
            let (name, field) = (Schema::PREFIX_FIELD, KeyField::Prefix(prefix));
            out.push(InspectedField { name, value: prefix_value(prefix), offset, len, field });
        }
        let mut found = None;
        if let (Some(plan), Some(schema)) = (&self.salt, self.schema.salt) {
            let offset = r.position();
            let (bucket, len) = F::bucket(&mut r, &plan.salt)?;
            let (name, field) = (Schema::BUCKET_FIELD, KeyField::Bucket(schema));
            out.push(InspectedField { name, value: bucket_shown(&plan.salt, bucket), offset, len, field });
            found = Some(bucket);
        }
        for plan in &self.fields {
            let offset = r.position();
            let (value, len) = F::value(&mut r, plan)?;
            out.push(InspectedField { name: plan.field.name, value, offset, len, field: KeyField::Value(plan.field) });
        }
        r.finish()?;
        Ok(found)
    }
}

/// Whether the plan reads keys of `fields` in `format` itself: a format it writes, and no
/// descending field in a delimited key (which has no descending order; the interpreter says so).
pub(super) fn reads(format: &PlanFormat, fields: &[FieldPlan]) -> bool {
    let delimited = matches!(format, PlanFormat::Delimited(_));
    !matches!(format, PlanFormat::Interpreted) && !fields.iter().any(|plan| delimited && plan.field.descending)
}

/// A format the plan reads: its prefix, bucket and fields, each with the length
/// [`Schema::inspect`] records for it (what a sensitive field shows in place of its value).
trait Reads: KeyFormat {
    fn prefix(r: &mut Self::Reader<'_, '_>, prefix: &'static [u8]) -> Result<usize>;
    fn bucket(r: &mut Self::Reader<'_, '_>, salt: &Salt) -> Result<(u32, usize)>;
    fn value(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)>;

    /// Reads the next field by its description, with the interpreter's decoder of the format:
    /// a field the plan does not read as a Rust type of its own.
    fn described(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)>;

    /// Reads the next field as a `T` (descending as the field is).
    fn typed<'de, T: ReadField<'de, Self::Values>>(
        r: &mut Self::Reader<'_, 'de>,
        plan: &FieldPlan,
    ) -> Result<(T, usize)>;
}

/// A value with the length of the bytes its format handed to its reader: unescaped (and
/// un-negated, for a descending field) in the ordered format, the field's text in the
/// delimited one.
struct Measured<T>(T, usize);

impl<T: FieldType> FieldType for Measured<T> {
    const ENCODING: Encoding = T::ENCODING;
    const DESCENDING: bool = T::DESCENDING;
    const BYTE_STRING: bool = T::BYTE_STRING;
}

impl<'de, T: ReadField<'de, Ordered>> ReadField<'de, Ordered> for Measured<T> {
    fn read(input: FieldBytes<'de>) -> Result<Self> {
        let len = input.len();
        T::read(input).map(|value| Measured(value, len))
    }
}

impl<'de, T: ReadField<'de, DelimitedText>> ReadField<'de, DelimitedText> for Measured<T> {
    fn read(input: &'de [u8]) -> Result<Self> {
        T::read(input).map(|value| Measured(value, input.len()))
    }
}

/// The value of a field read as one of the plan's integer types, with its length.
fn int<T: Into<i128>>((v, len): (T, usize)) -> (Value, usize) {
    (Value::Int(v.into()), len)
}

/// Reads a field as the Rust type its plan writes it as, through `$format`'s `typed`: text
/// and integers in every format, and the arms given for the types only some formats have.
macro_rules! read_value {
    ($format:ty, $r:ident, $plan:ident $(, $write:pat => $arm:expr)*) => {{
        let (r, plan) = (&mut *$r, $plan);
        match plan.write {
            Write::Str => <$format>::typed::<String>(r, plan).map(|(v, len)| (Value::Str(v), len)),
            Write::Int(Int::I8) => <$format>::typed::<i8>(r, plan).map(int),
            Write::Int(Int::I16) => <$format>::typed::<i16>(r, plan).map(int),
            Write::Int(Int::I32) => <$format>::typed::<i32>(r, plan).map(int),
            Write::Int(Int::I64) => <$format>::typed::<i64>(r, plan).map(int),
            Write::Int(Int::U8) => <$format>::typed::<u8>(r, plan).map(int),
            Write::Int(Int::U16) => <$format>::typed::<u16>(r, plan).map(int),
            Write::Int(Int::U32) => <$format>::typed::<u32>(r, plan).map(int),
            Write::Int(Int::U64) => <$format>::typed::<u64>(r, plan).map(int),
            $($write => $arm,)*
            _ => <$format>::described(r, plan),
        }
    }};
}

/// The binary formats' further types: `f64`, `bool`, and (but in the ordered format, which
/// holds a UUID as bytes) 16-byte identifiers.
macro_rules! read_binary {
    ($format:ty, $r:ident, $plan:ident) => {
        read_value!($format, $r, $plan,
            Write::F64 => <$format>::typed::<f64>($r, $plan).map(|(v, len)| (Value::Float(v), len)),
            Write::Bool => <$format>::typed::<bool>($r, $plan).map(|(v, len)| (Value::Bool(v), len)),
            Write::Uuid => <$format>::typed::<Id16>($r, $plan).map(|(v, len)| (Value::Uuid(v.0), len)))
    };
}

impl Reads for Ordered {
    fn prefix(r: &mut Self::Reader<'_, '_>, prefix: &'static [u8]) -> Result<usize> {
        // The interpreter records no length for the ordered format's prefix and bucket.
        r.prefix(prefix).map(|()| 0)
    }

    fn bucket(r: &mut Self::Reader<'_, '_>, salt: &Salt) -> Result<(u32, usize)> {
        read_bucket_field::<Ordered, _>(r, salt, false).map(|bucket| (bucket, 0))
    }

    fn value(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)> {
        read_binary!(Ordered, r, plan)
    }

    fn described(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)> {
        let (bytes, len) = Self::typed::<Vec<u8>>(r, plan)?;
        decode::binary(plan.field, bytes).map(|value| (value, len))
    }

    fn typed<'de, T: ReadField<'de, Ordered>>(r: &mut Self::Reader<'_, 'de>, plan: &FieldPlan) -> Result<(T, usize)> {
        let name = plan.field.name;
        let Measured(value, len) =
            if plan.field.descending { r.named_field::<Desc<Measured<T>>>(name)?.0 } else { r.named_field(name)? };
        Ok((value, len))
    }
}

impl Reads for Delimited {
    fn prefix(r: &mut Self::Reader<'_, '_>, prefix: &'static [u8]) -> Result<usize> {
        r.prefix(prefix).map(|()| prefix.len())
    }

    fn bucket(r: &mut Self::Reader<'_, '_>, salt: &Salt) -> Result<(u32, usize)> {
        let (index, offset) = (r.field_index(), r.position());
        let text: &[u8] = r.named_field(Schema::BUCKET_FIELD)?;
        read_bucket(salt, text, true, index, offset).map(|bucket| (bucket, text.len()))
    }

    fn value(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)> {
        read_value!(Delimited, r, plan,
            Write::Reversed(Int::I8) => reversed::<i8>(r, plan),
            Write::Reversed(Int::I16) => reversed::<i16>(r, plan),
            Write::Reversed(Int::I32) => reversed::<i32>(r, plan),
            Write::Reversed(Int::I64) => reversed::<i64>(r, plan),
            Write::Reversed(Int::U8) => reversed::<u8>(r, plan),
            Write::Reversed(Int::U16) => reversed::<u16>(r, plan),
            Write::Reversed(Int::U32) => reversed::<u32>(r, plan),
            Write::Reversed(Int::U64) => reversed::<u64>(r, plan))
    }

    fn described(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)> {
        let text: &[u8] = r.named_field(plan.field.name)?;
        decode::text(plan.field, text).map(|value| (value, text.len()))
    }

    fn typed<'de, T: ReadField<'de, DelimitedText>>(
        r: &mut Self::Reader<'_, 'de>,
        plan: &FieldPlan,
    ) -> Result<(T, usize)> {
        let Measured(value, len) = r.named_field(plan.field.name)?;
        Ok((value, len))
    }
}

/// A delimited `reverse` field, read as `Reversed` of its integer type: the value it held.
fn reversed<T>(r: &mut <Delimited as KeyFormat>::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)>
where
    T: Into<i128>,
    for<'de> Reversed<T>: ReadField<'de, DelimitedText>,
{
    Delimited::typed::<Reversed<T>>(r, plan).map(|(v, len)| (Value::Int(v.0.into()), len))
}

/// The store formats: the prefix raw, the bucket as the format's `u16` (an MD5 salt's, its
/// text), descending fields `Backwards`; each length the bytes the field took.
macro_rules! reads_store {
    ($($format:ty),*) => {$(
        impl Reads for $format {
            fn prefix(r: &mut Self::Reader<'_, '_>, prefix: &'static [u8]) -> Result<usize> {
                let offset = r.position();
                r.prefix(prefix)?;
                Ok(r.position() - offset)
            }

            fn bucket(r: &mut Self::Reader<'_, '_>, salt: &Salt) -> Result<(u32, usize)> {
                let offset = r.position();
                let bucket = read_store_bucket_field::<$format, _>(r, salt)?;
                Ok((bucket, r.position() - offset))
            }

            fn value(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)> {
                read_binary!($format, r, plan)
            }

            fn described(r: &mut Self::Reader<'_, '_>, plan: &FieldPlan) -> Result<(Value, usize)> {
                let offset = r.position();
                let value = read_value::<$format>(r, plan.field)?;
                Ok((value, r.position() - offset))
            }

            fn typed<'de, T: ReadField<'de, $format>>(
                r: &mut Self::Reader<'_, 'de>,
                plan: &FieldPlan,
            ) -> Result<(T, usize)> {
                let (name, offset) = (plan.field.name, r.position());
                let value =
                    if plan.field.descending { r.named_field::<Backwards<T>>(name)?.0 } else { r.named_field(name)? };
                Ok((value, r.position() - offset))
            }
        }
    )*};
}

reads_store!(FdbTuple, Memcomparable, HBase);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{FieldSchema, Format, SaltSchema};

    static BINARY: [FieldSchema; 5] = [
        FieldSchema::new("kind", "String", Encoding::Utf8),
        FieldSchema { descending: true, ..FieldSchema::new("id", "i64", Encoding::Int64) },
        FieldSchema::new("score", "f64", Encoding::Float64),
        FieldSchema::new("on", "bool", Encoding::Bool),
        FieldSchema::new("raw", "Vec<u8>", Encoding::Bytes),
    ];
    static ASCENDING: [FieldSchema; 5] = [
        FieldSchema::new("kind", "String", Encoding::Utf8),
        FieldSchema::new("id", "i64", Encoding::Int64),
        FieldSchema::new("score", "f64", Encoding::Float64),
        FieldSchema::new("on", "bool", Encoding::Bool),
        FieldSchema::new("raw", "Vec<u8>", Encoding::Bytes),
    ];
    static TEXT: [FieldSchema; 3] = [
        FieldSchema::new("kind", "String", Encoding::Utf8),
        FieldSchema {
            transform: crate::schema::Transform::Reverse { max: i64::MAX.cast_unsigned() },
            ..FieldSchema::new("id", "i64", Encoding::Decimal { width: 19, signed: false })
        },
        FieldSchema::new("tag", "u32", Encoding::Hex { digits: Some(8) }),
    ];
    static SALT: SaltSchema = SaltSchema { buckets: 8, hash: crate::salt::SaltHash::FarmHash, from: &["kind"] };

    /// A key of every type the plan reads as itself in `format` (a descending integer where
    /// the format has a descending order, a reversed one in the delimited format), and one it
    /// reads by its description (bytes; hex text).
    fn schema(format: Format) -> Schema {
        let fields: &'static [FieldSchema] = match format {
            Format::Delimited(_) => &TEXT,
            Format::FdbTuple => &ASCENDING,
            _ => &BINARY,
        };
        Schema { type_name: "T", format, prefix: Some(b"p"), salt: Some(SALT), max_len: 64, fields, dynamodb: None }
    }

    /// The plan reads keys of every built-in format itself, salted and prefixed, a descending
    /// field where the format has them, a field of a type it reads by its description: the
    /// fields the interpreter reads.
    #[test]
    fn the_plan_reads_what_it_writes() {
        for format in [Format::Ordered, Format::Delimited("#"), Format::FdbTuple, Format::Memcomparable, Format::HBase]
        {
            let schema = schema(format);
            let values: Vec<Value> = schema
                .fields
                .iter()
                .map(|field| match field.encoding {
                    Encoding::Utf8 => Value::Str("phone".into()),
                    Encoding::Float64 => Value::Float(-0.5),
                    Encoding::Bool => Value::Bool(true),
                    Encoding::Bytes => Value::Bytes(vec![0, 0xff]),
                    Encoding::Hex { .. } => Value::Int(0x4c41),
                    _ => Value::Int(7),
                })
                .collect();
            let plan = KeyPlan::new(&schema);
            assert!(plan.reads, "{format}");
            let key = plan.encode_values(&values).unwrap();
            let read = plan.read(&key).unwrap_or_else(|| panic!("{format}: the plan left {key:?} to the interpreter"));
            assert_eq!(Inspection { type_name: "T", fields: read }, schema.inspect(&key).unwrap(), "{format}");
        }
    }
}
