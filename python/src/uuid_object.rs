//! `uuid.UUID` objects for decoded values, made as `UUID.__init__` leaves one: the object
//! allocated as `object.__new__(UUID)` allocates it, its two slots (`int`, `is_safe`) set as
//! `object.__setattr__` sets them. `UUID.__init__` parses its arguments in Python, and calling
//! `object.__new__` and `object.__setattr__` from Rust builds an argument tuple a call; both
//! cost several times a decoded key's other values, so the three steps are made here as the
//! C functions behind them. The only unsafe code of the package, kept to this file.
#![allow(unsafe_code)]

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};
use pyo3::{IntoPyObjectExt, ffi};

use crate::from_py::UUID;

static SAFE_UNKNOWN: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A `uuid.UUID` of the 128-bit value `value`, with `is_safe` `SafeUUID.unknown`, as
/// `uuid.UUID(int=value)` makes it.
pub(crate) fn uuid_of(py: Python<'_>, value: u128) -> PyResult<Bound<'_, PyAny>> {
    let class = UUID.get(py)?;
    let unknown = SAFE_UNKNOWN
        .get_or_try_init(py, || -> PyResult<_> {
            Ok(py.import("uuid")?.getattr("SafeUUID")?.getattr("unknown")?.unbind())
        })?
        .bind(py);
    let out = alloc(class)?;
    set_slot(&out, pyo3::intern!(py, "int"), &value.into_bound_py_any(py)?)?;
    set_slot(&out, pyo3::intern!(py, "is_safe"), unknown)?;
    Ok(out)
}

static PLAIN_NEW: PyOnceLock<bool> = PyOnceLock::new();

/// A new, empty instance of `class`, as `object.__new__(class)` makes one.
fn alloc<'py>(class: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    // `uuid.UUID` is a Python class of `object` with no `__new__` of its own, so its
    // `tp_alloc` is `PyType_GenericAlloc`, which is what `object.__new__` calls; checked once,
    // so that a `uuid` module built otherwise is still served, by the call.
    let plain = *PLAIN_NEW.get_or_try_init(py, || -> PyResult<bool> {
        let object = py.import("builtins")?.getattr("object")?;
        Ok(class.getattr("__new__")?.is(object.getattr("__new__")?) && class.getattr("__base__")?.is(&object))
    })?;
    if !plain {
        return class.call_method1(pyo3::intern!(py, "__new__"), (class,));
    }
    // SAFETY: the GIL is held (`py`), and `class` is a live type object borrowed for the
    // call. `PyType_GenericAlloc` returns a new reference or null with an exception set,
    // which `from_owned_ptr_or_err` takes over or turns into the error.
    unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyType_GenericAlloc(class.as_type_ptr(), 0)) }
}

/// Sets attribute `name` of `obj` by the generic rule (`object.__setattr__`), past the class's
/// own `__setattr__`, which for `uuid.UUID` refuses every assignment.
fn set_slot(obj: &Bound<'_, PyAny>, name: &Bound<'_, PyString>, value: &Bound<'_, PyAny>) -> PyResult<()> {
    // SAFETY: the GIL is held (`obj.py()`), and the three pointers are live objects borrowed
    // for the call; `PyObject_GenericSetAttr` takes no reference of its own to hand back and
    // returns -1 with an exception set on failure.
    let status = unsafe { ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr()) };
    if status == 0 { Ok(()) } else { Err(PyErr::fetch(obj.py())) }
}
