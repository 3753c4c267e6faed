//! `rowkey.Rekey`: the crate's `rekey::Rekey` between two schemas, same rules, same errors.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use rowkey::schema::KeyField;

use crate::batch::{Keys, keys_out};
use crate::schema::Schema;
use crate::{BadKeyError, BadSchemaError, BadValueError, bad_key};

/// A mapping from the keys of one design to those of another: fields taken by name (or by
/// `rename={old: new}`), new fields given a `default={field: value}`, old fields that
/// are derived from others dropped (`drop_derived=[...]`), and `merge_rows=True` to accept a
/// mapping under which two old keys can give one new key.
#[pyclass(frozen, module = "rowkey")]
pub struct Rekey {
    inner: rowkey::rekey::Rekey,
}

#[pymethods]
impl Rekey {
    #[new]
    #[pyo3(signature = (old, new, *, rename = None, default = None, drop_derived = None, merge_rows = false))]
    fn py_new(
        old: &Schema,
        new: &Schema,
        rename: Option<&Bound<'_, PyDict>>,
        default: Option<&Bound<'_, PyDict>>,
        drop_derived: Option<Vec<String>>,
        merge_rows: bool,
    ) -> PyResult<Rekey> {
        let mut builder = rowkey::rekey::Rekey::builder(old.inner, new.inner);
        for (from, to) in rename.map(|r| r.iter().collect::<Vec<_>>()).unwrap_or_default() {
            let (from, to) = (name(&from)?, name(&to)?);
            builder = builder.rename(&from, &to);
        }
        for (field, value) in default.map(|d| d.iter().collect::<Vec<_>>()).unwrap_or_default() {
            let field = name(&field)?;
            // The value as text for the new design's field, as encode takes it.
            let text = new.text(&field, &value)?;
            builder = builder.default(&field, &text);
        }
        for field in drop_derived.unwrap_or_default() {
            builder = builder.drop_derived(&field);
        }
        if merge_rows {
            builder = builder.merge_rows();
        }
        builder.build().map(|inner| Rekey { inner }).map_err(|e| BadSchemaError::new_err(e.to_string()))
    }

    /// The new key of `old_key`.
    fn rekey<'py>(&self, py: Python<'py>, old_key: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
        let key = self.inner.rekey(old_key).map_err(|e| bad_key(&e))?;
        Ok(PyBytes::new(py, &key))
    }

    /// The new keys of many old keys, with the GIL released; an error names the key's index.
    /// A pyarrow binary array in gives one out.
    fn rekey_many<'py>(&self, py: Python<'py>, old_keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let keys = Keys::read(old_keys)?;
        let rekey = &self.inner;
        let new = py.detach(|| {
            keys.iter().enumerate().map(|(i, key)| rekey.rekey(key).map_err(|e| (i, e))).collect::<Result<Vec<_>, _>>()
        });
        let new = new.map_err(|(i, e)| BadKeyError::new_err(format!("key {i}: {e}")))?;
        keys_out(py, &new, keys.arrow)
    }

    /// The mapping back from the new design to the old, or None when there is none (a field
    /// was dropped, or a new field has no old field of its own to go back to).
    fn inverse(&self) -> Option<Rekey> {
        self.inner.inverse().map(|inner| Rekey { inner })
    }

    /// Whether two old keys can give one new key (`merge_rows=True` accepted it).
    #[getter]
    fn merges_rows(&self) -> bool {
        self.inner.merges_rows()
    }

    /// The old fields dropped as derived from others.
    #[getter]
    fn dropped(&self) -> Vec<&'static str> {
        self.inner.dropped().to_vec()
    }

    fn __repr__(&self) -> String {
        let targets: Vec<String> = self
            .inner
            .to_schema()
            .key_fields()
            .iter()
            .filter_map(|f| match f {
                KeyField::Value(field) => Some(field.name.to_owned()),
                _ => None,
            })
            .collect();
        format!(
            "<rowkey.Rekey {} -> {} ({})>",
            self.inner.from_schema().type_name,
            self.inner.to_schema().type_name,
            targets.join(", ")
        )
    }
}

fn name(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(obj.cast::<PyString>().map_err(|_| BadValueError::new_err("field names are str"))?.to_cow()?.into_owned())
}
