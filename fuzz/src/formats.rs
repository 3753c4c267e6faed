//! Keys of the formats that other stores and libraries define (FoundationDB's tuple layer,
//! HBase's `OrderedBytes`, the `memcomparable` crate's bytes), chosen by a selector byte: tuples of the field types each holds. Any bytes
//! that decode re-encode to exactly themselves, or (an HBase numeric double) to the one other form of the double.

use std::fmt::Debug;
use std::net::{IpAddr, Ipv6Addr};
use std::time::Duration;

use rowkey::Desc;
use rowkey::field::{Numeric, Versionstamp};
use rowkey::format::hbase::numeric::jdk18_bytes;
use rowkey::format::{FdbTuple, FormatKey, HBase, Memcomparable};

use crate::checks::canonical_in;

/// How many types [`check`] chooses from.
pub const COUNT: u8 = 13;

/// Checks `bytes` as a key of the format and tuple type `selector` names (modulo [`COUNT`]).
pub fn check(selector: u8, bytes: &[u8]) {
    let fdb = FdbTuple::default();
    let subspace = FdbTuple::with_prefix(b"\x15\x02");
    match selector % COUNT {
        0 => canonical_in::<_, (String, i64, Option<Vec<u8>>)>(&fdb, bytes),
        1 => canonical_in::<_, (u64, i128, u128, bool, f32, f64)>(&fdb, bytes),
        2 => canonical_in::<_, ((String, Option<i32>), uuid::Uuid, Versionstamp)>(&fdb, bytes),
        3 => canonical_in::<_, (chrono::DateTime<chrono::Utc>, Duration, IpAddr, char)>(&subspace, bytes),
        4 => canonical_in::<_, (Option<(u8, (), Vec<u8>)>, ulid::Ulid, Ipv6Addr)>(&subspace, bytes),
        5 => canonical_in::<_, (String, i64, Desc<i32>, Option<Vec<u8>>)>(&HBase, bytes),
        6 => hbase_double::<(Vec<u8>, Desc<Vec<u8>>, Numeric<f64>, Desc<Vec<u8>>)>(bytes, |v| v.2.0),
        7 => canonical_in::<_, (u64, u128, i128, Numeric<i64>, Desc<Numeric<u32>>)>(&HBase, bytes),
        8 => canonical_in::<_, (f32, Desc<f64>, bool, char, Desc<Option<String>>)>(&HBase, bytes),
        9 => canonical_in::<_, (uuid::Uuid, jiff::Timestamp, Desc<Duration>, IpAddr)>(&HBase, bytes),
        10 => canonical_in::<_, (String, i64, Desc<u32>, Option<Vec<u8>>)>(&Memcomparable, bytes),
        11 => canonical_in::<_, (f32, Desc<f64>, bool, char, i128, Desc<Option<String>>)>(&Memcomparable, bytes),
        _ => canonical_in::<_, (uuid::Uuid, jiff::Timestamp, Duration, IpAddr, [u8; 3])>(&Memcomparable, bytes),
    }
}

/// An HBase key holding a `Numeric<f64>`: the key of its value, or the one other form
/// docs/FORMAT.md allows, the value's digits as JDK 18 and older wrote them
/// (`jdk18_bytes`), and no other bytes.
fn hbase_double<T: for<'de> FormatKey<'de, HBase> + Debug>(bytes: &[u8], double: impl Fn(&T) -> f64) {
    let Ok(value) = HBase.from_key::<T>(bytes) else { return };
    let again = HBase
        .to_key(&value)
        .unwrap_or_else(|e| panic!("{bytes:02x?} decodes to {value:?}, which does not encode: {e}"));
    if again.as_bytes() != bytes {
        // Only the double's field may differ, and only as its older form.
        let older = jdk18_bytes(double(&value))
            .unwrap_or_else(|| panic!("{bytes:02x?} decodes to {value:?}, whose key is {again}"));
        let current = HBase.to_key(&(Numeric(double(&value)),)).unwrap();
        let (again, current) = (again.as_bytes(), current.as_bytes());
        let swapped = (0..again.len().saturating_sub(current.len()) + 1)
            .filter(|&at| again[at..].starts_with(current))
            .any(|at| [&again[..at], &older[..], &again[at + current.len()..]].concat() == bytes);
        assert!(
            swapped,
            "{bytes:02x?} decodes to {value:?}, whose key is {again:02x?} and its double's older form {older:02x?}"
        );
    }
}

/// Keys of some of the types to start from, each behind its selector byte.
pub fn seeds() -> Vec<Vec<u8>> {
    fn with(selector: u8, key: rowkey::Result<rowkey::Key>) -> Option<Vec<u8>> {
        key.ok().map(|k| [&[selector][..], k.as_bytes()].concat())
    }
    let fdb = FdbTuple::default();
    [
        with(0, fdb.to_key(&("phone", -7i64, Some(vec![0u8, 0xff])))),
        with(1, fdb.to_key(&(u64::MAX, i128::MIN, u128::MAX, true, -0.0f32, f64::NAN))),
        with(2, fdb.to_key(&(("a\0b", None::<i32>), uuid::Uuid::max(), Versionstamp::new([7; 10], 3)))),
        with(5, HBase.to_key(&("phone", 20200501i64, Desc(-1i32), None::<Vec<u8>>))),
        with(6, HBase.to_key(&(vec![0u8, 1], Desc(vec![0u8]), Numeric(0.00123f64), Desc(vec![1u8, 2])))),
        with(7, HBase.to_key(&(u64::MAX, u128::MAX, i128::MIN, Numeric(i64::MIN), Desc(Numeric(10_001u32))))),
        with(8, HBase.to_key(&(f32::NAN, Desc(-0.0f64), true, 'é', Desc(Some("x".to_owned()))))),
        with(10, Memcomparable.to_key(&("a longer text", i64::MIN, Desc(7u32), Some(vec![0u8; 9])))),
        with(11, Memcomparable.to_key(&(1.5f32, Desc(f64::INFINITY), false, 'z', i128::MAX, Desc(None::<String>)))),
    ]
    .into_iter()
    .flatten()
    .collect()
}
