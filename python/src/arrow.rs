//! pyarrow into the batch forms: a `RecordBatch` or `Table` of columns for `encode_many`, a
//! `BinaryArray` of keys for `decode_many` (what goes back is built in `columns.rs`). The
//! common column types are read straight from the arrays' buffers, so a batch of plain
//! columns never makes a Python object per value; a column of any other type goes through
//! `to_pylist()` and the dict path's text forms, whose rules and errors it then has.
//!
//! Buffers cross as `bytes` (`Buffer.to_pybytes()`, `pyarrow.py_buffer`): the limited API
//! the abi3 wheel is built on has no buffer protocol, and one copy of a column is cheap
//! beside a Python object per value.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rowkey::schema::{Encoding, FieldSchema, KeyPlan, Value};

use crate::columns::KeyColumn;
use crate::row::in_row;
use crate::{BadKeyError, BadValueError};

/// Whether `obj` is a pyarrow object (checked by its class's module, so that nothing imports
/// pyarrow for a list of dicts).
pub(crate) fn is_arrow(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let module = obj.get_type().getattr(pyo3::intern!(obj.py(), "__module__"))?;
    Ok(module.extract::<String>().is_ok_and(|m| m == "pyarrow" || m.starts_with("pyarrow.")))
}

/// One Arrow array's buffers, copied out, with its slice offset and length.
struct Array {
    len: usize,
    offset: usize,
    type_text: String,
    validity: Option<Vec<u8>>,
    buffers: Vec<Vec<u8>>,
    /// The timestamp's unit and whether it has a time zone, for a timestamp array.
    time: Option<(String, bool)>,
    /// The width of a `fixed_size_binary` value, from the type: a buffer may be longer than
    /// its values need.
    byte_width: usize,
}

impl Array {
    fn read(array: &Bound<'_, PyAny>) -> PyResult<Array> {
        let py = array.py();
        let mut array = array.clone();
        let mut ty = array.getattr(pyo3::intern!(py, "type"))?;
        // An extension type (pyarrow's `uuid`) is its storage's layout.
        if ty.hasattr(pyo3::intern!(py, "storage_type"))? {
            array = array.getattr("storage")?;
            ty = array.getattr(pyo3::intern!(py, "type"))?;
        }
        let type_text = ty.str()?.to_string();
        let byte_width =
            if type_text.starts_with("fixed_size_binary") { ty.getattr("byte_width")?.extract()? } else { 0 };
        let time = if type_text.starts_with("timestamp") {
            Some((ty.getattr("unit")?.extract()?, !ty.getattr("tz")?.is_none()))
        } else {
            None
        };
        let mut buffers = Vec::new();
        let mut validity = None;
        for (i, buffer) in array.call_method0("buffers")?.try_iter()?.enumerate() {
            let buffer = buffer?;
            let bytes = if buffer.is_none() {
                Vec::new()
            } else {
                buffer.call_method0("to_pybytes")?.cast_into::<PyBytes>()?.as_bytes().to_vec()
            };
            if i == 0 {
                validity = (!buffer.is_none()).then_some(bytes);
            } else {
                buffers.push(bytes);
            }
        }
        Ok(Array {
            len: array.len()?,
            offset: array.getattr("offset")?.extract()?,
            type_text,
            validity,
            buffers,
            time,
            byte_width,
        })
    }

    fn is_null(&self, i: usize) -> bool {
        let at = self.offset + i;
        self.validity.as_ref().is_some_and(|bits| bits[at / 8] & (1 << (at % 8)) == 0)
    }

    /// The `width` little-endian bytes of value `i` in the values buffer.
    fn fixed(&self, i: usize, width: usize) -> &[u8] {
        let at = (self.offset + i) * width;
        &self.buffers[0][at..at + width]
    }

    /// Value `i` of a variable-width array (string, binary, their large forms).
    fn variable(&self, i: usize) -> &[u8] {
        let at = self.offset + i;
        let (start, end) = if self.type_text.starts_with("large_") {
            let word = |j: usize| le_i64(&self.buffers[0][j * 8..j * 8 + 8]);
            (word(at), word(at + 1))
        } else {
            let word = |j: usize| {
                i64::from(i32::from_le_bytes(self.buffers[0][j * 4..j * 4 + 4].try_into().unwrap_or([0; 4])))
            };
            (word(at), word(at + 1))
        };
        &self.buffers[1][usize::try_from(start).unwrap_or(0)..usize::try_from(end).unwrap_or(0)]
    }

    fn bit(&self, i: usize) -> bool {
        let at = self.offset + i;
        self.buffers[0][at / 8] & (1 << (at % 8)) != 0
    }
}

/// An `f32` as the schema's `f64` holds it: a NaN's payload moved bit for bit, where the
/// hardware's conversion would quiet a signalling NaN and the key would change.
fn widen(x: f32) -> f64 {
    if !x.is_nan() {
        return f64::from(x);
    }
    let bits = u64::from(x.to_bits());
    f64::from_bits((bits & 0x8000_0000) << 32 | 0x7ff0_0000_0000_0000 | (bits & 0x007f_ffff) << 29)
}

fn le_i64(bytes: &[u8]) -> i64 {
    i64::from_le_bytes(bytes.try_into().unwrap_or([0; 8]))
}

fn int_width(type_text: &str) -> Option<(usize, bool)> {
    Some(match type_text {
        "int8" => (1, true),
        "int16" => (2, true),
        "int32" => (4, true),
        "int64" => (8, true),
        "uint8" => (1, false),
        "uint16" => (2, false),
        "uint32" => (4, false),
        "uint64" => (8, false),
        _ => return None,
    })
}

/// How a column of an Arrow type reaches a field: `None` where the pair has no direct
/// reading, and the batch goes the dict way.
fn reads(field: &FieldSchema, array: &Array) -> bool {
    let ty = array.type_text.as_str();
    match field.encoding {
        Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. } => {
            int_width(ty).is_some()
        }
        Encoding::Utf8 => matches!(ty, "string" | "large_string"),
        Encoding::Float64 | Encoding::Float32 => matches!(ty, "double" | "float"),
        Encoding::Bool => ty == "bool",
        Encoding::Bytes | Encoding::ByteArray { .. } => {
            matches!(ty, "binary" | "large_binary") || ty.starts_with("fixed_size_binary")
        }
        Encoding::Uuid => ty == "fixed_size_binary[16]",
        Encoding::TimestampMicros | Encoding::Timestamp(_) => array.time.is_some(),
        Encoding::Date(_) => ty == "date32[day]",
        _ => false,
    }
}

/// Puts value `i` of `array` for `field`, which `reads` accepted, in `slot`: a text or bytes
/// value into the slot's own buffer when it holds one, so that a batch's rows reuse one row
/// of values.
fn value_into(field: &FieldSchema, array: &Array, i: usize, slot: &mut Value) -> Result<(), String> {
    if !array.is_null(i) {
        match (field.encoding, &mut *slot) {
            (Encoding::Utf8, Value::Str(text)) => {
                text.clear();
                text.push_str(text_at(field, array, i)?);
                return Ok(());
            }
            (Encoding::Bytes | Encoding::ByteArray { .. }, Value::Bytes(bytes)) => {
                bytes.clear();
                bytes.extend_from_slice(bytes_at(array, i));
                return Ok(());
            }
            _ => {}
        }
    }
    *slot = value_at(field, array, i)?;
    Ok(())
}

fn text_at<'a>(field: &FieldSchema, array: &'a Array, i: usize) -> Result<&'a str, String> {
    std::str::from_utf8(array.variable(i))
        .map_err(|_| format!("`{}`: its string column holds bytes that are not UTF-8", field.name))
}

fn bytes_at(array: &Array, i: usize) -> &[u8] {
    if array.type_text.starts_with("fixed_size_binary") { array.fixed(i, array.byte_width) } else { array.variable(i) }
}

/// Value `i` of `array` for `field`, which `reads` accepted.
fn value_at(field: &FieldSchema, array: &Array, i: usize) -> Result<Value, String> {
    if array.is_null(i) {
        return if field.optional {
            Ok(Value::Null)
        } else {
            Err(format!(
                "`{}` is not optional ({}): its column holds a null; fill it or drop the row",
                field.name, field.rust_type
            ))
        };
    }
    let ty = array.type_text.as_str();
    Ok(match field.encoding {
        Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. } => {
            let (width, signed) = int_width(ty).unwrap_or((8, true));
            let bytes = array.fixed(i, width);
            let mut word = [0u8; 16];
            word[..width].copy_from_slice(bytes);
            if signed && bytes[width - 1] & 0x80 != 0 {
                word[width..].fill(0xff);
            }
            Value::Int(i128::from_le_bytes(word))
        }
        Encoding::Utf8 => Value::Str(text_at(field, array, i)?.to_owned()),
        Encoding::Float64 | Encoding::Float32 if ty == "double" => {
            Value::Float(f64::from_le_bytes(array.fixed(i, 8).try_into().unwrap_or([0; 8])))
        }
        Encoding::Float64 | Encoding::Float32 => {
            Value::Float(widen(f32::from_le_bytes(array.fixed(i, 4).try_into().unwrap_or([0; 4]))))
        }
        Encoding::Bool => Value::Bool(array.bit(i)),
        Encoding::Uuid => Value::Uuid(array.fixed(i, 16).try_into().unwrap_or([0; 16])),
        Encoding::Bytes | Encoding::ByteArray { .. } => Value::Bytes(bytes_at(array, i).to_vec()),
        Encoding::Date(_) => Value::Date(i64::from(i32::from_le_bytes(array.fixed(i, 4).try_into().unwrap_or([0; 4])))),
        _ => instant(field, array, le_i64(array.fixed(i, 8)))?,
    })
}

/// An Arrow timestamp as the field's instant: aware only (as a `datetime` must be), and no
/// finer than the field keeps.
fn instant(field: &FieldSchema, array: &Array, n: i64) -> Result<Value, String> {
    let (unit, aware) = array.time.as_ref().ok_or_else(|| format!("`{}`: not a timestamp column", field.name))?;
    if !aware {
        return Err(format!(
            "`{}` takes timezone-aware instants, and its column's timestamps have no time zone: say which zone \
             they are in, e.g. column.cast(pyarrow.timestamp(unit, tz=\"UTC\")) for times in UTC",
            field.name
        ));
    }
    let per_second: i128 = match unit.as_str() {
        "s" => 1,
        "ms" => 1_000,
        "us" => 1_000_000,
        _ => 1_000_000_000,
    };
    let nanos = i128::from(n) * (1_000_000_000 / per_second);
    if matches!(field.encoding, Encoding::Timestamp(spec) if spec.nanos) {
        return Ok(Value::TimestampNanos(nanos));
    }
    if nanos % 1000 != 0 {
        return Err(format!(
            "`{}` keeps microseconds, and its column holds a finer fraction: round the column first, e.g. \
             pyarrow.compute.floor_temporal(column, unit=\"microsecond\")",
            field.name
        ));
    }
    i64::try_from(nanos / 1000)
        .map(Value::Timestamp)
        .map_err(|_| format!("`{}`: an instant beyond i64 microseconds of 1970", field.name))
}

/// One column of a batch: read from its buffers, or (a type with no direct reading) as
/// Python's values, each made the text `Schema::encode` takes by `text`.
enum Source {
    Buffers(Array),
    Texts(Vec<String>),
}

/// The keys of a `RecordBatch` or `Table`, added to `keys` a row at a time: where every column
/// reads directly, straight from the buffers with the GIL released; else from each row's
/// values as text (a directly read value as its `Display`, the text form `Schema::encode`
/// parses), so that a column of another type never costs the others.
pub(crate) fn encode_table(
    plan: &KeyPlan,
    fields: &[&FieldSchema],
    table: &Bound<'_, PyAny>,
    text: impl Fn(&str, &Bound<'_, PyAny>) -> PyResult<String>,
    keys: &mut KeyColumn,
) -> PyResult<()> {
    let py = table.py();
    let names: Vec<String> = table.getattr("schema")?.getattr("names")?.extract()?;
    if let Some(unknown) = names.iter().find(|n| !fields.iter().any(|f| f.name == n.as_str())) {
        let known: Vec<&str> = fields.iter().map(|f| f.name).collect();
        return Err(BadValueError::new_err(format!(
            "the column `{unknown}` is no field of the key ({}): select the key's columns, e.g. \
             table.select([...])",
            known.join(", ")
        )));
    }
    let batches: Vec<Bound<'_, PyAny>> = if table.hasattr(pyo3::intern!(py, "to_batches"))? {
        table.call_method0("to_batches")?.try_iter()?.collect::<PyResult<_>>()?
    } else {
        vec![table.clone()]
    };
    for batch in &batches {
        let start = keys.len();
        let mut columns = Vec::with_capacity(fields.len());
        for field in fields {
            let column = batch.call_method1("column", (field.name,)).map_err(|_| {
                BadValueError::new_err(format!(
                    "the batch has no column `{}`: every field of the key is needed",
                    field.name
                ))
            })?;
            let array = Array::read(&column)?;
            columns.push(if reads(field, &array) {
                Source::Buffers(array)
            } else {
                let texts = column
                    .call_method0("to_pylist")?
                    .try_iter()?
                    .enumerate()
                    .map(|(i, obj)| text(field.name, &obj?).map_err(|e| in_row(py, start + i, e)))
                    .collect::<PyResult<_>>()?;
                Source::Texts(texts)
            });
        }
        let len = batch.len()?;
        let arrays: Vec<&Array> = columns
            .iter()
            .filter_map(|c| match c {
                Source::Buffers(array) => Some(array),
                Source::Texts(_) => None,
            })
            .collect();
        if arrays.len() == columns.len() {
            py.detach(|| encode_buffers(plan, fields, &arrays, len, keys)).map_err(BadValueError::new_err)?;
            continue;
        }
        for i in 0..len {
            let in_row = |e: String| BadValueError::new_err(format!("row {}: {e}", start + i));
            let texts = fields.iter().zip(&columns).map(|(field, column)| {
                let text = match column {
                    Source::Buffers(array) => value_at(field, array, i)?.to_string(),
                    Source::Texts(texts) => texts[i].clone(),
                };
                Ok((field.name, text))
            });
            let texts: Vec<(&str, String)> = texts.collect::<Result<_, String>>().map_err(in_row)?;
            let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
            keys.push(&plan.encode(&pairs).map_err(|e| in_row(e.to_string()))?);
        }
    }
    Ok(())
}

/// The keys of `len` rows read straight from `arrays`, one row of values reused throughout.
fn encode_buffers(
    plan: &KeyPlan,
    fields: &[&FieldSchema],
    arrays: &[&Array],
    len: usize,
    keys: &mut KeyColumn,
) -> Result<(), String> {
    let mut row = vec![Value::Null; fields.len()];
    for i in 0..len {
        let in_row = |e: String| format!("row {}: {e}", keys.len());
        for ((field, array), slot) in fields.iter().zip(arrays).zip(&mut row) {
            value_into(field, array, i, slot).map_err(in_row)?;
        }
        let key = plan.encode_values(&row).map_err(|e| in_row(e.to_string()))?;
        keys.push(&key);
    }
    Ok(())
}

/// The keys of a `BinaryArray`, `LargeBinaryArray` or a chunked array of either: the data
/// and each key's range in it.
pub(crate) fn keys_of(keys: &Bound<'_, PyAny>) -> PyResult<(Vec<u8>, Vec<std::ops::Range<usize>>)> {
    let chunks: Vec<Bound<'_, PyAny>> = if keys.hasattr(pyo3::intern!(keys.py(), "chunks"))? {
        keys.getattr("chunks")?.try_iter()?.collect::<PyResult<_>>()?
    } else {
        vec![keys.clone()]
    };
    let mut data = Vec::new();
    let mut ranges = Vec::new();
    for chunk in &chunks {
        let array = Array::read(chunk)?;
        if !matches!(array.type_text.as_str(), "binary" | "large_binary") {
            return Err(BadKeyError::new_err(format!(
                "keys are a binary array, not {}: e.g. pyarrow.array(keys, pyarrow.binary())",
                array.type_text
            )));
        }
        for i in 0..array.len {
            if array.is_null(i) {
                return Err(BadKeyError::new_err(format!("key {}: a null is no key", ranges.len())));
            }
            let key = array.variable(i);
            ranges.push(data.len()..data.len() + key.len());
            data.extend_from_slice(key);
        }
    }
    Ok((data, ranges))
}
