//! `rowkey.Schema`: a key design read from a schema file, which encodes and decodes keys with
//! the Rust crate's own `Schema::encode` and `Schema::inspect`.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use rowkey::schema::{KeyField, Transform};

use crate::from_py::text_of;
use crate::inspection::Inspection;
use crate::to_py::py_value;
use crate::{BadSchemaError, BadValueError, bad_key, bad_value};

/// A key design: its format, prefix, salt and fields, from a schema file.
#[pyclass(frozen, module = "rowkey")]
pub struct Schema {
    inner: &'static rowkey::schema::Schema,
    key_fields: Vec<KeyField>,
}

impl Schema {
    fn new(inner: &'static rowkey::schema::Schema) -> Schema {
        Schema { inner, key_fields: inner.key_fields() }
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
            let text = match self.key_fields.iter().find(|f| f.name() == name) {
                Some(field) => text_of(*field, !self.inner.format.is_bigtable(), &value)?,
                None => String::new(),
            };
            out.push((name, text));
        }
        Ok(out)
    }
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
    fn from_json(text: &str) -> PyResult<Schema> {
        read_schema(text).map(Schema::new).map_err(BadSchemaError::new_err)
    }

    /// The schema in the file at `path` (see `from_json`).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Schema> {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot read the schema file {}: {e}", path.display()))
        })?;
        read_schema(&text)
            .map(Schema::new)
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
        let mut texts = match values {
            Some(values) => self.texts(values)?,
            None => Vec::new(),
        };
        if let Some(kwargs) = kwargs {
            texts.extend(self.texts(kwargs)?);
        }
        let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let key = self.inner.encode(&pairs).map_err(|e| bad_value(&e))?;
        Ok(PyBytes::new(py, &key))
    }

    /// The values of `key` as a dict of native values, the fields `encode` takes (not the
    /// computed prefix and bucket): `encode(decode(key)) == key`.
    fn decode<'py>(&self, py: Python<'py>, key: &[u8]) -> PyResult<Bound<'py, PyDict>> {
        let inspection = self.inner.inspect(key).map_err(|e| bad_key(&e))?;
        let out = PyDict::new(py);
        for field in inspection.fields() {
            if let KeyField::Value(_) = field.key_field() {
                out.set_item(field.name(), py_value(py, field.key_field(), field.value())?)?;
            }
        }
        Ok(out)
    }

    /// `key` decoded field by field with offsets; its `str` and `repr` redact sensitive fields.
    fn inspect(&self, key: &[u8]) -> PyResult<Inspection> {
        self.inner.inspect(key).map(|inner| Inspection { inner }).map_err(|e| bad_key(&e))
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
            KeyField::Prefix(prefix) => Field::computed(field.name(), "prefix", format!("prefix {prefix:?}")),
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
