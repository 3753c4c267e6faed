//! `#[derive(RowKey)]` in the store formats: a derived key is byte for byte the key of the
//! format's own tuple API (which its vector and differential tests check against the
//! reference implementations), it round trips, its decoder takes exactly the bytes its
//! encoder writes, and its scan builder's ranges hold exactly the matching keys.

mod common;

use common::stores::*;
use common::strategies::{fdb_reading, hbase_visit, mc_reading};
use proptest::prelude::*;
use rowkey::field::{Numeric, Reversed};
use rowkey::format::{FdbTuple, HBase, Memcomparable};
use rowkey::salt::Salt;
use rowkey::testing::{assert_decode_total, assert_scan_exact};
use rowkey::{Desc, RowKey};

proptest! {
    #[test]
    fn fdb_keys_are_the_tuple_layers(r in fdb_reading()) {
        let salt = Salt::farmhash(8).unwrap();
        let bucket = salt.bucket(&(r.device.as_str(),)).unwrap();
        // The bucket is the tuple layer's integer.
        let bucket = u16::try_from(bucket).unwrap();
        let tuple = (bucket, r.device.clone(), r.at, r.tag.clone(), r.ok, Reversed(r.seq), r.data.clone());
        let key = r.to_key().unwrap();
        prop_assert_eq!(&key, &FdbTuple::with_prefix(b"\x15\x02").to_key(&tuple).unwrap());
        prop_assert_eq!(FdbReading::from_key(&key).unwrap(), r);
    }

    #[test]
    fn memcomparable_keys_are_the_crates(r in mc_reading()) {
        let tuple = (r.region.clone(), Desc(r.score), r.place.city.clone(), r.place.zone, r.note.clone());
        let mut expected = b"t7_".to_vec();
        expected.extend_from_slice(&Memcomparable.to_key(&tuple).unwrap());
        let key = r.to_key().unwrap();
        prop_assert_eq!(key.as_bytes(), &expected[..]);
        prop_assert_eq!(McReading::from_key(&key).unwrap(), r);
    }

    #[test]
    fn hbase_keys_are_hbases(v in hbase_visit()) {
        let salt = Salt::md5_hex(16).unwrap();
        let bucket = salt.bucket(&(v.host.as_str(),)).unwrap();
        // An MD5 salt's bucket is its hex digit, as HBase text.
        let tuple = (format!("{bucket:x}"), v.host.clone(), Desc(v.ts), Numeric(v.amount), v.row.clone());
        let key = v.to_key().unwrap();
        prop_assert_eq!(&key, &HBase.to_key(&tuple).unwrap());
        prop_assert_eq!(HBaseVisit::from_key(&key).unwrap(), v);
    }
}

#[test]
fn decoders_take_exactly_what_encoders_write() {
    assert_decode_total::<FdbReading>();
    assert_decode_total::<McReading>();
    assert_decode_total::<HBaseVisit>();
}

#[test]
fn the_prefix_and_bucket_are_checked_on_read() {
    let r = FdbReading { device: "d".into(), at: 1, tag: None, ok: true, seq: 2, data: vec![] };
    let key = r.to_key().unwrap();
    assert!(key.starts_with(b"\x15\x02\x15"), "{key}");
    let mut other = key.to_vec();
    other[1] = 0x03;
    let err = FdbReading::from_key(&other).unwrap_err().to_string();
    assert!(err.contains("prefix") && err.contains("15 02"), "{err}");
    // Another bucket before the same fields.
    let mut moved = key.to_vec();
    moved[3] = (moved[3] + 1) % 8;
    let err = FdbReading::from_key(&moved).unwrap_err().to_string();
    assert!(err.contains("bucket"), "{err}");
    // A bucket the salt does not have.
    let mut outside = key.to_vec();
    outside[3] = 9;
    let err = FdbReading::from_key(&outside).unwrap_err().to_string();
    assert!(err.contains("bucket 9 is not one of the salt's 8 buckets"), "{err}");
}

fn rows<S: Strategy>(row: S) -> impl Strategy<Value = Vec<S::Value>> {
    prop::collection::vec(row, 0..60)
}

#[test]
fn fdb_scans_are_exact() {
    assert_scan_exact(
        rows(fdb_reading()),
        fdb_reading(),
        |q: &FdbReading| FdbReading::scan().device(&q.device).ranges(),
        |q: &FdbReading, row: &FdbReading| row.device == q.device,
    );
    assert_scan_exact(
        rows(fdb_reading()),
        (fdb_reading(), -3i64..3, -3i64..3),
        |(q, a, b): &(FdbReading, i64, i64)| FdbReading::scan().device(&q.device).at_range(*a..=*b).ranges(),
        |(q, a, b): &(FdbReading, i64, i64), row: &FdbReading| row.device == q.device && (*a..=*b).contains(&row.at),
    );
    assert_scan_exact(
        rows(fdb_reading()),
        fdb_reading(),
        |q: &FdbReading| FdbReading::scan().device(&q.device).at(q.at).tag_range(..=q.tag.clone()).ranges(),
        |q: &FdbReading, row: &FdbReading| row.device == q.device && row.at == q.at && row.tag <= q.tag,
    );
    assert_scan_exact(
        rows(fdb_reading()),
        "[ab\0]{0,2}",
        |start: &String| FdbReading::scan().device_starts_with(start).ranges(),
        |start: &String, row: &FdbReading| row.device.starts_with(start.as_str()),
    );
    // Every field fixed: the one key.
    assert_scan_exact(
        rows(fdb_reading()),
        fdb_reading(),
        |q: &FdbReading| {
            FdbReading::scan().device(&q.device).at(q.at).tag(q.tag.clone()).ok(q.ok).seq(q.seq).data(&q.data).ranges()
        },
        |q: &FdbReading, row: &FdbReading| row == q,
    );
}

#[test]
fn memcomparable_scans_are_exact() {
    assert_scan_exact(
        rows(mc_reading()),
        (mc_reading(), any::<i32>(), any::<i32>()),
        |(q, a, b): &(McReading, i32, i32)| McReading::scan().region(&q.region).score_range(*a..*b).ranges(),
        |(q, a, b): &(McReading, i32, i32), row: &McReading| row.region == q.region && (*a..*b).contains(&row.score),
    );
    assert_scan_exact(
        rows(mc_reading()),
        (mc_reading(), -3i32..3),
        |(q, a): &(McReading, i32)| McReading::scan().region(&q.region).score_range(*a..).ranges(),
        |(q, a): &(McReading, i32), row: &McReading| row.region == q.region && row.score >= *a,
    );
    // Text padded with 00s: a prefix ending in 00 must not take the shorter string.
    assert_scan_exact(
        rows(mc_reading()),
        "[ab\0]{0,3}",
        |start: &String| McReading::scan().region_starts_with(start).ranges(),
        |start: &String, row: &McReading| row.region.starts_with(start.as_str()),
    );
}

#[test]
fn hbase_scans_are_exact() {
    assert_scan_exact(
        rows(hbase_visit()),
        (hbase_visit(), -3i64..3, -3i64..3),
        |(q, a, b): &(HBaseVisit, i64, i64)| HBaseVisit::scan().host(&q.host).ts_range(*a..*b).ranges(),
        |(q, a, b): &(HBaseVisit, i64, i64), row: &HBaseVisit| row.host == q.host && (*a..*b).contains(&row.ts),
    );
    assert_scan_exact(
        rows(hbase_visit()),
        hbase_visit(),
        |q: &HBaseVisit| HBaseVisit::scan().host(&q.host).ts(q.ts).amount_range(q.amount..).ranges(),
        |q: &HBaseVisit, row: &HBaseVisit| row.host == q.host && row.ts == q.ts && row.amount >= q.amount,
    );
    // The last field is a `BlobCopy`, with no end: a bound on it is a bound on the key.
    assert_scan_exact(
        rows(hbase_visit()),
        hbase_visit(),
        |q: &HBaseVisit| {
            HBaseVisit::scan().host(&q.host).ts(q.ts).amount(q.amount).row_range(..=q.row.as_slice()).ranges()
        },
        |q: &HBaseVisit, row: &HBaseVisit| {
            row.host == q.host && row.ts == q.ts && row.amount == q.amount && row.row <= q.row
        },
    );
    assert_scan_exact(
        rows(hbase_visit()),
        "[ab]{0,2}",
        |start: &String| HBaseVisit::scan().host_starts_with(start).ranges(),
        |start: &String, row: &HBaseVisit| row.host.starts_with(start.as_str()),
    );
}

/// The derived layouts `docs/FORMAT.md` shows, pinned: a change to them is a change of format.
#[test]
fn derived_layouts_are_pinned() {
    #[derive(RowKey)]
    #[rowkey(fdb_tuple, prefix = "\u{15}\u{02}", salt(buckets = 16, from = [id], hash = "modulo"))]
    struct FdbUser {
        id: i64,
        // A person's name in clear, as the layouts in FORMAT.md show it.
        #[rowkey(allow_personal_data)]
        name: String,
    }
    #[derive(RowKey)]
    #[rowkey(memcomparable, prefix = "t7_", salt(buckets = 16, from = [id], hash = "modulo"))]
    struct McUser {
        id: i64,
        // A person's name in clear, as the layouts in FORMAT.md show it.
        #[rowkey(allow_personal_data)]
        name: String,
    }
    #[derive(RowKey)]
    #[rowkey(hbase, salt(buckets = 16, from = [id], hash = "modulo"))]
    struct HBaseUser {
        id: i64,
        // A person's name in clear, as the layouts in FORMAT.md show it.
        #[rowkey(allow_personal_data)]
        name: String,
    }
    let hex = |key: rowkey::Key| common::to_hex(&key);
    assert_eq!(hex(FdbUser { id: 7, name: "ann".into() }.to_key().unwrap()), "15021507150702616e6e00");
    assert_eq!(
        hex(McUser { id: 7, name: "ann".into() }.to_key().unwrap()),
        "74375f0007800000000000000701616e6e000000000003"
    );
    assert_eq!(
        hex(HBaseUser { id: 7, name: "ann".into() }.to_key().unwrap()),
        "2b800000072c800000000000000734616e6e00"
    );
}
