//! pyarrow in and out of the batch forms: a `RecordBatch` or `Table` of columns in, a
//! `BinaryArray` of keys out, and back. The common column types are read straight from the
//! arrays' buffers, so a batch of plain columns never makes a Python object per value; any
//! other column sends the batch through `to_pylist()` and the dict path, whose rules and
//! errors it then has.
//!
//! Buffers cross as `bytes` (`Buffer.to_pybytes()`, `pyarrow.py_buffer`): the limited API
//! the abi3 wheel is built on has no buffer protocol, and one copy of a column is cheap
//! beside a Python object per value.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyModule};
use rowkey::schema::{Encoding, FieldSchema, Value};

use crate::row::{Row, in_row};
use crate::{BadKeyError, BadValueError};

static PYARROW: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn pyarrow(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    Ok(PYARROW.get_or_try_init(py, || py.import("pyarrow").map(Bound::unbind))?.bind(py))
}

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

/// The `f32` a widened value came from (the inverse of `widen`).
#[allow(clippy::cast_possible_truncation)]
fn narrow(x: f64) -> f32 {
    if !x.is_nan() {
        return x as f32;
    }
    let bits = x.to_bits();
    f32::from_bits(((bits >> 32) as u32 & 0x8000_0000) | 0x7f80_0000 | ((bits >> 29) as u32 & 0x007f_ffff))
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
        Encoding::Utf8 => Value::Str(
            std::str::from_utf8(array.variable(i))
                .map_err(|_| format!("`{}`: its string column holds bytes that are not UTF-8", field.name))?
                .to_owned(),
        ),
        Encoding::Float64 | Encoding::Float32 if ty == "double" => {
            Value::Float(f64::from_le_bytes(array.fixed(i, 8).try_into().unwrap_or([0; 8])))
        }
        Encoding::Float64 | Encoding::Float32 => {
            Value::Float(widen(f32::from_le_bytes(array.fixed(i, 4).try_into().unwrap_or([0; 4]))))
        }
        Encoding::Bool => Value::Bool(array.bit(i)),
        Encoding::Uuid => Value::Uuid(array.fixed(i, 16).try_into().unwrap_or([0; 16])),
        Encoding::Bytes | Encoding::ByteArray { .. } if ty.starts_with("fixed_size_binary") => {
            Value::Bytes(array.fixed(i, array.byte_width).to_vec())
        }
        Encoding::Bytes | Encoding::ByteArray { .. } => Value::Bytes(array.variable(i).to_vec()),
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

/// The rows of a `RecordBatch` or `Table`: native values where every column reads directly,
/// else each row's values as text (a directly read value as its `Display`, the text form
/// `Schema::encode` parses), so that a column of another type never costs the others.
pub(crate) fn rows_of(
    fields: &[&FieldSchema],
    table: &Bound<'_, PyAny>,
    text: impl Fn(&str, &Bound<'_, PyAny>) -> PyResult<String>,
) -> PyResult<Vec<Row>> {
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
    let mut rows = Vec::new();
    for batch in &batches {
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
                let start = rows.len();
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
        let start = rows.len();
        rows.reserve(len);
        let arrays: Vec<&Array> = columns
            .iter()
            .filter_map(|c| match c {
                Source::Buffers(array) => Some(array),
                Source::Texts(_) => None,
            })
            .collect();
        let native = arrays.len() == columns.len();
        for i in 0..len {
            let in_row = |e: String| BadValueError::new_err(format!("row {}: {e}", start + i));
            let row = if native {
                let values = fields.iter().zip(&arrays).map(|(field, array)| value_at(field, array, i));
                Row::Values(values.collect::<Result<_, _>>().map_err(in_row)?)
            } else {
                let texts = fields.iter().zip(&columns).map(|(field, column)| {
                    let text = match column {
                        Source::Buffers(array) => value_at(field, array, i)?.to_string(),
                        Source::Texts(texts) => texts[i].clone(),
                    };
                    Ok((field.name.to_owned(), text))
                });
                Row::Texts(texts.collect::<Result<_, String>>().map_err(in_row)?)
            };
            rows.push(row);
        }
    }
    Ok(rows)
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

/// A binary array of `keys`: `binary`, or `large_binary` past 2 GiB of data.
pub(crate) fn binary_array<'py, K: AsRef<[u8]>>(py: Python<'py>, keys: &[K]) -> PyResult<Bound<'py, PyAny>> {
    let total: usize = keys.iter().map(|k| k.as_ref().len()).sum();
    let large = i32::try_from(total).is_err();
    let mut data = Vec::with_capacity(total);
    let mut offsets = Vec::with_capacity((keys.len() + 1) * if large { 8 } else { 4 });
    let push = |at: usize, offsets: &mut Vec<u8>| {
        if large {
            offsets.extend_from_slice(&(at as u64).to_le_bytes());
        } else {
            offsets.extend_from_slice(&u32::try_from(at).unwrap_or(u32::MAX).to_le_bytes());
        }
    };
    push(0, &mut offsets);
    for key in keys {
        data.extend_from_slice(key.as_ref());
        push(data.len(), &mut offsets);
    }
    let pa = pyarrow(py)?;
    let ty = pa.call_method0(if large { "large_binary" } else { "binary" })?;
    from_buffers(py, &ty, keys.len(), None, 0, &[offsets, data])
}

fn from_buffers<'py>(
    py: Python<'py>,
    ty: &Bound<'py, PyAny>,
    len: usize,
    validity: Option<Vec<u8>>,
    nulls: usize,
    buffers: &[Vec<u8>],
) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let buffer = |bytes: &[u8]| pa.call_method1("py_buffer", (PyBytes::new(py, bytes),));
    let mut all = vec![match &validity {
        Some(bits) => buffer(bits)?,
        None => py.None().into_bound(py),
    }];
    for b in buffers {
        all.push(buffer(b)?);
    }
    pa.getattr("Array")?.call_method1("from_buffers", (ty, len, PyList::new(py, all)?, nulls))
}

/// A column being built from decoded values, in the Arrow type of its field.
pub(crate) struct Column {
    kind: Kind,
    validity: Vec<u8>,
    nulls: usize,
    len: usize,
    values: Vec<u8>,
    data: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Int64,
    Uint64,
    Float64,
    Float32,
    Bool,
    Utf8,
    Binary,
    Uuid,
    Micros,
    Nanos,
    Date,
    /// Anything else: the value's text, as `inspect` shows it.
    Text,
}

impl Column {
    pub(crate) fn new(field: &FieldSchema) -> Column {
        let ty = field.rust_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(field.rust_type);
        let kind = match field.encoding {
            Encoding::Int64
            | Encoding::Uint64
            | Encoding::BigEndianInt64
            | Encoding::Decimal { .. }
            | Encoding::Hex { .. } => match ty {
                "u8" | "u16" | "u32" | "u64" | "usize" => Kind::Uint64,
                "i8" | "i16" | "i32" | "i64" | "isize" => Kind::Int64,
                // Hex digits of bytes: the bytes.
                _ if matches!(field.encoding, Encoding::Hex { .. }) => Kind::Binary,
                _ => Kind::Text,
            },
            Encoding::Float64 => Kind::Float64,
            Encoding::Float32 => Kind::Float32,
            Encoding::Bool => Kind::Bool,
            Encoding::Utf8 | Encoding::Char => Kind::Utf8,
            Encoding::Bytes | Encoding::ByteArray { .. } => Kind::Binary,
            Encoding::Uuid => Kind::Uuid,
            Encoding::TimestampMicros => Kind::Micros,
            Encoding::Timestamp(spec) if spec.nanos => Kind::Nanos,
            Encoding::Timestamp(_) => Kind::Micros,
            Encoding::Date(_) => Kind::Date,
            _ => Kind::Text,
        };
        let mut column = Column { kind, validity: Vec::new(), nulls: 0, len: 0, values: Vec::new(), data: Vec::new() };
        if column.variable() {
            column.values.extend_from_slice(&0u32.to_le_bytes());
        }
        column
    }

    fn variable(&self) -> bool {
        matches!(self.kind, Kind::Utf8 | Kind::Binary | Kind::Text)
    }

    /// Adds a decoded value; an error names what Arrow's type cannot hold.
    pub(crate) fn push(&mut self, field: &FieldSchema, value: &Value) -> Result<(), String> {
        let i = self.len;
        if i.is_multiple_of(8) {
            self.validity.push(0);
        }
        self.len += 1;
        if matches!(value, Value::Null) {
            self.nulls += 1;
            self.push_empty();
            return Ok(());
        }
        self.validity[i / 8] |= 1 << (i % 8);
        let beyond = |what: &str| format!("`{}` holds a value beyond Arrow's {what}", field.name);
        match (self.kind, value) {
            (Kind::Int64, Value::Int(n)) => {
                self.values.extend_from_slice(&i64::try_from(*n).map_err(|_| beyond("int64"))?.to_le_bytes());
            }
            (Kind::Uint64, Value::Int(n)) => {
                self.values.extend_from_slice(&u64::try_from(*n).map_err(|_| beyond("uint64"))?.to_le_bytes());
            }
            (Kind::Float64, Value::Float(x)) => self.values.extend_from_slice(&x.to_le_bytes()),
            (Kind::Float32, Value::Float(x)) => self.values.extend_from_slice(&narrow(*x).to_le_bytes()),
            (Kind::Bool, Value::Bool(b)) => {
                if i.is_multiple_of(8) {
                    self.values.push(0);
                }
                self.values[i / 8] |= u8::from(*b) << (i % 8);
            }
            (Kind::Utf8, Value::Str(text)) => self.push_variable(text.as_bytes()),
            (Kind::Binary, Value::Bytes(bytes)) => self.push_variable(bytes),
            (Kind::Uuid, Value::Uuid(bytes)) => self.values.extend_from_slice(bytes),
            (Kind::Micros, Value::Timestamp(micros)) => self.values.extend_from_slice(&micros.to_le_bytes()),
            (Kind::Nanos, Value::TimestampNanos(nanos)) => {
                let nanos = i64::try_from(*nanos).map_err(|_| beyond("timestamp('ns'), the years 1677 to 2262"))?;
                self.values.extend_from_slice(&nanos.to_le_bytes());
            }
            (Kind::Date, Value::Date(days)) => {
                self.values.extend_from_slice(&i32::try_from(*days).map_err(|_| beyond("date32"))?.to_le_bytes());
            }
            (Kind::Text, other) => self.push_variable(other.to_string().as_bytes()),
            // A value of another kind than the field's encoding says: shown as its text would
            // put text in a typed column, so it is an error.
            (_, other) => {
                return Err(format!("`{}`: a decoded {other:?} fits no Arrow column of its field", field.name));
            }
        }
        Ok(())
    }

    fn push_empty(&mut self) {
        let i = self.len - 1;
        match self.kind {
            Kind::Bool if i.is_multiple_of(8) => self.values.push(0),
            Kind::Bool => {}
            Kind::Utf8 | Kind::Binary | Kind::Text => self.push_variable(&[]),
            Kind::Uuid => self.values.extend_from_slice(&[0; 16]),
            Kind::Date | Kind::Float32 => self.values.extend_from_slice(&[0; 4]),
            _ => self.values.extend_from_slice(&[0; 8]),
        }
    }

    fn push_variable(&mut self, bytes: &[u8]) {
        self.data.extend_from_slice(bytes);
        self.values.extend_from_slice(&u32::try_from(self.data.len()).unwrap_or(u32::MAX).to_le_bytes());
    }

    /// The finished pyarrow array.
    pub(crate) fn finish<'py>(self, py: Python<'py>, field: &FieldSchema) -> PyResult<Bound<'py, PyAny>> {
        if self.variable() && u32::try_from(self.data.len()).is_err() {
            return Err(BadValueError::new_err(format!(
                "`{}`: the column passes 2 GiB; decode fewer keys at once",
                field.name
            )));
        }
        let pa = pyarrow(py)?;
        let ty = match self.kind {
            Kind::Int64 => pa.call_method0("int64")?,
            Kind::Uint64 => pa.call_method0("uint64")?,
            Kind::Float64 => pa.call_method0("float64")?,
            Kind::Float32 => pa.call_method0("float32")?,
            Kind::Bool => pa.call_method0("bool_")?,
            Kind::Utf8 | Kind::Text => pa.call_method0("string")?,
            Kind::Binary => pa.call_method0("binary")?,
            Kind::Uuid => pa.call_method1("binary", (16,))?,
            Kind::Micros => pa.call_method1("timestamp", ("us", "UTC"))?,
            Kind::Nanos => pa.call_method1("timestamp", ("ns", "UTC"))?,
            Kind::Date => pa.call_method0("date32")?,
        };
        let variable = self.variable();
        let validity = (self.nulls > 0).then_some(self.validity);
        let buffers = if variable { vec![self.values, self.data] } else { vec![self.values] };
        from_buffers(py, &ty, self.len, validity, self.nulls, &buffers)
    }
}
