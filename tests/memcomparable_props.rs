//! The memcomparable format against the `memcomparable` crate 0.2, the reference it follows:
//! on generated values of every field type it holds, rowkey writes the crate's bytes and reads
//! the crate's bytes back to the same value, and the crate reads rowkey's. `Desc` fields are
//! compared with the crate's reverse mode on that field alone, as RisingWave uses it.
//!
//! Then the format's own promises: keys sort as their values, every key decodes to the value
//! it was written from, any bytes either fail to decode or are the key of the value they
//! decode to (never a panic), and the packed first fields of a key are exactly the byte prefix
//! of the keys that start with those fields. Golden bytes from the crate are pinned in
//! `tests/data/memcomparable.tsv`.
//!
//! Cases per property: 256, or `PROPTEST_CASES`.

mod common;

use std::cmp::Ordering;
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use common::edges::{edge_f32, edge_f64};
use common::strategies::near_keys;
use common::{data, hex, rows, to_hex};
use proptest::prelude::*;
use rowkey::field::{FieldType, ReadField, WriteField};
use rowkey::format::{Memcomparable, MemcomparableKey};
use rowkey::testing::{edge_i64, edge_u64};
use rowkey::{Desc, Error};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256))
}

/// One field serialized by the crate on its own, in its reverse mode when `reverse`.
fn crate_field<T: Serialize + ?Sized>(value: &T, reverse: bool) -> Vec<u8> {
    let mut ser = memcomparable::Serializer::new(Vec::new());
    ser.set_reverse(reverse);
    value.serialize(&mut ser).expect("the crate serializes every value of these tests");
    ser.into_inner()
}

/// One field deserialized by the crate from the start of `bytes`, and how many bytes it read.
fn crate_read<T: DeserializeOwned>(bytes: &[u8], reverse: bool) -> (T, usize) {
    let mut de = memcomparable::Deserializer::new(bytes);
    de.set_reverse(reverse);
    let value = T::deserialize(&mut de).unwrap_or_else(|e| panic!("the crate refused {}: {e}", to_hex(bytes)));
    (value, de.position())
}

/// The crate reading one field after another.
struct CrateReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl CrateReader<'_> {
    fn read<T: DeserializeOwned>(&mut self, reverse: bool) -> T {
        let (value, used) = crate_read(&self.bytes[self.at..], reverse);
        self.at += used;
        value
    }
}

/// What serde's `IpAddr` writes in a binary serializer (the variant index, then the octets).
/// The crate writes std's addresses in that form but cannot read them back (its deserializer
/// says it is human-readable, so they ask it for text), so they are read through this.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum IpMirror {
    V4([u8; 4]),
    V6([u8; 16]),
}

impl IpMirror {
    fn of(ip: &IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => IpMirror::V4(v4.octets()),
            IpAddr::V6(v6) => IpMirror::V6(v6.octets()),
        }
    }
}

/// An `f64` compared by its bits, so that the crate's one NaN equals itself.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct Bits64(f64);

impl PartialEq for Bits64 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct Bits32(f32);

impl PartialEq for Bits32 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

/// The value the format keeps of a float: every NaN is the one NaN, -0.0 is 0.0.
fn norm64(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else if x == 0.0 {
        0.0
    } else {
        x
    }
}

fn norm32(x: f32) -> f32 {
    if x.is_nan() {
        f32::NAN
    } else if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// One field both ways: rowkey's key of `value` is the crate's bytes of `given` (in reverse
/// mode for a descending field); rowkey reads the crate's bytes to a value whose mirror is
/// `kept`, and the crate reads rowkey's key to `kept`.
fn same_as_crate<R, S>(value: R, given: &S, kept: &S, mirror: impl Fn(&R) -> S) -> Result<(), TestCaseError>
where
    R: WriteField<Memcomparable> + for<'de> ReadField<'de, Memcomparable> + FieldType,
    S: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let reverse = R::DESCENDING;
    let ours = Memcomparable.to_key(&(value,)).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let theirs = crate_field(given, reverse);
    prop_assert_eq!(to_hex(&ours), to_hex(&theirs), "bytes of {:?}", given);
    let (back,): (R,) = Memcomparable.from_key(&theirs).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&mirror(&back), kept);
    let (read, used) = crate_read::<S>(&ours, reverse);
    prop_assert_eq!(used, ours.len());
    prop_assert_eq!(&read, kept);
    Ok(())
}

/// Both directions for a value that the format keeps as it is.
fn same<R, S>(value: R, given: S, mirror: impl Fn(&R) -> S) -> Result<(), TestCaseError>
where
    R: WriteField<Memcomparable> + for<'de> ReadField<'de, Memcomparable> + FieldType,
    S: Serialize + DeserializeOwned + PartialEq + Debug,
{
    same_as_crate(value, &given, &given, mirror)
}

/// Lengths around the 8-byte groups: empty, one short of a group, a group, a group and one.
fn length() -> impl Strategy<Value = usize> + Clone {
    prop_oneof![Just(0usize), Just(1), Just(7), Just(8), Just(9), Just(15), Just(16), Just(17), 0usize..40]
}

/// Text weighted to NUL, U+00FF (bytes c3 bf) and the largest code point.
fn text() -> impl Strategy<Value = String> + Clone {
    let ch = prop_oneof![3 => Just('\0'), 3 => Just('a'), 1 => Just('b'), 1 => Just('\u{ff}'), 1 => Just('\u{10ffff}'), 2 => any::<char>()];
    length().prop_flat_map(move |n| prop::collection::vec(ch.clone(), n)).prop_map(|c| c.into_iter().collect())
}

/// Byte strings weighted to `00` and `ff`.
fn bytes() -> impl Strategy<Value = Vec<u8>> + Clone {
    let byte = prop_oneof![3 => Just(0u8), 3 => Just(0xff), 1 => Just(1), 1 => Just(9), 3 => any::<u8>()];
    length().prop_flat_map(move |n| prop::collection::vec(byte.clone(), n))
}

fn i128s() -> impl Strategy<Value = i128> + Clone {
    prop_oneof![Just(i128::MIN), Just(i128::MAX), Just(0), Just(-1), any::<i128>()]
}

fn u128s() -> impl Strategy<Value = u128> + Clone {
    prop_oneof![Just(0), Just(u128::MAX), Just(1 << 64), any::<u128>()]
}

fn durations() -> impl Strategy<Value = Duration> + Clone {
    (prop_oneof![Just(0u64), Just(u64::MAX), any::<u64>()], 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n))
}

fn ips() -> impl Strategy<Value = IpAddr> + Clone {
    prop_oneof![
        any::<[u8; 4]>().prop_map(|o| IpAddr::V4(Ipv4Addr::from(o))),
        any::<[u8; 16]>().prop_map(|o| IpAddr::V6(Ipv6Addr::from(o)))
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn integers_are_the_crates(a in edge_u64(), b in edge_i64(), c in any::<u8>(), d in any::<i8>(), e in any::<u16>(),
                               f in any::<i16>(), g in any::<u32>(), h in any::<i32>(), i in u128s(), j in i128s()) {
        same(a, a, |v| *v)?;
        same(b, b, |v| *v)?;
        same(c, c, |v| *v)?;
        same(d, d, |v| *v)?;
        same(e, e, |v| *v)?;
        same(f, f, |v| *v)?;
        same(g, g, |v| *v)?;
        same(h, h, |v| *v)?;
        same(i, i, |v| *v)?;
        same(j, j, |v| *v)?;
        same(a as usize, a, |v| *v as u64)?;
        same(b as isize, b, |v| *v as i64)?;
        same(Desc(b), b, |v| v.0)?;
        same(Desc(i), i, |v| v.0)?;
    }

    #[test]
    fn floats_are_the_crates(x in edge_f64(), y in edge_f32()) {
        same_as_crate(x, &Bits64(x), &Bits64(norm64(x)), |v| Bits64(*v))?;
        same_as_crate(y, &Bits32(y), &Bits32(norm32(y)), |v| Bits32(*v))?;
        same_as_crate(Desc(x), &Bits64(x), &Bits64(norm64(x)), |v| Bits64(v.0))?;
    }

    #[test]
    fn text_and_bytes_are_the_crates(s in text(), b in bytes(), c in any::<char>(), t in any::<bool>()) {
        same(s.clone(), s.clone(), Clone::clone)?;
        same(Desc(s.clone()), s.clone(), |v| v.0.clone())?;
        same(b.clone(), ByteBuf::from(b.clone()), |v| ByteBuf::from(v.clone()))?;
        same(Desc(b.clone()), ByteBuf::from(b.clone()), |v| ByteBuf::from(v.0.clone()))?;
        same(c, c, |v| *v)?;
        same(Desc(c), c, |v| v.0)?;
        same(t, t, |v| *v)?;
        same(Desc(t), t, |v| v.0)?;
    }

    #[test]
    fn options_are_the_crates(a in proptest::option::of(text()), b in proptest::option::of(edge_i64()),
                              c in proptest::option::of(bytes())) {
        same(a.clone(), a.clone(), Clone::clone)?;
        same(Desc(a.clone()), a.clone(), |v| v.0.clone())?;
        same(b, b, |v| *v)?;
        same(Desc(b), b, |v| v.0)?;
        same(Some(b), Some(b), |v| *v)?;
        same(c.clone(), c.clone().map(ByteBuf::from), |v| v.clone().map(ByteBuf::from))?;
    }

    // Types whose serde form the crate writes: rowkey writes that form.
    #[test]
    fn std_types_are_their_serde_form(d in durations(), ip in ips(), v4 in any::<[u8; 4]>(), v6 in any::<[u8; 16]>(),
                                      id in any::<u128>()) {
        same(d, d, |v| *v)?;
        same(Desc(d), d, |v| v.0)?;
        same(ip, IpMirror::of(&ip), IpMirror::of)?;
        same(Ipv4Addr::from(v4), v4, |v| v.octets())?;
        same(Ipv6Addr::from(v6), v6, |v| v.octets())?;
        prop_assert_eq!(crate_field(&ip, false), crate_field(&IpMirror::of(&ip), false));
        prop_assert_eq!(crate_field(&Ipv4Addr::from(v4), false), crate_field(&v4, false));
        let uuid = uuid::Uuid::from_u128(id);
        same(uuid, ByteBuf::from(uuid.as_bytes().to_vec()), |v| ByteBuf::from(v.as_bytes().to_vec()))?;
        prop_assert_eq!(crate_field(&uuid, false), crate_field(&ByteBuf::from(uuid.as_bytes().to_vec()), false));
        // A ULID is the same 16 bytes as a byte string (its serde form is text).
        same(ulid::Ulid(id), ByteBuf::from(id.to_be_bytes().to_vec()), |v| ByteBuf::from(v.0.to_be_bytes().to_vec()))?;
    }

    /// Twelve fields, four descending: the crate's bytes of each field, one after another.
    #[test]
    fn tuples_are_the_crates_fields_in_a_row(
        s in text(), i in edge_i64(), b in proptest::option::of(bytes()), x in edge_f64(), d in text(), w in u128s(),
        n in any::<i8>(), t in any::<bool>(), c in any::<char>(), o in proptest::option::of(any::<u32>()), ip in ips(),
        dur in durations(),
    ) {
        let value = (s.clone(), Desc(i), b.clone(), x, Desc(d.clone()), w, n, t, c, Desc(o), ip, dur);
        let ours = Memcomparable.to_key(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let theirs = [
            crate_field(&s, false), crate_field(&i, true), crate_field(&b.clone().map(ByteBuf::from), false),
            crate_field(&x, false), crate_field(&d, true), crate_field(&w, false), crate_field(&n, false),
            crate_field(&t, false), crate_field(&c, false), crate_field(&o, true), crate_field(&IpMirror::of(&ip), false),
            crate_field(&dur, false),
        ].concat();
        prop_assert_eq!(to_hex(&ours), to_hex(&theirs));

        type Twelve = (String, Desc<i64>, Option<Vec<u8>>, f64, Desc<String>, u128, i8, bool, char, Desc<Option<u32>>, IpAddr, Duration);
        let back: Twelve = Memcomparable.from_key(&theirs).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(norm64(x).to_bits(), back.3.to_bits());
        let expected = (s.clone(), Desc(i), b.clone(), 0.0, Desc(d.clone()), w, n, t, c, Desc(o), ip, dur);
        prop_assert_eq!((back.0, back.1, back.2, 0.0, back.4, back.5, back.6, back.7, back.8, back.9, back.10, back.11), expected);

        // The crate reads rowkey's key field by field.
        let mut r = CrateReader { bytes: &ours, at: 0 };
        let got_s: String = r.read(false);
        let got_i: i64 = r.read(true);
        let got_b = r.read::<Option<ByteBuf>>(false).map(ByteBuf::into_vec);
        let got_x: Bits64 = r.read(false);
        let got_d: String = r.read(true);
        let got_w: u128 = r.read(false);
        let got_n: i8 = r.read(false);
        let got_t: bool = r.read(false);
        let got_c: char = r.read(false);
        let got_o: Option<u32> = r.read(true);
        let got_ip = r.read::<IpMirror>(false);
        let got_dur: Duration = r.read(false);
        prop_assert_eq!(r.at, ours.len());
        prop_assert_eq!(got_x, Bits64(norm64(x)));
        prop_assert_eq!((got_s, got_i, got_b, got_d, got_w, got_n, got_t, got_c, got_o, got_ip, got_dur), (s, i, b, d, w, n, t, c, o, IpMirror::of(&ip), dur));
    }

    /// With every field ascending, a key is the crate's serialization of the whole tuple.
    #[test]
    fn an_ascending_tuple_is_the_crates_tuple(s in text(), b in bytes(), i in edge_i64(), o in proptest::option::of(text())) {
        let ours = Memcomparable.to_key(&(s.clone(), b.clone(), i, o.clone())).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let theirs = memcomparable::to_vec(&(s.clone(), ByteBuf::from(b.clone()), i, o.clone())).unwrap();
        prop_assert_eq!(to_hex(&ours), to_hex(&theirs));
        let (s2, b2, i2, o2): (String, ByteBuf, i64, Option<String>) = memcomparable::from_slice(&ours).unwrap();
        prop_assert_eq!((s2, b2.into_vec(), i2, o2), (s, b, i, o));
    }
}

/// A key of every ordered field family, for the order properties.
type Mixed = (String, Desc<i64>, Option<Vec<u8>>, Desc<String>, u16, bool, Desc<Option<i32>>, char, i128, Vec<u8>);

fn mixed() -> impl Strategy<Value = Mixed> {
    (
        text(),
        edge_i64().prop_map(Desc),
        proptest::option::of(bytes()),
        text().prop_map(Desc),
        any::<u16>(),
        any::<bool>(),
        proptest::option::of(any::<i32>()).prop_map(Desc),
        any::<char>(),
        i128s(),
        bytes(),
    )
}

/// Two keys that often agree on their first fields, and whose strings often extend each other.
fn mixed_pair() -> impl Strategy<Value = (Mixed, Mixed)> {
    (mixed(), mixed(), 0usize..11, any::<bool>()).prop_map(|(a, mut b, shared, extend)| {
        if shared > 0 {
            b.0 = if extend && shared == 1 { format!("{}{}", a.0, b.0) } else { a.0.clone() };
        }
        if shared > 1 {
            b.1 = a.1;
        }
        if shared > 2 {
            b.2 = a.2.clone();
        }
        if shared > 3 {
            b.3 = if extend && shared == 4 { Desc(format!("{}{}", a.3.0, b.3.0)) } else { a.3.clone() };
        }
        if shared > 4 {
            b.4 = a.4;
        }
        if shared > 5 {
            b.5 = a.5;
        }
        if shared > 6 {
            b.6 = a.6;
        }
        if shared > 7 {
            b.7 = a.7;
        }
        if shared > 8 {
            b.8 = a.8;
        }
        if shared > 9 {
            b.9 = a.9.clone();
        }
        (a, b)
    })
}

/// Keys that fail to decode, or decode to a value whose key they are.
fn canonical<T>(bytes: &[u8]) -> Result<(), TestCaseError>
where
    T: for<'de> MemcomparableKey<'de> + Debug,
{
    if let Ok(value) = Memcomparable.from_key::<T>(bytes) {
        let again = Memcomparable.to_key(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(to_hex(&again), to_hex(bytes), "{:?}", value);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn keys_sort_as_their_values((a, b) in mixed_pair()) {
        let (ka, kb) = (Memcomparable.to_key(&a).unwrap(), Memcomparable.to_key(&b).unwrap());
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b), "{:?} {:?}", a, b);
        prop_assert_eq!(Memcomparable.from_key::<Mixed>(&ka).unwrap(), a);
    }

    /// Floats sort by `total_cmp` once NaN and -0.0 are replaced as the format writes them.
    #[test]
    fn floats_sort_by_total_order(x in edge_f64(), y in edge_f64(), p in edge_f32(), q in edge_f32()) {
        let key = |v: f64| Memcomparable.to_key(&(v,)).unwrap();
        prop_assert_eq!(key(x).cmp(&key(y)), norm64(x).total_cmp(&norm64(y)));
        let desc = |v: f64| Memcomparable.to_key(&(Desc(v),)).unwrap();
        prop_assert_eq!(desc(x).cmp(&desc(y)), norm64(y).total_cmp(&norm64(x)));
        let key32 = |v: f32| Memcomparable.to_key(&(v,)).unwrap();
        prop_assert_eq!(key32(p).cmp(&key32(q)), norm32(p).total_cmp(&norm32(q)));
    }

    #[test]
    fn other_types_sort_as_their_values(a in durations(), b in durations(), c in ips(), d in ips()) {
        let key = |v: (Duration, IpAddr)| Memcomparable.to_key(&v).unwrap();
        prop_assert_eq!(key((a, c)).cmp(&key((b, d))), (a, c).cmp(&(b, d)));
    }

    #[test]
    fn decoding_is_canonical(bytes in near_keys(mixed().prop_map(|k| Memcomparable.to_key(&k).unwrap().into_vec()))) {
        canonical::<Mixed>(&bytes)?;
        canonical::<(String,)>(&bytes)?;
        canonical::<(Vec<u8>, u8)>(&bytes)?;
        canonical::<(Desc<String>, Option<f32>)>(&bytes)?;
        canonical::<(f64, Desc<f64>)>(&bytes)?;
        canonical::<(char, IpAddr, Duration)>(&bytes)?;
    }

    /// The packed first fields are the byte prefix of exactly the keys that start with them.
    #[test]
    fn packed_fields_are_a_true_prefix((a, b) in mixed_pair()) {
        let kb = Memcomparable.to_key(&b).unwrap();
        let one = Memcomparable.prefix_range(&(a.0.clone(),)).unwrap();
        prop_assert_eq!(one.contains(&kb), a.0 == b.0, "{:?} {:?}", a.0, b.0);
        prop_assert_eq!(kb.starts_with(&Memcomparable.to_key(&(a.0.clone(),)).unwrap()), a.0 == b.0);
        let three = Memcomparable.prefix_range(&(a.0.clone(), a.1, a.2.clone())).unwrap();
        prop_assert_eq!(three.contains(&kb), (&a.0, a.1, &a.2) == (&b.0, b.1, &b.2));
        let ka = Memcomparable.to_key(&a).unwrap();
        prop_assert!(three.contains(&ka));
    }
}

#[test]
fn golden_bytes_from_the_crate() {
    let rows = rows(&data("memcomparable.tsv"));
    assert!(rows.len() >= 20, "{} rows", rows.len());
    for (line, fields) in rows {
        let [kind, value, want] = &fields[..] else { panic!("row {line:?} is not kind, value, hex") };
        let want = hex(want);
        // Each row: rowkey writes the bytes, reads them back, and the crate still writes them.
        macro_rules! check {
            ($rust:expr, $serde:expr, $reverse:expr, $ty:ty, $same:expr) => {{
                let v = $rust;
                let key = Memcomparable.to_key(&(v.clone(),)).unwrap();
                assert_eq!(to_hex(&key), to_hex(&want), "{line}");
                let (back,): ($ty,) = Memcomparable.from_key(&want).unwrap();
                assert!($same(&back, &v), "{line}: read {back:?}");
                assert_eq!(to_hex(&crate_field(&$serde, $reverse)), to_hex(&want), "the crate changed: {line}");
            }};
        }
        macro_rules! int {
            ($ty:ty) => {{
                let v: $ty = value.parse().unwrap();
                check!(v, v, false, $ty, |a: &$ty, b: &$ty| a == b)
            }};
        }
        match kind.as_str() {
            "u8" => int!(u8),
            "u16" => int!(u16),
            "u32" => int!(u32),
            "u64" => int!(u64),
            "u128" => int!(u128),
            "i8" => int!(i8),
            "i16" => int!(i16),
            "i32" => int!(i32),
            "i64" => int!(i64),
            "i128" => int!(i128),
            "f32" => {
                let v: f32 = value.parse().unwrap();
                check!(v, v, false, f32, |a: &f32, b: &f32| a.to_bits() == norm32(*b).to_bits())
            }
            "f64" => {
                let v: f64 = value.parse().unwrap();
                check!(v, v, false, f64, |a: &f64, b: &f64| a.to_bits() == norm64(*b).to_bits())
            }
            "bool" => {
                let v: bool = value.parse().unwrap();
                check!(v, v, false, bool, |a: &bool, b: &bool| a == b)
            }
            "char" => {
                let v = char::from_u32(u32::from_str_radix(value.trim_start_matches("U+"), 16).unwrap()).unwrap();
                check!(v, v, false, char, |a: &char, b: &char| a == b)
            }
            "str" => {
                let v = String::from_utf8(hex(value)).unwrap();
                check!(v.clone(), v, false, String, |a: &String, b: &String| a == b)
            }
            "bytes" => {
                let v = hex(value);
                check!(v.clone(), ByteBuf::from(v), false, Vec<u8>, |a: &Vec<u8>, b: &Vec<u8>| a == b)
            }
            "option_u16" => {
                let v: Option<u16> = if value == "none" { None } else { Some(value.parse().unwrap()) };
                check!(v, v, false, Option<u16>, |a: &Option<u16>, b: &Option<u16>| a == b)
            }
            "desc_i64" => {
                let v: i64 = value.parse().unwrap();
                check!(Desc(v), v, true, Desc<i64>, |a: &Desc<i64>, b: &Desc<i64>| a == b)
            }
            "desc_str" => {
                let v = String::from_utf8(hex(value)).unwrap();
                check!(Desc(v.clone()), v, true, Desc<String>, |a: &Desc<String>, b: &Desc<String>| a == b)
            }
            "ip" => {
                let v: IpAddr = value.parse().unwrap();
                check!(v, v, false, IpAddr, |a: &IpAddr, b: &IpAddr| a == b)
            }
            "duration" => {
                let (s, n) = value.split_once('.').unwrap();
                let v = Duration::new(s.parse().unwrap(), n.parse().unwrap());
                check!(v, v, false, Duration, |a: &Duration, b: &Duration| a == b)
            }
            other => panic!("unknown kind {other:?} in {line:?}"),
        }
    }
}

/// Bytes the crate's decoder accepts (or panics on) but its encoder never writes: refused,
/// with the field's type and what was expected.
#[test]
fn strict_where_the_crate_is_lax() {
    // "a" with a non-zero padding byte: the crate reads "a", rowkey refuses.
    let padded = hex("0161ff00000000000001");
    assert_eq!(memcomparable::from_slice::<String>(&padded).unwrap(), "a");
    let err = Memcomparable.from_key::<(String,)>(&padded).unwrap_err();
    assert!(matches!(err, Error::InvalidField { ty: "String", .. }), "{err}");
    assert!(err.to_string().contains("padding must be 00"), "{err}");
    assert_eq!(err.location().offset(), Some(2));

    // A key cut short: the crate panics, rowkey says which field ended early.
    let err = Memcomparable.from_key::<(u16, i64)>(&[0, 1, 0x80, 0]).unwrap_err();
    assert!(matches!(err, Error::Truncated { .. }), "{err}");
    assert_eq!(err.location().field(), Some(1));
    assert!(err.to_string().contains("i64 field is 8 bytes"), "{err}");
    for cut in 0..12 {
        let key = Memcomparable.to_key(&("abcdefghi",)).unwrap();
        assert!(Memcomparable.from_key::<(String,)>(&key[..cut]).is_err());
    }

    // -0.0 and a NaN other than the one the format writes.
    let negative_zero = (!(-0.0f64).to_bits()).to_be_bytes();
    let err = Memcomparable.from_key::<(f64,)>(&negative_zero).unwrap_err();
    assert!(err.to_string().contains("-0.0"), "{err}");
    let other_nan = (f64::from_bits(0x7ff8_0000_0000_0001).to_bits() | 1 << 63).to_be_bytes();
    let err = Memcomparable.from_key::<(f64,)>(&other_nan).unwrap_err();
    assert!(matches!(err, Error::InvalidField { ty: "f64", .. }), "{err}");

    // Bad tags, markers and scalars.
    for (bytes, ty) in [
        (&[2u8][..], "bool"),
        (&[2], "Option"),
        (&[2], "String"),
        (&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0], "String"),
        (&[1, 0, 0, 0, 0, 0, 0, 0, 0, 10], "String"),
        (&[0, 0, 0xd8, 0], "char"),
        (&[2, 1, 2, 3, 4], "IpAddr"),
    ] {
        let err = match ty {
            "bool" => Memcomparable.from_key::<(bool,)>(bytes).unwrap_err(),
            "Option" => Memcomparable.from_key::<(Option<u8>,)>(bytes).unwrap_err(),
            "String" => Memcomparable.from_key::<(String,)>(bytes).unwrap_err(),
            "char" => Memcomparable.from_key::<(char,)>(bytes).unwrap_err(),
            _ => Memcomparable.from_key::<(IpAddr,)>(bytes).unwrap_err(),
        };
        assert!(err.to_string().contains(ty), "{ty}: {err}");
        assert!(err.to_string().contains("expected"), "{ty}: {err}");
    }
    // Bytes after the last field.
    assert!(matches!(Memcomparable.from_key::<(u8,)>(&[1, 2]), Err(Error::TrailingBytes { offset: 1, len: 1 })));
}

#[test]
fn short_ascending_text_borrows_and_longer_text_says_to_own() {
    let key = Memcomparable.to_key(&("phone", b"ab".to_vec())).unwrap();
    let (kind, raw): (&str, &[u8]) = Memcomparable.from_key(&key).unwrap();
    assert_eq!((kind, raw), ("phone", &b"ab"[..]));
    // Nine bytes span two groups: the text is not in the key as it is.
    let key = Memcomparable.to_key(&("telephone",)).unwrap();
    let err = Memcomparable.from_key::<(&str,)>(&key).unwrap_err();
    assert!(err.to_string().contains("owned"), "{err}");
    assert_eq!(Memcomparable.from_key::<(String,)>(&key).unwrap().0, "telephone");
    assert_eq!(Memcomparable.from_key::<(std::borrow::Cow<str>,)>(&key).unwrap().0, "telephone");
}

#[test]
fn the_order_holds_across_descending_and_option_edges() {
    // Spot checks of the promises the properties sample.
    let key = |v: (Desc<Option<i32>>, Option<String>)| Memcomparable.to_key(&v).unwrap();
    assert!(key((Desc(Some(1)), None)) < key((Desc(Some(0)), None)));
    assert!(key((Desc(Some(i32::MIN)), None)) < key((Desc(None), None)));
    assert!(key((Desc(None), None)) < key((Desc(None), Some(String::new()))));
    assert!(key((Desc(None), Some(String::new()))) < key((Desc(None), Some("\0".into()))));
    let order = |a: &str, b: &str| Memcomparable.to_key(&(a,)).unwrap().cmp(&Memcomparable.to_key(&(b,)).unwrap());
    assert_eq!(order("abcdefgh", "abcdefgh\0"), Ordering::Less);
    assert_eq!(order("abcdefgh\u{ff}", "abcdefgi"), Ordering::Less);
    assert_eq!(Memcomparable.prefix_range(&(Desc(u8::MIN),)).unwrap().end_key_open(), None);
}
