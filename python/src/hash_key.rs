//! `rowkey.HashKey`: the secret a `Hashed` field is keyed with, and the hash of a value under
//! it, made by the Rust crate's own `Hashed::new` so that Python and Rust hash the same bytes.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rowkey::field::Hashed;

use crate::bad_value;

/// What a value is hashed from: a `str` as its UTF-8 bytes (as Rust hashes a `&str`), or bytes.
#[derive(FromPyObject)]
enum Hashable {
    Text(String),
    Bytes(Vec<u8>),
}

impl AsRef<[u8]> for Hashable {
    fn as_ref(&self) -> &[u8] {
        match self {
            Hashable::Text(text) => text.as_bytes(),
            Hashable::Bytes(bytes) => bytes,
        }
    }
}

/// The secret of a ``Hashed`` field: ``key.hash(value)`` is what the field holds for ``value``.
///
/// The secret stays in Rust, overwritten with zeros when the key is dropped; the key never
/// prints it and cannot be pickled.
///
/// >>> import rowkey
/// >>> key = rowkey.HashKey(b"the application's secret")
/// >>> key
/// HashKey(<redacted>)
/// >>> key.hash("alice@example.com").hex()
/// '47dc1d79d4b77f4106bfa1ef6576c3e8'
/// >>> len(key.hash("alice@example.com", width=8))
/// 8
#[pyclass(module = "rowkey", frozen)]
pub(crate) struct HashKey {
    key: rowkey::field::HashKey,
}

#[pymethods]
impl HashKey {
    #[new]
    fn new(secret: Vec<u8>) -> PyResult<HashKey> {
        Ok(HashKey { key: rowkey::field::HashKey::from_vec(secret).map_err(|e| bad_value(&e))? })
    }

    /// The first ``width`` bytes (8 to 32; 16 by default, ``rowkey.Hashed``'s) of the
    /// HMAC-SHA-256 of ``value`` (a ``str`` is hashed as its UTF-8 bytes): the bytes of a
    /// ``Hashed`` field of that width. Normalise the value first (lowercase an email address):
    /// another spelling is another hash.
    #[pyo3(signature = (value, width = 16))]
    fn hash<'py>(&self, py: Python<'py>, value: Hashable, width: usize) -> PyResult<Bound<'py, PyBytes>> {
        macro_rules! widths {
            ($($n:literal)*) => {
                match width {
                    $($n => PyBytes::new(py, Hashed::<$n>::new(&self.key, &value).as_bytes()),)*
                    _ => return Err(PyValueError::new_err(format!(
                        "a `Hashed` field is 8 to 32 bytes wide, not {width}: give the width the field is declared with"
                    ))),
                }
            };
        }
        Ok(widths!(8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32))
    }

    fn __repr__(&self) -> &'static str {
        "HashKey(<redacted>)"
    }
}
