//! serde keys: the field wrappers as serde fields, and every refusal as a clear error that
//! names the field and the fix.
#![cfg(feature = "serde")]

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rowkey::field::Reversed;
use rowkey::transform::{BitReversed, ReversedDomain, ReversedUrl};
use rowkey::{BigEndian, Desc, Error, Key, RowKey, from_key, to_key};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Wrapped {
    host: ReversedDomain<String>,
    url: ReversedUrl<String>,
    id: BitReversed<i64>,
    uid: BitReversed<u64>,
    ts: Reversed<i64>,
    small: Reversed<u8>,
    user: BigEndian<u32>,
    newest: Desc<BigEndian<u16>>,
    back: Desc<Reversed<u32>>,
}

fn wrapped() -> Wrapped {
    Wrapped {
        host: ReversedDomain("maps.google.com".into()),
        url: ReversedUrl("https://www.example.com/a?b".into()),
        id: BitReversed(-7),
        uid: BitReversed(7),
        ts: Reversed(1_588_291_200_000),
        small: Reversed(3),
        user: BigEndian(42),
        newest: Desc(BigEndian(9)),
        back: Desc(Reversed(5)),
    }
}

#[test]
fn wrappers_are_the_core_fields() {
    let w = wrapped();
    let core = (
        ReversedDomain("maps.google.com"),
        ReversedUrl("https://www.example.com/a?b"),
        BitReversed(-7i64),
        BitReversed(7u64),
        Reversed(1_588_291_200_000i64),
        Reversed(3u8),
        BigEndian(42u32),
        Desc(BigEndian(9u16)),
        Desc(Reversed(5u32)),
    )
        .to_key()
        .unwrap();
    assert_eq!(to_key(&w).unwrap(), core);
    assert_eq!(from_key::<Wrapped>(&core).unwrap(), w);
    // Inside a sequence and an Option as well.
    let list = vec![BigEndian(1u32), BigEndian(256)];
    assert_eq!(from_key::<Vec<BigEndian<u32>>>(&to_key(&list).unwrap()).unwrap(), list);
    assert_eq!(to_key(&(Some(BigEndian(5u8)),)).unwrap(), (Some(BigEndian(5u8)),).to_key().unwrap());
    // A plain newtype inside a wrapper passes through.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct UserId(u32);
    let key = to_key(&(BigEndian(UserId(7)),)).unwrap();
    assert_eq!(key, (BigEndian(7u32),).to_key().unwrap());
    assert_eq!(from_key::<(BigEndian<UserId>,)>(&key).unwrap().0.0, UserId(7));
}

#[test]
fn other_formats_see_the_inner_value() {
    let json = serde_json::to_string(&wrapped()).unwrap();
    assert_eq!(
        json,
        r#"{"host":"maps.google.com","url":"https://www.example.com/a?b","id":-7,"uid":7,"ts":1588291200000,"small":3,"user":42,"newest":9,"back":5}"#
    );
    assert_eq!(serde_json::from_str::<Wrapped>(&json).unwrap(), wrapped());
}

#[test]
fn desc_around_a_struct_reverses_each_field() {
    #[derive(Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
    struct Pair {
        name: String,
        n: i32,
    }
    let pairs = [Pair { name: "a".into(), n: 2 }, Pair { name: "a".into(), n: 10 }, Pair { name: "ab".into(), n: -1 }];
    let key = |p: &Pair| to_key(&(Desc(p.clone()), 0u8)).unwrap();
    assert!(key(&pairs[2]) < key(&pairs[1]) && key(&pairs[1]) < key(&pairs[0]));
    assert_eq!(key(&pairs[0]), (Desc("a"), Desc(2i32), 0u8).to_key().unwrap());
    assert_eq!(from_key::<(Desc<Pair>, u8)>(&key(&pairs[1])).unwrap().0.0, pairs[1]);
}

fn message(err: &Error) -> String {
    err.to_string()
}

#[test]
fn a_wrapper_around_the_wrong_value_is_refused() {
    #[derive(Serialize)]
    struct Bad {
        ok: u8,
        id: BigEndian<String>,
    }
    let err = to_key(&Bad { ok: 1, id: BigEndian("x".into()) }).unwrap_err();
    assert!(message(&err).contains("BigEndian wraps an integer, not a string"), "{err}");
    assert_eq!((err.location().field(), err.location().name()), (Some(1), Some("id")));

    let err = to_key(&(BitReversed(5i32),)).unwrap_err();
    assert!(message(&err).contains("BitReversed wraps an i64 or a u64"), "{err}");
    assert!(to_key(&(BigEndian(vec![1u8]),)).is_err());
    assert!(to_key(&(Reversed(Some(1u8)),)).is_err());
    assert!(to_key(&(BigEndian(Desc(1u8)),)).is_err());

    let key = ("x",).to_key().unwrap();
    let err = from_key::<(BigEndian<String>,)>(&key).unwrap_err();
    assert!(message(&err).contains("BigEndian wraps an integer"), "{err}");
}

#[test]
fn desc_inside_an_option_is_refused() {
    let err = to_key(&(Some(Desc(1u8)),)).unwrap_err();
    assert!(message(&err).contains("Desc<Option<T>>"), "{err}");
    let err = from_key::<(Option<Desc<u8>>,)>(&(Some(1u8),).to_key().unwrap()).unwrap_err();
    assert!(message(&err).contains("Desc<Option<T>>"), "{err}");
}

#[test]
fn errors_name_the_field() {
    #[derive(Serialize, Deserialize, Debug)]
    struct Account {
        owner: String,
        place: Place,
    }
    #[derive(Serialize, Deserialize, Debug)]
    struct Place {
        region: String,
        balance: BigEndian<i64>,
        small: u8,
    }
    let err =
        to_key(&Account { owner: "a".into(), place: Place { region: "r".into(), balance: BigEndian(-5), small: 0 } })
            .unwrap_err();
    assert!(matches!(err, Error::Unencodable { .. }), "{err:?}");
    assert_eq!((err.location().field(), err.location().name()), (Some(2), Some("balance")));

    // 300 does not fit the u8 field, the fourth field of the key.
    let key = ("a", "r", BigEndian(5i64), 300i64).to_key().unwrap();
    let err = from_key::<Account>(&key).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { value: 300, .. }), "{err:?}");
    assert_eq!((err.location().field(), err.location().name()), (Some(3), Some("small")));
    assert!(message(&err).starts_with("in field 3 (`small`) at byte"), "{err}");
}

/// A field's value error is placed at the field's index and first byte whichever way the
/// field was read: borrowed as it is, unescaped, or after a descending field.
#[test]
fn value_errors_are_placed_at_their_field() {
    let place = |err: &Error| (err.location().field(), err.location().offset());

    // 300 needs no escape: the field is read in place.
    let err = from_key::<(String, u8)>(&("ab", 300i64).to_key().unwrap()).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { value: 300, .. }), "{err:?}");
    assert_eq!(place(&err), (Some(1), Some(4)));

    // i64::MIN starts with an escaped 00: the field is unescaped first.
    let err = from_key::<(String, u8)>(&("ab", i64::MIN).to_key().unwrap()).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { value, .. } if value == i128::from(i64::MIN)), "{err:?}");
    assert_eq!(place(&err), (Some(1), Some(4)));

    // After a descending field, which ends in its own separator.
    let err = from_key::<(Desc<String>, u8)>(&(Desc("ab"), 300i64).to_key().unwrap()).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { value: 300, .. }), "{err:?}");
    assert_eq!(place(&err), (Some(1), Some(4)));

    // Bytes that are not UTF-8, read in place.
    let err = from_key::<(u8, String)>(b"\x81\x00\x01\xff\xfe").unwrap_err();
    assert!(matches!(err, Error::InvalidField { .. }), "{err:?}");
    assert_eq!(place(&err), (Some(1), Some(3)));
}

#[test]
fn what_has_no_type_tags_cannot_be_read() {
    let key = ("a", 1u8).to_key().unwrap();
    let err = from_key::<serde_json::Value>(&key).unwrap_err();
    assert!(message(&err).contains("no type tags"), "{err}");

    #[derive(Deserialize, Debug)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum Loose {
        Text(String),
        Number(u8),
    }
    assert!(message(&from_key::<(Loose,)>(&key).unwrap_err()).contains("deserialize_any"));

    #[derive(Deserialize, Debug)]
    #[serde(tag = "kind")]
    #[allow(dead_code)]
    enum Tagged {
        A { n: u8 },
    }
    assert!(from_key::<Tagged>(&key).is_err());

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Flattened {
        a: String,
        #[serde(flatten)]
        rest: BTreeMap<String, u8>,
    }
    assert!(from_key::<Flattened>(&key).is_err());
}

/// A map that hands its entries over in the order given, like a `HashMap` may.
struct Unordered(Vec<(String, u8)>);

impl Serialize for Unordered {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[test]
fn maps_must_come_in_key_order() {
    let sorted = Unordered(vec![("a".into(), 2), ("b".into(), 1)]);
    let btree: BTreeMap<String, u8> = [("b".to_owned(), 1), ("a".to_owned(), 2)].into_iter().collect();
    assert_eq!(to_key(&sorted).unwrap(), to_key(&btree).unwrap());

    let err = to_key(&("x", Unordered(vec![("b".into(), 1), ("a".into(), 2)]))).unwrap_err();
    assert!(message(&err).contains("BTreeMap"), "{err}");
    assert_eq!(err.location().field(), Some(1));
    assert!(to_key(&Unordered(vec![("a".into(), 1), ("a".into(), 2)])).is_err(), "duplicate keys");

    // A one-entry HashMap is fine; a larger one only if it happens to iterate in order.
    let one: HashMap<String, u8> = [("k".to_owned(), 1)].into_iter().collect();
    assert_eq!(from_key::<HashMap<String, u8>>(&to_key(&one).unwrap()).unwrap(), one);

    // Decoding refuses keys out of order, which the encoder never writes.
    let mut bytes = to_key(&Unordered(vec![("a".into(), 2), ("b".into(), 1)])).unwrap().into_vec();
    let (a, b) = (bytes.iter().position(|&x| x == b'a').unwrap(), bytes.iter().position(|&x| x == b'b').unwrap());
    bytes.swap(a, b);
    let err = from_key::<BTreeMap<String, u8>>(&bytes).unwrap_err();
    assert!(matches!(err, Error::NonCanonical { .. }), "{err:?}");
}

#[test]
fn skipped_fields_are_refused() {
    #[derive(Serialize)]
    struct Sparse {
        a: u8,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<u8>,
        c: u8,
    }
    let err = to_key(&Sparse { a: 1, b: None, c: 2 }).unwrap_err();
    assert!(message(&err).contains("`b` was skipped"), "{err}");
    assert!(to_key(&Sparse { a: 1, b: Some(0), c: 2 }).is_ok());
}

#[test]
fn system_time_is_the_core_field() {
    let t = UNIX_EPOCH + Duration::from_micros(1_588_291_200_000_123);
    assert_eq!(to_key(&("dev", t)).unwrap(), ("dev", t).to_key().unwrap());
    assert_eq!(from_key::<(String, SystemTime)>(&to_key(&("dev", t)).unwrap()).unwrap().1, t);
    assert_eq!(to_key(&Desc(Some(t))).unwrap(), (Desc(Some(t)),).to_key().unwrap());
    let before = (UNIX_EPOCH - Duration::from_secs(1),).to_key().unwrap();
    assert!(message(&from_key::<(SystemTime,)>(&before).unwrap_err()).contains("before 1970"));
    assert!(to_key(&(UNIX_EPOCH - Duration::from_secs(1),)).is_err());
}

#[test]
fn wide_integers_are_the_cores_16_byte_fields() {
    for (i, u) in [(-5i128, 7u128), (i128::MIN, 0), (i128::MAX, u128::MAX)] {
        let key = to_key(&(i, u)).unwrap();
        assert_eq!(key, (i, u).to_key().unwrap());
        assert_eq!(from_key::<(i128, u128)>(&key).unwrap(), (i, u));
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum List {
    Nil,
    Cons(u8, Box<List>),
}

fn list(n: usize) -> List {
    (0..n).fold(List::Nil, |tail, i| List::Cons(i as u8, Box::new(tail)))
}

#[test]
fn nesting_is_limited_on_both_sides() {
    let key = to_key(&list(100)).unwrap();
    assert_eq!(from_key::<List>(&key).unwrap(), list(100));
    let err = to_key(&list(200)).unwrap_err();
    assert!(message(&err).contains("128 levels"), "{err}");
    // A hostile key that would recurse once per 3 bytes.
    let hostile: Vec<u8> = b"\x81\x00\x01\x80\x00\x01".repeat(50_000);
    let err = from_key::<List>(&hostile).unwrap_err();
    assert!(message(&err).contains("128 levels"), "{err}");
    let nested: Vec<u8> = [&b"\x80"[..], &b"\x00".repeat(20_000)[..]].concat();
    assert!(from_key::<Vec<Vec<Vec<Vec<u8>>>>>(&nested).is_err());
}

#[test]
fn framing_the_encoder_never_writes_is_refused() {
    type Pair = (String, String);
    assert_eq!(from_key::<Pair>(b"a").unwrap(), ("a".into(), String::new()));
    assert_eq!(from_key::<Pair>(b"\x00\x00").unwrap(), (String::new(), String::new()));
    for (bytes, what) in [
        (&b"a\x00\x01"[..], "separator at the end"),
        (b"a\x00\x01b\x00\x01", "last field with a separator"),
        (b"a\x00\x01\x00\x00", "an empty last field written out"),
        (b"a\x00\x01\x00\x00\x00\x01", "an empty last field with a separator"),
        (b"", "an empty key"),
        (b"a\x00\x02", "a bad escape"),
    ] {
        assert!(from_key::<Pair>(bytes).is_err(), "{what}");
    }
    let err = from_key::<(String,)>(b"a\x00\x01b").unwrap_err();
    assert!(matches!(err, Error::TrailingBytes { .. }), "{err:?}");
    // Sequence elements each end in a separator, and an empty one is 00 00 00 01.
    assert!(from_key::<(Vec<u16>,)>(b"\x80").is_err());
    assert!(from_key::<(Vec<String>,)>(b"\x00\xff\x01").is_err());
    assert_eq!(from_key::<(Vec<String>,)>(b"\x00\xff\x00\xff\x00\xff\x01").unwrap().0, [""]);
}

#[test]
fn key_in_binary_and_readable_formats() {
    let k = Key::from(&b"a\\b\x00\xff"[..]);
    assert_eq!(serde_json::to_value(&k).unwrap(), serde_json::json!("a\\\\b\\x00\\xff"));
    assert_eq!(serde_json::from_value::<Key>(serde_json::json!("a\\\\b\\x00\\xff")).unwrap(), k);
    let err = serde_json::from_str::<Key>("\"\\u00e9\"").unwrap_err();
    assert!(err.to_string().contains("printable ASCII"), "{err}");
    assert_eq!(to_key(&k).unwrap(), (k.as_bytes(),).to_key().unwrap());
}

/// A key whose last field ends in a separator is not the one key of its value: the writer
/// drops the separator after the last field. Refused whether the type stops there, or asks
/// for one more (empty, dropped) field after it; with a descending last field, which always
/// ends in its separator, the key is whole.
#[test]
fn a_trailing_separator_is_refused_where_the_fields_end() {
    let (one, two): (Key, Key) = (to_key(&("a",)).unwrap(), to_key(&("a", "")).unwrap());
    assert_eq!((&one[..], &two[..]), (&b"a"[..], &b"a"[..]));
    for err in [
        from_key::<(String,)>(b"a\x00\x01").unwrap_err(),
        from_key::<(String, String)>(b"a\x00\x01").unwrap_err(),
        from_key::<(String, (String,))>(b"a\x00\x01").unwrap_err(),
    ] {
        assert!(matches!(err, Error::NonCanonical { .. }), "{err:?}");
        assert!(err.to_string().contains("ends in a separator"), "{err}");
    }
    let desc = to_key(&(Desc("a"),)).unwrap();
    assert_eq!(from_key::<(Desc<String>,)>(&desc).unwrap(), (Desc("a".to_owned()),));
    assert_eq!(from_key::<(String, String)>(b"a\x00\x01b").unwrap(), ("a".to_owned(), "b".to_owned()));
}
