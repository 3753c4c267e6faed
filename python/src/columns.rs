//! What the batch forms hand back: keys as a list of `bytes` or a `BinaryArray`, decoded
//! values as an Arrow column a field; the Arrow ones built in Rust as Arrow's buffers and
//! handed to `pyarrow.Array.from_buffers`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyModule};
use rowkey::schema::{Encoding, FieldSchema, Value};

use crate::BadValueError;

static PYARROW: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

pub(crate) fn pyarrow(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    Ok(PYARROW.get_or_try_init(py, || py.import("pyarrow").map(Bound::unbind))?.bind(py))
}

/// Keys as a batch writes them, one after another into one buffer, each key's end noted: no
/// allocation a key, and handed to Python in the form the batch came in.
#[derive(Default)]
pub(crate) struct KeyColumn {
    data: Vec<u8>,
    ends: Vec<usize>,
}

impl KeyColumn {
    pub(crate) fn push(&mut self, key: &[u8]) {
        self.data.extend_from_slice(key);
        self.ends.push(self.data.len());
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// A pyarrow `BinaryArray` for Arrow, else a list of `bytes`.
    pub(crate) fn into_py(self, py: Python<'_>, arrow: bool) -> PyResult<Bound<'_, PyAny>> {
        if arrow {
            return binary_array(py, &self.data, &self.ends);
        }
        let keys = self.ends.iter().enumerate().map(|(i, &end)| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            PyBytes::new(py, &self.data[start..end])
        });
        Ok(PyList::new(py, keys)?.into_any())
    }
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

/// The binary array of keys written one after another into `data`, each ending at its
/// entry of `ends`: `binary`, or `large_binary` past 2 GiB of data.
pub(crate) fn binary_array<'py>(py: Python<'py>, data: &[u8], ends: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let large = i32::try_from(data.len()).is_err();
    let mut offsets = Vec::with_capacity((ends.len() + 1) * if large { 8 } else { 4 });
    for at in std::iter::once(0).chain(ends.iter().copied()) {
        if large {
            offsets.extend_from_slice(&(at as u64).to_le_bytes());
        } else {
            offsets.extend_from_slice(&u32::try_from(at).unwrap_or(u32::MAX).to_le_bytes());
        }
    }
    let pa = pyarrow(py)?;
    let ty = pa.call_method0(if large { "large_binary" } else { "binary" })?;
    from_buffers(py, &ty, ends.len(), None, 0, &[&offsets, data])
}

fn from_buffers<'py>(
    py: Python<'py>,
    ty: &Bound<'py, PyAny>,
    len: usize,
    validity: Option<Vec<u8>>,
    nulls: usize,
    buffers: &[&[u8]],
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
        let buffers: Vec<&[u8]> = if variable { vec![&self.values, &self.data] } else { vec![&self.values] };
        from_buffers(py, &ty, self.len, validity, self.nulls, &buffers)
    }
}
