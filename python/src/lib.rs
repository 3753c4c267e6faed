//! `rowkey._rowkey`: the compiled half of the Python package `rowkey`. The pure-Python
//! `rowkey/__init__.py` re-exports what is here; the keys are rowkey's own, computed by the Rust
//! crate from a schema file, so that Python and Rust write the same bytes.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod arrow;
mod batch;
mod columns;
mod declare;
mod dynamodb;
mod from_py;
mod hash_key;
mod inspection;
mod rekey;
mod row;
mod scan;
mod schema;
mod to_py;
mod uuid_object;

create_exception!(_rowkey, RowKeyError, PyValueError, "Any error of rowkey: a bad key, value or schema.");
create_exception!(
    _rowkey,
    BadKeyError,
    RowKeyError,
    "Bytes that are not a key of the schema: the message names the field and the byte offset."
);
create_exception!(
    _rowkey,
    BadValueError,
    RowKeyError,
    "A value a key cannot hold: of the wrong type, out of the field's range, a missing or unknown field."
);
create_exception!(_rowkey, BadSchemaError, RowKeyError, "Text that is not a schema file rowkey reads.");

/// A Rust error as the exception of its kind. Its text is the Rust error's, which the schema
/// has already redacted: it holds no value of a sensitive field.
pub(crate) fn bad_key(e: &rowkey::Error) -> PyErr {
    BadKeyError::new_err(e.to_string())
}

pub(crate) fn bad_value(e: &rowkey::Error) -> PyErr {
    BadValueError::new_err(e.to_string())
}

#[pymodule]
fn _rowkey(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("RowKeyError", py.get_type::<RowKeyError>())?;
    m.add("BadKeyError", py.get_type::<BadKeyError>())?;
    m.add("BadValueError", py.get_type::<BadValueError>())?;
    m.add("BadSchemaError", py.get_type::<BadSchemaError>())?;
    m.add_class::<schema::Schema>()?;
    m.add_function(wrap_pyfunction!(declare::declare_key, m)?)?;
    m.add_class::<schema::Field>()?;
    m.add_class::<inspection::Inspection>()?;
    m.add_class::<inspection::InspectedField>()?;
    m.add_class::<scan::KeyRanges>()?;
    m.add_class::<scan::StartsWith>()?;
    m.add_class::<scan::HostAndSubdomains>()?;
    m.add_class::<rekey::Rekey>()?;
    m.add_class::<hash_key::HashKey>()?;
    m.add_class::<dynamodb::DynamoKeys>()?;
    m.add_class::<dynamodb::KeyQuery>()?;
    Ok(())
}
