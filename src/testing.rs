//! Test support: proptest strategies weighted to the edges of key encodings, and assertions
//! that a key type sorts as its values do, decodes what it encodes, keeps tenants apart and
//! scans exactly. Behind the `proptest` feature.
//!
//! Each assertion runs a proptest runner with the default configuration, so `PROPTEST_CASES`
//! sets the number of cases (256 unless set), and panics with a shrunk counterexample that
//! prints the values and their keys readably.
//!
//! ```
//! use proptest::prelude::*;
//! use rowkey::testing::{assert_decode_total, assert_order_preserving};
//! use rowkey::{Desc, RowKey};
//!
//! /// A sensor reading: device, then time newest first. `Ord` compares the fields in key
//! /// order, and `Desc` reverses the time as the key does.
//! #[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
//! struct Reading {
//!     device: String,
//!     at: Desc<i64>,
//! }
//!
//! impl Arbitrary for Reading {
//!     type Parameters = ();
//!     type Strategy = BoxedStrategy<Self>;
//!     fn arbitrary_with(_: ()) -> Self::Strategy {
//!         (rowkey::testing::edge_strings(), rowkey::testing::edge_i64())
//!             .prop_map(|(device, at)| Reading { device, at: Desc(at) })
//!             .boxed()
//!     }
//! }
//!
//! assert_order_preserving::<Reading>();
//! assert_decode_total::<Reading>();
//! ```

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};

mod field_types;

#[cfg(feature = "hashed")]
pub use field_types::hashes;
#[cfg(feature = "ulid")]
pub use field_types::ulids;
#[cfg(feature = "uuid")]
pub use field_types::uuids;
pub use field_types::{dates, ip_addrs, ipv4s, ipv6s, text_dates, text_timestamps, timestamps, timestamps_nanos};

use crate::error::Result;
use crate::key::Key;
use crate::range::KeyRanges;
use crate::row_key::RowKeyOwned;

/// Strings weighted to what breaks encoders: empty, `\0`, `\u{1}`, `\u{ff}` (whose UTF-8
/// holds `c3 bf`), the highest code point, and values that are prefixes of one another.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let s = rowkey::testing::edge_strings().new_tree(&mut runner).unwrap().current();
/// assert!(s.chars().count() <= 8);
/// ```
pub fn edge_strings() -> impl Strategy<Value = String> + Clone {
    let ch = prop_oneof![
        2 => Just('\0'),
        1 => Just('\u{1}'),
        2 => Just('a'),
        2 => Just('b'),
        1 => Just('\u{ff}'),
        1 => Just('\u{10ffff}'),
        2 => any::<char>()
    ];
    prop::collection::vec(ch, 0..8).prop_map(|c| c.into_iter().collect())
}

/// Byte strings weighted to `00`, `01`, `fe` and `ff`, the bytes the ordered format's
/// escapes and separators are made of.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// assert!(rowkey::testing::edge_bytes().new_tree(&mut runner).unwrap().current().len() < 9);
/// ```
pub fn edge_bytes() -> impl Strategy<Value = Vec<u8>> + Clone {
    let byte = prop_oneof![3 => Just(0x00u8), 2 => Just(0x01), 1 => Just(0xfe), 3 => Just(0xff), 3 => any::<u8>()];
    prop::collection::vec(byte, 0..9)
}

/// Text for delimited keys, weighted to the bytes at and around `delimiter` (below, equal,
/// just above), so that a design which lets a delimiter into a value is caught.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let text = rowkey::testing::text_near('#').new_tree(&mut runner).unwrap().current();
/// assert!(text.is_ascii());
/// ```
pub fn text_near(delimiter: char) -> impl Strategy<Value = String> + Clone {
    let d = u32::from(delimiter);
    let near: Vec<char> = [d.saturating_sub(1), d, d + 1, d + 2].into_iter().filter_map(char::from_u32).collect();
    let ch = prop_oneof![3 => prop::sample::select(near), 2 => Just('a'), 2 => Just('z'), 1 => Just('0')];
    prop::collection::vec(ch, 0..6).prop_map(|c| c.into_iter().collect())
}

/// `i64` values weighted to `MIN`, `MAX`, `0`, `-1` and the orderedcode length boundaries
/// (±2^(7n-1)).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _n: i64 = rowkey::testing::edge_i64().new_tree(&mut runner).unwrap().current();
/// ```
pub fn edge_i64() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0),
        Just(-1),
        (1u32..10, -1i64..=0, any::<bool>()).prop_map(|(n, d, neg)| {
            let edge = 1i64.checked_shl(7 * n - 1).unwrap_or(i64::MAX).saturating_add(d);
            if neg { -edge } else { edge }
        }),
        any::<i64>()
    ]
}

/// `u64` values weighted to `0`, `MAX` and the byte-length boundaries.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _n: u64 = rowkey::testing::edge_u64().new_tree(&mut runner).unwrap().current();
/// ```
pub fn edge_u64() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![Just(0u64), Just(u64::MAX), (0u32..64).prop_map(|s| 1u64 << s), any::<u64>()]
}

/// `f64` values weighted to `-0.0`, `+0.0`, NaNs of both signs, the infinities, subnormals
/// and arbitrary bit patterns.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let _x: f64 = rowkey::testing::edge_f64().new_tree(&mut runner).unwrap().current();
/// ```
pub fn edge_f64() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        Just(-0.0),
        Just(0.0),
        Just(f64::NAN),
        Just(-f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(5e-324),
        Just(-5e-324),
        any::<u64>().prop_map(f64::from_bits)
    ]
}

/// Runs `test` over `strategy` and panics with the shrunk counterexample on failure.
fn run<S: Strategy>(what: &str, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let mut runner = TestRunner::new(Config::default());
    match runner.run(&strategy, test) {
        Ok(()) => {}
        Err(TestError::Fail(reason, value)) => panic!("{what} failed: {reason}\nminimal failing input: {value:#?}"),
        Err(TestError::Abort(reason)) => panic!("{what} aborted: {reason}"),
    }
}

fn encode<T: RowKeyOwned + Debug>(value: &T) -> Result<Key, TestCaseError> {
    value.to_key().map_err(|e| TestCaseError::fail(format!("to_key({value:?}) failed: {e}")))
}

/// Checks, for generated pairs of `T`, that byte order equals value order (`T::cmp`) and
/// that `from_key(to_key(x)) == x`.
///
/// # Panics
///
/// With a shrunk counterexample showing both values and both keys readably.
///
/// ```
/// use proptest::prelude::*;
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
/// struct Post {
///     user: String,
///     id: u32,
///     tag: Option<Vec<u8>>,
/// }
///
/// impl Arbitrary for Post {
///     type Parameters = ();
///     type Strategy = BoxedStrategy<Self>;
///     fn arbitrary_with(_: ()) -> Self::Strategy {
///         any::<(String, u32, Option<Vec<u8>>)>().prop_map(|(user, id, tag)| Post { user, id, tag }).boxed()
///     }
/// }
///
/// rowkey::testing::assert_order_preserving::<Post>();
/// // Tuples are keys too.
/// rowkey::testing::assert_order_preserving::<(String, u32, Option<Vec<u8>>)>();
/// ```
pub fn assert_order_preserving<T>()
where
    T: RowKeyOwned + Ord + Arbitrary + Debug,
{
    assert_order_preserving_with(any::<(T, T)>().prop_map(|pair| pair), T::cmp);
}

/// [`assert_order_preserving`] for pairs from `pairs`, compared with `cmp`: for types that
/// are not `Arbitrary`, or whose intended order is not their `Ord`. Round trips are checked
/// with `cmp` too (`cmp(x, back) == Equal`).
///
/// # Panics
///
/// With a shrunk counterexample showing both values and both keys readably.
///
/// ```
/// use proptest::strategy::Strategy;
/// use rowkey::RowKey;
/// use rowkey::testing::{assert_order_preserving_with, edge_f64, edge_strings};
///
/// #[derive(RowKey, Debug)]
/// struct Sample {
///     sensor: String,
///     value: f64,
/// }
///
/// // Floats sort by total order, with the two zeros equal: `f64` has no `Ord` to say so.
/// let cmp = |a: &Sample, b: &Sample| {
///     let value = if a.value == 0.0 && b.value == 0.0 { std::cmp::Ordering::Equal } else { a.value.total_cmp(&b.value) };
///     a.sensor.cmp(&b.sensor).then(value)
/// };
/// let sample = || (edge_strings(), edge_f64()).prop_map(|(sensor, value)| Sample { sensor, value });
/// assert_order_preserving_with((sample(), sample()), cmp);
/// ```
pub fn assert_order_preserving_with<T, S, C>(pairs: S, cmp: C)
where
    T: RowKeyOwned + Debug,
    S: Strategy<Value = (T, T)>,
    C: Fn(&T, &T) -> Ordering,
{
    run("assert_order_preserving", pairs, |(a, b)| {
        let (ka, kb) = (encode(&a)?, encode(&b)?);
        let (values, keys) = (cmp(&a, &b), ka.cmp(&kb));
        if values != keys {
            return Err(TestCaseError::fail(format!(
                "key order differs from value order:\n  a = {a:?}\n  b = {b:?}\n  values: a is {values:?} b\n  keys:   \
                 a is {keys:?} b\n  key(a) = {ka}\n  key(b) = {kb}"
            )));
        }
        for (value, key) in [(&a, &ka), (&b, &kb)] {
            match T::from_key(key) {
                Ok(back) if cmp(&back, value) == Ordering::Equal => {}
                Ok(back) => {
                    return Err(TestCaseError::fail(format!(
                        "decode does not invert encode:\n  value   = {value:?}\n  key     = {key}\n  decoded = {back:?}"
                    )));
                }
                Err(e) => {
                    return Err(TestCaseError::fail(format!(
                        "decode of an encoded key failed:\n  value = {value:?}\n  key   = {key}\n  error = {e}"
                    )));
                }
            }
        }
        Ok(())
    });
}

/// Checks that no key with one value of a leading field falls inside the ranges computed
/// for another value, and that each key falls inside its own: tenants (devices, users) are
/// isolated.
///
/// `leading` picks the leading field's value from a key; `ranges` computes the ranges that
/// a scan for one value reads (a scan builder call).
///
/// # Panics
///
/// With the two values and the key that landed in the wrong range.
///
/// ```
/// use proptest::strategy::Strategy;
/// use rowkey::RowKey;
/// use rowkey::testing::{assert_prefix_isolated, edge_strings};
///
/// #[derive(RowKey, Debug, Clone)]
/// struct Document {
///     tenant: String,
///     path: String,
/// }
///
/// assert_prefix_isolated(
///     (edge_strings(), edge_strings()).prop_map(|(tenant, path)| Document { tenant, path }),
///     |doc: &Document| doc.tenant.clone(),
///     |tenant: &String| Document::scan().tenant(tenant).ranges(),
/// );
/// ```
pub fn assert_prefix_isolated<T, P, S, L, R>(keys: S, leading: L, ranges: R)
where
    T: RowKeyOwned + Debug,
    P: PartialEq + Debug,
    S: Strategy<Value = T> + Clone,
    L: Fn(&T) -> P,
    R: Fn(&P) -> Result<KeyRanges>,
{
    run("assert_prefix_isolated", (keys.clone(), keys), |(a, b)| {
        let (ka, (pa, pb)) = (encode(&a)?, (leading(&a), leading(&b)));
        let scan = |p: &P| ranges(p).map_err(|e| TestCaseError::fail(format!("ranges({p:?}) failed: {e}")));
        if !scan(&pa)?.contains(&ka) {
            return Err(TestCaseError::fail(format!(
                "a key is outside its own leading value's ranges:\n  key value = {a:?}\n  key = {ka}\n  ranges of {pa:?} = {}",
                scan(&pa)?
            )));
        }
        if pa != pb && scan(&pb)?.contains(&ka) {
            return Err(TestCaseError::fail(format!(
                "a key of {pa:?} falls inside the ranges of {pb:?}:\n  key value = {a:?}\n  key = {ka}\n  ranges of {pb:?} = {}",
                scan(&pb)?
            )));
        }
        Ok(())
    });
}

/// Checks that the ranges computed for a query return exactly the keys whose decoded values
/// match it: generated rows go into a `BTreeMap`, generated queries are scanned through
/// `ranges` and compared with `matches` over every row.
///
/// # Panics
///
/// With the query, its ranges, and the rows it missed or returned wrongly.
///
/// ```
/// use proptest::prelude::*;
/// use rowkey::RowKey;
/// use rowkey::testing::{assert_scan_exact, edge_strings};
///
/// #[derive(RowKey, Debug)]
/// struct Post {
///     user: String,
///     id: u16,
/// }
///
/// // The posts of one user with ids from 10 up.
/// assert_scan_exact(
///     prop::collection::vec((edge_strings(), any::<u16>()).prop_map(|(user, id)| Post { user, id }), 0..50),
///     edge_strings(),
///     |user: &String| Post::scan().user(user).id_range(10..).ranges(),
///     |user: &String, post: &Post| post.user == *user && post.id >= 10,
/// );
/// ```
pub fn assert_scan_exact<T, Q, RS, QS, R, M>(rows: RS, queries: QS, ranges: R, matches: M)
where
    T: RowKeyOwned + Debug,
    Q: Debug,
    RS: Strategy<Value = Vec<T>>,
    QS: Strategy<Value = Q>,
    R: Fn(&Q) -> Result<KeyRanges>,
    M: Fn(&Q, &T) -> bool,
{
    run("assert_scan_exact", (rows, queries), |(rows, query)| {
        let mut table = BTreeMap::new();
        for row in &rows {
            table.insert(encode(row)?, row);
        }
        let ranges = ranges(&query).map_err(|e| TestCaseError::fail(format!("ranges({query:?}) failed: {e}")))?;
        let scanned: BTreeSet<&Key> = ranges.iter().flat_map(|r| table.range::<[u8], _>(r).map(|(k, _)| k)).collect();
        let wanted: BTreeSet<&Key> = table.iter().filter(|(_, row)| matches(&query, row)).map(|(k, _)| k).collect();
        if scanned != wanted {
            let show =
                |keys: Vec<&&Key>| keys.iter().map(|k| format!("\n    {k} = {:?}", table[**k])).collect::<String>();
            return Err(TestCaseError::fail(format!(
                "the ranges do not return exactly the matching rows:\n  query = {query:?}\n  ranges = {ranges}\n  \
                 missed:{}\n  returned but not matching:{}",
                show(wanted.difference(&scanned).collect()),
                show(scanned.difference(&wanted).collect()),
            )));
        }
        Ok(())
    });
}

/// Feeds arbitrary bytes (weighted to `00`, `01`, `fe`, `ff`, `#`, `-` and digits) to
/// `T::from_key`: every input must give `Ok` or `Err`, never a panic.
///
/// # Panics
///
/// With the bytes that made the decoder panic, printed readably.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug)]
/// #[rowkey(delimited = "#")]
/// struct Reading {
///     device: String,
///     #[rowkey(reverse)]
///     ts: i64,
/// }
///
/// rowkey::testing::assert_decode_total::<Reading>();
/// rowkey::testing::assert_decode_total::<(String, i64, Option<u8>)>();
/// ```
pub fn assert_decode_total<T: RowKeyOwned + Debug>() {
    let byte = prop_oneof![
        3 => Just(0x00u8), 2 => Just(0x01), 2 => Just(0xff), 1 => Just(0xfe), 1 => Just(b'#'), 1 => Just(b'-'),
        1 => b'0'..=b'9', 3 => any::<u8>()
    ];
    run("assert_decode_total", prop::collection::vec(byte, 0..24), |bytes| {
        let key = Key::from(bytes.as_slice());
        match std::panic::catch_unwind(|| T::from_key(&bytes).map(|_| ())) {
            Ok(_) => Ok(()),
            Err(_) => Err(TestCaseError::fail(format!("from_key panicked on {key}"))),
        }
    });
}

/// Any `T`, descending: so tuples with [`Desc`](crate::Desc) fields are `Arbitrary`.
impl<T: Arbitrary> Arbitrary for crate::Desc<T> {
    type Parameters = T::Parameters;
    type Strategy = prop::strategy::Map<T::Strategy, fn(T) -> Self>;

    fn arbitrary_with(args: Self::Parameters) -> Self::Strategy {
        T::arbitrary_with(args).prop_map(crate::Desc)
    }
}

/// A serde type as a [`RowKey`](crate::RowKey) through [`to_key`](crate::to_key) and
/// [`from_key`](crate::from_key), so the assertions above check serde keys too: the serde
/// path has no trait of its own to hang them on. Order, equality and `Arbitrary` are `T`'s.
///
/// ```
/// use proptest::prelude::*;
/// use rowkey::testing::{Serde, assert_order_preserving};
///
/// #[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
/// struct Visit {
///     host: String,
///     #[serde(with = "rowkey::serde::as_field")]
///     at: std::net::Ipv4Addr,
/// }
///
/// impl Arbitrary for Visit {
///     type Parameters = ();
///     type Strategy = BoxedStrategy<Self>;
///     fn arbitrary_with(_: ()) -> Self::Strategy {
///         (any::<String>(), rowkey::testing::ipv4s()).prop_map(|(host, at)| Visit { host, at }).boxed()
///     }
/// }
///
/// assert_order_preserving::<Serde<Visit>>();
/// ```
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Serde<T>(pub T);

#[cfg(feature = "serde")]
impl<'de, T: serde::Serialize + serde::Deserialize<'de>> crate::RowKey<'de> for Serde<T> {
    fn encode_into(&self, out: &mut Key) -> Result<()> {
        crate::to_key_into(&self.0, out)
    }

    fn from_key(bytes: &'de [u8]) -> Result<Self> {
        crate::from_key(bytes).map(Serde)
    }
}

#[cfg(feature = "serde")]
impl<T: Arbitrary + 'static> Arbitrary for Serde<T> {
    type Parameters = T::Parameters;
    type Strategy = prop::strategy::Map<T::Strategy, fn(T) -> Serde<T>>;

    fn arbitrary_with(args: T::Parameters) -> Self::Strategy {
        T::arbitrary_with(args).prop_map(Serde)
    }
}
