//! The scenarios, each with its own table: generated rows are written, then every query's
//! `ReadRows` result is compared with a brute-force filter over the rows as written.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Bound, RangeBounds};

use futures_util::StreamExt;
use rowkey::bigtable::{Error, FailReason, ReadOptions, Row, Table, set_cell};
use rowkey::field::{Padded, Reversed};
use rowkey::format::Delimited;
use rowkey::salt::Salt;
use rowkey::scan::{DelimitedScan, OrderedScan};
use rowkey::{Desc, Key, KeyRange, KeyRanges, RowKey};

use crate::FAMILY;

/// What a scenario did, for the log.
#[derive(Default)]
pub struct Summary {
    pub rows: usize,
    pub queries: usize,
    pub compared: usize,
}

/// SplitMix64 with a fixed seed per scenario: the same rows and queries on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    /// Up to `max_len` bytes from a tiny alphabet, so that equal values, prefixes and empty
    /// values are common.
    fn word(&mut self, alphabet: &[u8], max_len: usize) -> Vec<u8> {
        let len = self.below(max_len + 1);
        (0..len).map(|_| self.pick(alphabet)).collect()
    }

    fn text(&mut self, alphabet: &[u8], max_len: usize) -> String {
        String::from_utf8(self.word(alphabet, max_len)).expect("an ASCII alphabet")
    }
}

/// Rows as written: each key and the values it was encoded from.
type Written<R> = BTreeMap<Key, R>;

/// One query: the first `fixed` fields equal the probe's, and the next field lies between
/// the probe's and the other row's values (each bound of a random kind) or starts with the
/// other's value.
#[derive(Debug)]
struct Query<R> {
    fixed: usize,
    probe: R,
    other: R,
    start: u8,
    end: u8,
    starts_with: bool,
}

impl<R: Clone> Query<R> {
    fn random(rng: &mut Rng, written: &[R], fresh: fn(&mut Rng) -> R, fields: usize) -> Self {
        let probe = rng.pick(written);
        let other = if rng.below(2) == 0 { rng.pick(written) } else { fresh(rng) };
        let (start, end) = (rng.below(3) as u8, rng.below(3) as u8);
        Query { fixed: rng.below(fields + 1), probe, other, start, end, starts_with: rng.below(4) == 0 }
    }

    fn within<T: Ord>(&self, low: &T, high: &T, value: &T) -> bool {
        (bound(self.start, low), bound(self.end, high)).contains(value)
    }
}

fn bound<T>(kind: u8, value: &T) -> Bound<&T> {
    match kind {
        0 => Bound::Unbounded,
        1 => Bound::Included(value),
        _ => Bound::Excluded(value),
    }
}

impl Summary {
    /// Adds another scenario's counts.
    pub fn add(&mut self, other: &Summary) {
        self.rows += other.rows;
        self.queries += other.queries;
        self.compared += other.compared;
    }

    /// Reads `ranges` and checks that the rows are exactly `want`, in order, each with the
    /// cell written for it.
    async fn check(&mut self, table: &Table, ranges: &KeyRanges, options: &ReadOptions, want: Vec<&Key>, what: &str) {
        let rows = table.read_rows(ranges, options).await.unwrap_or_else(|e| panic!("ReadRows {ranges}: {e}"));
        let got: Vec<&Key> = rows.iter().map(|row| &row.key).collect();
        assert_eq!(got, want, "{what}\nranges {ranges}");
        for row in &rows {
            assert_eq!(row.value(FAMILY, b"k"), Some(row.key.as_bytes()), "the cell read for {}", row.key);
        }
        self.queries += 1;
        self.compared += want.len();
    }

    /// Reads `streams` merged by `unsalted` and checks that the unsalted keys are `want`.
    async fn check_merged(
        &mut self,
        table: &Table,
        streams: Vec<KeyRanges>,
        options: &ReadOptions,
        unsalted: &(dyn Fn(&Row) -> Key + Sync),
        want: Vec<&Key>,
        what: &str,
    ) {
        let rows = table.read_merged(streams, options, unsalted).await.unwrap_or_else(|e| panic!("{what}: {e}"));
        let got: Vec<Key> = rows.iter().map(unsalted).collect();
        assert_eq!(got.iter().collect::<Vec<_>>(), want, "{what}");
        self.queries += 1;
        self.compared += want.len();
    }
}

async fn write<R>(table: &Table, written: &Written<R>) -> Summary {
    // Each row's one cell holds its own key, so a read can tell that cells and keys match.
    let rows = written.keys().map(|key| (key.clone(), vec![set_cell(FAMILY, "k", key.to_vec(), 0)]));
    let count = table.write_rows(rows).await.expect("MutateRows");
    assert_eq!(count, written.len());
    Summary { rows: count, ..Summary::default() }
}

type Ordered = (Vec<u8>, i64, Desc<Vec<u8>>, Option<Vec<u8>>, Reversed<u32>);

const BYTES: &[u8] = &[0x00, 0x01, b'a', 0xff];

fn ordered_row(rng: &mut Rng) -> Ordered {
    let optional = if rng.below(4) == 0 { None } else { Some(rng.word(BYTES, 2)) };
    let int = rng.pick(&[i64::MIN, -1, 0, 1, 2, i64::MAX]);
    (rng.word(BYTES, 2), int, Desc(rng.word(BYTES, 2)), optional, Reversed(rng.pick(&[0, 1, 7, u32::MAX])))
}

fn ordered_matches(q: &Query<Ordered>, row: &Ordered) -> bool {
    let (p, o) = (&q.probe, &q.other);
    let same = [row.0 == p.0, row.1 == p.1, row.2 == p.2, row.3 == p.3, row.4 == p.4];
    same[..q.fixed].iter().all(|&s| s)
        && match q.fixed {
            0 if q.starts_with => row.0.starts_with(&o.0),
            0 => q.within(&p.0, &o.0, &row.0),
            1 => q.within(&p.1, &o.1, &row.1),
            2 if q.starts_with => row.2.0.starts_with(&o.2.0),
            2 => q.within(&p.2, &o.2, &row.2),
            3 => q.within(&p.3, &o.3, &row.3),
            4 => q.within(&p.4, &o.4, &row.4),
            _ => true,
        }
}

fn ordered_ranges(q: &Query<Ordered>) -> rowkey::Result<KeyRanges> {
    let (p, o, s, e) = (&q.probe, &q.other, q.start, q.end);
    let mut scan = OrderedScan::for_key::<Ordered>();
    for field in 0..q.fixed {
        match field {
            0 => scan.fix(&p.0)?,
            1 => scan.fix(&p.1)?,
            2 => scan.fix(&p.2)?,
            3 => scan.fix(&p.3)?,
            _ => scan.fix(&p.4)?,
        };
    }
    match q.fixed {
        0 if q.starts_with => scan.starts_with(&o.0),
        0 => scan.range(bound(s, &p.0), bound(e, &o.0)),
        1 => scan.range(bound(s, &p.1), bound(e, &o.1)),
        2 if q.starts_with => scan.starts_with(&o.2),
        2 => scan.range(bound(s, &p.2), bound(e, &o.2)),
        3 => scan.range(bound(s, &p.3), bound(e, &o.3)),
        4 => scan.range(bound(s, &p.4), bound(e, &o.4)),
        _ => Ok(scan.ranges()),
    }
}

/// A bound for a raw range: near a written key (itself, a prefix, or just past it), or empty.
fn raw_key(rng: &mut Rng, keys: &[Key]) -> Key {
    let key = rng.pick(keys);
    let mut raw = match rng.below(5) {
        0 => Key::new(),
        1 => Key::from(&key[..rng.below(key.len() + 1)]),
        _ => key,
    };
    if rng.below(3) == 0 {
        raw.push(rng.pick(&[0x00, 0xff]));
    }
    raw
}

fn raw_range(rng: &mut Rng, keys: &[Key]) -> KeyRange {
    let (a, b) = (raw_key(rng, keys), raw_key(rng, keys));
    let (low, high) = if a <= b { (a, b) } else { (b, a) };
    let side = |rng: &mut Rng, key: Key| match rng.below(5) {
        0 => Bound::Unbounded,
        1 | 2 => Bound::Included(key),
        _ => Bound::Excluded(key),
    };
    KeyRange::new(side(rng, low), side(rng, high))
}

/// Binary keys with `00` and `FF` bytes, descending, optional and reversed fields: field
/// queries, tenant ranges, and raw ranges with every kind of bound.
pub async fn ordered(table: &Table) -> Summary {
    let mut rng = Rng(0x5EED_0001);
    let written: Written<Ordered> = (0..1500)
        .map(|_| {
            let row = ordered_row(&mut rng);
            (row.to_key().expect("an ordered key"), row)
        })
        .collect();
    let mut summary = write(table, &written).await;
    let values: Vec<Ordered> = written.values().cloned().collect();
    let keys: Vec<Key> = written.keys().cloned().collect();
    let all = ReadOptions::new();

    for _ in 0..150 {
        let q = Query::random(&mut rng, &values, ordered_row, 5);
        let ranges = ordered_ranges(&q).unwrap_or_else(|e| panic!("ranges for {q:?}: {e}"));
        let want = written.iter().filter(|(_, row)| ordered_matches(&q, row)).map(|(key, _)| key).collect();
        summary.check(table, &ranges, &all, want, &format!("{q:?}")).await;
    }

    // A tenant is the first field: `a` must not see `a\0`, `a\xff` or `aa`.
    let tenants: BTreeSet<&Vec<u8>> = values.iter().map(|row| &row.0).collect();
    for tenant in tenants {
        let mut scan = OrderedScan::for_key::<Ordered>();
        scan.fix(tenant).expect("a tenant encodes");
        let want = written.iter().filter(|(_, row)| &row.0 == tenant).map(|(key, _)| key).collect();
        summary.check(table, &scan.ranges(), &all, want, &format!("tenant {tenant:x?}")).await;
    }

    for i in 0..100 {
        let ranges: KeyRanges = (0..=rng.below(3)).map(|_| raw_range(&mut rng, &keys)).collect();
        // Small limits, and large ones that a read through the fault proxy is often cut inside
        // of, so that its resumed request must ask for the rest of the limit only.
        let limit = match i % 4 {
            0 => Some(rng.below(12)),
            1 => Some(50 + rng.below(500)),
            _ => None,
        };
        let options = limit.map_or_else(ReadOptions::new, |n| ReadOptions::new().limit(n as u64));
        let mut want: Vec<&Key> = keys.iter().filter(|key| ranges.contains(key)).collect();
        want.truncate(limit.unwrap_or(usize::MAX));
        summary.check(table, &ranges, &options, want, &format!("raw ranges, limit {limit:?}")).await;
    }

    // Empty keys as bounds: Bigtable reads an empty key as "no bound", the library must not.
    let edges = [
        KeyRange::from(..=""),
        KeyRange::from(..""),
        KeyRange::from((Bound::Excluded(""), Bound::Unbounded)),
        KeyRange::from(""..),
        KeyRange::from(""..=""),
        KeyRange::from("b".."a"),
        KeyRange::all(),
    ];
    for range in edges {
        let want = keys.iter().filter(|key| range.contains(key)).collect();
        summary.check(table, &KeyRanges::from(range.clone()), &all, want, &format!("edge {range}")).await;
    }
    summary.check(table, &KeyRanges::new(), &all, Vec::new(), "no ranges").await;
    summary
}

type Text = (String, u16, Reversed<i64>, String);

/// `$` is the first byte above the `#` delimiter: `a` and `a$` are different tenants.
const TEXT: &[u8] = b"$ab~";

fn text_row(rng: &mut Rng) -> Text {
    let (short, millis) = (rng.next() as u16, (rng.next() % 10_000_000_000_000) as i64);
    let short = rng.pick(&[0, 7, u16::MAX, short]);
    let millis = rng.pick(&[0, 1, 1_588_291_200_000, millis]);
    (rng.text(TEXT, 2), short, Reversed(millis), rng.text(TEXT, 2))
}

fn text_matches(q: &Query<Text>, row: &Text) -> bool {
    let (p, o) = (&q.probe, &q.other);
    let same = [row.0 == p.0, row.1 == p.1, row.2 == p.2, row.3 == p.3];
    same[..q.fixed].iter().all(|&s| s)
        && match q.fixed {
            0 if q.starts_with => row.0.starts_with(&o.0),
            0 => q.within(&p.0, &o.0, &row.0),
            1 => q.within(&p.1, &o.1, &row.1),
            2 => q.within(&p.2, &o.2, &row.2),
            3 if q.starts_with => row.3.starts_with(&o.3),
            3 => q.within(&p.3, &o.3, &row.3),
            _ => true,
        }
}

fn text_ranges(q: &Query<Text>, hash: &Delimited) -> rowkey::Result<KeyRanges> {
    let (p, o, s, e) = (&q.probe, &q.other, q.start, q.end);
    let mut scan = DelimitedScan::for_key::<Text>(hash);
    for field in 0..q.fixed {
        match field {
            0 => scan.fix(p.0.as_str())?,
            1 => scan.fix(&p.1)?,
            2 => scan.fix(&p.2)?,
            _ => scan.fix(p.3.as_str())?,
        };
    }
    match q.fixed {
        0 if q.starts_with => scan.starts_with(o.0.as_str()),
        0 => scan.range(bound(s, &p.0), bound(e, &o.0)),
        1 => scan.range(bound(s, &p.1), bound(e, &o.1)),
        2 => scan.range(bound(s, &p.2), bound(e, &o.2)),
        3 if q.starts_with => scan.starts_with(o.3.as_str()),
        3 => scan.range(bound(s, &p.3), bound(e, &o.3)),
        _ => Ok(scan.ranges()),
    }
}

/// Delimited keys with padded and reversed numbers: field queries and tenant ranges.
pub async fn delimited(table: &Table) -> Summary {
    let mut rng = Rng(0x5EED_0002);
    let hash = Delimited::default();
    let written: Written<Text> = (0..1000)
        .map(|_| {
            let row = text_row(&mut rng);
            (hash.to_key(&row).expect("a delimited key"), row)
        })
        .collect();
    let mut summary = write(table, &written).await;
    let values: Vec<Text> = written.values().cloned().collect();
    let all = ReadOptions::new();

    for _ in 0..120 {
        let q = Query::random(&mut rng, &values, text_row, 4);
        let ranges = text_ranges(&q, &hash).unwrap_or_else(|e| panic!("ranges for {q:?}: {e}"));
        let want = written.iter().filter(|(_, row)| text_matches(&q, row)).map(|(key, _)| key).collect();
        summary.check(table, &ranges, &all, want, &format!("{q:?}")).await;
    }

    let tenants: BTreeSet<&str> = values.iter().map(|row| row.0.as_str()).collect();
    for tenant in tenants {
        let mut scan = DelimitedScan::for_key::<Text>(&hash);
        scan.fix(tenant).expect("a tenant encodes");
        let want = written.iter().filter(|(_, row)| row.0 == tenant).map(|(key, _)| key).collect();
        summary.check(table, &scan.ranges(), &all, want, &format!("tenant {tenant:?}")).await;
    }
    summary
}

/// Devices of a few types, with ids that are prefixes of one another, and their readings'
/// times in milliseconds.
fn readings(rng: &mut Rng, types: &[&str], devices: usize, per_device: usize) -> Vec<(String, String, i64)> {
    let mut ids: Vec<String> = (0..devices).map(|_| format!("{:08x}", rng.next() as u32)).collect();
    ids[1] = ids[0][..4].to_owned();
    ids[2] = format!("{}ff", ids[0]);
    let mut out = Vec::new();
    for id in ids {
        let kind = rng.pick(types).to_owned();
        for _ in 0..per_device {
            out.push((kind.clone(), id.clone(), 1_588_291_200_000 + rng.below(86_400_000) as i64));
        }
    }
    out
}

type Reading = (String, String, Desc<i64>);

/// Salted ordered keys (bucket of the device id, then type, id, newest first): fan-out reads
/// merged into unsalted order, and one device's time windows within its bucket.
pub async fn salted_ordered(table: &Table) -> Summary {
    let mut rng = Rng(0x5EED_0003);
    let salt = Salt::farmhash(16).expect("16 buckets");
    let types = ["phone", "ph", "tablet", "phone\0"];
    let mut written: Written<Reading> = BTreeMap::new();
    let mut unsalted: BTreeMap<Key, Reading> = BTreeMap::new();
    for (kind, id, millis) in readings(&mut rng, &types, 48, 25) {
        let reading = (kind, id, Desc(millis));
        let key = salt.ordered_key(&(reading.1.as_str(),), &reading).expect("a salted key");
        unsalted.insert(reading.to_key().expect("an unsalted key"), reading.clone());
        written.insert(key, reading);
    }
    let mut summary = write(table, &written).await;
    let unsalt = |row: &Row| -> Key {
        let (_, reading) = salt.decode_ordered::<Reading>(&row.key).expect("a salted key");
        reading.to_key().expect("an unsalted key")
    };

    for kind in types {
        let per_bucket = |bucket: u32| {
            let mut scan = OrderedScan::new(4);
            scan.fix(&bucket)?.fix(kind)?;
            Ok(scan.ranges())
        };
        let fan_out = salt.fan_out(per_bucket).expect("fan-out ranges");
        let buckets: Vec<KeyRanges> = (0..16).map(|b| per_bucket(b).expect("bucket ranges")).collect();
        let want: Vec<&Key> = unsalted.iter().filter(|(_, r)| r.0 == kind).map(|(k, _)| k).collect();
        let what = format!("type {kind:?} over all buckets");
        let streams: Vec<KeyRanges> = fan_out.into_iter().map(KeyRanges::from).collect();
        summary.check_merged(table, streams, &ReadOptions::new(), &unsalt, want.clone(), &what).await;
        summary.check_merged(table, buckets.clone(), &ReadOptions::new(), &unsalt, want.clone(), &what).await;
        let first = want[..want.len().min(10)].to_vec();
        summary.check_merged(table, buckets, &ReadOptions::new().limit(10), &unsalt, first, &what).await;
    }

    let whole: Vec<KeyRanges> = (0..16)
        .map(|bucket: u32| {
            let mut scan = OrderedScan::new(4);
            scan.fix(&bucket).expect("a bucket encodes");
            scan.ranges()
        })
        .collect();
    summary.check_merged(table, whole, &ReadOptions::new(), &unsalt, unsalted.keys().collect(), "every bucket").await;

    // A query no key can match: each bucket's ranges are empty (a time window `t..t`), so
    // every stream reads nothing, never the whole table an empty RowSet would read.
    let nothing: Vec<KeyRanges> = (0..16)
        .map(|bucket: u32| {
            let mut scan = OrderedScan::new(4);
            scan.fix(&bucket).and_then(|s| s.fix("phone")).and_then(|s| s.fix("4c410523")).expect("fixed fields");
            let ranges = scan.range(Bound::Included(&Desc(5i64)), Bound::Excluded(&Desc(5i64))).expect("a window");
            assert!(ranges.is_empty(), "bucket {bucket}: t..t holds no key: {ranges}");
            ranges
        })
        .collect();
    summary.check_merged(table, nothing.clone(), &ReadOptions::new(), &unsalt, Vec::new(), "no key can match").await;
    let rows = table.stream_merged(nothing, &ReadOptions::new(), unsalt).collect::<Vec<_>>().await;
    assert!(rows.is_empty(), "a merged stream of empty buckets: {} rows", rows.len());

    // One range across every bucket is in key order, not in unsalted order: refused.
    let across = table.read_merged([KeyRange::all()], &ReadOptions::new(), unsalt).await;
    assert!(matches!(across, Err(Error::Unsorted { stream: 0, .. })), "one stream over every bucket: {across:?}");

    let devices: Vec<Reading> = unsalted.values().cloned().collect();
    for _ in 0..40 {
        let (kind, id, Desc(a)) = rng.pick(&devices);
        let Desc(b) = rng.pick(&devices).2;
        let (newest, oldest) = (Desc(a.max(b)), Desc(a.min(b)));
        let (start, end) = (rng.below(3) as u8, rng.below(3) as u8);
        let bucket = salt.bucket(&(id.as_str(),)).expect("a bucket");
        let mut scan = OrderedScan::new(4);
        scan.fix(&bucket).and_then(|s| s.fix(kind.as_str())).and_then(|s| s.fix(id.as_str())).expect("fixed fields");
        let ranges = scan.range(bound(start, &newest), bound(end, &oldest)).expect("a time window");
        assert!(ranges.len() <= 1, "one device, one range: {ranges}");
        let window = (bound(start, &newest), bound(end, &oldest));
        let want = written
            .iter()
            .filter(|(_, r)| r.0 == kind && r.1 == id && window.contains(&r.2))
            .map(|(key, _)| key)
            .collect();
        summary.check(table, &ranges, &ReadOptions::new(), want, &format!("{id} in {window:?}")).await;
    }
    summary
}

type TextReading = (String, String, Reversed<i64>);

/// Salted delimited keys (`07#phone#4c410523#9223370448563575807`): fan-out reads merged into
/// unsalted order, and one device's time windows over its reversed timestamps.
pub async fn salted_delimited(table: &Table) -> Summary {
    let mut rng = Rng(0x5EED_0004);
    let (salt, hash) = (Salt::farmhash(16).expect("16 buckets"), Delimited::default());
    let types = ["phone", "ph", "tablet", "phone$"];
    let mut written: Written<TextReading> = BTreeMap::new();
    let mut unsalted: BTreeMap<Key, TextReading> = BTreeMap::new();
    for (kind, id, millis) in readings(&mut rng, &types, 24, 25) {
        let reading = (kind, id, Reversed(millis));
        let key = salt.delimited_key(&hash, &(reading.1.as_str(),), &reading).expect("a salted key");
        unsalted.insert(hash.to_key(&reading).expect("an unsalted key"), reading.clone());
        written.insert(key, reading);
    }
    let mut summary = write(table, &written).await;
    let unsalt = |row: &Row| -> Key {
        let (_, reading) = salt.decode_delimited::<TextReading>(&hash, &row.key).expect("a salted key");
        hash.to_key(&reading).expect("an unsalted key")
    };

    for kind in types {
        let fan_out = salt
            .fan_out(|bucket| {
                let mut scan = DelimitedScan::new(&hash, 4);
                scan.fix(&Padded::<u32, 2>(bucket))?.fix(kind)?;
                Ok(scan.ranges())
            })
            .expect("fan-out ranges");
        assert_eq!(fan_out.len(), 16, "one range a bucket: {fan_out}");
        let want = unsalted.iter().filter(|(_, r)| r.0 == kind).map(|(k, _)| k).collect();
        let streams = fan_out.into_iter().map(KeyRanges::from).collect();
        let what = format!("type {kind:?} over all buckets");
        summary.check_merged(table, streams, &ReadOptions::new(), &unsalt, want, &what).await;
    }

    let devices: Vec<TextReading> = unsalted.values().cloned().collect();
    for _ in 0..20 {
        let (kind, id, Reversed(a)) = rng.pick(&devices);
        let Reversed(b) = rng.pick(&devices).2;
        let (newest, oldest) = (Reversed(a.max(b)), Reversed(a.min(b)));
        let (start, end) = (rng.below(3) as u8, rng.below(3) as u8);
        let bucket = salt.bucket(&(id.as_str(),)).expect("a bucket");
        let mut scan = DelimitedScan::new(&hash, 4);
        scan.fix(&Padded::<u32, 2>(bucket))
            .and_then(|s| s.fix(kind.as_str()))
            .and_then(|s| s.fix(id.as_str()))
            .expect("fixed fields");
        let ranges = scan.range(bound(start, &newest), bound(end, &oldest)).expect("a time window");
        let window = (bound(start, &newest), bound(end, &oldest));
        let want = written
            .iter()
            .filter(|(_, r)| r.0 == kind && r.1 == id && window.contains(&r.2))
            .map(|(key, _)| key)
            .collect();
        summary.check(table, &ranges, &ReadOptions::new(), want, &format!("{id} in {window:?}")).await;
    }
    summary
}

/// Writes larger than one request (rows of 900 kB, sent in batches of about 4 MB) read back
/// whole; and a row the server rejects comes back as an error naming it.
pub async fn batches(table: &Table) -> Summary {
    let big: Written<()> = (0..6u8).map(|i| (Key::from(&[b'b', i][..]), ())).collect();
    let rows = big.keys().map(|key| (key.clone(), vec![set_cell(FAMILY, "k", vec![key[1]; 900_000], 0)]));
    assert_eq!(table.write_rows(rows).await.expect("MutateRows in batches"), big.len());
    let read = table.read_rows(&KeyRange::all().into(), &ReadOptions::new()).await.expect("ReadRows");
    assert_eq!(read.iter().map(|row| &row.key).collect::<Vec<_>>(), big.keys().collect::<Vec<_>>());
    for row in &read {
        assert_eq!(row.value(FAMILY, b"k"), Some(&vec![row.key[1]; 900_000][..]), "the value of {}", row.key);
    }

    let rejected = [(Key::from("x"), vec![set_cell("no_such_family", "k", "v", 0)])];
    let error = table.write_rows(rejected).await.expect_err("a write to a missing column family");
    let Error::Write { written: 0, failed, unsent_from: None } = &error else { panic!("{error}") };
    assert_eq!(failed.len(), 1, "{error}");
    assert_eq!((&failed[0].key, failed[0].reason), (&Key::from("x"), FailReason::Rejected), "{error}");
    Summary { rows: big.len(), queries: 1, compared: big.len() }
}
