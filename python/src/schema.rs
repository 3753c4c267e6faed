//! `rowkey.Schema`: a key design read from a schema file, which encodes and decodes keys with
//! the Rust crate's own `Schema::encode` and `Schema::inspect`.

use std::path::PathBuf;

use pyo3::prelude::*;
use std::ops::Bound as Limit;

use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use rowkey::schema::{FieldSchema, KeyField, KeyPlan, ScanNext, Transform, Value};

use crate::arrow::{encode_table, is_arrow};
use crate::batch::Keys;
use crate::columns::{Column, KeyColumn};
use crate::from_py::{text_of, value_of};
use crate::inspection::Inspection;
use crate::row::{Row, in_row, row_dicts};
use crate::scan::{HostAndSubdomains, KeyRanges, StartsWith, bounds};
use crate::to_py::py_value;
use crate::{BadKeyError, BadSchemaError, BadValueError, bad_key, bad_value};

/// A key design: its format, prefix, salt and fields, from a schema file.
#[pyclass(frozen, module = "rowkey")]
pub struct Schema {
    pub(crate) inner: &'static rowkey::schema::Schema,
    key_fields: Vec<KeyField>,
    /// The fields `encode` takes and `decode` returns, in key order, with their names as
    /// interned Python strings: looked up in and put into every dict.
    values: Vec<(&'static FieldSchema, Py<PyString>)>,
    /// The schema compiled once, for every key `encode` and `encode_many` write.
    plan: KeyPlan,
}

impl Schema {
    pub(crate) fn new(py: Python<'_>, inner: &'static rowkey::schema::Schema) -> Schema {
        let key_fields = inner.key_fields();
        let values = key_fields
            .iter()
            .filter_map(|f| match f {
                KeyField::Value(field) => Some((*field, PyString::intern(py, field.name).unbind())),
                _ => None,
            })
            .collect();
        Schema { inner, key_fields, values, plan: KeyPlan::new(inner) }
    }

    /// The row of a dict and keyword arguments: each field's native value where it has one,
    /// found under its name, and nothing more; otherwise (a text form, a computed prefix or
    /// bucket given, a name missing or unknown) their text, whose errors name the fault.
    fn row(
        &self,
        py: Python<'_>,
        values: Option<&Bound<'_, PyDict>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Row> {
        let mut row = Vec::with_capacity(self.values.len());
        if self.native(py, values, kwargs, &mut row)? {
            return Ok(Row::Values(row));
        }
        let mut texts = match values {
            Some(values) => self.texts(values)?,
            None => Vec::new(),
        };
        if let Some(kwargs) = kwargs {
            texts.extend(self.texts(kwargs)?);
        }
        Ok(Row::Texts(texts))
    }

    /// Puts the native values of a row in `out` (emptied first): `false` where one is
    /// missing, unknown or not native.
    fn native(
        &self,
        py: Python<'_>,
        values: Option<&Bound<'_, PyDict>>,
        kwargs: Option<&Bound<'_, PyDict>>,
        out: &mut Vec<Value>,
    ) -> PyResult<bool> {
        out.clear();
        let given = values.map_or(0, |d| d.len()) + kwargs.map_or(0, |d| d.len());
        if given != self.values.len() {
            return Ok(false);
        }
        for (field, name) in &self.values {
            let name = name.bind(py);
            let obj = match values.map(|d| d.get_item(name)).transpose()?.flatten() {
                Some(obj) => obj,
                None => match kwargs.map(|d| d.get_item(name)).transpose()?.flatten() {
                    Some(obj) => obj,
                    None => return Ok(false),
                },
            };
            match value_of(field, &obj)? {
                Some(value) => out.push(value),
                None => return Ok(false),
            }
        }
        Ok(true)
    }

    /// The `(name, text)` pairs `Schema::encode` takes, from a dict of Python values.
    fn texts(&self, values: &Bound<'_, PyDict>) -> PyResult<Vec<(String, String)>> {
        let mut out = Vec::with_capacity(values.len());
        for (name, value) in values.iter() {
            let name = name
                .cast::<PyString>()
                .map_err(|_| BadValueError::new_err("field names are str"))?
                .to_cow()?
                .into_owned();
            // An unknown name goes on as it is: the encoder names it with the fields there are.
            let text = self.text(&name, &value)?;
            out.push((name, text));
        }
        Ok(out)
    }

    /// The text of `value` for the field `name`. An unknown name gets no text: the crate's
    /// encoder and scan name it with the fields there are.
    pub(crate) fn text(&self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
        match self.key_fields.iter().find(|f| f.name() == name) {
            Some(field) => text_of(*field, !self.inner.format.is_bigtable(), value),
            None => Ok(String::new()),
        }
    }

    /// The dict of a decoded key's values, the fields `encode` takes, under the interned names.
    fn values_of<'py>(&self, py: Python<'py>, inspection: &rowkey::schema::Inspection) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let values = inspection.fields().iter().filter(|f| matches!(f.key_field(), KeyField::Value(_)));
        for (field, (_, name)) in values.zip(&self.values) {
            out.set_item(name.bind(py), py_value(py, field.key_field(), field.value())?)?;
        }
        Ok(out)
    }
}

impl Schema {
    /// The columns of decoded values as a pyarrow `RecordBatch`.
    fn record_batch<'py>(&self, py: Python<'py>, columns: Vec<Column>) -> PyResult<Bound<'py, PyAny>> {
        let arrays = columns
            .into_iter()
            .zip(&self.values)
            .map(|(column, (field, _))| column.finish(py, field))
            .collect::<PyResult<Vec<_>>>()?;
        let names: Vec<&Py<PyString>> = self.values.iter().map(|(_, name)| name).collect();
        let kwargs = PyDict::new(py);
        kwargs.set_item("names", names)?;
        py.import("pyarrow")?.getattr("RecordBatch")?.call_method("from_arrays", (arrays,), Some(&kwargs))
    }
}

/// `scan`'s `next`, its texts owned.
enum Next {
    Range(Option<String>, Option<String>),
    StartsWith(String),
    Host(String),
}

/// rowkey's own schema file or Bigtable's row key schema, told apart as the command does.
fn read_schema(text: &str) -> Result<&'static rowkey::schema::Schema, String> {
    let json: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("not JSON ({e}); a schema file is what `T::SCHEMA.to_json()` writes"))?;
    let bigtable =
        json.get("rowkey_schema").is_none() && (json.get("rowKeySchema").is_some() || json.get("encoding").is_some());
    let read = if bigtable {
        rowkey::schema::Schema::from_bigtable_json(text)
    } else {
        rowkey::schema::Schema::from_json(text)
    };
    read.map_err(|e| e.to_string())
}

#[pymethods]
impl Schema {
    /// The schema in a schema file's text: rowkey's own (what `T::SCHEMA.to_json()` writes,
    /// every format) or a Bigtable row key schema (a table's `rowKeySchema`, or the table as
    /// `gcloud bigtable tables describe --format=json` prints it), as `rowkey` the command reads.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Schema> {
        read_schema(text).map(|s| Schema::new(py, s)).map_err(BadSchemaError::new_err)
    }

    /// The schema in the file at `path` (see `from_json`).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Schema> {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot read the schema file {}: {e}", path.display()))
        })?;
        read_schema(&text)
            .map(|s| Schema::new(py, s))
            .map_err(|e| BadSchemaError::new_err(format!("{} is not a schema file: {e}", path.display())))
    }

    /// The key type's name.
    #[getter]
    fn type_name(&self) -> &'static str {
        self.inner.type_name
    }

    /// The key format: `ordered`, `delimited "#"`, `fdb tuple`, `memcomparable` or `hbase`.
    #[getter]
    fn format(&self) -> String {
        self.inner.format.to_string()
    }

    /// Every field of a key in key order: the prefix and bucket when the key has them, then
    /// the fields (those of a flattened struct in its place).
    #[getter]
    fn fields(&self) -> Vec<Field> {
        self.key_fields.iter().map(|f| Field::of(*f)).collect()
    }

    /// The key of the given values, as `bytes`: a dict, keyword arguments, or both. Each value
    /// native (`int`, `float`, `str`, `bytes`, `bool`, `None` for an optional field's absence,
    /// an aware `datetime`, `date`, `uuid.UUID`, an `ipaddress` address, `decimal.Decimal`) or
    /// as the text `rowkey encode` takes. The prefix and bucket are computed; given, they must
    /// match.
    #[pyo3(signature = (values = None, /, **kwargs))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        values: Option<&Bound<'py, PyDict>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let key = self.row(py, values, kwargs)?.encode(&self.plan).map_err(|e| bad_value(&e))?;
        Ok(PyBytes::new(py, &key))
    }

    /// The key of the values of `encode`'s fields in key order, as a tuple: what a `rowkey.Key`
    /// class's `to_key` calls, without a dict between. Any value the plan does not take as it
    /// is goes the dict way, whose errors name the field.
    fn _encode_tuple<'py>(&self, py: Python<'py>, row: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyBytes>> {
        if row.len() == self.values.len() {
            let mut values = Vec::with_capacity(row.len());
            for ((field, _), obj) in self.values.iter().zip(row.iter()) {
                match value_of(field, &obj)? {
                    Some(value) => values.push(value),
                    None => break,
                }
            }
            if values.len() == self.values.len() {
                let key = self.plan.encode_values(&values).map_err(|e| bad_value(&e))?;
                return Ok(PyBytes::new(py, &key));
            }
        }
        let dict = PyDict::new(py);
        for ((_, name), obj) in self.values.iter().zip(row.iter()) {
            dict.set_item(name.bind(py), obj)?;
        }
        self.encode(py, Some(&dict), None)
    }

    /// A Python declaration of this key (`rowkey.to_python`): a module's text declaring a
    /// `rowkey.Key` class whose schema is this one.
    fn to_python(&self, py: Python<'_>) -> PyResult<String> {
        py.import("rowkey.to_python")?.call_method1("to_python", (self.inner.to_json(),))?.extract()
    }

    /// The values of `key` as a dict of native values, the fields `encode` takes (not the
    /// computed prefix and bucket): `encode(decode(key)) == key`.
    fn decode<'py>(&self, py: Python<'py>, key: &[u8]) -> PyResult<Bound<'py, PyDict>> {
        let inspection = self.plan.inspect(key).map_err(|e| bad_key(&e))?;
        self.values_of(py, &inspection)
    }

    /// The keys of many rows at once: `rows` a list of dicts, a dict of columns (equally
    /// long sequences), or a pyarrow `RecordBatch` or `Table` of the key's columns, for which
    /// the keys come back as a pyarrow `BinaryArray`. Each key is written as its row is read,
    /// into one buffer; an Arrow batch of plain columns is read from its buffers with the GIL
    /// released. An error names the first bad row.
    fn encode_many<'py>(&self, py: Python<'py>, rows: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let mut keys = KeyColumn::default();
        if is_arrow(rows)? {
            let fields: Vec<&FieldSchema> = self.values.iter().map(|(field, _)| *field).collect();
            encode_table(&self.plan, &fields, rows, |name, obj| self.text(name, obj), &mut keys)?;
            return keys.into_py(py, true);
        }
        let mut values = Vec::with_capacity(self.values.len());
        let mut add = |i: usize, row: &Bound<'py, PyDict>| -> PyResult<()> {
            let key = if self.native(py, Some(row), None, &mut values).map_err(|e| in_row(py, i, e))? {
                self.plan.encode_values(&values)
            } else {
                let texts = self.texts(row).map_err(|e| in_row(py, i, e))?;
                let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
                self.plan.encode(&pairs)
            };
            keys.push(&key.map_err(|e| BadValueError::new_err(format!("row {i}: {e}")))?);
            Ok(())
        };
        if rows.is_instance_of::<PyDict>() {
            for (i, row) in row_dicts(rows)?.iter().enumerate() {
                add(i, row)?;
            }
        } else {
            for (i, row) in rows.try_iter()?.enumerate() {
                let row = row?;
                add(i, row.cast::<PyDict>().map_err(|_| BadValueError::new_err(format!("row {i}: a row is a dict")))?)?;
            }
        }
        keys.into_py(py, false)
    }

    /// The values of many keys at once, as a list of dicts; from a pyarrow `BinaryArray`, as a
    /// pyarrow `RecordBatch` of the fields' columns (UUIDs as 16-byte binary, instants as
    /// `timestamp` in UTC, dates as `date32`; addresses, ULIDs and numbers beyond 64 bits as
    /// their text), built from the keys with the GIL released. An error names the first bad
    /// key's index.
    fn decode_many<'py>(&self, py: Python<'py>, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let keys = Keys::read(keys)?;
        let bad = |i: usize, e: &rowkey::Error| BadKeyError::new_err(format!("key {i}: {e}"));
        if keys.arrow {
            let mut columns: Vec<Column> = self.values.iter().map(|(field, _)| Column::new(field)).collect();
            py.detach(|| -> PyResult<()> {
                for (i, key) in keys.iter().enumerate() {
                    let inspection = self.plan.inspect(key).map_err(|e| bad(i, &e))?;
                    let values = inspection.fields().iter().filter(|f| matches!(f.key_field(), KeyField::Value(_)));
                    for ((column, (field, _)), value) in columns.iter_mut().zip(&self.values).zip(values) {
                        column
                            .push(field, value.value())
                            .map_err(|e| BadValueError::new_err(format!("key {i}: {e}")))?;
                    }
                }
                Ok(())
            })?;
            return self.record_batch(py, columns);
        }
        let mut rows = Vec::with_capacity(keys.len());
        for (i, key) in keys.iter().enumerate() {
            let inspection = self.plan.inspect(key).map_err(|e| bad(i, &e))?;
            rows.push(self.values_of(py, &inspection)?);
        }
        Ok(PyList::new(py, rows)?.into_any())
    }

    /// The key ranges of a query: the leading fields fixed to values (keyword arguments), and
    /// optionally the next field within bounds, `next=(name, slice(start, stop))` or
    /// `next=(name, range(start, stop))`: start included, stop excluded, `None` for no bound,
    /// in the field's value order (a `desc` or reversed field's ranges are turned round);
    /// `next=(name, rowkey.StartsWith(text))` for the text values that start with `text`, and
    /// `next=(name, rowkey.HostAndSubdomains(host))` for a `reverse_domain` host and its
    /// sub-domains. A
    /// salted key's bucket is computed when its source fields are fixed; otherwise there is a
    /// range in every bucket.
    #[pyo3(signature = (*, next = None, **fixed))]
    fn scan(&self, next: Option<&Bound<'_, PyAny>>, fixed: Option<&Bound<'_, PyDict>>) -> PyResult<KeyRanges> {
        let fixed = match fixed {
            Some(fixed) => self.texts(fixed)?,
            None => Vec::new(),
        };
        let next = match next {
            None => None,
            Some(next) => {
                let (name, values): (String, Bound<'_, PyAny>) = next.extract().map_err(|_| {
                    BadValueError::new_err(
                        "next is (field, slice(start, stop)), (field, range(start, stop)), (field, \
                         rowkey.StartsWith(text)) or (field, rowkey.HostAndSubdomains(host))",
                    )
                })?;
                Some(if let Ok(prefix) = values.cast::<StartsWith>() {
                    (name, Next::StartsWith(prefix.get().text.clone()))
                } else if let Ok(host) = values.cast::<HostAndSubdomains>() {
                    (name, Next::Host(host.get().host.clone()))
                } else {
                    let [lo, hi] = bounds(&values)?;
                    let lo = lo.map(|v| self.text(&name, &v)).transpose()?;
                    let hi = hi.map(|v| self.text(&name, &v)).transpose()?;
                    (name, Next::Range(lo, hi))
                })
            }
        };
        let pairs: Vec<(&str, &str)> = fixed.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let next = next.as_ref().map(|(name, next)| {
            let next = match next {
                Next::Range(lo, hi) => ScanNext::Range(
                    lo.as_deref().map_or(Limit::Unbounded, Limit::Included),
                    hi.as_deref().map_or(Limit::Unbounded, Limit::Excluded),
                ),
                Next::StartsWith(text) => ScanNext::StartsWith(text),
                Next::Host(host) => ScanNext::HostAndSubdomains(host),
            };
            (name.as_str(), next)
        });
        self.inner.scan_query(&pairs, next).map(|inner| KeyRanges { inner }).map_err(|e| bad_value(&e))
    }

    /// `key` decoded field by field with offsets; its `str` and `repr` redact sensitive fields.
    fn inspect(&self, key: &[u8]) -> PyResult<Inspection> {
        self.plan.inspect(key).map(|inner| Inspection { inner }).map_err(|e| bad_key(&e))
    }

    /// The schema file's text (rowkey's own format).
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<rowkey.Schema {}: {}>", self.inner.type_name, self.inner.format)
    }
}

/// One field of a key, as `Schema.fields` lists them.
#[pyclass(frozen, get_all, module = "rowkey")]
pub struct Field {
    /// The field's key name (`prefix` and `bucket` for the computed ones).
    name: &'static str,
    /// The Rust type the schema declares (`String`, `i64`, `Option<u32>`...).
    r#type: String,
    /// The encoding as the schema's `Display` shows it (`utf8`, `decimal(19)`, `int64`...).
    encoding: String,
    /// `"asc"` or `"desc"`.
    direction: &'static str,
    /// Whether the field is marked sensitive: errors and `inspect`'s text never show its value.
    sensitive: bool,
    /// Whether `None` is a value of the field.
    optional: bool,
    /// `"reverse"`, `"bit_reverse"`, `"reverse_domain"`, or None.
    transform: Option<&'static str>,
    /// `"prefix"`, `"bucket"` (both computed) or `"value"`.
    kind: &'static str,
}

impl Field {
    fn of(field: KeyField) -> Field {
        match field {
            KeyField::Prefix(prefix) => {
                let shown = match std::str::from_utf8(prefix) {
                    Ok(text) => format!("prefix {text:?}"),
                    Err(_) => format!("prefix {}", Value::Bytes(prefix.to_vec())),
                };
                Field::computed(field.name(), "prefix", shown)
            }
            KeyField::Bucket(salt) => Field::computed(field.name(), "bucket", salt.to_string()),
            KeyField::Value(schema) => Field {
                name: schema.name,
                r#type: schema.rust_type.to_owned(),
                encoding: schema.encoding.to_string(),
                direction: if schema.descending { "desc" } else { "asc" },
                sensitive: schema.sensitive,
                optional: schema.optional,
                transform: match schema.transform {
                    Transform::None => None,
                    Transform::Reverse { .. } => Some("reverse"),
                    Transform::BitReverse { .. } => Some("bit_reverse"),
                    Transform::ReverseDomain => Some("reverse_domain"),
                    _ => Some("other"),
                },
                kind: "value",
            },
        }
    }

    fn computed(name: &'static str, kind: &'static str, encoding: String) -> Field {
        Field {
            name,
            r#type: String::new(),
            encoding,
            direction: "asc",
            sensitive: false,
            optional: false,
            transform: None,
            kind,
        }
    }
}

#[pymethods]
impl Field {
    fn __repr__(&self) -> String {
        let mut notes = vec![self.encoding.clone()];
        if self.direction == "desc" {
            notes.push("desc".into());
        }
        if let Some(t) = self.transform {
            notes.push(t.into());
        }
        if self.sensitive {
            notes.push("sensitive".into());
        }
        format!("<Field {}: {} [{}]>", self.name, self.r#type, notes.join(", "))
    }
}
