//! A row's values for the crate's encoder, converted from Python (a dict, keyword arguments,
//! or a dict of columns cut into rows).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rowkey::schema::{KeyPlan, Value};

use crate::BadValueError;

/// A row's values for the crate's encoder: native values it takes as they are, or the text
/// forms of any other.
pub(crate) enum Row {
    Values(Vec<Value>),
    Texts(Vec<(String, String)>),
}

impl Row {
    pub(crate) fn encode(&self, plan: &KeyPlan) -> rowkey::Result<rowkey::Key> {
        match self {
            Row::Values(values) => plan.encode_values(values),
            Row::Texts(texts) => {
                let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
                plan.schema().encode(&pairs)
            }
        }
    }
}

/// The rows of `rows`, a list (or any iterable) of dicts, or a dict of equally long columns,
/// as dicts.
pub(crate) fn row_dicts<'py>(rows: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let py = rows.py();
    if let Ok(columns) = rows.cast::<PyDict>() {
        let mut names = Vec::with_capacity(columns.len());
        let mut values = Vec::with_capacity(columns.len());
        for (name, column) in columns.iter() {
            let column: Vec<Bound<'py, PyAny>> = column.try_iter()?.collect::<PyResult<_>>()?;
            names.push(name.cast_into::<PyString>().map_err(|_| BadValueError::new_err("field names are str"))?);
            values.push(column);
        }
        let len = values.first().map_or(0, Vec::len);
        if let Some((name, column)) = names.iter().zip(&values).find(|(_, c)| c.len() != len) {
            return Err(BadValueError::new_err(format!(
                "the columns differ in length: `{}` has {} values, `{}` {len}",
                name.to_cow()?,
                column.len(),
                names[0].to_cow()?
            )));
        }
        return (0..len)
            .map(|i| {
                let row = PyDict::new(py);
                for (name, column) in names.iter().zip(&values) {
                    row.set_item(name, &column[i])?;
                }
                Ok(row)
            })
            .collect();
    }
    rows.try_iter()?
        .enumerate()
        .map(|(i, row)| {
            row?.cast_into::<PyDict>().map_err(|_| BadValueError::new_err(format!("row {i}: a row is a dict")))
        })
        .collect()
}

/// The error of row `i`, as its kind, with the row named.
pub(crate) fn in_row(py: Python<'_>, i: usize, e: PyErr) -> PyErr {
    let message = format!("row {i}: {}", e.value(py));
    let ty = e.get_type(py);
    match ty.call1((message,)) {
        Ok(value) => PyErr::from_value(value),
        Err(_) => e,
    }
}
