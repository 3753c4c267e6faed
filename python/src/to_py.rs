//! A decoded [`Value`] as the native Python value `encode` takes back: `int`, `float` (NaN
//! payload kept), `str`, `bytes`, `bool`, `None`, aware `datetime` in UTC, `date`,
//! `uuid.UUID`, `ipaddress` addresses; a ULID as its Crockford text.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict};
use rowkey::schema::{KeyField, Value};

use crate::BadValueError;
use crate::from_py::{DATE, DATETIME, IPV4, IPV6, TIMEDELTA};
use crate::uuid_object::uuid_of;

static EPOCH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static EPOCH_DAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn epoch(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    let at = EPOCH.get_or_try_init(py, || -> PyResult<_> {
        let utc = py.import("datetime")?.getattr("timezone")?.getattr("utc")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("tzinfo", utc)?;
        Ok(DATETIME.get(py)?.call((1970, 1, 1), Some(&kwargs))?.unbind())
    })?;
    Ok(at.bind(py))
}

fn epoch_day(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    let day = EPOCH_DAY.get_or_try_init(py, || -> PyResult<_> { Ok(DATE.get(py)?.call1((1970, 1, 1))?.unbind()) })?;
    Ok(day.bind(py))
}

/// The Python value of `value`, a field of `field`.
pub(crate) fn py_value<'py>(py: Python<'py>, field: KeyField, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        // Most keys' integers fit an i64, whose conversion is one C call; an i128's is several.
        Value::Int(n) => match i64::try_from(*n) {
            Ok(n) => n.into_bound_py_any(py),
            Err(_) => n.into_bound_py_any(py),
        },
        Value::Float(x) => x.into_bound_py_any(py),
        Value::Str(text) => text.into_bound_py_any(py),
        Value::Bytes(bytes) => Ok(PyBytes::new(py, bytes).into_any()),
        Value::Timestamp(micros) => {
            let delta = TIMEDELTA.get(py)?.call((0, 0, *micros), None)?;
            epoch(py)?.call_method1("__add__", (delta,)).map_err(|_| beyond(field, "datetime.datetime"))
        }
        Value::TimestampNanos(nanos) if nanos % 1000 == 0 => {
            let micros = i64::try_from(nanos / 1000).map_err(|_| beyond(field, "datetime.datetime"))?;
            py_value(py, field, &Value::Timestamp(micros))
        }
        Value::TimestampNanos(_) => Err(BadValueError::new_err(format!(
            "`{}` holds an instant to the nanosecond, which datetime.datetime cannot: read its text with \
             schema.inspect(key)",
            field.name()
        ))),
        Value::Date(days) => {
            let delta = TIMEDELTA.get(py)?.call1((*days,))?;
            epoch_day(py)?.call_method1("__add__", (delta,)).map_err(|_| beyond(field, "datetime.date"))
        }
        Value::Uuid(bytes) => uuid_of(py, u128::from_be_bytes(*bytes)),
        Value::Ulid(_) => value.to_string().into_bound_py_any(py),
        Value::Ip(std::net::IpAddr::V4(ip)) => IPV4.get(py)?.call1((u32::from(*ip),)).map(Bound::into_any),
        Value::Ip(std::net::IpAddr::V6(ip)) => IPV6.get(py)?.call1((u128::from(*ip),)).map(Bound::into_any),
        // Later variants of the non-exhaustive enum: their text, which `encode` reads.
        other => other.to_string().into_bound_py_any(py),
    }
}

fn beyond(field: KeyField, ty: &str) -> PyErr {
    BadValueError::new_err(format!(
        "`{}` holds a value outside the years 1 to 9999 that {ty} holds: read its text with schema.inspect(key)",
        field.name()
    ))
}
