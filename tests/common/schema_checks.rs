//! Checks shared by the schema tests: a schema's operations against what the key type's own
//! code does (`from_key`, the derived scan builder).

use std::collections::HashMap;
use std::ops::Bound;

use proptest::prelude::*;
use rowkey::range::KeyRanges;
use rowkey::schema::{Inspection, KeyPlan, KeySchema, ScanNext, Schema, Value};
use rowkey::{Key, RowKey, RowKeyOwned};

/// Each field of the value's key as text, as `rowkey inspect` prints it and `scan` takes it.
pub fn texts<T: RowKeyOwned + KeySchema>(value: &T) -> HashMap<&'static str, String> {
    let key: Key = value.to_key().unwrap();
    T::SCHEMA.inspect(&key).unwrap().fields().iter().map(|f| (f.name(), f.value_text())).collect()
}

/// A pair of bounds of each kind (included, excluded, unbounded) at either end, by `kind`.
pub fn bounds<T: Clone>(kind: u8, lo: T, hi: T) -> (Bound<T>, Bound<T>) {
    let at = |k: u8, v: T| match k % 3 {
        0 => Bound::Included(v),
        1 => Bound::Excluded(v),
        _ => Bound::Unbounded,
    };
    (at(kind, lo), at(kind / 3, hi))
}

/// The schema's ranges for the fields `fixed` of `a` and, with `range`, the next field between
/// `a`'s and `b`'s values, compared with the builder's.
pub fn check(
    schema: &Schema,
    a: &HashMap<&'static str, String>,
    fixed: &[&str],
    range: Option<(&str, &HashMap<&'static str, String>, u8)>,
    expected: rowkey::Result<KeyRanges>,
) -> Result<(), TestCaseError> {
    let pairs: Vec<(&str, &str)> = fixed.iter().map(|name| (*name, a[name].as_str())).collect();
    let range = range.map(|(name, b, kind)| {
        let (lo, hi) = bounds(kind, a[name].as_str(), b[name].as_str());
        (name, lo, hi)
    });
    // Ranges that hold no key are said to be empty, naming the field of the range.
    if let Ok(ranges) = &expected {
        let next = range.map(|(name, lo, hi)| (name, ScanNext::Range(lo, hi)));
        let why = schema.empty_scan(&pairs, next).unwrap();
        prop_assert_eq!(why.is_some(), ranges.iter().all(|r| r.is_empty()), "{:?} {:?} {:?}", pairs, range, why);
        if let (Some(why), Some((name, _, _))) = (why, range) {
            prop_assert_eq!(why.field(), name);
        }
    }
    let got = schema.scan_ranges(&pairs, range);
    prop_assert_eq!(got.map_err(|e| e.to_string()), expected.map_err(|e| e.to_string()), "{:?} {:?}", pairs, range);
    Ok(())
}

/// Keys near `key`: cut short, one byte changed, one byte added, bytes appended.
pub fn mutations(key: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = key.len();
    (0..=len, any::<u8>(), 0..4u8).prop_map(move |(at, byte, how)| {
        let mut bytes = key.clone();
        match how {
            0 => bytes.truncate(at),
            1 if at < len => bytes[at] = byte,
            2 => bytes.insert(at, byte),
            _ => bytes.push(byte),
        }
        bytes
    })
}

/// Two readings of one key give the same fields: names, offsets, lengths, schemas and values,
/// a float's by its bits (`NaN` is not equal to itself, so `Inspection`'s `==` cannot say).
pub fn assert_same_fields(a: &Inspection, b: &Inspection) {
    let shown = |i: &Inspection| -> Vec<_> {
        i.fields()
            .iter()
            .map(|f| {
                let value = match f.value() {
                    Value::Float(x) => format!("float {:#x}", x.to_bits()),
                    other => format!("{other:?}"),
                };
                (f.name(), f.offset(), f.redacted().len, f.key_field(), value)
            })
            .collect()
    };
    assert_eq!((a.type_name(), shown(a)), (b.type_name(), shown(b)));
}

/// `inspect` accepts exactly what `from_key` accepts, and fails at the same field and byte.
pub fn agrees_with_from_key<T: for<'de> RowKey<'de> + std::fmt::Debug>(schema: &Schema, bytes: &[u8]) {
    let typed = T::from_key(bytes);
    let inspected = schema.inspect(bytes);
    // The compiled plan reads what the interpreter reads, fields or error.
    let planned = KeyPlan::new(schema).inspect(bytes);
    match (&planned, &inspected) {
        (Ok(a), Ok(b)) => assert_same_fields(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{:?}", rowkey::Key::from(bytes)),
        _ => panic!("{:?}: plan {planned:?}, inspect {inspected:?}", rowkey::Key::from(bytes)),
    }
    match (&typed, &inspected) {
        (Ok(_), Ok(_)) => {}
        (Err(a), Err(b)) => assert!(
            a.location().name() == b.location().name() && a.location().offset() == b.location().offset(),
            "{:?}\nfrom_key: {a}\ninspect:  {b}",
            rowkey::Key::from(bytes)
        ),
        _ => panic!("{:?}: from_key {typed:?}, inspect {inspected:?}", rowkey::Key::from(bytes)),
    }
}

/// `Schema::encode` takes a value exactly when the key type's own code does: `a`'s fields as
/// text with the field at `pick` replaced by `b`'s (which the type took) or by a text at the
/// edge of the forms (`""`, `null`, nothing). What the schema takes must decode, encode again
/// to the same key, and read back as the value it was given, not as another value (an
/// optional text's `""` as `None`).
pub fn encode_takes_what_the_type_takes<T: RowKeyOwned + KeySchema + std::fmt::Debug>(
    a: &T,
    b: &T,
    pick: usize,
) -> Result<(), TestCaseError> {
    let (ta, tb) = (ordered_texts::<T>(&a.to_key().unwrap()), ordered_texts::<T>(&b.to_key().unwrap()));
    let chosen: Vec<usize> =
        (0..ta.len()).filter(|&i| ta[i].0 != Schema::PREFIX_FIELD && ta[i].0 != Schema::BUCKET_FIELD).collect();
    let at = chosen[pick % chosen.len()];
    let name = ta[at].0;
    let theirs = tb[at].1.as_str();
    // `""` and `null` are the forms `inspect` prints of an empty text and of `None`; to a
    // field of bytes or numbers they are other values, or none.
    let field = T::SCHEMA.field(name).unwrap();
    let text = field.encoding == rowkey::schema::Encoding::Utf8;
    for (given, canonical) in [(theirs, true), ("\"\"", text), ("null", field.optional), ("", false)] {
        // The prefix and bucket are computed: left out, as a changed salt source changes them.
        let pairs: Vec<(&str, &str)> = ta
            .iter()
            .enumerate()
            .filter(|(i, _)| chosen.contains(i))
            .map(|(i, (n, text))| (*n, if i == at { given } else { text.as_str() }))
            .collect();
        let encoded = T::SCHEMA.encode(&pairs);
        if given == theirs {
            prop_assert!(encoded.is_ok(), "{}={} of {:?}: {:?}", name, given, b, encoded);
        }
        let Ok(key) = encoded else { continue };
        let typed = T::from_key(&key);
        prop_assert!(
            typed.is_ok(),
            "{}={}: the schema wrote {}, which the type refuses: {:?}",
            name,
            given,
            key,
            typed
        );
        let again = typed.unwrap().to_key();
        prop_assert_eq!(again.as_ref().ok(), Some(&key), "{}={}: {:?}", name, given, again);
        if canonical {
            let back = &ordered_texts::<T>(&key)[at].1;
            prop_assert_eq!(back.as_str(), given, "{}={} was written as another value, key {}", name, given, key);
        }
    }
    Ok(())
}

/// Each field of a key as text, in key order (a flattened struct's prefix and bucket repeat
/// the names).
fn ordered_texts<T: KeySchema>(key: &Key) -> Vec<(&'static str, String)> {
    T::SCHEMA.inspect(key).unwrap().fields().iter().map(|f| (f.name(), f.value_text())).collect()
}
