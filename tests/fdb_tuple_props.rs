//! Properties of the FoundationDB tuple format: keys of same-typed fields sort as their values
//! (floats by total order, as the tuple layer orders them), every key reads back to its value,
//! every accepted key re-encodes to its own bytes (over arbitrary and mutated bytes), and the
//! tuple layer's range holds exactly the keys under its fields. Case counts come from
//! `PROPTEST_CASES`.

#[path = "common/fdb.rs"]
mod fdb;

use std::cmp::Ordering;
use std::fmt::Debug;

use fdb::*;
use proptest::prelude::*;
use rowkey::Key;
use rowkey::field::Versionstamp;
use rowkey::format::{FdbKey, FdbTuple};

fn key<'de, T: FdbKey<'de>>(value: &T) -> Key {
    FdbTuple::default().to_key(value).expect("every value of these types encodes")
}

/// Reads `bytes` as a `T`; when it is accepted, its encoding must be `bytes` again.
fn canonical<T>(bytes: &[u8]) -> Result<(), TestCaseError>
where
    T: for<'de> FdbKey<'de> + Debug,
{
    if let Ok(value) = FdbTuple::default().from_key::<T>(bytes) {
        let again = key(&value);
        prop_assert_eq!(again.as_bytes(), bytes, "{:?} was read from other bytes than its own", value);
    }
    Ok(())
}

fn round_trip<T>(value: &T) -> Result<(), TestCaseError>
where
    T: for<'de> FdbKey<'de> + PartialEq + Debug,
{
    let bytes = key(value);
    let back: T = FdbTuple::default().from_key(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, value);
    Ok(())
}

fn same_order<T>(a: &T, b: &T, by: impl Fn(&T, &T) -> Ordering) -> Result<(), TestCaseError>
where
    T: for<'de> FdbKey<'de> + Debug,
{
    prop_assert_eq!(key(a).cmp(&key(b)), by(a, b), "{:?} vs {:?}", a, b);
    Ok(())
}

/// The bytes the tuple layer treats specially (type codes, escapes, lengths), or any byte.
fn tuple_byte() -> impl Strategy<Value = u8> {
    let special = vec![
        0x00u8, 0xff, 0x01, 0x02, 0x05, 0x0b, 0x0c, 0x13, 0x14, 0x15, 0x1c, 0x1d, 0x20, 0x21, 0x26, 0x27, 0x30, 0x33,
        0x08, 0xf7, 0x09, 0xf6,
    ];
    prop_oneof![4 => prop::sample::select(special), 1 => any::<u8>()]
}

/// Bytes made of the values the tuple layer treats specially, so that some parse.
fn tuple_like_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(tuple_byte(), 0..16)
}

/// A valid key with one byte changed, inserted or removed.
fn mutated(valid: Key, at: usize, byte: u8, how: u8) -> Vec<u8> {
    let mut bytes = valid.into_vec();
    if bytes.is_empty() {
        return vec![byte];
    }
    let at = at % bytes.len();
    match how % 3 {
        0 => bytes[at] = byte,
        1 => bytes.insert(at, byte),
        _ => {
            bytes.remove(at);
        }
    }
    bytes
}

type Mixed = (i64, String, Vec<u8>, Option<u64>, (bool, Option<String>, ()), f64, Versionstamp);

fn mixed() -> impl Strategy<Value = Mixed> {
    (
        i64s(),
        text(),
        bytes(),
        prop::option::of(u64s()),
        (any::<bool>(), prop::option::of(text()), Just(())),
        f64s().prop_filter("NaN is not equal to itself", |f| !f.is_nan()),
        versionstamps(),
    )
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn integers_sort_as_their_values(a in i128s(), b in i128s(), c in u128s(), d in u128s(), e in i64s(), f in i64s()) {
        same_order(&(a,), &(b,), Ord::cmp)?;
        same_order(&(c,), &(d,), Ord::cmp)?;
        same_order(&(e,), &(f,), Ord::cmp)?;
        same_order(&(e as i8,), &(f as i8,), Ord::cmp)?;
    }

    #[test]
    fn floats_sort_by_total_order(a in f64s(), b in f64s(), c in f32s(), d in f32s()) {
        same_order(&(a,), &(b,), |x, y| x.0.total_cmp(&y.0))?;
        same_order(&(c,), &(d,), |x, y| x.0.total_cmp(&y.0))?;
    }

    #[test]
    fn text_bytes_and_composites_sort_as_their_values(
        a in (text(), i64s()), b in (text(), i64s()),
        c in (bytes(), any::<bool>()), d in (bytes(), any::<bool>()),
        e in prop::option::of(i64s()), f in prop::option::of(i64s()),
        g in ((text(), i64s()), bytes()), h in ((text(), i64s()), bytes()),
        v in versionstamps(), w in versionstamps(), x in uuids(), y in uuids(),
    ) {
        same_order(&a, &b, Ord::cmp)?;
        same_order(&c, &d, Ord::cmp)?;
        same_order(&(e,), &(f,), Ord::cmp)?;
        same_order(&g, &h, Ord::cmp)?;
        same_order(&(v,), &(w,), Ord::cmp)?;
        same_order(&(x,), &(y,), Ord::cmp)?;
    }

    #[test]
    fn keys_read_back_to_their_values(value in mixed(), wide in (i128s(), u128s(), f32s(), uuids())) {
        round_trip(&value)?;
        let bytes = key(&wide);
        let back: (i128, u128, f32, uuid::Uuid) = FdbTuple::default().from_key(&bytes).unwrap();
        prop_assert_eq!((back.0, back.1, back.2.to_bits(), back.3), (wide.0, wide.1, wide.2.to_bits(), wide.3));
    }

    #[test]
    fn accepted_bytes_are_canonical(bytes in tuple_like_bytes()) {
        canonical::<(i128,)>(&bytes)?;
        canonical::<(u64, i8)>(&bytes)?;
        canonical::<(String,)>(&bytes)?;
        canonical::<(Vec<u8>, Option<u8>)>(&bytes)?;
        canonical::<((Option<bool>, i16),)>(&bytes)?;
        canonical::<(f64, f32)>(&bytes)?;
        canonical::<(Option<(u8, ())>, bool)>(&bytes)?;
        canonical::<(Versionstamp, uuid::Uuid)>(&bytes)?;
    }

    #[test]
    fn mutated_keys_are_refused_or_canonical(value in mixed(), at in any::<usize>(), byte in tuple_byte(), how in any::<u8>()) {
        canonical::<Mixed>(&mutated(key(&value), at, byte, how))?;
    }

    #[test]
    fn integers_with_a_redundant_byte_are_refused(value in i128s(), wide in any::<bool>()) {
        // The same value one byte longer: a leading 00 (ff when negative) and the next code,
        // or the arbitrary-precision code when that is where the length leads.
        let bytes = key(&(value,)).into_vec();
        if value == 0 {
            return Ok(());
        }
        let negative = value < 0;
        let pad = if negative { 0xff } else { 0x00 };
        let longer = match bytes[0] {
            0x0d..=0x13 | 0x15..=0x1b if !wide => {
                let code = if negative { bytes[0] - 1 } else { bytes[0] + 1 };
                let mut out = vec![code, pad];
                out.extend_from_slice(&bytes[1..]);
                out
            }
            0x0b | 0x1d => {
                let len = if negative { !bytes[1] } else { bytes[1] } + 1;
                let mut out = vec![bytes[0], if negative { !len } else { len }, pad];
                out.extend_from_slice(&bytes[2..]);
                out
            }
            code => {
                // Under the arbitrary-precision code, at its own length.
                let len = code.abs_diff(0x14);
                let mut out = if negative { vec![0x0b, !len] } else { vec![0x1d, len] };
                out.extend_from_slice(&bytes[1..]);
                out
            }
        };
        prop_assert!(FdbTuple::default().from_key::<(i128,)>(&longer).is_err(), "{:02x?} accepted for {}", longer, value);
    }

    #[test]
    fn a_ulid_is_stored_under_the_uuid_code(bits in any::<u128>()) {
        let id = ulid::Ulid(bits);
        let bytes = key(&(id,));
        let as_uuid = key(&(uuid::Uuid::from_u128(bits),));
        prop_assert_eq!(bytes.as_bytes(), as_uuid.as_bytes());
        prop_assert_eq!(bytes.as_bytes()[0], 0x30);
        prop_assert_eq!(FdbTuple::default().from_key::<(ulid::Ulid,)>(&bytes).unwrap(), (id,));
    }

    #[test]
    fn times_durations_and_addresses_sort_and_read_back(
        a in any::<i64>(), b in any::<i64>(), c in any::<(u64, u32)>(), d in any::<(u64, u32)>(),
        e in any::<u32>(), f in any::<u128>(), v6 in any::<bool>(),
    ) {
        use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
        use std::time::{Duration, UNIX_EPOCH};
        let micros = |m: i64| if m >= 0 {
            UNIX_EPOCH + Duration::from_micros(m.unsigned_abs())
        } else {
            UNIX_EPOCH - Duration::from_micros(m.unsigned_abs())
        };
        let (s, t) = (micros(a / 1024), micros(b / 1024));
        same_order(&(s,), &(t,), Ord::cmp)?;
        round_trip(&(s, t))?;
        let (x, y) = (Duration::new(c.0, c.1 % 1_000_000_000), Duration::new(d.0, d.1 % 1_000_000_000));
        same_order(&(x,), &(y,), Ord::cmp)?;
        round_trip(&(x,))?;
        let four = IpAddr::V4(Ipv4Addr::from(e));
        let six = IpAddr::V6(Ipv6Addr::from(f));
        let ip = if v6 { six } else { four };
        same_order(&(four,), &(ip,), Ord::cmp)?;
        round_trip(&(ip, Ipv4Addr::from(e), Ipv6Addr::from(f)))?;
    }

    #[test]
    fn the_range_holds_exactly_the_keys_under_its_fields(
        prefix in bytes(), under in text(), first in text(), second in i64s(),
    ) {
        let format = FdbTuple::with_prefix(&prefix);
        let (start, end) = format.range(&(under.clone(),)).unwrap();
        let longer = format.to_key(&(first.clone(), second)).unwrap();
        let inside = start <= longer && longer < end;
        prop_assert_eq!(inside, first == under, "{:?} under {:?}", first, under);
        // The key of the fields alone is not in its own range.
        let alone = format.to_key(&(under,)).unwrap();
        prop_assert!(alone < start);
        let back: (String, i64) = format.from_key(&longer).unwrap();
        prop_assert_eq!(back, (first, second));
    }
}

#[test]
fn edge_values_round_trip() {
    let tuples = FdbTuple::default();
    let edges = (String::new(), "\0".to_owned(), "\u{ff}".to_owned(), vec![0xffu8], vec![0x00u8], i64::MIN, u64::MAX);
    round_trip(&edges).unwrap();
    round_trip(&(i128::MIN, i128::MAX, u128::MAX, u128::MIN)).unwrap();
    for f in [-0.0f64, 0.0, f64::NAN, -f64::NAN, f64::from_bits(0x7ff0_0000_0000_0001)] {
        let (back,): (f64,) = tuples.from_key(&key(&(f,))).unwrap();
        assert_eq!(back.to_bits(), f.to_bits(), "{f}");
    }
    assert!(key(&(-0.0f64,)) < key(&(0.0f64,)), "the tuple layer orders -0.0 before 0.0");
    assert_eq!(key(&(i128::MIN,)).as_bytes()[..2], [0x0b, 0xef], "i128::MIN is 16 bytes under 0b");
    assert_eq!(key(&(u128::MAX,)).as_bytes()[..2], [0x1d, 0x10]);
    // An empty key is the empty tuple and nothing else.
    assert_eq!(tuples.from_key::<()>(b""), Ok(()));
    assert!(tuples.from_key::<(u8,)>(b"").is_err());
    // Prefixes of every kind.
    for prefix in [&b""[..], b"\x00", b"\xff", b"\xff\xff", b"\x15\x01\x02a\x00"] {
        let format = FdbTuple::with_prefix(prefix);
        let k = format.to_key(&("x", -1i8)).unwrap();
        assert!(k.starts_with(prefix));
        assert_eq!(format.from_key::<(String, i8)>(&k).unwrap(), ("x".to_owned(), -1));
    }
}
