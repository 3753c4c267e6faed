//! Python values into the text forms `Schema::encode` reads (`rowkey encode` takes the same),
//! chosen by the field's encoding: so a Python value reaches the key through exactly the parser
//! and encoder that the command and the Rust tests use, and Python writes Rust's bytes.
//!
//! No message here quotes the value it refuses: only its Python type, so that a sensitive
//! field's value never reaches an exception.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyString, PyType};
use rowkey::schema::{Encoding, FieldSchema, KeyField, Value};

use crate::BadValueError;

/// A class of the standard library, imported once.
pub(crate) struct Class {
    cell: PyOnceLock<Py<PyType>>,
    module: &'static str,
    name: &'static str,
}

impl Class {
    pub(crate) const fn new(module: &'static str, name: &'static str) -> Class {
        Class { cell: PyOnceLock::new(), module, name }
    }

    pub(crate) fn get<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyType>> {
        self.cell.import(py, self.module, self.name)
    }

    fn holds(&self, obj: &Bound<'_, PyAny>) -> PyResult<bool> {
        obj.is_instance(self.get(obj.py())?)
    }
}

pub(crate) static DATETIME: Class = Class::new("datetime", "datetime");
pub(crate) static DATE: Class = Class::new("datetime", "date");
pub(crate) static TIMEDELTA: Class = Class::new("datetime", "timedelta");
pub(crate) static UUID: Class = Class::new("uuid", "UUID");
pub(crate) static IPV4: Class = Class::new("ipaddress", "IPv4Address");
pub(crate) static IPV6: Class = Class::new("ipaddress", "IPv6Address");
static DECIMAL: Class = Class::new("decimal", "Decimal");

/// The text `Schema::encode` reads for `obj` as the value of `field`, in a key whose format is
/// a store's (FoundationDB tuples, memcomparable, HBase) when `store`: there a number of a type
/// the schema does not describe (`i128`, HBase `numeric`) is read as a number, in the Bigtable
/// formats as its bytes.
pub(crate) fn text_of(field: KeyField, store: bool, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let schema = match field {
        // Computed from the other fields: given, they are checked against what they compute.
        KeyField::Prefix(_) | KeyField::Bucket(_) => {
            return if obj.is_instance_of::<PyString>() || is_int(obj) {
                Ok(obj.str()?.to_string())
            } else if let (KeyField::Prefix(_), Ok(bytes)) = (field, obj.cast::<PyBytes>()) {
                // A byte prefix as `inspect` gives it back.
                Ok(Value::Bytes(bytes.as_bytes().to_vec()).to_string())
            } else {
                let expected = if matches!(field, KeyField::Prefix(_)) { "str or bytes" } else { "str" };
                Err(refused(field.name(), expected, obj))
            };
        }
        KeyField::Value(schema) => schema,
    };
    if obj.is_none() {
        return if schema.optional {
            Ok("null".to_owned())
        } else {
            Err(BadValueError::new_err(format!(
                "`{}` is not optional ({}): give it a value (None is only for an Option field)",
                schema.name, schema.rust_type
            )))
        };
    }
    // For a text field a `str` is the value; for any other a `str` is the value's text form,
    // as `rowkey encode` takes it.
    if let Ok(text) = obj.cast::<PyString>() {
        let text = utf8(schema.name, text)?;
        return Ok(match schema.encoding {
            Encoding::Utf8 | Encoding::Char => Value::Str(text.into_owned()).to_string(),
            _ => text.into_owned(),
        });
    }
    let text = match schema.encoding {
        Encoding::Utf8 | Encoding::Char => None,
        Encoding::Bytes | Encoding::ByteArray { .. } => bytes_of(obj)?.map(|b| Value::Bytes(b).to_string()),
        Encoding::Hex { digits } if is_int_type(schema.rust_type) => int_of(schema, obj)?.map(|n| {
            let width = digits.map_or(0, usize::from);
            if n < 0 { format!("-{:0width$x}", n.unsigned_abs()) } else { format!("{n:0width$x}") }
        }),
        Encoding::Hex { .. } => bytes_of(obj)?.map(|b| b.iter().map(|b| format!("{b:02x}")).collect()),
        Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. } => {
            int_of(schema, obj)?.map(|n| n.to_string())
        }
        Encoding::Float64 | Encoding::Float32 => float_of(schema, obj)?,
        Encoding::Numeric | Encoding::Custom if store && is_int_type(schema.rust_type) => {
            int_of(schema, obj)?.map(|n| n.to_string())
        }
        Encoding::Numeric | Encoding::Custom if store && is_float_type(schema.rust_type) => float_of(schema, obj)?,
        Encoding::Numeric | Encoding::Custom => bytes_of(obj)?.map(|b| Value::Bytes(b).to_string()),
        Encoding::Bool => obj.cast::<PyBool>().ok().map(|b| b.is_true().to_string()),
        Encoding::TimestampMicros | Encoding::Timestamp(_) => instant_text(schema, obj)?,
        Encoding::Date(_) => date_text(obj)?,
        Encoding::Uuid if UUID.holds(obj)? => Some(uuid_text(obj.getattr("int")?.extract()?)),
        Encoding::Uuid => None,
        Encoding::Ipv4 | Encoding::Ipv6 | Encoding::IpAddr => {
            (IPV4.holds(obj)? || IPV6.holds(obj)?).then(|| obj.str().map(|s| s.to_string())).transpose()?
        }
        // ULIDs (no type in the standard library), flattened fields (not key fields) and
        // encodings added later take their text form only.
        _ => None,
    };
    text.ok_or_else(|| refused(schema.name, expected(schema, store), obj))
}

/// What a field takes, for the message that refuses something else.
fn expected(schema: &FieldSchema, store: bool) -> &'static str {
    match schema.encoding {
        Encoding::Utf8 | Encoding::Char => "str",
        Encoding::Bytes | Encoding::ByteArray { .. } => "bytes, or its text form as str",
        Encoding::Hex { .. } if is_int_type(schema.rust_type) => "int, or its hex digits as str",
        Encoding::Hex { .. } => "bytes, or their hex digits as str",
        Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. } => {
            "int, a whole decimal.Decimal, or its decimal text as str"
        }
        Encoding::Float64 | Encoding::Float32 => "float, int, decimal.Decimal, or its text as str (\"NaN:0x...\")",
        Encoding::Numeric | Encoding::Custom if store && is_int_type(schema.rust_type) => "int, or its text as str",
        Encoding::Numeric | Encoding::Custom if store && is_float_type(schema.rust_type) => {
            "float, int, decimal.Decimal, or its text as str"
        }
        Encoding::Numeric | Encoding::Custom => "bytes, or its text form as str",
        Encoding::Bool => "bool, or \"true\" / \"false\"",
        Encoding::TimestampMicros | Encoding::Timestamp(_) => {
            "a timezone-aware datetime.datetime, or RFC 3339 text in UTC as str"
        }
        Encoding::Date(_) => "datetime.date (not a datetime: give value.date()), or YYYY-MM-DD as str",
        Encoding::Uuid => "uuid.UUID, or its hyphenated text as str",
        Encoding::Ipv4 | Encoding::Ipv6 | Encoding::IpAddr => "an ipaddress address, or its text as str",
        Encoding::Ulid => "a ULID's Crockford base32 text as str",
        _ => "its text form as str",
    }
}

fn refused(name: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let ty = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_owned());
    BadValueError::new_err(format!("`{name}` takes {expected}, not a value of type {ty}"))
}

/// The type inside an `Option<...>`, without its path.
fn bare_type(rust_type: &str) -> &str {
    let inner = rust_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(rust_type);
    inner.rsplit(':').next().unwrap_or(inner)
}

fn is_int_type(rust_type: &str) -> bool {
    matches!(
        bare_type(rust_type),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize"
    )
}

fn is_float_type(rust_type: &str) -> bool {
    matches!(bare_type(rust_type), "f32" | "f64")
}

/// A Python `int` proper: `bool` is a subclass of `int`, but `True` is no number of a key.
fn is_int(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>()
}

fn bytes_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return Ok(Some(bytes.as_bytes().to_vec()));
    }
    if let Ok(bytes) = obj.cast::<PyByteArray>() {
        return Ok(Some(bytes.to_vec()));
    }
    Ok(None)
}

/// An integer, range-checked against `i128` here and against the field's own type by the
/// encoder; a `Decimal` that is a whole number counts.
fn int_of(schema: &FieldSchema, obj: &Bound<'_, PyAny>) -> PyResult<Option<i128>> {
    let whole = if is_int(obj) {
        obj.clone()
    } else if DECIMAL.holds(obj)? && obj.call_method0("is_finite")?.is_truthy()? {
        let int = obj.call_method0("__int__")?;
        if !int.eq(obj)? {
            return Err(BadValueError::new_err(format!(
                "`{}` is {}: the Decimal given is not a whole number",
                schema.name, schema.rust_type
            )));
        }
        int
    } else {
        return Ok(None);
    };
    whole.extract::<i128>().map(Some).map_err(|_| {
        BadValueError::new_err(format!("`{}`: the int given is out of the range of {}", schema.name, schema.rust_type))
    })
}

/// A float's text in the form that keeps a NaN's sign and payload (`NaN:0x...`).
fn float_of(schema: &FieldSchema, obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let x = if let Ok(x) = obj.cast::<PyFloat>() {
        x.value()
    } else if is_int(obj) {
        let n: i128 = obj.extract().map_err(|_| inexact(schema))?;
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        let x = n as f64;
        // An int the float cannot hold exactly would reach the key as another number.
        #[allow(clippy::cast_possible_truncation)]
        if x as i128 != n || !x.is_finite() {
            return Err(inexact(schema));
        }
        x
    } else if DECIMAL.holds(obj)? {
        obj.call_method0("__float__")?.extract()?
    } else {
        return Ok(None);
    };
    Ok(Some(Value::Float(x).to_string()))
}

fn inexact(schema: &FieldSchema) -> PyErr {
    BadValueError::new_err(format!(
        "`{}` is {}: the int given has no exact float; give a float",
        schema.name, schema.rust_type
    ))
}

/// An aware `datetime` as RFC 3339 text in UTC, to the microsecond.
fn instant_text(schema: &FieldSchema, obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if !DATETIME.holds(obj)? {
        return Ok(None);
    }
    if obj.call_method0("utcoffset")?.is_none() {
        return Err(BadValueError::new_err(format!(
            "`{}` takes a timezone-aware datetime, and this one is naive: say which zone it is in, e.g. \
             value.replace(tzinfo=datetime.timezone.utc) for a time in UTC, or value.astimezone() for local time",
            schema.name
        )));
    }
    let utc = DATETIME.get(obj.py())?.py().import("datetime")?.getattr("timezone")?.getattr("utc")?;
    let at = obj.call_method1("astimezone", (utc,)).map_err(|_| {
        BadValueError::new_err(format!("`{}`: the datetime given is outside the years 1 to 9999 in UTC", schema.name))
    })?;
    let part = |name: &str| -> PyResult<u32> { at.getattr(name)?.extract() };
    Ok(Some(format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
        part("year")?,
        part("month")?,
        part("day")?,
        part("hour")?,
        part("minute")?,
        part("second")?,
        part("microsecond")?
    )))
}

/// A UUID's hyphenated lowercase text, from its 128 bits.
fn uuid_text(value: u128) -> String {
    let hex = format!("{value:032x}");
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// A `date` (not a `datetime`, whose time of day the key would drop) as `YYYY-MM-DD`.
fn date_text(obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if !DATE.holds(obj)? || DATETIME.holds(obj)? {
        return Ok(None);
    }
    let part = |name: &str| -> PyResult<u32> { obj.getattr(name)?.extract() };
    Ok(Some(format!("{:04}-{:02}-{:02}", part("year")?, part("month")?, part("day")?)))
}

/// `obj` as the value of `field` for `Schema::encode_values`, for the common native values
/// whose `Value` is their text's: `None` of an optional field, `str` of a text field, `int`,
/// `float`, `bool`, `bytes`, `uuid.UUID`. `None` for anything else (text forms, dates,
/// addresses, `Decimal`...), which goes through `text_of` and `Schema::encode` instead, as do
/// its errors.
pub(crate) fn value_of(field: &FieldSchema, obj: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    if obj.is_none() {
        return Ok(field.optional.then_some(Value::Null));
    }
    // A store's `i128` and HBase's `numeric` are left to their text, whose parsing depends on
    // what the crate knows of their types.
    let ints = matches!(
        field.encoding,
        Encoding::Int64 | Encoding::Uint64 | Encoding::BigEndianInt64 | Encoding::Decimal { .. }
    );
    if ints {
        if !is_int(obj) {
            return Ok(None);
        }
        // Most keys' integers fit an i64, whose conversion is PyO3's quickest.
        if let Ok(n) = obj.extract::<i64>() {
            return Ok(Some(Value::Int(n.into())));
        }
        return Ok(obj.extract::<i128>().ok().map(Value::Int));
    }
    Ok(match field.encoding {
        Encoding::Utf8 => {
            obj.cast::<PyString>().ok().map(|s| utf8(field.name, s).map(|t| Value::Str(t.into_owned()))).transpose()?
        }
        Encoding::Float64 | Encoding::Float32 => obj.cast::<PyFloat>().ok().map(|x| Value::Float(x.value())),
        Encoding::Bool => obj.cast::<PyBool>().ok().map(|b| Value::Bool(b.is_true())),
        Encoding::Bytes | Encoding::ByteArray { .. } => {
            obj.cast::<PyBytes>().ok().map(|b| Value::Bytes(b.as_bytes().to_vec()))
        }
        Encoding::Uuid if UUID.holds(obj)? => {
            let bits: u128 = obj.getattr(pyo3::intern!(obj.py(), "int"))?.extract()?;
            Some(Value::Uuid(bits.to_be_bytes()))
        }
        _ => None,
    })
}

/// The text of a `str`, or (a lone surrogate, which UTF-8 cannot hold) an error naming the field.
fn utf8<'a>(field: &str, text: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    text.to_cow().map_err(|_| {
        BadValueError::new_err(format!(
            "`{field}` holds a lone surrogate, which no UTF-8 text (and so no key) holds: encode the text \
             properly first (it may come from bytes decoded with errors=\"surrogateescape\")"
        ))
    })
}
