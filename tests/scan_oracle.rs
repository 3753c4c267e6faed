//! The scan bounds against a brute-force oracle: for random keys in a `BTreeMap` and random
//! fixed fields, next-field ranges and prefixes, the rows the computed ranges return are
//! exactly the rows whose decoded values match. Both formats, salted and unsalted.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use proptest::prelude::*;
use rowkey::field::Padded;
use rowkey::format::Delimited;
use rowkey::salt::Salt;
use rowkey::scan::{DelimitedScan, OrderedScan};
use rowkey::{Desc, Key, KeyRanges, RowKey};

/// Strings from a tiny alphabet, so that equal values, prefixes, `\0` and `\xFF` are common.
fn tight_string() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![Just('\0'), Just('a'), Just('b'), Just('\u{ff}')], 0..3)
        .prop_map(|c| c.into_iter().collect())
}

fn tight_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop_oneof![Just(0u8), Just(1), Just(0xff)], 0..3)
}

type Row = (String, i64, Desc<String>, Option<Vec<u8>>);

fn row() -> impl Strategy<Value = Row> {
    (tight_string(), -2i64..3, tight_string().prop_map(Desc), prop::option::of(tight_bytes()))
}

fn bound<T: Clone>(kind: u8, value: &T) -> Bound<T> {
    match kind % 3 {
        0 => Bound::Unbounded,
        1 => Bound::Included(value.clone()),
        _ => Bound::Excluded(value.clone()),
    }
}

/// The rows the ranges return, read from the table as a store would.
fn scanned<V: Clone + Ord>(table: &BTreeMap<Key, V>, ranges: &KeyRanges) -> BTreeSet<V> {
    ranges.iter().flat_map(|r| table.range::<[u8], _>(r).map(|(_, v)| v.clone())).collect()
}

/// One query: how many leading fields are fixed (taken from `probe`), and what the next
/// field must satisfy.
#[derive(Clone, Debug)]
struct Query {
    fixed: usize,
    probe: Row,
    other: Row,
    start_kind: u8,
    end_kind: u8,
    starts_with: bool,
}

fn query() -> impl Strategy<Value = Query> {
    (0usize..=4, row(), row(), any::<u8>(), any::<u8>(), any::<bool>()).prop_map(
        |(fixed, probe, other, start_kind, end_kind, starts_with)| Query {
            fixed,
            probe,
            other,
            start_kind,
            end_kind,
            starts_with,
        },
    )
}

/// Whether `row` matches the query: its first `fixed` fields equal the probe's, and its next
/// field is in the probe..other range (or starts with the other's value).
fn matches(q: &Query, row: &Row) -> bool {
    let (p, o) = (&q.probe, &q.other);
    let same = [row.0 == p.0, row.1 == p.1, row.2 == p.2, row.3 == p.3];
    if !same[..q.fixed].iter().all(|&s| s) {
        return false;
    }
    match q.fixed {
        0 if q.starts_with => row.0.starts_with(&o.0),
        0 => in_range(bound(q.start_kind, &p.0), bound(q.end_kind, &o.0), &row.0),
        1 => in_range(bound(q.start_kind, &p.1), bound(q.end_kind, &o.1), &row.1),
        2 if q.starts_with => row.2.0.starts_with(&o.2.0),
        2 => in_range(bound(q.start_kind, &p.2), bound(q.end_kind, &o.2), &row.2),
        3 => in_range(bound(q.start_kind, &p.3), bound(q.end_kind, &o.3), &row.3),
        _ => true,
    }
}

fn in_range<T: Ord>(lo: Bound<T>, hi: Bound<T>, value: &T) -> bool {
    (lo, hi).contains(value)
}

fn as_ref<T>(b: &Bound<T>) -> Bound<&T> {
    b.as_ref()
}

/// The ranges for the query, on a scan whose leading fields (a bucket, say) are fixed already.
fn ordered_ranges(q: &Query, mut scan: OrderedScan) -> rowkey::Result<KeyRanges> {
    let p = &q.probe;
    let o = &q.other;
    if q.fixed > 0 {
        scan.fix(p.0.as_str())?;
    }
    if q.fixed > 1 {
        scan.fix(&p.1)?;
    }
    if q.fixed > 2 {
        scan.fix(&p.2)?;
    }
    if q.fixed > 3 {
        scan.fix(&p.3)?;
    }
    let (s, e) = (q.start_kind, q.end_kind);
    match q.fixed {
        0 if q.starts_with => scan.starts_with(o.0.as_str()),
        0 => scan.range(as_ref(&bound(s, &p.0)), as_ref(&bound(e, &o.0))),
        1 => scan.range(as_ref(&bound(s, &p.1)), as_ref(&bound(e, &o.1))),
        2 if q.starts_with => scan.starts_with(&Desc(o.2.0.as_str())),
        2 => scan.range(as_ref(&bound(s, &p.2)), as_ref(&bound(e, &o.2))),
        3 => scan.range(as_ref(&bound(s, &p.3)), as_ref(&bound(e, &o.3))),
        _ => Ok(scan.ranges()),
    }
}

fn check<V: Ord + Clone + Debug>(
    found: &BTreeSet<V>,
    want: &BTreeSet<V>,
    q: &Query,
    ranges: &KeyRanges,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(found, want, "query {:?}\nranges {}", q, ranges);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: ProptestConfig::default().cases.min(128), ..ProptestConfig::default() })]

    #[test]
    fn ordered(rows in prop::collection::vec(row(), 1..200), queries in prop::collection::vec(query(), 12)) {
        let table: BTreeMap<Key, Row> = rows.iter().map(|r| (r.to_key().unwrap(), r.clone())).collect();
        for q in &queries {
            let ranges = ordered_ranges(q, OrderedScan::for_key::<Row>()).unwrap();
            let want: BTreeSet<Row> = table.values().filter(|r| matches(q, r)).cloned().collect();
            check(&scanned(&table, &ranges), &want, q, &ranges)?;
        }
    }

    #[test]
    fn ordered_salted(rows in prop::collection::vec(row(), 1..200), queries in prop::collection::vec(query(), 12)) {
        let salt = Salt::farmhash(4).unwrap();
        let table: BTreeMap<Key, Row> =
            rows.iter().map(|r| (salt.ordered_key(&(r.0.as_str(),), r).unwrap(), r.clone())).collect();
        for q in &queries {
            let per_bucket = |bucket: u32| {
                let mut scan = OrderedScan::new(5);
                scan.fix(&bucket)?;
                ordered_ranges(q, scan)
            };
            // The source field fixed: one bucket. Otherwise every bucket.
            let ranges = if q.fixed > 0 {
                per_bucket(salt.bucket(&(q.probe.0.as_str(),)).unwrap()).unwrap()
            } else {
                salt.fan_out(per_bucket).unwrap()
            };
            if q.fixed > 0 {
                prop_assert!(ranges.len() <= 2, "one bucket: {}", ranges);
            }
            let want: BTreeSet<Row> = table.values().filter(|r| matches(q, r)).cloned().collect();
            check(&scanned(&table, &ranges), &want, q, &ranges)?;
        }
    }
}

type TextRow = (String, u16, String);

/// Strings above '#' with prefixes and the bytes just above the delimiter.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![Just('$'), Just('a'), Just('b'), Just('~')], 0..3)
        .prop_map(|c| c.into_iter().collect())
}

fn text_row() -> impl Strategy<Value = TextRow> {
    (text(), prop_oneof![Just(0u16), Just(7), Just(65535), any::<u16>()], text())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: ProptestConfig::default().cases.min(128), ..ProptestConfig::default() })]

    #[test]
    fn delimited(
        rows in prop::collection::vec(text_row(), 1..200),
        probes in prop::collection::vec((0usize..=3, text_row(), text_row(), any::<u8>(), any::<u8>(), any::<bool>(), any::<bool>()), 12),
    ) {
        let hash = Delimited::default();
        let salt = Salt::modulo(16).unwrap();
        for salted in [false, true] {
            let key_of = |r: &TextRow| if salted {
                salt.delimited_key(&hash, &(r.1,), r).unwrap()
            } else {
                hash.to_key(r).unwrap()
            };
            let table: BTreeMap<Key, TextRow> = rows.iter().map(|r| (key_of(r), r.clone())).collect();
            for (fixed, p, o, sk, ek, prefix, _) in &probes {
                let build = |bucket: Option<u32>| -> rowkey::Result<KeyRanges> {
                    let mut scan = DelimitedScan::new(&hash, 3 + usize::from(bucket.is_some()));
                    if let Some(b) = bucket {
                        scan.fix(&Padded::<u32, 2>(b))?;
                    }
                    if *fixed > 0 { scan.fix(p.0.as_str())?; }
                    if *fixed > 1 { scan.fix(&p.1)?; }
                    if *fixed > 2 { scan.fix(p.2.as_str())?; }
                    match fixed {
                        0 if *prefix => scan.starts_with(o.0.as_str()),
                        0 => scan.range(bound(*sk, &p.0).as_ref().map(String::as_str), bound(*ek, &o.0).as_ref().map(String::as_str)),
                        1 => scan.range(bound(*sk, &p.1).as_ref(), bound(*ek, &o.1).as_ref()),
                        2 if *prefix => scan.starts_with(o.2.as_str()),
                        2 => scan.range(bound(*sk, &p.2).as_ref().map(String::as_str), bound(*ek, &o.2).as_ref().map(String::as_str)),
                        _ => Ok(scan.ranges()),
                    }
                };
                let ranges = if !salted {
                    build(None).unwrap()
                } else if *fixed > 1 {
                    build(Some(salt.bucket(&(p.1,)).unwrap())).unwrap()
                } else {
                    salt.fan_out(|b| build(Some(b))).unwrap()
                };
                let want: BTreeSet<TextRow> = table.values().filter(|r| {
                    let same = [r.0 == p.0, r.1 == p.1, r.2 == p.2];
                    same[..*fixed].iter().all(|&s| s) && match fixed {
                        0 if *prefix => r.0.starts_with(&o.0),
                        0 => (bound(*sk, &p.0), bound(*ek, &o.0)).contains(&r.0),
                        1 => (bound(*sk, &p.1), bound(*ek, &o.1)).contains(&r.1),
                        2 if *prefix => r.2.starts_with(&o.2),
                        2 => (bound(*sk, &p.2), bound(*ek, &o.2)).contains(&r.2),
                        _ => true,
                    }
                }).cloned().collect();
                let found = scanned(&table, &ranges);
                prop_assert_eq!(&found, &want, "salted {} fixed {} ranges {}", salted, fixed, ranges);
            }
        }
    }
}

#[test]
fn all_fields_fixed_is_one_key() {
    let row: Row = ("a".into(), 1, Desc(String::new()), None);
    let mut scan = OrderedScan::for_key::<Row>();
    scan.fix("a").unwrap().fix(&1i64).unwrap().fix(&Desc("")).unwrap().fix(&None::<Vec<u8>>).unwrap();
    let ranges = scan.ranges();
    assert_eq!(ranges.len(), 1);
    assert!(ranges.contains(&row.to_key().unwrap()));
    assert!(scan.fix("x").is_err(), "a fifth field does not exist");
}

#[test]
fn a_prefix_does_not_match_a_longer_value_of_its_field() {
    let mut scan = OrderedScan::new(2);
    scan.fix("user1").unwrap();
    let ranges = scan.ranges();
    assert!(ranges.contains(&("user1", "x").to_key().unwrap()));
    assert!(ranges.contains(&("user1", "").to_key().unwrap()));
    assert!(!ranges.contains(&("user10", "x").to_key().unwrap()));
    assert_eq!(ranges.len(), 1, "the dropped key and the others form one range: {ranges}");
}

/// A key whose every field can be empty, so fixing an empty field leaves the key that drops
/// it (and everything after) apart from the others.
type Sparse = (String, String, Option<Vec<u8>>);

fn sparse() -> impl Strategy<Value = Sparse> {
    (tight_string(), tight_string(), prop::option::of(tight_bytes()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: ProptestConfig::default().cases.min(128), ..ProptestConfig::default() })]

    #[test]
    fn ordered_with_droppable_fields(
        rows in prop::collection::vec(sparse(), 1..150),
        probes in prop::collection::vec((0usize..=3, sparse(), sparse(), any::<u8>(), any::<u8>()), 12),
    ) {
        let table: BTreeMap<Key, Sparse> = rows.iter().map(|r| (r.to_key().unwrap(), r.clone())).collect();
        for (fixed, p, o, sk, ek) in &probes {
            let mut scan = OrderedScan::for_key::<Sparse>();
            if *fixed > 0 { scan.fix(p.0.as_str()).unwrap(); }
            if *fixed > 1 { scan.fix(p.1.as_str()).unwrap(); }
            if *fixed > 2 { scan.fix(&p.2).unwrap(); }
            let ranges = match fixed {
                0 => scan.range(bound(*sk, &p.0).as_ref(), bound(*ek, &o.0).as_ref()),
                1 => scan.range(bound(*sk, &p.1).as_ref(), bound(*ek, &o.1).as_ref()),
                2 => scan.range(bound(*sk, &p.2).as_ref(), bound(*ek, &o.2).as_ref()),
                _ => Ok(scan.ranges()),
            }.unwrap();
            let want: BTreeSet<Sparse> = table.values().filter(|r| {
                let same = [r.0 == p.0, r.1 == p.1, r.2 == p.2];
                same[..*fixed].iter().all(|&s| s) && match fixed {
                    0 => in_range(bound(*sk, &p.0), bound(*ek, &o.0), &r.0),
                    1 => in_range(bound(*sk, &p.1), bound(*ek, &o.1), &r.1),
                    2 => in_range(bound(*sk, &p.2), bound(*ek, &o.2), &r.2),
                    _ => true,
                }
            }).cloned().collect();
            prop_assert_eq!(scanned(&table, &ranges), want, "fixed {} probe {:?} other {:?} ranges {}", fixed, p, o, ranges);
        }
    }
}
