//! `schema.scan(**fixed, next=(field, slice))`: the key ranges of a query, from the crate's
//! `Schema::scan_query`, so that Python reads exactly what the derived scan builder would.

use std::ops::Bound as Limit;

use pyo3::exceptions::{PyImportError, PyIndexError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyRange, PySlice, PyTuple};
use rowkey::KeyRange;

use crate::BadValueError;

/// The values of a text field that start with `text`, for `scan`'s `next`: an ascending
/// `String` field without a transform.
///
/// ```python
/// ranges = schema.scan(device_type="meter", next=("device_id", rowkey.StartsWith("4c41")))
/// ```
#[pyclass(frozen, module = "rowkey")]
pub struct StartsWith {
    pub(crate) text: String,
}

#[pymethods]
impl StartsWith {
    #[new]
    fn py_new(text: String) -> StartsWith {
        StartsWith { text }
    }

    fn __repr__(&self) -> String {
        format!("rowkey.StartsWith({:?})", self.text)
    }
}

/// A host and all its sub-domains, for `scan`'s `next` on a `reverse_domain` field:
/// `HostAndSubdomains("google.com")` finds `google.com` and `maps.google.com`, not
/// `google-analytics.com`.
#[pyclass(frozen, module = "rowkey")]
pub struct HostAndSubdomains {
    pub(crate) host: String,
}

#[pymethods]
impl HostAndSubdomains {
    #[new]
    fn py_new(host: String) -> HostAndSubdomains {
        HostAndSubdomains { host }
    }

    fn __repr__(&self) -> String {
        format!("rowkey.HostAndSubdomains({:?})", self.host)
    }
}

/// Key ranges, each a half-open `(start, end)` pair of `bytes`: `start` the first key in the
/// range, `end` the first key past it, `None` for no end. A query no key can match gives
/// ranges that are all empty: `is_empty()` is then true, and they must not be read as a
/// store's "no ranges", which is the whole table.
#[pyclass(frozen, sequence, module = "rowkey")]
pub struct KeyRanges {
    pub(crate) inner: rowkey::KeyRanges,
}

/// A range as half-open bytes: an excluded start or an included end moves to the next key,
/// the key with a zero byte appended, as no key lies between the two.
fn half_open(range: &KeyRange) -> (Vec<u8>, Option<Vec<u8>>) {
    let start = match range.start() {
        Limit::Included(key) => key.to_vec(),
        Limit::Excluded(key) => rowkey::key_after(key).to_vec(),
        Limit::Unbounded => Vec::new(),
    };
    let end = match range.end() {
        Limit::Included(key) => Some(rowkey::key_after(key).to_vec()),
        Limit::Excluded(key) => Some(key.to_vec()),
        Limit::Unbounded => None,
    };
    (start, end)
}

fn pair<'py>(py: Python<'py>, range: &KeyRange) -> PyResult<Bound<'py, PyTuple>> {
    let (start, end) = half_open(range);
    PyTuple::new(
        py,
        [
            PyBytes::new(py, &start).into_any(),
            end.map_or(py.None().into_bound(py), |e| PyBytes::new(py, &e).into_any()),
        ],
    )
}

#[pymethods]
impl KeyRanges {
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyTuple>> {
        let len = self.inner.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if !(0..len).contains(&at) {
            return Err(PyIndexError::new_err("range index out of range"));
        }
        pair(py, &self.inner.as_slice()[at as usize])
    }

    /// Whether no key can lie in the ranges: a query that matches nothing, which must not be
    /// read (a store takes no ranges for the whole table).
    fn is_empty(&self) -> bool {
        self.inner.iter().all(KeyRange::is_empty)
    }

    /// Whether `key` lies in one of the ranges.
    fn contains(&self, key: &[u8]) -> bool {
        self.inner.contains(key)
    }

    /// The ranges as a list of `(start, end)` pairs.
    fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner.iter().map(|range| pair(py, range)).collect()
    }

    /// The ranges as a `google.cloud.bigtable.row_set.RowSet` (PyPI `google-cloud-bigtable`),
    /// for `table.read_rows(row_set=...)`. Raises `BadValueError` when no key can match the
    /// query: an empty `RowSet` is read as the whole table.
    fn to_row_set<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.is_empty() {
            return Err(BadValueError::new_err(
                "no key can match this query, and a RowSet without ranges reads the whole table: check \
                 ranges.is_empty() and read nothing",
            ));
        }
        let module = py.import("google.cloud.bigtable.row_set").map_err(|e| {
            PyImportError::new_err(format!(
                "to_row_set needs google-cloud-bigtable (pip install google-cloud-bigtable): {e}"
            ))
        })?;
        let row_set = module.getattr("RowSet")?.call0()?;
        let row_range = module.getattr("RowRange")?;
        for range in self.inner.iter() {
            let kwargs = PyDict::new(py);
            let (start, start_inclusive) = match range.start() {
                Limit::Included(key) => (Some(key), true),
                Limit::Excluded(key) => (Some(key), false),
                Limit::Unbounded => (None, true),
            };
            let (end, end_inclusive) = match range.end() {
                Limit::Included(key) => (Some(key), true),
                Limit::Excluded(key) => (Some(key), false),
                Limit::Unbounded => (None, false),
            };
            kwargs.set_item("start_key", start.map(|k| PyBytes::new(py, k)))?;
            kwargs.set_item("end_key", end.map(|k| PyBytes::new(py, k)))?;
            kwargs.set_item("start_inclusive", start_inclusive)?;
            kwargs.set_item("end_inclusive", end_inclusive)?;
            row_set.call_method1("add_row_range", (row_range.call((), Some(&kwargs))?,))?;
        }
        Ok(row_set)
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self.inner.iter().map(ToString::to_string).collect();
        format!("<KeyRanges [{}]>", shown.join(", "))
    }
}

/// The bounds of `next`'s values: a `slice(start, stop)` (start included, stop excluded, either
/// `None` for no bound) or a `range` with step 1.
pub(crate) fn bounds<'py>(values: &Bound<'py, PyAny>) -> PyResult<[Option<Bound<'py, PyAny>>; 2]> {
    let some = |v: Bound<'py, PyAny>| if v.is_none() { None } else { Some(v) };
    if let Ok(slice) = values.cast::<PySlice>() {
        if !slice.getattr("step")?.is_none() {
            return Err(BadValueError::new_err("next takes a slice without a step: slice(start, stop)"));
        }
        return Ok([some(slice.getattr("start")?), some(slice.getattr("stop")?)]);
    }
    if let Ok(range) = values.cast::<PyRange>() {
        if range.getattr("step")?.extract::<i64>()? != 1 {
            return Err(BadValueError::new_err("next takes a range with step 1"));
        }
        return Ok([Some(range.getattr("start")?), Some(range.getattr("stop")?)]);
    }
    Err(BadValueError::new_err(
        "next is (field, slice(start, stop)) or (field, range(start, stop)): start included, stop excluded",
    ))
}
