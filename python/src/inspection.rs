//! `schema.inspect(key)`: a decoded key whose `str` and `repr` show a sensitive field as its
//! length only, as the Rust `Inspection` does; `.revealed()` shows it.

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rowkey::schema::KeyField;

use crate::to_py::py_value;

/// A key decoded field by field, the prefix and bucket included, each with its byte offset.
#[pyclass(frozen, module = "rowkey")]
pub struct Inspection {
    pub(crate) inner: rowkey::schema::Inspection,
}

#[pymethods]
impl Inspection {
    /// The fields in key order.
    #[getter]
    fn fields(&self) -> Vec<InspectedField> {
        self.inner.fields().iter().map(|f| InspectedField { inner: f.clone() }).collect()
    }

    /// The name of the key type whose schema decoded the key.
    #[getter]
    fn type_name(&self) -> &'static str {
        self.inner.type_name()
    }

    /// The native value of the field `name` (the first of that name).
    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let field = self
            .inner
            .fields()
            .iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| PyKeyError::new_err(format!("`{}` has no field `{name}`", self.inner.type_name())))?;
        py_value(py, field.key_field(), field.value())
    }

    fn __len__(&self) -> usize {
        self.inner.fields().len()
    }

    /// The fields as a dict of native values, the prefix and bucket included.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for field in self.inner.fields() {
            if !out.contains(field.name())? {
                out.set_item(field.name(), py_value(py, field.key_field(), field.value())?)?;
            }
        }
        Ok(out)
    }

    /// The fields as `str` shows them, but with the values of sensitive fields: for the one who
    /// asked to see them.
    fn revealed(&self) -> String {
        self.inner.revealed().to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Inspection {}: {}>", self.inner.type_name(), self.inner)
    }
}

/// One field of an [`Inspection`].
#[pyclass(frozen, module = "rowkey")]
pub struct InspectedField {
    inner: rowkey::schema::InspectedField,
}

#[pymethods]
impl InspectedField {
    /// The field's name (`prefix` and `bucket` for the computed ones).
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The byte offset in the key where the field starts.
    #[getter]
    fn offset(&self) -> usize {
        self.inner.offset()
    }

    /// Whether the field is marked sensitive: `str` and `repr` then show its length only.
    #[getter]
    fn sensitive(&self) -> bool {
        self.inner.is_sensitive()
    }

    /// The native value (a sensitive one too: asked for by name, it is the caller's to keep).
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_value(py, self.inner.key_field(), self.inner.value())
    }

    /// The value as the text `encode` reads back to the same key.
    #[getter]
    fn value_text(&self) -> String {
        self.inner.value_text()
    }

    /// Whether this is the computed prefix or salt bucket rather than a field given to `encode`.
    #[getter]
    fn computed(&self) -> bool {
        !matches!(self.inner.key_field(), KeyField::Value(_))
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<InspectedField {} at {}>", self.inner, self.inner.offset())
    }
}
