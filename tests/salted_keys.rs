//! Salted keys and the transform field types: buckets against the vectors, round trips in
//! both formats, bucket independence from non-source fields, spread, and reversed order.

mod common;

use std::collections::BTreeSet;

use common::{data, rows, unescape};
use proptest::prelude::*;
use rowkey::field::Reversed;
use rowkey::format::Delimited;
use rowkey::salt::{Salt, SaltHash};
use rowkey::transform::{BitReversed, ReversedDomain};
use rowkey::{Desc, RowKey};

#[test]
fn farmhash_buckets_match_googlesql() {
    // ABS(MOD(FARM_FINGERPRINT(x), 16)) for every string row without a NUL (a NUL would be
    // escaped in the ordered encoding the salt hashes).
    let salt = Salt::farmhash(16).unwrap();
    let mut checked = 0;
    for (line, cols) in rows(&data("farmhash_fingerprint64.tsv")) {
        if cols[0] != "str" {
            continue;
        }
        let input = String::from_utf8(unescape(cols[1].trim_matches('"'))).expect(&line);
        if input.contains('\0') {
            continue;
        }
        let want: u32 = cols[5].parse().expect(&line);
        assert_eq!(salt.bucket(&(input.as_str(),)).unwrap(), want, "row {line}");
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} string rows");
}

#[test]
fn modulo_buckets_match_the_time_mod_rows() {
    let mut checked = 0;
    for (line, cols) in rows(&data("salting.tsv")) {
        if cols[0] != "time_mod_bucket" {
            continue;
        }
        let time: i64 = cols[1].parse().expect(&line);
        let n: u32 = cols[2].strip_prefix("N=").expect(&line).parse().unwrap();
        let bucket: u32 = cols[4].strip_prefix("bucket=").and_then(|s| s.split(' ').next()).unwrap().parse().unwrap();
        let salt = Salt::modulo(n).unwrap();
        assert_eq!(salt.bucket(&(time,)).unwrap(), bucket, "row {line}");
        // The delimited bucket field is as wide as the largest bucket: two digits for 16.
        let digits = cols[4].split("digits: ").nth(1).unwrap().trim_end_matches(')');
        let key = salt.delimited_key(&Delimited::default(), &(time,), &(time,)).unwrap();
        assert!(key.starts_with(format!("{digits}#").as_bytes()), "row {line}: {key}");
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn bucket_counts_outside_1_to_65536_are_refused() {
    for n in [0, 65_537, u32::MAX] {
        assert!(Salt::new(n, SaltHash::FarmHash).is_err(), "{n}");
    }
    assert_eq!(Salt::modulo(65_536).unwrap().text_width(), 5);
    assert_eq!(Salt::modulo(1).unwrap().text_width(), 1);
    assert!(Salt::modulo(4).unwrap().bucket(&("not an integer",)).is_err());
}

#[test]
fn sequential_ids_spread_evenly() {
    for salt in [Salt::farmhash(16).unwrap(), Salt::modulo(16).unwrap()] {
        let mut counts = [0u32; 16];
        for id in 0..100_000i64 {
            counts[salt.bucket(&(id,)).unwrap() as usize] += 1;
        }
        let mean = 100_000.0 / 16.0;
        let max = f64::from(*counts.iter().max().unwrap());
        assert!(max <= 1.2 * mean, "{:?}: {counts:?}", salt.hash());
    }
    // Timestamps a millisecond apart, hashed as strings too.
    let salt = Salt::farmhash(16).unwrap();
    let mut counts = [0u32; 16];
    for ms in 1_588_291_200_000i64..1_588_291_300_000 {
        counts[salt.bucket(&(ms.to_string(),)).unwrap() as usize] += 1;
    }
    assert!(f64::from(*counts.iter().max().unwrap()) <= 1.2 * 100_000.0 / 16.0, "{counts:?}");
}

#[test]
fn each_key_falls_under_exactly_its_buckets_prefix() {
    let salt = Salt::farmhash(100).unwrap();
    let ordered = salt.ordered_prefixes();
    let delimited = salt.delimited_prefixes(&Delimited::default());
    for id in 0..2_000u32 {
        let id = format!("{id:08x}");
        let bucket = salt.bucket(&(id.as_str(),)).unwrap() as usize;
        let key = salt.ordered_key(&(id.as_str(),), &("phone", id.as_str())).unwrap();
        let holders: Vec<usize> = (0..100).filter(|&b| key.starts_with(&ordered[b])).collect();
        assert_eq!(holders, [bucket], "{key}");
        let key = salt.delimited_key(&Delimited::default(), &(id.as_str(),), &("phone", id.as_str())).unwrap();
        let holders: Vec<usize> = (0..100).filter(|&b| key.starts_with(&delimited[b])).collect();
        assert_eq!(holders, [bucket], "{key}");
    }
    let sorted: BTreeSet<_> = ordered.iter().collect();
    assert_eq!(sorted.into_iter().cloned().collect::<Vec<_>>(), ordered, "prefixes come in bucket order");
}

fn device() -> impl Strategy<Value = (String, String, i64)> {
    ("[a-z]{0,6}", "[0-9a-f]{8}", any::<i64>())
}

proptest! {
    #[test]
    fn salted_keys_round_trip((kind, id, ts) in device(), buckets in 1u32..=300) {
        let salt = Salt::farmhash(buckets).unwrap();
        let key = salt.ordered_key(&(id.as_str(),), &(kind.as_str(), id.as_str(), Desc(ts))).unwrap();
        let (bucket, back) = salt.decode_ordered::<(String, String, Desc<i64>)>(&key).unwrap();
        prop_assert_eq!(bucket, salt.bucket(&(id.as_str(),)).unwrap());
        prop_assert!(bucket < buckets);
        prop_assert_eq!(back, (kind.clone(), id.clone(), Desc(ts)));

        let hash = Delimited::default();
        let key = salt.delimited_key(&hash, &(id.as_str(),), &(kind.as_str(), id.as_str(), ts)).unwrap();
        let (text_bucket, back) = salt.decode_delimited::<(String, String, i64)>(&hash, &key).unwrap();
        prop_assert_eq!(text_bucket, bucket);
        prop_assert_eq!(back, (kind, id, ts));
    }

    #[test]
    fn the_bucket_depends_only_on_the_source((kind, id, ts) in device(), (kind2, _, ts2) in device()) {
        let salt = Salt::farmhash(16).unwrap();
        let a = salt.ordered_key(&(id.as_str(),), &(kind.as_str(), id.as_str(), ts)).unwrap();
        let b = salt.ordered_key(&(id.as_str(),), &(kind2.as_str(), id.as_str(), ts2)).unwrap();
        prop_assert_eq!(a[0], b[0]);
    }

    #[test]
    fn decoding_arbitrary_salted_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..16)) {
        let salt = Salt::farmhash(16).unwrap();
        if let Ok((bucket, _)) = salt.decode_ordered::<(String, i64)>(&bytes) {
            prop_assert!(bucket < 16);
        }
        let _ = salt.decode_delimited::<(String, i64)>(&Delimited::default(), &bytes);
    }

    #[test]
    fn reversed_fields_sort_in_reverse_in_both_formats(a in 0i64.., b in 0i64.., c in any::<u64>(), d in any::<u64>()) {
        let hash = Delimited::default();
        let (ka, kb) = ((Reversed(a), 'x').to_key().unwrap(), (Reversed(b), 'x').to_key().unwrap());
        prop_assert_eq!(ka.cmp(&kb), b.cmp(&a));
        prop_assert_eq!(<(Reversed<i64>, char)>::from_key(&ka).unwrap().0, Reversed(a));
        let (ta, tb) = (hash.to_key(&(Reversed(c),)).unwrap(), hash.to_key(&(Reversed(d),)).unwrap());
        prop_assert_eq!(ta.cmp(&tb), d.cmp(&c));
        prop_assert_eq!(hash.from_key::<(Reversed<u64>,)>(&ta).unwrap().0, Reversed(c));
    }

    #[test]
    fn bit_reversed_fields_round_trip_and_order_by_the_stored_value(a in any::<i64>(), b in any::<i64>(), c in any::<u64>()) {
        let hash = Delimited::default();
        let (ka, kb) = ((BitReversed(a),).to_key().unwrap(), (BitReversed(b),).to_key().unwrap());
        prop_assert_eq!(ka.cmp(&kb), BitReversed(a).cmp(&BitReversed(b)));
        prop_assert_eq!(<(BitReversed<i64>,)>::from_key(&ka).unwrap().0, BitReversed(a));
        let t = hash.to_key(&(BitReversed(c), BitReversed(a))).unwrap();
        prop_assert_eq!(hash.from_key::<(BitReversed<u64>, BitReversed<i64>)>(&t).unwrap(), (BitReversed(c), BitReversed(a)));
    }

    #[test]
    fn reversed_domains_round_trip_in_both_formats(labels in prop::collection::vec("[a-z][a-z0-9]{0,7}", 1..5)) {
        let host = labels.join(".");
        let key = (ReversedDomain(host.as_str()), 1u8).to_key().unwrap();
        prop_assert_eq!(<(ReversedDomain<String>, u8)>::from_key(&key).unwrap().0.0, host.clone());
        let hash = Delimited::default();
        let key = hash.to_key(&(ReversedDomain(host.as_str()),)).unwrap();
        let reversed: Vec<&str> = labels.iter().rev().map(String::as_str).collect();
        let reversed = reversed.join(".");
        prop_assert_eq!(key.as_bytes(), reversed.as_bytes());
        prop_assert_eq!(hash.from_key::<(ReversedDomain<String>,)>(&key).unwrap().0.0, host);
    }
}

#[test]
fn a_negative_value_cannot_be_reversed() {
    assert!((Reversed(-1i64),).to_key().is_err());
    assert!(Delimited::default().to_key(&(Reversed(-1i64),)).is_err());
    assert!((ReversedDomain("a..b"),).to_key().is_err());
}

/// A modulo salt over a `u64`: the bucket is the value mod the count, also where the value's
/// bytes could be read as a negative `i64` (the 5 bytes of `2^24`).
#[derive(rowkey::RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 10, from = [id], hash = "modulo"))]
struct Job {
    id: u64,
    name: String,
}

#[test]
fn modulo_salts_take_a_u64_by_value() -> rowkey::Result<()> {
    use rowkey::RowKey;
    for id in [16_777_216u64, 1 << 32, u64::MAX, 7] {
        let job = Job { id, name: "x".into() };
        let key = job.to_key()?;
        let bucket = u64::try_from(Job::SCHEMA.inspect(&key)?.fields()[0].value().as_int().unwrap()).unwrap();
        assert_eq!(bucket, id % 10, "{id}");
        assert_eq!(Job::from_key(&key)?, job);
        assert!(Job::scan().id(id).ranges()?.contains(&key));
    }
    Ok(())
}
