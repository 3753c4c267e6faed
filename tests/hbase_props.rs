//! The HBase format's promises over generated values: keys sort as their values do (for the
//! encodings HBase orders: fixed-width numbers, text, numerics, the last field's bytes, nulls,
//! descending fields), every key reads back to its value, and a reader accepts exactly the
//! bytes the writer writes (any bytes near a real key either fail with an error or re-encode
//! to themselves; nothing panics). The one exception is a numeric double, which also reads
//! the digits Java 18 and older wrote (`hbase_doubles.rs` holds its exact rule): such bytes
//! read as the value whose key they are not, and that key reads back to the same value.

mod common;

use std::cmp::Ordering;

use common::edges::{edge_f32, edge_f64};
use proptest::prelude::*;
use rowkey::Desc;
use rowkey::field::Numeric;
use rowkey::format::{HBase, HBaseKey};

/// `PROPTEST_CASES` when set, else 512.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(512);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

/// Text HBase can hold (no U+0000), weighted to the edges: empty, `\x01`, `\u{ff}`, prefixes.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("\x01".to_owned()),
        Just("a".to_owned()),
        Just("ab".to_owned()),
        "[^\0]{0,12}"
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(vec![]),
        Just(vec![0]),
        Just(vec![0xff]),
        Just(vec![0, 0]),
        prop::collection::vec(any::<u8>(), 0..20)
    ]
}

fn int64() -> impl Strategy<Value = i64> {
    prop_oneof![Just(i64::MIN), Just(-1), Just(0), Just(1), Just(i64::MAX), any::<i64>()]
}

fn int128() -> impl Strategy<Value = i128> {
    prop_oneof![Just(i128::MIN), Just(i128::MAX), Just(0), Just(-100), Just(100), Just(10_000), any::<i128>()]
}

/// The one NaN HBase writes stands for every NaN.
fn canonical_f64(x: f64) -> f64 {
    if x.is_nan() { f64::NAN } else { x }
}

/// A key of the encodings HBase orders, with the byte string last.
type Sorted = (Option<String>, i64, Desc<i32>, f64, Option<Numeric<i128>>, Desc<String>, Vec<u8>);

fn sorted() -> impl Strategy<Value = Sorted> {
    (
        prop::option::of(text()),
        int64(),
        any::<i32>().prop_map(Desc),
        edge_f64().prop_map(canonical_f64),
        prop::option::of(int128().prop_map(Numeric)),
        text().prop_map(Desc),
        bytes(),
    )
}

fn cmp_sorted(a: &Sorted, b: &Sorted) -> Ordering {
    a.0.cmp(&b.0)
        .then(a.1.cmp(&b.1))
        .then(a.2.cmp(&b.2))
        .then(a.3.total_cmp(&b.3))
        .then(a.4.cmp(&b.4))
        .then(a.5.cmp(&b.5))
        .then(a.6.cmp(&b.6))
}

/// A numeric float: `-0.0` is zero and every NaN the one NaN.
fn numeric_f64(x: f64) -> f64 {
    if x == 0.0 { 0.0 } else { canonical_f64(x) }
}

fn same_f64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn keys_sort_as_values_and_read_back(a in sorted(), b in sorted()) {
        let (ka, kb) = (HBase.to_key(&a).unwrap(), HBase.to_key(&b).unwrap());
        prop_assert_eq!(ka.cmp(&kb), cmp_sorted(&a, &b), "{:?} / {:?}\n{} / {}", a, b, ka, kb);
        for (value, key) in [(&a, &ka), (&b, &kb)] {
            let back: Sorted = HBase.from_key(key.as_bytes()).unwrap();
            prop_assert!(cmp_sorted(&back, value) == Ordering::Equal, "{:?} read back as {:?}", value, back);
        }
    }

    #[test]
    fn numerics_sort_as_numbers(a in edge_f64().prop_map(numeric_f64), b in edge_f64().prop_map(numeric_f64)) {
        let (ka, kb) = (HBase.to_key(&(Numeric(a),)).unwrap(), HBase.to_key(&(Numeric(b),)).unwrap());
        prop_assert_eq!(ka.cmp(&kb), a.total_cmp(&b), "{:e} / {:e}: {} / {}", a, b, ka, kb);
        let (Numeric(back),): (Numeric<f64>,) = HBase.from_key(ka.as_bytes()).unwrap();
        prop_assert!(same_f64(back, a), "{:e} read back as {:e}", a, back);
    }

    #[test]
    fn floats_keep_their_bits(x in edge_f32(), y in edge_f64()) {
        let key = HBase.to_key(&(x, Desc(y))).unwrap();
        let (bx, Desc(by)): (f32, Desc<f64>) = HBase.from_key(key.as_bytes()).unwrap();
        prop_assert!(bx.to_bits() == x.to_bits() || (x.is_nan() && bx.is_nan()));
        prop_assert!(same_f64(by, y));
    }

    #[test]
    fn byte_strings_read_back_in_every_position(a in bytes(), b in bytes(), c in bytes()) {
        let value = (a.clone(), Desc(b.clone()), c.clone());
        let key = HBase.to_key(&value).unwrap();
        let back: (Vec<u8>, Desc<Vec<u8>>, Vec<u8>) = HBase.from_key(key.as_bytes()).unwrap();
        prop_assert_eq!(back, value);
    }

    #[test]
    fn optional_byte_strings_sort_and_read_back_last(
        a in prop::option::of(bytes().prop_filter("no 00", |b| !b.contains(&0))),
        b in prop::option::of(bytes().prop_filter("no 00", |b| !b.contains(&0))),
    ) {
        for (ka, kb, want) in [
            (HBase.to_key(&(Desc(a.clone()),)).unwrap(), HBase.to_key(&(Desc(b.clone()),)).unwrap(), b.cmp(&a)),
            (HBase.to_key(&(a.clone(),)).unwrap(), HBase.to_key(&(b.clone(),)).unwrap(), a.cmp(&b)),
        ] {
            prop_assert_eq!(ka.cmp(&kb), want, "{:?} / {:?}: {} / {}", a, b, ka, kb);
        }
        let key = HBase.to_key(&(Desc(a.clone()),)).unwrap();
        prop_assert_eq!(HBase.from_key::<(Desc<Option<Vec<u8>>>,)>(key.as_bytes()).unwrap(), (Desc(a.clone()),));
    }

    #[test]
    fn near_keys_read_back_to_themselves_or_fail(value in sorted(), edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..4)) {
        let mut bytes = HBase.to_key(&value).unwrap().into_vec();
        for (at, byte, how) in edits {
            match how {
                0 if !bytes.is_empty() => { let i = at.index(bytes.len()); bytes[i] = byte; }
                1 => { let i = at.index(bytes.len() + 1); bytes.insert(i, byte); }
                _ if !bytes.is_empty() => { let i = at.index(bytes.len()); bytes.truncate(i); }
                _ => {}
            }
        }
        canonical::<Sorted>(&bytes)?;
        same_value::<(Vec<u8>, Desc<Vec<u8>>, Numeric<f64>, f32, Desc<Vec<u8>>)>(&bytes)?;
        canonical::<(Option<Numeric<u64>>, Desc<Option<String>>, bool, char)>(&bytes)?;
        canonical::<(Desc<Option<String>>, Desc<Option<Vec<u8>>>)>(&bytes)?;
    }

    #[test]
    fn any_bytes_read_back_to_themselves_or_fail(bytes in prop::collection::vec(any::<u8>(), 0..24)) {
        canonical::<(Vec<u8>,)>(&bytes)?;
        canonical::<(Numeric<i64>, Vec<u8>)>(&bytes)?;
        canonical::<(Desc<Vec<u8>>, Desc<Vec<u8>>)>(&bytes)?;
        same_value::<(Numeric<f64>, Desc<Numeric<u128>>)>(&bytes)?;
        canonical::<(Option<Vec<u8>>,)>(&bytes)?;
        canonical::<(Desc<Option<Vec<u8>>>,)>(&bytes)?;
    }
}

/// Bytes that read as a `T` are the bytes `T`'s value writes.
fn canonical<T: for<'de> HBaseKey<'de>>(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(value) = HBase.from_key::<T>(bytes) {
        let again = HBase
            .to_key(&value)
            .map_err(|e| TestCaseError::fail(format!("read {bytes:02x?} but cannot write it back: {e}")))?;
        prop_assert_eq!(again.as_bytes(), bytes, "bytes {:02x?} read as a value that writes other bytes", bytes);
    }
    Ok(())
}

/// Bytes that read as a `T` (one holding a numeric double) are the key of its value, or
/// another key that reads as the same value (a double's digits as an older JDK wrote them).
fn same_value<T: for<'de> HBaseKey<'de> + std::fmt::Debug>(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(value) = HBase.from_key::<T>(bytes) {
        let again = HBase
            .to_key(&value)
            .map_err(|e| TestCaseError::fail(format!("read {bytes:02x?} but cannot write it back: {e}")))?;
        if again.as_bytes() != bytes {
            let back: T = HBase.from_key(again.as_bytes()).unwrap();
            prop_assert_eq!(format!("{back:?}"), format!("{value:?}"), "bytes {:02x?}", bytes);
        }
    }
    Ok(())
}

#[test]
fn what_hbase_refuses_rowkey_refuses() {
    let err = HBase.to_key(&("a\0b",)).unwrap_err();
    assert!(err.to_string().contains("U+0000"), "{err}");
    let err = HBase.to_key(&(1i8, Desc(vec![1u8, 0, 2]))).unwrap_err();
    assert!(err.to_string().contains("field 1"), "{err}");
    // HBase has one null: Some(None) would read back as None, so it is refused.
    let err = HBase.to_key(&(Some(None::<i8>),)).unwrap_err();
    assert!(err.to_string().contains("Some(None)"), "{err}");
    assert_eq!(HBase.to_key(&(Some(Some(1i8)),)).unwrap().as_bytes(), [0x29, 0x81]);
    // A NaN other than Java's is not a value HBase writes.
    assert!(HBase.from_key::<(f64,)>(&[0x31, 0xff, 0xf8, 0, 0, 0, 0, 0, 1]).is_err());
    // A numeric of 19 significant digits: more than any Java writes for a double.
    assert!(
        HBase.from_key::<(Numeric<f64>,)>(&[0x18, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02]).is_err()
    );
}

/// A derived key whose last field is a descending optional byte string.
#[derive(rowkey::RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase)]
struct Blobby {
    host: String,
    #[rowkey(desc)]
    note: Option<Vec<u8>>,
}

/// HBase's `encodeBlobCopy(null, DESCENDING)` writes the null and then the terminator: a
/// descending null byte string in the last field is `fa ff`, where a null of text is `fa`.
#[test]
fn a_descending_last_null_byte_string_is_hbases_fa_ff() {
    use rowkey::RowKey;

    let key = HBase.to_key(&(1i8, Desc(None::<Vec<u8>>))).unwrap();
    assert_eq!(key.as_bytes(), [0x29, 0x81, 0xfa, 0xff]);
    assert_eq!(HBase.from_key::<(i8, Desc<Option<Vec<u8>>>)>(key.as_bytes()).unwrap(), (1, Desc(None)));
    // Every type HBase writes as a byte string, and the ascending null, which stays `05`.
    assert_eq!(HBase.to_key(&(Desc(None::<[u8; 4]>),)).unwrap().as_bytes(), [0xfa, 0xff]);
    assert_eq!(HBase.to_key(&(Desc(None::<std::net::Ipv4Addr>),)).unwrap().as_bytes(), [0xfa, 0xff]);
    assert_eq!(HBase.to_key(&(Desc(None::<std::time::Duration>),)).unwrap().as_bytes(), [0xfa, 0xff]);
    assert_eq!(HBase.to_key(&(None::<Vec<u8>>,)).unwrap().as_bytes(), [0x05]);
    assert_eq!(HBase.from_key::<(Option<Vec<u8>>,)>(&[0x05]).unwrap(), (None,));
    // Not the last field: OrderedBlobVar's null is the one byte.
    assert_eq!(HBase.to_key(&(Desc(None::<Vec<u8>>), 0i8)).unwrap().as_bytes(), [0xfa, 0x29, 0x80]);
    // Text keeps the one byte, and the reader holds each type to its own form.
    assert_eq!(HBase.to_key(&(Desc(None::<String>),)).unwrap().as_bytes(), [0xfa]);
    let err = HBase.from_key::<(Desc<Option<Vec<u8>>>,)>(&[0xfa]).unwrap_err();
    assert!(err.to_string().contains("fa ff"), "{err}");
    assert!(HBase.from_key::<(Desc<Option<String>>,)>(&[0xfa, 0xff]).is_err());
    assert!(HBase.from_key::<(Option<Vec<u8>>,)>(&[0x05, 0x00]).is_err());
    // A Some is unchanged, and the schema writes and reads the same bytes as the derive.
    for note in [None, Some(vec![]), Some(vec![1, 2])] {
        let value = Blobby { host: "h".into(), note };
        let key = value.to_key().unwrap();
        assert_eq!(Blobby::from_key(&key).unwrap(), value);
        let inspection = Blobby::SCHEMA.inspect(&key).unwrap();
        let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
        let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
        assert_eq!(Blobby::SCHEMA.encode(&pairs).unwrap(), key, "{inspection}");
    }
    let key = Blobby { host: "h".into(), note: None }.to_key().unwrap();
    assert_eq!(key.as_bytes(), b"\x34h\x00\xfa\xff");
}
