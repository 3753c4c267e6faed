//! Generated FoundationDB tuple keys for `tests/fdb_python/check.py`, which packs and unpacks
//! each with FoundationDB's own Python binding (`.ci/run` runs both).
//!
//! Writes 12,500 keys of five shapes that cover every type code rowkey writes, one a line: the
//! fields as JSON, a tab, the key in hex. The file goes to `$ROWKEY_FDB_KEYS` when it is set;
//! either way every key must read back to its value in rowkey.
//!
//! Two kinds of value are left out, as the Python binding differs from the spec on them: the
//! integers ±(2^64−1), which it writes with the arbitrary-precision codes (`1d 08 ff..`, see
//! `tests/data/fdb_tuple.tsv`), and NaNs, whose payload it may change on the way through a
//! Python float.

#[path = "common/fdb.rs"]
mod fdb;

use std::fmt::Debug;
use std::io::Write;

use fdb::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use rowkey::field::Versionstamp;
use rowkey::format::{FdbKey, FdbTuple};
use serde_json::{Value, json};

const PER_SHAPE: usize = 2_500;

/// A field as the JSON that `check.py` builds a Python value from.
trait Describe {
    fn describe(&self) -> Value;
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

macro_rules! describe_ints {
    ($($ty:ty),*) => {$(
        impl Describe for $ty {
            fn describe(&self) -> Value {
                json!({ "int": self.to_string() })
            }
        }
    )*};
}

describe_ints!(u8, i32, i64, u64, i128, u128);

impl Describe for String {
    fn describe(&self) -> Value {
        json!({ "str": self })
    }
}

impl Describe for Vec<u8> {
    fn describe(&self) -> Value {
        json!({ "bytes": hex(self) })
    }
}

impl Describe for f64 {
    fn describe(&self) -> Value {
        json!({ "f64": hex(&self.to_be_bytes()) })
    }
}

impl Describe for f32 {
    fn describe(&self) -> Value {
        json!({ "f32": hex(&self.to_be_bytes()) })
    }
}

impl Describe for bool {
    fn describe(&self) -> Value {
        json!({ "bool": self })
    }
}

impl Describe for uuid::Uuid {
    fn describe(&self) -> Value {
        json!({ "uuid": hex(self.as_bytes()) })
    }
}

impl Describe for Versionstamp {
    fn describe(&self) -> Value {
        json!({ "vs": hex(&self.to_bytes()) })
    }
}

impl<T: Describe> Describe for Option<T> {
    fn describe(&self) -> Value {
        match self {
            None => json!({ "null": null }),
            Some(value) => value.describe(),
        }
    }
}

impl Describe for () {
    fn describe(&self) -> Value {
        json!({ "tuple": [] })
    }
}

/// A tuple's fields, for the top level; `describe` is the same tuple nested.
trait Fields {
    fn fields(&self) -> Vec<Value>;
}

macro_rules! describe_tuples {
    ($(($($name:ident . $idx:tt),+))*) => {$(
        impl<$($name: Describe),+> Fields for ($($name,)+) {
            fn fields(&self) -> Vec<Value> {
                vec![$(self.$idx.describe()),+]
            }
        }

        impl<$($name: Describe),+> Describe for ($($name,)+) {
            fn describe(&self) -> Value {
                json!({ "tuple": self.fields() })
            }
        }
    )*};
}

describe_tuples! {
    (A.0)
    (A.0, B.1)
    (A.0, B.1, C.2)
    (A.0, B.1, C.2, D.3)
}

/// Not ±(2^64−1), where the Python binding leaves the spec.
fn not_python_edge(magnitude: u128) -> bool {
    magnitude != u128::from(u64::MAX)
}

/// Writes `PER_SHAPE` generated keys of `strategy`'s values, each checked to read back.
fn shape<T, S>(runner: &mut TestRunner, strategy: S, out: &mut Vec<String>)
where
    S: Strategy<Value = T>,
    T: for<'de> FdbKey<'de> + Fields + PartialEq + Debug,
{
    let tuples = FdbTuple::default();
    for _ in 0..PER_SHAPE {
        let value = strategy.new_tree(runner).expect("the strategies always produce a value").current();
        let key = tuples.to_key(&value).expect("every generated value encodes");
        let back: T = tuples.from_key(&key).unwrap_or_else(|e| panic!("{value:?}: {e}"));
        assert_eq!(back, value, "key {}", hex(&key));
        out.push(format!("{}\t{}", Value::Array(value.fields()), hex(&key)));
    }
}

#[test]
fn generated_keys_read_back_and_go_to_the_python_check() {
    let mut runner = TestRunner::deterministic();
    let mut rows = Vec::new();
    let no_nan64 = || f64s().prop_filter("NaN", |f| !f.is_nan());
    let no_nan32 = || f32s().prop_filter("NaN", |f| !f.is_nan());
    shape(&mut runner, (i64s(), text(), bytes()), &mut rows);
    shape(
        &mut runner,
        (
            u64s().prop_filter("2^64-1", |&v| not_python_edge(v.into())),
            i128s().prop_filter("±(2^64-1)", |v| not_python_edge(v.unsigned_abs())),
            u128s().prop_filter("2^64-1", |&v| not_python_edge(v)),
        ),
        &mut rows,
    );
    shape(&mut runner, (no_nan64(), no_nan32(), any::<bool>()), &mut rows);
    shape(
        &mut runner,
        (prop::option::of(text()), (any::<u8>(), prop::option::of(any::<i32>()), Just(())), versionstamps()),
        &mut rows,
    );
    shape(
        &mut runner,
        (uuids(), prop::option::of(bytes()), ((text(),), any::<bool>()), prop::option::of((no_nan64(),))),
        &mut rows,
    );
    assert_eq!(rows.len(), 5 * PER_SHAPE);

    if let Some(path) = std::env::var_os("ROWKEY_FDB_KEYS") {
        let mut file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("creating {path:?}: {e}"));
        for row in &rows {
            writeln!(file, "{row}").expect("writing the keys file");
        }
    }
}
