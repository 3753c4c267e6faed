//! serde types as keys (`rowkey::from_key` / `to_key`), chosen by a selector byte: structs,
//! nested sequences, maps, sets, enums, options, byte strings and the wrappers.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

use arbitrary::Arbitrary;
use rowkey::Desc;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::show;

/// A struct of scalars, a sequence, an option, a descending part and a nested struct.
#[derive(Serialize, Deserialize, Arbitrary, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Event {
    pub user: String,
    pub seq: i32,
    pub tags: Vec<u16>,
    pub parent: Option<u64>,
    #[arbitrary(with = desc)]
    pub at: Desc<i64>,
    pub place: Place,
    pub kind: Kind,
}

/// A nested struct: its fields are the outer key's, in place.
#[derive(Serialize, Deserialize, Arbitrary, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub zone: char,
    #[serde(with = "serde_bytes")]
    pub code: Vec<u8>,
}

/// Every kind of variant.
#[derive(Serialize, Deserialize, Arbitrary, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Unit,
    Newtype(u8),
    Tuple(String, Option<bool>),
    Struct { depth: i16, names: Vec<String> },
}

fn desc<'a, T: Arbitrary<'a>>(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Desc<T>> {
    u.arbitrary().map(Desc)
}

/// Sets and maps whose elements are compound.
pub type Index = BTreeMap<String, BTreeSet<(i8, String)>>;

/// How many types [`check`] chooses from.
pub const COUNT: u8 = 12;

/// Checks `bytes` as a key of the serde type `selector` names (modulo [`COUNT`]): when it
/// decodes, it re-encodes to exactly `bytes`; for types with sets, whose repeated or
/// unsorted elements `from_key` cannot see, `from_key_exact` accepts exactly the bytes that
/// re-encode to themselves.
pub fn check(selector: u8, bytes: &[u8]) {
    match selector % COUNT {
        0 => canonical::<Event>(bytes),
        1 => canonical::<Vec<Vec<String>>>(bytes),
        2 => canonical::<BTreeMap<String, Vec<u8>>>(bytes),
        3 => with_sets::<BTreeSet<i32>>(bytes),
        4 => with_sets::<Index>(bytes),
        5 => canonical::<(Kind, Vec<Kind>)>(bytes),
        6 => canonical::<Option<Option<String>>>(bytes),
        7 => canonical::<(serde_bytes::ByteBuf, f32, f64, Desc<Vec<Option<u8>>>)>(bytes),
        8 => canonical::<(Desc<Event>, u128, i128)>(bytes),
        9 => canonical::<BTreeMap<Kind, Option<Place>>>(bytes),
        10 => with_sets::<Vec<BTreeSet<String>>>(bytes),
        _ => canonical::<(Option<Vec<Desc<String>>>, Vec<()>, ())>(bytes),
    }
}

fn canonical<T: DeserializeOwned + Serialize + Debug>(bytes: &[u8]) {
    if let Ok(value) = rowkey::from_key::<T>(bytes) {
        crate::checks::encodes_back(bytes, &value, rowkey::to_key(&value));
    }
}

fn with_sets<T: DeserializeOwned + Serialize + Debug + PartialEq>(bytes: &[u8]) {
    let Ok(value) = rowkey::from_key::<T>(bytes) else {
        assert!(rowkey::serde::from_key_exact::<T>(bytes).is_err(), "{}", show(bytes));
        return;
    };
    let again = rowkey::to_key(&value).unwrap_or_else(|e| panic!("{value:?} does not encode: {e}"));
    match rowkey::serde::from_key_exact::<T>(bytes) {
        Ok(exact) => assert!(exact == value && again.as_bytes() == bytes, "{}", show(bytes)),
        Err(e) => assert!(again.as_bytes() != bytes, "{}: {e}", show(bytes)),
    }
}

/// Keys of the types to start from, each behind its selector byte.
pub fn seeds() -> Vec<Vec<u8>> {
    let event = Event {
        user: "bobby".into(),
        seq: -7,
        tags: vec![1, 0, 65535],
        parent: Some(3),
        at: Desc(1_588_291_200_000),
        place: Place { zone: 'z', code: vec![0, 0xff] },
        kind: Kind::Struct { depth: 2, names: vec![String::new(), "a\0".into()] },
    };
    let index: Index = BTreeMap::from([("a".into(), BTreeSet::from([(1, "x".into()), (-1, String::new())]))]);
    let keys = [
        (0, rowkey::to_key(&event)),
        (1, rowkey::to_key(&vec![vec!["a".to_owned()], vec![], vec![String::new(), "\0".into()]])),
        (2, rowkey::to_key(&BTreeMap::from([("a".to_owned(), vec![0u8]), ("b".into(), vec![])]))),
        (3, rowkey::to_key(&BTreeSet::from([-1, 0, 7]))),
        (4, rowkey::to_key(&index)),
        (5, rowkey::to_key(&(Kind::Tuple("t".into(), None), vec![Kind::Unit, Kind::Newtype(200)]))),
        (6, rowkey::to_key(&Some(Some("s".to_owned())))),
        (7, rowkey::to_key(&(serde_bytes::ByteBuf::from(vec![0, 1]), 0.5f32, -0.0f64, Desc(vec![None, Some(1u8)])))),
        (8, rowkey::to_key(&(Desc(event.clone()), u128::MAX, -1i128))),
        (9, rowkey::to_key(&BTreeMap::from([(Kind::Unit, None), (Kind::Newtype(1), Some(event.place.clone()))]))),
        (10, rowkey::to_key(&vec![BTreeSet::from(["a".to_owned(), "b".into()]), BTreeSet::new()])),
        (11, rowkey::to_key(&(Some(vec![Desc("d".to_owned())]), vec![(), ()], ()))),
    ];
    keys.into_iter()
        .filter_map(|(selector, key): (u8, rowkey::Result<rowkey::Key>)| {
            key.ok().map(|key| [&[selector][..], key.as_bytes()].concat())
        })
        .collect()
}
