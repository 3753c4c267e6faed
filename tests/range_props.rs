//! Property tests for `rowkey::range` and `rowkey::merge`: prefix ranges against
//! `starts_with`, `KeyRange` against `BTreeMap::range`, `KeyRanges` normalisation against the
//! ranges it was built from, what is left of ranges after a key (a resumed read), and the
//! merge against a global sort.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
use std::rc::Rc;

use proptest::collection::vec;
use proptest::prelude::*;
use rowkey::{Key, KeyRange, KeyRanges, key_after, merge, prefix_successor};

/// Bytes weighted to `00` and `FF`, where successors carry and `k ++ 00` meets `k`.
fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![3 => Just(0x00), 3 => Just(0xff), 1 => Just(0x01), 1 => Just(0xfe), 2 => any::<u8>()]
}

/// Short keys over few byte values, so that bounds and keys often coincide or touch.
fn key() -> impl Strategy<Value = Vec<u8>> {
    vec(prop_oneof![Just(0x00), Just(0x01), Just(b'a'), Just(0xff)], 0..4)
}

fn bound() -> impl Strategy<Value = Bound<Key>> {
    let key = || key().prop_map(Key::from);
    prop_oneof![
        1 => Just(Bound::Unbounded),
        3 => key().prop_map(Bound::Included),
        3 => key().prop_map(Bound::Excluded),
        // An inclusive `k ++ 00` is the position of an exclusive `k`.
        1 => key().prop_map(|k| Bound::Included(key_after(&k))),
    ]
}

fn range() -> impl Strategy<Value = KeyRange> {
    prop_oneof![
        4 => (bound(), bound()).prop_map(|(start, end)| KeyRange::new(start, end)),
        1 => key().prop_map(|p| KeyRange::prefix(&p)),
        1 => key().prop_map(|k| KeyRange::key(&k)),
    ]
}

/// Keys that sit on and right next to every bound of `ranges`, plus `extra`.
fn probes(ranges: &[KeyRange], extra: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut probes: Vec<Vec<u8>> = extra.to_vec();
    for range in ranges {
        for bound in [range.start(), range.end()] {
            if let Bound::Included(k) | Bound::Excluded(k) = bound {
                probes.push(k.to_vec());
                probes.push(key_after(k).into_vec());
                probes.extend(prefix_successor(k).map(Key::into_vec));
            }
        }
    }
    probes
}

/// The first key above every key of `range` (`None`: no key is above it).
fn first_above(range: &KeyRange) -> Option<Key> {
    match range.end() {
        Bound::Included(k) => Some(key_after(k)),
        Bound::Excluded(k) => Some(k.clone()),
        Bound::Unbounded => None,
    }
}

/// The first key of a non-empty `range`.
fn first_in(range: &KeyRange) -> Key {
    match range.start() {
        Bound::Included(k) => k.clone(),
        Bound::Excluded(k) => key_after(k),
        Bound::Unbounded => Key::new(),
    }
}

/// Sorted, non-empty, and a key outside the set between any two neighbours.
fn assert_normalised(ranges: &KeyRanges) -> Result<(), TestCaseError> {
    for range in ranges {
        prop_assert!(!range.is_empty(), "empty {range} in {ranges}");
    }
    for pair in ranges.as_slice().windows(2) {
        let gap = first_above(&pair[0]);
        prop_assert!(gap.is_some(), "{} is unbounded but not last in {ranges}", pair[0]);
        let gap = gap.unwrap();
        prop_assert!(gap < first_in(&pair[1]), "no gap between {} and {}", pair[0], pair[1]);
        prop_assert!(!ranges.contains(&gap), "{gap} is in {ranges}");
    }
    Ok(())
}

proptest! {
    #[test]
    fn prefix_range_holds_exactly_the_extensions(
        prefix in vec(byte(), 0..5),
        tail in vec(byte(), 0..4),
        (kind, cut, step) in (0..3, any::<prop::sample::Index>(), -1i8..=1),
    ) {
        let key = match kind {
            0 => tail,
            1 => [prefix.as_slice(), &tail].concat(),
            // Near the ends: a shorter prefix with its last byte moved by one (`01 FF` gives
            // `02`, which a length-keeping end `02 00` would wrongly admit).
            _ => {
                let mut near = prefix[..cut.index(prefix.len() + 1)].to_vec();
                if let Some(last) = near.last_mut() {
                    *last = last.wrapping_add_signed(step);
                }
                [near, tail].concat()
            }
        };
        let range = KeyRange::prefix(&prefix);
        prop_assert_eq!(range.contains(&key), key.starts_with(&prefix), "{} and {:?}", range, key);
        if let Some(end) = prefix_successor(&prefix) {
            prop_assert!(!range.contains(&end), "{range} holds its end");
            prop_assert!(end.len() <= prefix.len());
        }
    }

    #[test]
    fn btreemap_range_returns_what_contains_accepts(
        keys in vec(key(), 0..40),
        range in range(),
    ) {
        let map: BTreeMap<Key, usize> = keys.iter().enumerate().map(|(i, k)| (Key::from(k.as_slice()), i)).collect();
        let wanted: Vec<(&Key, &usize)> = map.iter().filter(|(k, _)| range.contains(k)).collect();
        if range.is_empty() {
            // `BTreeMap::range` may panic on an empty range; nothing may be in it anyway.
            prop_assert!(wanted.is_empty(), "empty {range} holds {wanted:?}");
        } else {
            let got: Vec<(&Key, &usize)> = map.range::<[u8], _>(&range).collect();
            prop_assert_eq!(&got, &wanted, "{}", range);
            let slices: BTreeSet<&[u8]> = keys.iter().map(Vec::as_slice).collect();
            prop_assert_eq!(slices.range::<&[u8], _>(range.bounds()).count(), wanted.len(), "{}", range);
        }
    }

    #[test]
    fn key_ranges_cover_what_their_parts_cover(
        parts in vec(range(), 0..8),
        extra in vec(key(), 0..20),
    ) {
        let collected: KeyRanges = parts.iter().cloned().collect();
        let mut pushed = KeyRanges::new();
        for part in &parts {
            pushed.push(part.clone());
        }
        assert_normalised(&collected)?;
        assert_normalised(&pushed)?;
        prop_assert_eq!(collected.len(), pushed.len(), "{} vs {}", collected, pushed);
        for probe in probes(&parts, &extra) {
            let any = parts.iter().any(|r| r.contains(&probe));
            prop_assert_eq!(collected.contains(&probe), any, "{:?} in {}", probe, collected);
            prop_assert_eq!(pushed.contains(&probe), any, "{:?} in {}", probe, pushed);
        }
    }

    #[test]
    fn after_a_key_holds_exactly_the_keys_above_it(
        parts in vec(range(), 0..6),
        cut in key(),
        extra in vec(key(), 0..20),
    ) {
        let ranges: KeyRanges = parts.iter().cloned().collect();
        let rest = ranges.after(&cut);
        assert_normalised(&rest)?;
        let mut extra = extra;
        extra.push(cut.clone());
        extra.push(key_after(&cut).into_vec());
        for probe in probes(&parts, &extra) {
            let want = ranges.contains(&probe) && probe > cut;
            prop_assert_eq!(rest.contains(&probe), want, "{:?} in {} after {:?}", probe, rest, cut);
            for part in &parts {
                let want = part.contains(&probe) && probe > cut;
                prop_assert_eq!(part.after(&cut).contains(&probe), want, "{:?} in {} after {:?}", probe, part, cut);
            }
        }
    }

    #[test]
    fn merge_of_bucket_scans_is_the_unsalted_order(
        rows in vec((0u8..6, vec(byte(), 0..4)), 0..60),
        buckets in 1u8..6,
        n in 0usize..70,
    ) {
        // A salted table: each key is its bucket byte and then the unsalted key.
        let table: BTreeSet<Key> = rows
            .iter()
            .map(|(b, k)| Key::from([&[b % buckets], k.as_slice()].concat()))
            .collect();
        let scans = (0..buckets).map(|b| table.range::<[u8], _>(KeyRange::prefix(&[b])));
        let merged: Vec<&Key> = merge(scans, |k: &&Key| Key::from(&k[1..])).collect();

        let mut expected: Vec<&Key> = table.iter().collect();
        expected.sort_by(|x, y| (&x[1..], x[0]).cmp(&(&y[1..], y[0])));
        prop_assert_eq!(&merged, &expected);

        let scans = (0..buckets).map(|b| table.range::<[u8], _>(KeyRange::prefix(&[b])));
        let first: Vec<&Key> = merge(scans, |k: &&Key| Key::from(&k[1..])).take(n).collect();
        prop_assert_eq!(first.as_slice(), &expected[..n.min(expected.len())]);
    }

    #[test]
    fn merge_reads_one_row_ahead_at_most(
        lens in vec(0usize..8, 0..6),
        n in 0usize..50,
    ) {
        let pulls: Vec<Rc<Cell<usize>>> = lens.iter().map(|_| Rc::default()).collect();
        let streams = lens.iter().zip(&pulls).enumerate().map(|(s, (&len, pulled))| {
            let pulled = Rc::clone(pulled);
            (0..len).map(move |i| (i, s)).inspect(move |_| pulled.set(pulled.get() + 1))
        });
        let mut merged = merge(streams, |&(i, _): &(usize, usize)| i);
        prop_assert!(pulls.iter().all(|p| p.get() == 0), "read before the first row");

        let mut taken = vec![0; lens.len()];
        let mut last = None;
        for (_, s) in merged.by_ref().take(n) {
            taken[s] += 1;
            last = Some(s);
        }
        for (s, pulled) in pulls.iter().enumerate() {
            // The stream of the last row is not read again until another row is asked for.
            // Before any row is asked for, nothing is read.
            let ahead = last.is_some() && last != Some(s) && taken[s] < lens[s];
            let ahead = usize::from(ahead);
            prop_assert_eq!(pulled.get(), taken[s] + ahead, "stream {} of {:?}", s, lens);
        }
    }
}

// Hand-picked cases at the edges, readable when they fail.

/// Shorthand for the hand-picked cases below.
fn k(bytes: &[u8]) -> Key {
    Key::from(bytes)
}

#[test]
fn bounds_that_meet_with_no_key_between_are_empty() {
    let empty = [
        KeyRange::new(Bound::Included(k(b"k")), Bound::Excluded(k(b"k"))),
        KeyRange::new(Bound::Excluded(k(b"k")), Bound::Included(k(b"k"))),
        KeyRange::new(Bound::Excluded(k(b"k")), Bound::Excluded(key_after(b"k"))),
        KeyRange::new(Bound::Unbounded, Bound::Excluded(k(b""))),
        KeyRange::new(Bound::Included(k(b"b")), Bound::Included(k(b"a"))),
    ];
    for range in empty {
        assert!(range.is_empty(), "{range}");
    }
    let one_key = [
        KeyRange::new(Bound::Included(k(b"k")), Bound::Included(k(b"k"))),
        KeyRange::new(Bound::Excluded(k(b"k")), Bound::Included(key_after(b"k"))),
        KeyRange::new(Bound::Unbounded, Bound::Included(k(b""))),
    ];
    for range in one_key {
        assert!(!range.is_empty(), "{range}");
    }
}

#[test]
fn ranges_that_touch_merge() {
    let cases = [
        (KeyRange::from("a".."b"), KeyRange::from("b".."c"), "[a, c)"),
        (KeyRange::from("a"..="b"), KeyRange::from((Bound::Excluded("b"), Bound::Excluded("c"))), "[a, c)"),
        (KeyRange::from("a"..="b"), KeyRange::new(Bound::Included(key_after(b"b")), Bound::Unbounded), "[a, +∞)"),
        (KeyRange::from(.."b"), KeyRange::from("a"..="a"), "(-∞, b)"),
    ];
    for (x, y, merged) in cases {
        for pair in [[x.clone(), y.clone()], [y, x]] {
            let ranges: KeyRanges = pair.into_iter().collect();
            assert_eq!(ranges.to_string(), format!("{{{merged}}}"));
        }
    }
}

#[test]
fn ranges_with_a_key_between_stay_apart() {
    let cases = [
        (KeyRange::from("a".."b"), KeyRange::from((Bound::Excluded("b"), Bound::Unbounded))),
        (KeyRange::from("a"..="b"), KeyRange::from(&b"b\x00\x00"[..]..b"c")),
    ];
    for (x, y) in cases {
        let mut ranges = KeyRanges::from(y.clone());
        ranges.push(x.clone());
        assert_eq!(ranges.as_slice(), [x, y]);
    }
}

#[test]
fn shows_keys_readably() {
    assert_eq!(KeyRange::prefix(b"phone\x00").to_string(), r"[phone\x00, phone\x01)");
    assert_eq!(format!("{:?}", KeyRange::key(b"a\\")), r"[a\\, a\\]");
    assert_eq!(KeyRange::all().to_string(), "(-∞, +∞)");
    assert_eq!(format!("{:?}", KeyRanges::new()), "{}");
}
