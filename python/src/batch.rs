//! A batch's keys for `encode_many`, `decode_many` and the rekey helpers: copied out of Python
//! (a list of `bytes` or a pyarrow array) with the GIL held, so that the work on them runs
//! with it released, and handed back in the form they came in.

use std::ops::Range;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::BadKeyError;
use crate::arrow::{is_arrow, keys_of};
use crate::columns::KeyColumn;

/// The keys of a batch, a list (or any iterable) of `bytes` or a pyarrow binary array, copied
/// into one buffer so that the work on them needs no GIL.
pub(crate) struct Keys {
    data: Vec<u8>,
    ranges: Vec<Range<usize>>,
    /// Whether they came as Arrow, and so go back as Arrow.
    pub(crate) arrow: bool,
}

impl Keys {
    pub(crate) fn read(keys: &Bound<'_, PyAny>) -> PyResult<Keys> {
        if is_arrow(keys)? {
            let (data, ranges) = keys_of(keys)?;
            return Ok(Keys { data, ranges, arrow: true });
        }
        let mut data = Vec::new();
        let mut ranges = Vec::new();
        for (i, key) in keys.try_iter()?.enumerate() {
            let key = key?;
            let key = key.cast::<PyBytes>().map_err(|_| BadKeyError::new_err(format!("key {i}: a key is bytes")))?;
            let start = data.len();
            data.extend_from_slice(key.as_bytes());
            ranges.push(start..data.len());
        }
        Ok(Keys { data, ranges, arrow: false })
    }

    pub(crate) fn len(&self) -> usize {
        self.ranges.len()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.ranges.iter().map(|r| &self.data[r.clone()])
    }
}

/// `keys` as the caller gave its batch: a pyarrow `BinaryArray` for Arrow, else a list of
/// `bytes`.
pub(crate) fn keys_out<'py, K: AsRef<[u8]>>(py: Python<'py>, keys: &[K], arrow: bool) -> PyResult<Bound<'py, PyAny>> {
    let mut column = KeyColumn::default();
    for key in keys {
        column.push(key.as_ref());
    }
    column.into_py(py, arrow)
}
