//! The promises every decoder keeps on any bytes, as checks that panic (a crash to libFuzzer)
//! when one is broken.

use std::fmt::Debug;

use rowkey::format::{FormatKey, KeyFormat};
use rowkey::schema::{Inspection, KeyPlan, KeySchema};
use rowkey::{Key, RowKeyOwned};

use crate::show;

/// A check of one key type on one input, so that one list of types serves several targets.
pub trait KeyCheck {
    /// Checks `bytes` as a key of `T`.
    fn check<T: RowKeyOwned + KeySchema + Debug>(&self, bytes: &[u8]);
}

/// One value, one key: bytes that decode re-encode to exactly themselves.
pub struct Canonical;

impl KeyCheck for Canonical {
    fn check<T: RowKeyOwned + KeySchema + Debug>(&self, bytes: &[u8]) {
        canonical::<T>(bytes);
    }
}

/// `T::SCHEMA.inspect` says what `T::from_key` says: both accept, or both refuse naming the
/// same field at the same byte.
pub struct Agreement;

impl KeyCheck for Agreement {
    fn check<T: RowKeyOwned + KeySchema + Debug>(&self, bytes: &[u8]) {
        agreement::<T>(bytes);
    }
}

/// Decodes `bytes` as a `T`; when that succeeds, the value's key must be `bytes`.
pub fn canonical<T: RowKeyOwned + Debug>(bytes: &[u8]) {
    if let Ok(value) = T::from_key(bytes) {
        encodes_back(bytes, &value, value.to_key());
    }
}

/// [`canonical`] for a key of `T` in any format value (a delimiter, a subspace prefix).
pub fn canonical_in<F: KeyFormat, T: for<'de> FormatKey<'de, F> + Debug>(format: &F, bytes: &[u8]) {
    if let Ok(value) = format.from_key::<T>(bytes) {
        encodes_back(bytes, &value, format.to_key(&value));
    }
}

/// `value` was decoded from `bytes`; `again` is its key, which must be `bytes`. Every
/// decoder target's canonicity check ends here.
pub fn encodes_back<V: Debug>(bytes: &[u8], value: &V, again: rowkey::Result<Key>) {
    match again {
        Ok(again) => {
            assert!(again.as_bytes() == bytes, "{} decodes to {value:?}, whose key is {}", show(bytes), show(&again))
        }
        Err(e) => panic!("{} decodes to {value:?}, which does not encode: {e}", show(bytes)),
    }
}

/// `inspect` against `from_key` on the same bytes.
pub fn agreement<T: RowKeyOwned + KeySchema + Debug>(bytes: &[u8]) {
    let typed = T::from_key(bytes);
    let inspected = T::SCHEMA.inspect(bytes);
    // The compiled plan reads what the interpreter reads: the same fields at the same offsets
    // (values as text, which keeps a NaN's sign and payload), or the same error.
    let planned = KeyPlan::new(&T::SCHEMA).inspect(bytes);
    let shown = |read: &rowkey::Result<Inspection>| match read {
        Ok(fields) => {
            Ok((fields.revealed().to_string(), fields.fields().iter().map(|f| f.offset()).collect::<Vec<_>>()))
        }
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(shown(&planned), shown(&inspected), "{}", show(bytes));
    match (&typed, &inspected) {
        (Ok(_), Ok(inspection)) => {
            // Showing an inspection must not fail either.
            let _ = inspection.to_string();
        }
        (Err(a), Err(b)) => assert!(
            a.location().name() == b.location().name() && a.location().offset() == b.location().offset(),
            "{}\nfrom_key: {a}\ninspect:  {b}",
            show(bytes)
        ),
        _ => panic!("{}\nfrom_key: {typed:?}\ninspect:  {inspected:?}", show(bytes)),
    }
}
