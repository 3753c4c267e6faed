//! `rowkey.DynamoKeys`: a schema's keys as DynamoDB item keys, and a scan's ranges as the
//! exact `Query` conditions, from the crate's `rowkey::dynamodb`, so that Python queries what
//! Rust would. String attributes are `str`, binary ones `bytes`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};
use rowkey::dynamodb::{AttributeType, ItemKey, SortCondition};
use rowkey::key::Key;
use rowkey::schema::KeyField;

use crate::scan::KeyRanges;
use crate::schema::Schema;
use crate::{bad_key, bad_value};

/// How a schema's keys become DynamoDB item keys (its `dynamodb` design): ``item(key)`` gives
/// the partition and sort key, ``key(partition, sort)`` the key back, ``queries(ranges)`` the
/// queries of a scan. Attributes are ``str`` for a delimited key, ``bytes`` for an ordered one.
///
/// >>> import rowkey
/// >>> class Order(rowkey.Key, delimited="#", prefix="TENANT",
/// ...             dynamodb=rowkey.DynamoDB(partition=["tenant"], sort_prefix="ORDER")):
/// ...     tenant: str
/// ...     day: rowkey.u32
/// >>> keys = rowkey.DynamoKeys(Order.SCHEMA)
/// >>> keys.item(Order("acme", 20240501).to_key())
/// ('TENANT#acme', 'ORDER#0020240501')
/// >>> [(q.partition, q.operator, q.values, q.drop) for q in keys.queries(Order.scan().tenant("acme").day_range(1, 5).ranges())]
/// [('TENANT#acme', 'between', ('ORDER#0000000001', 'ORDER#0000000005'), 'ORDER#0000000005')]
#[pyclass(frozen, module = "rowkey")]
pub(crate) struct DynamoKeys {
    inner: rowkey::dynamodb::DynamoKeys,
}

/// One DynamoDB `Query`: the partition key, the sort-key condition (``operator`` one of ``=``,
/// ``<``, ``<=``, ``>``, ``>=``, ``between``, ``begins_with``, or ``None`` for the whole
/// partition, with its ``values``), and ``drop``, the sort key of the item a ``between`` reads
/// past a half-open range, which ``keeps`` leaves out.
#[pyclass(frozen, module = "rowkey")]
pub(crate) struct KeyQuery {
    inner: rowkey::dynamodb::KeyQuery,
    ty: AttributeType,
    /// Whether the key has a `sensitive` field, whose value its repr must not show.
    sensitive: bool,
}

/// A key attribute's value as Python takes it: text for a string key (checked UTF-8 when made).
fn attribute<'py>(py: Python<'py>, bytes: &Key, ty: AttributeType) -> Bound<'py, PyAny> {
    match ty {
        AttributeType::String => PyString::new(py, &String::from_utf8_lossy(bytes.as_bytes())).into_any(),
        AttributeType::Binary => PyBytes::new(py, bytes.as_bytes()).into_any(),
    }
}

/// A key attribute from Python: `str` or `bytes`, or boto3's `Binary`, whose `.value` is the
/// bytes (looked into once: an object whose `.value` is another such object is refused, not
/// followed without end).
fn from_attribute(value: &Bound<'_, PyAny>) -> PyResult<Key> {
    let plain = |value: &Bound<'_, PyAny>| -> PyResult<Option<Key>> {
        if let Ok(text) = value.cast::<PyString>() {
            return Ok(Some(Key::from(text.to_cow()?.as_ref())));
        }
        Ok(value.extract::<Vec<u8>>().ok().map(Key::from))
    };
    if let Some(key) = plain(value)? {
        return Ok(key);
    }
    if let Ok(inner) = value.getattr("value")
        && let Some(key) = plain(&inner)?
    {
        return Ok(key);
    }
    Err(crate::BadValueError::new_err("a key attribute is str or bytes (or boto3's Binary)"))
}

#[pymethods]
impl DynamoKeys {
    #[new]
    fn py_new(schema: &Bound<'_, PyAny>) -> PyResult<DynamoKeys> {
        // A `rowkey.Key` class gives its `SCHEMA`.
        let schema = match schema.extract::<PyRef<'_, Schema>>() {
            Ok(schema) => schema.inner,
            Err(_) => schema.getattr("SCHEMA")?.extract::<PyRef<'_, Schema>>()?.inner,
        };
        let keys = rowkey::dynamodb::DynamoKeys::of(schema).map_err(|e| {
            let text = e.to_string().replace(
                "`#[rowkey(dynamodb(partition = [...]))]` to the type",
                "`dynamodb=rowkey.DynamoDB(partition=[...])` to the class",
            );
            crate::BadValueError::new_err(text)
        })?;
        Ok(DynamoKeys { inner: keys })
    }

    /// ``"S"`` for string attributes (a delimited key), ``"B"`` for binary ones.
    #[getter]
    fn attribute_type(&self) -> &'static str {
        self.inner.attribute_type().letter()
    }

    /// Whether items have a sort key.
    #[getter]
    fn has_sort_key(&self) -> bool {
        self.inner.has_sort_key()
    }

    /// The item key of ``key``: ``(partition, sort)``, ``sort`` ``None`` for a design without one.
    fn item<'py>(&self, py: Python<'py>, key: &[u8]) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
        let item = self.inner.item(key).map_err(|e| bad_key(&e))?;
        let ty = self.inner.attribute_type();
        Ok((attribute(py, &item.partition, ty), item.sort.as_ref().map(|sort| attribute(py, sort, ty))))
    }

    /// The key of an item key: ``item`` backwards.
    #[pyo3(signature = (partition, sort = None))]
    fn key<'py>(
        &self,
        py: Python<'py>,
        partition: &Bound<'_, PyAny>,
        sort: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let item = ItemKey { partition: from_attribute(partition)?, sort: sort.map(from_attribute).transpose()? };
        let key = self.inner.key(&item).map_err(|e| bad_key(&e))?;
        Ok(PyBytes::new(py, key.as_bytes()))
    }

    /// The queries that read exactly the keys of ``ranges`` (a scan's, every partition field
    /// fixed): one a range, a salt's buckets each their own.
    fn queries(&self, ranges: &KeyRanges) -> PyResult<Vec<KeyQuery>> {
        let queries = self.inner.queries(&ranges.inner).map_err(|e| bad_value(&e))?;
        let ty = self.inner.attribute_type();
        let sensitive =
            self.inner.schema().key_fields().iter().any(|f| matches!(f, KeyField::Value(field) if field.sensitive));
        Ok(queries.into_iter().map(|inner| KeyQuery { inner, ty, sensitive }).collect())
    }
}

#[pymethods]
impl KeyQuery {
    /// The partition key.
    #[getter]
    fn partition<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        attribute(py, &self.inner.partition, self.ty)
    }

    /// The condition's operator, ``None`` when the query reads the whole partition.
    #[getter]
    fn operator(&self) -> Option<&'static str> {
        self.inner.sort.as_ref().map(|sort| match sort {
            SortCondition::Eq(_) => "=",
            SortCondition::Lt(_) => "<",
            SortCondition::Le(_) => "<=",
            SortCondition::Gt(_) => ">",
            SortCondition::Ge(_) => ">=",
            SortCondition::Between(..) => "between",
            SortCondition::BeginsWith(_) => "begins_with",
        })
    }

    /// The condition's values: one, or two for ``between``; none without a condition.
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let values: Vec<Bound<'py, PyAny>> = match &self.inner.sort {
            None => Vec::new(),
            Some(sort) => {
                let (lo, hi) = sort.values();
                std::iter::once(lo).chain(hi).map(|v| attribute(py, v, self.ty)).collect()
            }
        };
        PyTuple::new(py, values)
    }

    /// The sort key of the item to leave out, if any.
    #[getter]
    fn drop<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.inner.drop.as_ref().map(|d| attribute(py, d, self.ty))
    }

    /// Whether an item of the partition whose sort key is ``sort`` is one the scan asked for.
    fn keeps(&self, sort: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.keeps(from_attribute(sort)?.as_bytes()))
    }

    /// The query in words; a key with a `sensitive` field shows the operator alone.
    fn __repr__(&self) -> String {
        let operator = self.operator().unwrap_or("any");
        if self.sensitive {
            return format!("KeyQuery({operator}, values redacted)");
        }
        let condition = self.inner.sort.as_ref().map_or_else(|| "any".to_owned(), ToString::to_string);
        let drop = self.inner.drop.as_ref().map_or_else(String::new, |d| format!(", dropping {}", d.to_readable()));
        format!("KeyQuery({} {condition}{drop})", self.inner.partition.to_readable())
    }
}
