//! serde keys: the bytes equal the core tuple's, order and round trip hold over nested
//! structs, options, enums of more than 128 variants and sequences, the peers' mistakes
//! (lengths beside variable-length fields, `FF` or bare NUL terminators, no sign flip, enum
//! indexes past 127 sorting first) stay fixed, and arbitrary bytes never make `from_key` panic.
#![cfg(feature = "serde")]

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::{BigEndian, Desc, Key, RowKey, from_key, to_key, to_key_into};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

/// A unit-only enum from a list of names, with a table of its values by index.
macro_rules! unit_enum {
    ($name:ident { $($variant:ident)* } data { $($extra:tt)* }) => {
        #[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
        enum $name { $($variant,)* $($extra)* }

        impl $name {
            const UNITS: &'static [$name] = &[$($name::$variant),*];
        }
    };
}

unit_enum!(Big {
    V0 V1 V2 V3 V4 V5 V6 V7 V8 V9 V10 V11 V12 V13 V14 V15 V16 V17 V18 V19 V20 V21 V22 V23 V24 V25 V26 V27 V28
    V29 V30 V31 V32 V33 V34 V35 V36 V37 V38 V39 V40 V41 V42 V43 V44 V45 V46 V47 V48 V49 V50 V51 V52 V53 V54
    V55 V56 V57 V58 V59 V60 V61 V62 V63 V64 V65 V66 V67 V68 V69 V70 V71 V72 V73 V74 V75 V76 V77 V78 V79 V80
    V81 V82 V83 V84 V85 V86 V87 V88 V89 V90 V91 V92 V93 V94 V95 V96 V97 V98 V99 V100 V101 V102 V103 V104 V105
    V106 V107 V108 V109 V110 V111 V112 V113 V114 V115 V116 V117 V118 V119 V120 V121 V122 V123 V124 V125 V126
    V127 V128 V129 V130 V131 V132 V133 V134 V135 V136 V137 V138 V139 V140 V141 V142 V143 V144 V145 V146 V147
    V148 V149 V150 V151 V152 V153 V154 V155 V156 V157 V158 V159 V160 V161 V162 V163 V164 V165 V166 V167 V168
    V169 V170 V171 V172 V173 V174 V175 V176 V177 V178 V179 V180 V181 V182 V183 V184 V185 V186 V187 V188 V189
    V190 V191 V192 V193 V194 V195 V196 V197 V198 V199
} data {
    Tail(u8), Named { label: String },
});

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    region: String,
    zone: Option<u8>,
    id: (i32, char),
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Shape {
    Empty,
    Point(i64),
    Line { from: i16, to: i16 },
    Named(String, Option<String>),
    Boxed(Box<Place>),
}

/// A record whose derived `Ord` is, field by field, the order its keys must have.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Record {
    tenant: String,
    place: Place,
    kind: Big,
    shape: Shape,
    tags: Vec<String>,
    counts: Vec<u16>,
    note: Option<String>,
    spot: Option<Place>,
    by_name: BTreeMap<String, Shape>,
    newest: Desc<i64>,
    last_seen: Desc<Option<Place>>,
    trailing: String,
}

fn edgy_string() -> impl Strategy<Value = String> {
    let ch =
        prop_oneof![Just('\0'), Just('\u{1}'), Just('a'), Just('b'), Just('\u{ff}'), Just('\u{10ffff}'), any::<char>()];
    prop::collection::vec(ch, 0..4).prop_map(|chars| chars.into_iter().collect())
}

fn edgy_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop_oneof![Just(0u8), Just(1), Just(0xfe), Just(0xff), any::<u8>()], 0..6)
}

fn edgy_i64() -> impl Strategy<Value = i64> {
    prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0), Just(-1), -130i64..130, any::<i64>()]
}

fn place() -> impl Strategy<Value = Place> {
    (edgy_string(), prop::option::of(prop_oneof![Just(0u8), Just(255), any::<u8>()]), any::<i32>(), any::<char>())
        .prop_map(|(region, zone, n, c)| Place { region, zone, id: (n % 3, c) })
}

fn big() -> impl Strategy<Value = Big> {
    prop_oneof![
        prop_oneof![Just(0usize), Just(1), Just(127), Just(128), Just(199), 0..Big::UNITS.len()]
            .prop_map(|i| Big::UNITS[i].clone()),
        any::<u8>().prop_map(Big::Tail),
        edgy_string().prop_map(|label| Big::Named { label }),
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Empty),
        edgy_i64().prop_map(Shape::Point),
        (any::<i16>(), any::<i16>()).prop_map(|(from, to)| Shape::Line { from, to }),
        (edgy_string(), prop::option::of(edgy_string())).prop_map(|(a, b)| Shape::Named(a, b)),
        place().prop_map(|p| Shape::Boxed(Box::new(p))),
    ]
}

fn record() -> impl Strategy<Value = Record> {
    (
        (edgy_string(), place(), big(), shape()),
        (
            prop::collection::vec(edgy_string(), 0..3),
            prop::collection::vec(prop_oneof![Just(0u16), Just(1), any::<u16>()], 0..3),
            prop::option::of(edgy_string()),
            prop::option::of(place()),
        ),
        (
            prop::collection::btree_map(edgy_string(), shape(), 0..3),
            edgy_i64(),
            prop::option::of(place()),
            edgy_string(),
        ),
    )
        .prop_map(
            |((tenant, place, kind, shape), (tags, counts, note, spot), (by_name, newest, last_seen, trailing))| {
                Record {
                    tenant,
                    place,
                    kind,
                    shape,
                    tags,
                    counts,
                    note,
                    spot,
                    by_name,
                    newest: Desc(newest),
                    last_seen: Desc(last_seen),
                    trailing,
                }
            },
        )
}

/// `b` with its first `k` fields taken from `a`, so that later fields decide the order.
fn tie(a: &Record, b: &Record, k: usize) -> Record {
    let mut out = b.clone();
    if k > 0 {
        out.tenant = a.tenant.clone();
    }
    if k > 1 {
        out.place = a.place.clone();
    }
    if k > 2 {
        out.kind = a.kind.clone();
    }
    if k > 3 {
        out.shape = a.shape.clone();
    }
    if k > 4 {
        out.tags = a.tags.clone();
    }
    if k > 5 {
        out.counts = a.counts.clone();
    }
    if k > 6 {
        out.note = a.note.clone();
    }
    if k > 7 {
        out.spot = a.spot.clone();
    }
    if k > 8 {
        out.by_name = a.by_name.clone();
    }
    if k > 9 {
        out.newest = a.newest;
    }
    if k > 10 {
        out.last_seen = a.last_seen.clone();
    }
    out
}

/// Byte order equals value order, and both keys decode back to their values.
fn check<T: Serialize + DeserializeOwned + Ord + Debug>(a: &T, b: &T) -> Result<(), TestCaseError> {
    let (ka, kb) = (to_key(a).unwrap(), to_key(b).unwrap());
    prop_assert_eq!(ka.cmp(&kb), a.cmp(b), "values {:?} / {:?}\nkeys {} / {}", a, b, ka, kb);
    prop_assert_eq!(&from_key::<T>(&ka).unwrap(), a, "key {}", ka);
    prop_assert_eq!(&from_key::<T>(&kb).unwrap(), b, "key {}", kb);
    Ok(())
}

/// The same fields as the tuple in `serde_equals_core`, as a struct with a nested struct.
#[derive(Serialize)]
struct Flat<'a> {
    name: &'a str,
    head: Head<'a>,
    n: i64,
    desc_name: Desc<&'a str>,
    when: SystemTime,
    be: BigEndian<u32>,
    maybe_n: Desc<Option<u64>>,
    flag: bool,
    c: char,
    x: f64,
    tail: &'a str,
}

#[derive(Serialize)]
struct Head<'a> {
    #[serde(with = "serde_bytes")]
    bytes: &'a [u8],
    maybe_bytes: Option<ByteBuf>,
}

fn time() -> impl Strategy<Value = SystemTime> {
    // serde's SystemTime is after 1970 only; whole microseconds, the key's resolution.
    prop_oneof![Just(0u64), Just(1), 0..u64::from(u32::MAX) * 1_000_000]
        .prop_map(|us| UNIX_EPOCH + Duration::from_micros(us))
}

proptest! {
    #[test]
    fn serde_equals_core(
        name in edgy_string(), bytes in edgy_bytes(), maybe in prop::option::of(edgy_bytes()), n in edgy_i64(),
        desc_name in edgy_string(), when in time(), be in any::<u32>(), maybe_n in prop::option::of(any::<u64>()),
        flag in any::<bool>(), c in any::<char>(), x in any::<f64>(), tail in prop_oneof![Just(String::new()), edgy_string()],
    ) {
        let core = (
            name.as_str(), bytes.as_slice(), maybe.clone(), n, Desc(desc_name.as_str()), when, BigEndian(be),
            Desc(maybe_n), flag, c, x, tail.as_str(),
        )
            .to_key()
            .unwrap();
        let tuple = (
            name.as_str(), ByteBuf::from(bytes.clone()), maybe.clone().map(ByteBuf::from), n, Desc(desc_name.as_str()),
            when, BigEndian(be), Desc(maybe_n), flag, c, x, tail.as_str(),
        );
        prop_assert_eq!(&to_key(&tuple).unwrap(), &core);
        let flat = Flat {
            name: &name, head: Head { bytes: &bytes, maybe_bytes: maybe.map(ByteBuf::from) }, n,
            desc_name: Desc(&desc_name), when, be: BigEndian(be), maybe_n: Desc(maybe_n), flag, c, x, tail: &tail,
        };
        prop_assert_eq!(&to_key(&flat).unwrap(), &core);
        // Shorter tuples end in different places: trailing empty fields, options, descending fields.
        prop_assert_eq!(to_key(&(name.as_str(), tail.as_str())).unwrap(), (name.as_str(), tail.as_str()).to_key().unwrap());
        prop_assert_eq!(to_key(&(Desc(maybe_n),)).unwrap(), (Desc(maybe_n),).to_key().unwrap());
        prop_assert_eq!(to_key(&(maybe_n, Some(tail.as_str()))).unwrap(), (maybe_n, Some(tail.as_str())).to_key().unwrap());
    }

    #[test]
    fn records_sort_and_round_trip(a in record(), b in record(), k in 0usize..12) {
        check(&a, &b)?;
        check(&a, &tie(&a, &b, k))?;
        check(&Desc(a.clone()), &Desc(tie(&a, &b, k)))?;
    }

    #[test]
    fn sequences_sort_element_by_element(
        a in prop::collection::vec(prop_oneof![Just(0u16), Just(1), Just(2), any::<u16>()], 0..4),
        b in prop::collection::vec(prop_oneof![Just(0u16), Just(1), Just(2), any::<u16>()], 0..4),
        s in prop::collection::vec(prop_oneof![Just(String::new()), edgy_string()], 0..4),
        t in prop::collection::vec(prop_oneof![Just(String::new()), edgy_string()], 0..4),
        extend in any::<bool>(),
    ) {
        let b = if extend { [a.clone(), b].concat() } else { b };
        let t = if extend { [s.clone(), t].concat() } else { t };
        check(&(a.clone(), 7u8), &(b.clone(), 3u8))?;
        check(&(s.clone(), "x".to_owned()), &(t.clone(), String::new()))?;
        check(&(Desc(a.clone()),), &(Desc(b.clone()),))?;
        let descs = |v: &[u16]| v.iter().map(|&x| Desc(x)).collect::<Vec<_>>();
        check(&(descs(&a), 1u8), &(descs(&b), 0u8))?;
        check(&(vec![s.clone(), t.clone()],), &(vec![t, s],))?;
    }

    #[test]
    fn big_enums(a in big(), b in big()) {
        check(&(a.clone(), 0u8), &(b.clone(), 1u8))?;
        check(&(Some(a.clone()),), &(Some(b.clone()),))?;
        check(&(vec![a.clone()],), &(vec![b.clone()],))?;
        check(&Desc(a), &Desc(b))?;
    }
}

fn key<T: Serialize + ?Sized>(value: &T) -> Key {
    to_key(value).unwrap()
}

#[derive(Serialize)]
struct Named<'a> {
    name: &'a str,
    n: i64,
}

#[test]
fn a_length_after_a_variable_field_does_not_decide_order() {
    assert!(key(&Named { name: "ab", n: 0x6400 }) < key(&Named { name: "abc", n: 1 }));
    assert!(key(&(ByteBuf::from(b"ab".to_vec()), 0x6400u64)) < key(&(ByteBuf::from(b"abc".to_vec()), 1u64)));
}

#[test]
fn a_string_sorts_before_its_extensions() {
    assert!(key("abc") < key("abcd"));
    assert!(key(&("abc", 0u8)) < key(&("abcd", 0u8)));
    assert!(key(&Desc("abcd")) < key(&Desc("abc")));
}

#[test]
fn an_embedded_nul_does_not_end_the_field() {
    assert!(key(&Named { name: "a", n: 5 }) < key(&Named { name: "a\0", n: 0 }));
    assert!(key(&("a\0", 0i64)) < key(&("a\0\0", 0i64)));
    assert!(key(&("a\u{ff}", 0i64)) < key(&("a\u{ff}\0", 0i64)));
}

#[test]
fn negative_numbers_sort_before_positive_ones() {
    let ints = [i64::MIN, -65, -64, -1, 0, 1, 63, 64, i64::MAX];
    for pair in ints.windows(2) {
        assert!(key(&pair[0]) < key(&pair[1]), "{pair:?}");
        assert!(key(&i128::from(pair[0])) < key(&i128::from(pair[1])), "{pair:?}");
    }
    let floats = [f64::NEG_INFINITY, -1e300, -1.0, -f64::MIN_POSITIVE, 0.0, 5e-324, 1.0, f64::INFINITY];
    for pair in floats.windows(2) {
        assert!(key(&pair[0]) < key(&pair[1]), "{pair:?}");
    }
}

#[test]
fn a_sequence_sorts_before_its_extensions() {
    assert!(key(&vec![1u16]) < key(&vec![1u16, 0]));
    assert!(key(&vec![1u16, 0]) < key(&vec![2u16]));
    assert!(key(&(vec![1u16], 9u8)) < key(&(vec![1u16, 0], 0u8)));
    assert!(key(&Vec::<u16>::new()) < key(&vec![0u16]));
    assert!(key(&vec!["a"]) < key(&vec!["a", ""]));
    assert!(key(&(vec!["a"], 9u8)) < key(&(vec!["a", ""], 0u8)));
    assert!(key(&vec![""]) < key(&vec!["\0"]));
}

#[test]
fn enum_indexes_past_127_sort_after_small_ones() {
    assert!(key(&Big::V1) < key(&Big::V128));
    assert!(key(&Big::V127) < key(&Big::V128));
    assert!(key(&(Big::V1, 9u8)) < key(&(Big::V128, 0u8)));
    assert!(key(&Big::V199) < key(&Big::Tail(0)));
    assert_eq!(key(&Big::V128), (128i64,).to_key().unwrap());
}

#[test]
fn nesting_does_not_change_the_bytes() {
    #[derive(Serialize)]
    struct Inline {
        a: String,
        b: u8,
        c: Option<i32>,
        d: String,
    }
    #[derive(Serialize)]
    struct Pair {
        b: u8,
        c: Option<i32>,
    }
    #[derive(Serialize)]
    struct Nested {
        a: String,
        inner: Pair,
        d: String,
    }
    #[derive(Serialize)]
    struct Wrapped(Nested);
    let inline = Inline { a: "x\0".into(), b: 7, c: None, d: String::new() };
    let nested = Nested { a: "x\0".into(), inner: Pair { b: 7, c: None }, d: String::new() };
    assert_eq!(key(&inline), key(&nested));
    assert_eq!(key(&inline), key(&Wrapped(nested)));
    assert_eq!(key(&inline), key(&("x\0", (7u8, None::<i32>), "")));
    assert_eq!(key(&inline), ("x\0", 7u8).to_key().unwrap());
}

#[test]
fn the_documented_sequence_bytes() {
    assert_eq!(key(&(Vec::<u16>::new(),)), b"\x00\x00");
    assert_eq!(key(&(vec![1u16],)), b"\x81\x00\xff\x01");
    assert_eq!(key(&(vec!["a", ""],)), b"a\x00\xff\x01\x00\xff\x00\xff\x00\xff\x01");
    assert_eq!(key(&(vec![Desc(1u16)],)), b"\x7e\xff\xfe");
    // In a field of their own, unit variants and options are the core's int64 fields.
    assert_eq!(key(&(Some(Big::V128), 1u8)), (Some(128i64), 1u8).to_key().unwrap());
}

#[test]
fn to_key_into_clears_and_reuses() {
    let mut buf = Key::from("stale");
    to_key_into(&("a", 1u8), &mut buf).unwrap();
    assert_eq!(buf, ("a", 1u8).to_key().unwrap());
    assert!(to_key_into(&("a", BigEndian(-1i64)), &mut buf).is_err());
    assert!(buf.is_empty());
}

#[test]
fn borrowing_decode() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Device<'a> {
        kind: &'a str,
        #[serde(with = "serde_bytes")]
        id: &'a [u8],
        ts: i64,
    }
    let bytes = key(&("phone", ByteBuf::from(b"\x4c\x41\x05\x23".to_vec()), 7i64));
    let device: Device = from_key(&bytes).unwrap();
    assert_eq!(device, Device { kind: "phone", id: b"\x4c\x41\x05\x23", ts: 7 });
    let mixed = key(&("a", "b\0"));
    let (kind, rest): (&str, std::borrow::Cow<str>) = from_key(&mixed).unwrap();
    assert_eq!((kind, rest.as_ref()), ("a", "b\0"));

    for needs_copy in [key(&("a\0", ByteBuf::new(), 1i64)), key(&("a", ByteBuf::from(vec![0u8]), 1i64))] {
        let err = from_key::<Device>(&needs_copy).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("cannot borrow") && text.contains("owned type"), "{text}");
        assert!(err.location().field().is_some(), "{err:?}");
    }
    let err = from_key::<(Desc<&str>,)>(&key(&(Desc("a"),))).unwrap_err();
    assert!(err.to_string().contains("cannot borrow"), "{err}");
    assert_eq!(from_key::<(Desc<String>,)>(&key(&(Desc("a"),))).unwrap().0.0, "a");
}

#[test]
fn key_round_trips_through_json_and_through_keys() {
    let k = ("phone\\", "\0\u{ff}", Desc(5i64)).to_key().unwrap();
    let json = serde_json::to_string(&k).unwrap();
    assert_eq!(json, format!("\"{}\"", k.to_string().replace('\\', "\\\\")));
    assert_eq!(serde_json::from_str::<Key>(&json).unwrap(), k);
    assert!(serde_json::from_str::<Key>(r#""bad\\x0""#).is_err());
    // Binary formats get the bytes: here, a key inside a key.
    let outer = key(&(k.clone(), 1u8));
    assert_eq!(outer, (k.as_bytes(), 1u8).to_key().unwrap());
    assert_eq!(from_key::<(Key, u8)>(&outer).unwrap(), (k, 1));
}

/// Decoding arbitrary bytes never panics, and whatever decodes re-encodes to the same bytes:
/// one value, one key.
fn decode_is_total<T: Serialize + DeserializeOwned + Debug>(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(value) = from_key::<T>(bytes) {
        let again = to_key(&value).unwrap();
        prop_assert_eq!(again.as_bytes(), bytes, "{:?} decoded from {:?}", value, Key::from(bytes));
    }
    Ok(())
}

fn framing_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => Just(0x00u8), 3 => Just(0x01), 3 => Just(0xff), 2 => Just(0xfe), 2 => Just(0x80), 1 => Just(0x81),
        1 => Just(0x61), 2 => any::<u8>()
    ];
    prop::collection::vec(byte, 0..20)
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in framing_bytes()) {
        decode_is_total::<()>(&bytes)?;
        decode_is_total::<String>(&bytes)?;
        decode_is_total::<(String, i64)>(&bytes)?;
        decode_is_total::<(Vec<u16>,)>(&bytes)?;
        decode_is_total::<(Vec<String>, u8)>(&bytes)?;
        decode_is_total::<(Option<Vec<Option<String>>>, Desc<Vec<u8>>)>(&bytes)?;
        decode_is_total::<(Desc<String>, Option<ByteBuf>)>(&bytes)?;
        decode_is_total::<BTreeMap<String, u8>>(&bytes)?;
        decode_is_total::<(Shape, Option<Shape>)>(&bytes)?;
        decode_is_total::<(Big, Vec<Big>)>(&bytes)?;
        decode_is_total::<Option<Place>>(&bytes)?;
        decode_is_total::<Desc<Place>>(&bytes)?;
        decode_is_total::<(SystemTime, Option<SystemTime>)>(&bytes)?;
        decode_is_total::<(f32, BigEndian<u16>, Option<()>)>(&bytes)?;
        decode_is_total::<Record>(&bytes)?;
        let _ = from_key::<(&str, &[u8])>(&bytes);
        let _ = from_key::<Vec<&str>>(&bytes);
        let _ = from_key::<serde_json::Value>(&bytes);
    }

    #[test]
    fn mutated_keys_never_panic(
        a in record(),
        b in (prop::option::of(prop::collection::vec(prop::option::of(edgy_string()), 0..3)), edgy_bytes()),
        at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<bool>(),
    ) {
        let mutate = |mut bytes: Vec<u8>| {
            let i = at.index(bytes.len());
            if cut { bytes.truncate(i) } else { bytes[i] = byte }
            bytes
        };
        decode_is_total::<Record>(&mutate(to_key(&a).unwrap().into_vec()))?;
        let b = (b.0, Desc(b.1));
        decode_is_total::<(Option<Vec<Option<String>>>, Desc<Vec<u8>>)>(&mutate(to_key(&b).unwrap().into_vec()))?;
    }
}

#[test]
fn equal_keys_for_equal_values_only() {
    // -0.0 and 0.0 are one key, as in the core; everything else distinct is a distinct key.
    assert_eq!(key(&-0.0f64), key(&0.0f64));
    assert_eq!(from_key::<f64>(&key(&-0.0f64)).unwrap().to_bits(), 0.0f64.to_bits());
    assert_eq!(key(&f64::NAN).cmp(&key(&f64::INFINITY)), Ordering::Greater);
}
