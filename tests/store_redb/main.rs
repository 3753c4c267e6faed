//! The key designs of the schema guides against a real store. For each, a few thousand
//! generated rows go into redb; for generated queries, what redb's range scans return over
//! the ranges the scan builder computes must be exactly, and in the same order, what a
//! brute-force filter over every row keeps. Then the operations built on ranges: deleting a
//! tenant by its range, and merging a salted table's buckets back into unsalted order.
//!
//! Rows and queries come from a fixed seed, so a failure reproduces on every run.

#[path = "../common/mod.rs"]
mod common;
mod rows;
mod table;

use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};
use std::time::UNIX_EPOCH;

use common::keys::{Reading, TenantReading};
use rowkey::Key;
use rowkey::scan::OrderedScan;
use rowkey::transform::reverse_domain;
use rows::{
    DEVICE_TYPES, HOSTS, OrderLine, POINT_DEVICES, Page, Point, Rng, Sample, TENANTS, at, page, point, reading, sample,
    tenant_reading,
};
use table::{QUERIES, ROWS, Table};

/// Generated rows per key type: enough that every query has neighbours on both sides.
const ROW_COUNT: usize = 3_000;

// ---------------------------------------------------------------------------------------
// The scans.

#[test]
fn reading_scans_match_brute_force() {
    let mut rng = Rng(1);
    let table = Table::load("reading", (0..ROW_COUNT).map(|_| reading(&mut rng)));
    let picks = table.picks(&mut rng);

    // One device: the bucket is known, one range.
    table.check(
        picks.iter().map(|r| (r.device_type.clone(), r.device_id.clone())),
        |(kind, id)| Reading::scan().device_type(kind).device_id(id).ranges(),
        |(kind, id), row| row.device_type == *kind && row.device_id == *id,
    );
    // One device in a time window, bounds of every kind, given in time order.
    table.check(
        picks.iter().map(|r| (r.device_type.clone(), r.device_id.clone(), rng.bounds(0, 1_000_000))),
        |(kind, id, window)| Reading::scan().device_type(kind).device_id(id).ts_millis_range(*window).ranges(),
        |(kind, id, window), row| row.device_type == *kind && row.device_id == *id && window.contains(&row.ts_millis),
    );
    // One type, every device: 16 ranges.
    table.check(
        DEVICE_TYPES.iter().map(|t| t.to_string()),
        |kind| Reading::scan().device_type(kind).ranges(),
        |kind, row| row.device_type == *kind,
    );
    // A prefix of the type, including the empty one and one no type has.
    table.check(
        ["", "c", "m", "met", "meter", "meterx", "v", "z"],
        |prefix| Reading::scan().device_type_starts_with(prefix).ranges(),
        |prefix, row| row.device_type.starts_with(prefix),
    );
}

#[test]
fn tenant_scans_match_brute_force() {
    let mut rng = Rng(2);
    let table = Table::load("tenant", (0..2 * ROW_COUNT).map(|_| tenant_reading(&mut rng)));
    let picks = table.picks(&mut rng);

    table.check(TENANTS, |t| TenantReading::scan().tenant(t).ranges(), |t, row| row.tenant == *t);
    table.check(
        picks.iter().map(|r| (r.tenant.clone(), r.device_type.clone())),
        |(t, kind)| TenantReading::scan().tenant(t).device_type(kind).ranges(),
        |(t, kind), row| row.tenant == *t && row.device_type == *kind,
    );
    table.check(
        picks.iter().map(|r| (r.tenant.clone(), r.device_type.clone(), r.device_id, rng.bounds(20200501, 20200531))),
        |(t, kind, id, days)| {
            let days = (days.0.map(|d| d as u32), days.1.map(|d| d as u32));
            TenantReading::scan().tenant(t).device_type(kind).device_id(*id).date_range(days).ranges()
        },
        |(t, kind, id, days), row| {
            row.tenant == *t && row.device_type == *kind && row.device_id == *id && days.contains(&i64::from(row.date))
        },
    );
}

#[test]
fn page_scans_match_brute_force() {
    let mut rng = Rng(3);
    let table = Table::load("page", (0..ROW_COUNT).map(|_| page(&mut rng)));
    let picks = table.picks(&mut rng);

    // One host, exactly: not its sub-domains, not `google-analytics.com`.
    table.check(HOSTS, |h| Page::scan().host(h).ranges(), |h, row| row.host == *h);
    table.check(
        picks.iter().map(|p| (p.host.clone(), p.path.clone())),
        |(h, path)| Page::scan().host(h).path(path).ranges(),
        |(h, path), row| row.host == *h && row.path == *path,
    );
    // Crawl windows on a descending field, in time order.
    table.check(
        picks.iter().map(|p| (p.host.clone(), p.path.clone(), rng.bounds(0, 1_000))),
        |(h, path, secs)| {
            let window = (secs.0.map(|s| at(s as u64)), secs.1.map(|s| at(s as u64)));
            Page::scan().host(h).path(path).crawled_range(window).ranges()
        },
        |(h, path, secs), row| {
            let secs_of = row.crawled.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
            row.host == *h && row.path == *path && secs.contains(&secs_of)
        },
    );
    // A site and its sub-domains: the host's range plus the reversed name's `.` prefix.
    table.check(
        HOSTS,
        |h| {
            let mut ranges = Page::scan().host(h).ranges()?;
            let below = format!("{}.", reverse_domain(h)?);
            ranges.extend(OrderedScan::for_key::<Page>().starts_with(below.as_str())?);
            Ok(ranges)
        },
        |h, row| row.host == *h || row.host.ends_with(&format!(".{h}")),
    );
}

#[test]
fn point_scans_match_brute_force() {
    let mut rng = Rng(4);
    let table = Table::load("point", (0..ROW_COUNT).map(|_| point(&mut rng)));
    let picks = table.picks(&mut rng);

    table.check(POINT_DEVICES, |d| Point::scan().device(d).ranges(), |d, row| row.device == *d);
    table.check(
        picks.iter().map(|p| (p.device.clone(), p.metric.clone())),
        |(d, m)| Point::scan().device(d).metric(m).ranges(),
        |(d, m), row| row.device == *d && row.metric == *m,
    );
    table.check(
        picks.iter().map(|p| (p.device.clone(), *rng.pick(&["", "c", "cpu", "cpu_", "disk", "disk_r", "x"]))),
        |(d, prefix)| Point::scan().device(d).metric_starts_with(prefix).ranges(),
        |(d, prefix), row| row.device == *d && row.metric.starts_with(prefix),
    );
    table.check(
        picks.iter().map(|p| (p.device.clone(), p.metric.clone(), rng.bounds(-2_000, 100_000))),
        |(d, m, window)| Point::scan().device(d).metric(m).ts_secs_range(*window).ranges(),
        |(d, m, window), row| row.device == *d && row.metric == *m && window.contains(&row.ts_secs),
    );
}

#[test]
fn order_line_scans_match_brute_force() {
    let mut rng = Rng(5);
    let lines = (0..1_500i64).flat_map(|id| (0..(id % 3) as u32 + 1).map(move |line| OrderLine { order_id: id, line }));
    let table = Table::load("order-line", lines);
    let picks = table.picks(&mut rng);

    // Every line of an order, whatever part of the key space the reversal sent it to; and
    // orders that do not exist.
    table.check(
        picks.iter().map(|l| l.order_id).chain([-1, 1_500, i64::MAX]),
        |id| OrderLine::scan().order_id(*id).ranges(),
        |id, row| row.order_id == *id,
    );
    table.check(
        picks.iter().map(|l| (l.order_id, rng.bounds(0, 3))),
        |(id, lines)| {
            let lines = (lines.0.map(|l| l as u32), lines.1.map(|l| l as u32));
            OrderLine::scan().order_id(*id).line_range(lines).ranges()
        },
        |(id, lines), row| row.order_id == *id && lines.contains(&i64::from(row.line)),
    );
    table.check(
        picks.iter().map(|l| (l.order_id, l.line)),
        |(id, line)| OrderLine::scan().order_id(*id).line(*line).ranges(),
        |(id, line), row| row.order_id == *id && row.line == *line,
    );
}

#[test]
fn sample_scans_match_brute_force() {
    let mut rng = Rng(6);
    let table = Table::load("sample", (0..ROW_COUNT).map(|_| sample(&mut rng)));
    let picks = table.picks(&mut rng);

    // One instant: one bucket.
    table.check(picks.iter().map(|s| s.time), |t| Sample::scan().time(*t).ranges(), |t, row| row.time == *t);
    // A window: every bucket.
    table.check(
        (0..QUERIES).map(|_| rng.bounds(-300, 3_000)),
        |window| Sample::scan().time_range(*window).ranges(),
        |window, row| window.contains(&row.time),
    );
    table.check(
        picks.iter().map(|s| (s.time, *rng.pick(&["", "w", "web-1", "web-10", "db"]))),
        |(t, prefix)| Sample::scan().time(*t).host_starts_with(prefix).ranges(),
        |(t, prefix), row| row.time == *t && row.host.starts_with(prefix),
    );
    table.check(
        picks.iter().map(|s| (s.time, s.host.clone(), s.metric.clone())),
        |(t, h, m)| Sample::scan().time(*t).host(h).metric(m).ranges(),
        |(t, h, m), row| row.time == *t && row.host == *h && row.metric == *m,
    );
}

// ---------------------------------------------------------------------------------------
// Queries that match nothing. Their ranges must be empty (or, past the ends of a field's
// values, hold no key of the type), so that a read, a range delete and a merge over them touch
// no row: a store reads "no bounds" as the whole table, and an empty Bigtable `RowSet` as every
// row. The fixed fields are those of stored rows, so a range that covered them by mistake
// would find something.

#[test]
fn queries_that_match_nothing_read_delete_and_merge_nothing() {
    let mut rng = Rng(9);
    let readings = Table::load("reading-nothing", (0..ROW_COUNT).map(|_| reading(&mut rng)));
    for r in readings.picks(&mut rng).into_iter().take(20) {
        let device = || Reading::scan().device_type(&r.device_type).device_id(&r.device_id);
        let t = r.ts_millis;
        // The salt source is fixed: one bucket, and a reversed field whose bounds swap.
        readings.assert_matches_nothing(&format!("{r:?}: ts {t}..{t}"), device().ts_millis_range(t..t).ranges());
        readings
            .assert_matches_nothing(&format!("{r:?}: ts {}..{t}", t + 1), device().ts_millis_range(t + 1..t).ranges());
        // Between two neighbouring values: the builder works on the encoded bytes, so its
        // range lies between the two keys and holds no key of the type, but is not empty.
        readings.assert_reads_nothing(
            &format!("{r:?}: ts ({t}, {})", t + 1),
            &device().ts_millis_range((Bound::Excluded(t), Bound::Excluded(t + 1))).ranges().unwrap(),
        );
    }
    // Past the ends of the field's values: a range beside the keys of the extreme value that
    // holds none of the type's keys.
    for r in readings.picks(&mut rng).into_iter().take(5) {
        let device = || Reading::scan().device_type(&r.device_type).device_id(&r.device_id);
        let above = device().ts_millis_range((Bound::Excluded(i64::MAX), Bound::Unbounded)).ranges().unwrap();
        readings.assert_reads_nothing("ts above i64::MAX", &above);
        // A reversed field holds values from 0 up (`i64::MAX - v` must not overflow).
        let below = device().ts_millis_range(..0).ranges().unwrap();
        readings.assert_reads_nothing("ts below 0", &below);
    }

    // The salt source in an empty range: every bucket's share of it is empty too, rather than
    // the bucket's whole range.
    let samples = Table::load("sample-nothing", (0..ROW_COUNT).map(|_| sample(&mut rng)));
    for t in samples.picks(&mut rng).into_iter().take(20).map(|s| s.time) {
        samples.assert_matches_nothing(&format!("time {t}..{t}"), Sample::scan().time_range(t..t).ranges());
        samples.assert_matches_nothing(&format!("time {t}..={}", t - 1), Sample::scan().time_range(t..=t - 1).ranges());
    }
    let above = Sample::scan().time_range((Bound::Excluded(i64::MAX), Bound::Unbounded)).ranges().unwrap();
    samples.assert_reads_nothing("time above i64::MAX", &above);

    // A descending time in the ordered format, a text field in the delimited one, and a field
    // after a bit-reversed id.
    let pages = Table::load("page-nothing", (0..ROW_COUNT).map(|_| page(&mut rng)));
    for p in pages.picks(&mut rng).into_iter().take(20) {
        let crawled = p.crawled;
        pages.assert_matches_nothing(
            &format!("{p:?}: crawled at..at"),
            Page::scan().host(&p.host).path(&p.path).crawled_range(crawled..crawled).ranges(),
        );
    }
    let points = Table::load("point-nothing", (0..ROW_COUNT).map(|_| point(&mut rng)));
    for p in points.picks(&mut rng).into_iter().take(20) {
        let metric = || Point::scan().device(&p.device).metric(&p.metric);
        let t = p.ts_secs;
        points.assert_matches_nothing(&format!("{p:?}: ts {t}..{t}"), metric().ts_secs_range(t..t).ranges());
        points.assert_matches_nothing(
            &format!("{p:?}: metric {0}..{0}", p.metric),
            Point::scan().device(&p.device).metric_range(p.metric.as_str()..p.metric.as_str()).ranges(),
        );
    }
    let lines = Table::load("order-line-nothing", (0..3_000i64).map(|id| OrderLine { order_id: id, line: 0 }));
    for id in [0, 7, 2_999] {
        lines.assert_matches_nothing(
            &format!("order {id}, lines 0..0"),
            OrderLine::scan().order_id(id).line_range(0..0).ranges(),
        );
    }
}

// ---------------------------------------------------------------------------------------
// Range deletes and merges.

#[test]
fn deleting_a_tenants_range_deletes_exactly_its_rows() {
    let mut rng = Rng(7);
    let table = Table::load("tenant-delete", (0..2 * ROW_COUNT).map(|_| tenant_reading(&mut rng)));
    // Tenants that are byte prefixes of each other (`ac`, `acme`, `acme2`, `acme-eu`), deleted
    // one by one, in an order where a short name goes before the longer names it prefixes.
    let mut remaining: Vec<&str> = TENANTS.to_vec();
    for tenant in ["acme", "ac", "acme-eu", "globex", "acme2", "acmf"] {
        let before = table.stored();
        let tx = table.store.db.begin_write().unwrap();
        {
            let mut rows = tx.open_table(ROWS).unwrap();
            for range in &TenantReading::scan().tenant(tenant).ranges().unwrap() {
                rows.retain_in::<&[u8], _>(range.bounds(), |_, _| false).unwrap();
            }
        }
        tx.commit().unwrap();
        remaining.retain(|t| *t != tenant);

        let expected: Vec<usize> =
            (0..table.rows.len()).filter(|&i| remaining.contains(&table.row(i).tenant.as_str())).collect();
        let after = table.stored();
        assert_eq!(after, expected, "after deleting {tenant}");
        assert!(before.len() > after.len(), "{tenant} had rows");
    }
    assert!(table.stored().is_empty());
}

#[test]
fn salted_buckets_merge_into_unsalted_order() {
    let mut rng = Rng(8);
    // Modulo buckets, ordered format: the unsalted order is time order.
    let samples = Table::load("sample-merge", (0..ROW_COUNT).map(|_| sample(&mut rng)));
    for window in (0..20).map(|_| rng.bounds(-300, 3_000)) {
        let ranges = Sample::scan().time_range(window).ranges().unwrap();
        // The bucket is one orderedcode byte and the `00 01` separator.
        let merged = samples.merged(&ranges, |key| Key::from(&key[3..]));
        let mut expected: Vec<&Sample> =
            samples.rows.iter().map(|(_, s)| s).filter(|s| window.contains(&s.time)).collect();
        expected.sort_by(|a, b| (a.time, &a.host, &a.metric).cmp(&(b.time, &b.host, &b.metric)));
        assert_same_order(&merged, &expected, &format!("{window:?}"));
    }

    // FarmHash buckets, delimited format: the unsalted order is type, device, newest first.
    let readings = Table::load("reading-merge", (0..ROW_COUNT).map(|_| reading(&mut rng)));
    for kind in DEVICE_TYPES {
        let ranges = Reading::scan().device_type(kind).ranges().unwrap();
        assert_eq!(ranges.len(), 16);
        // The bucket is two digits and the delimiter.
        let merged = readings.merged(&ranges, |key| Key::from(&key[3..]));
        let mut expected: Vec<&Reading> =
            readings.rows.iter().map(|(_, r)| r).filter(|r| r.device_type == kind).collect();
        expected.sort_by(|a, b| {
            (&a.device_type, &a.device_id, std::cmp::Reverse(a.ts_millis)).cmp(&(
                &b.device_type,
                &b.device_id,
                std::cmp::Reverse(b.ts_millis),
            ))
        });
        assert!(!expected.is_empty());
        assert_same_order(&merged, &expected, kind);
    }
}

/// Panics at the first row where the merge and the expected order differ, rather than
/// printing thousands of rows.
fn assert_same_order<T: Debug + PartialEq>(merged: &[&T], expected: &[&T], query: &str) {
    if let Some(at) = (0..merged.len().max(expected.len())).find(|&i| merged.get(i) != expected.get(i)) {
        panic!(
            "{query}: the merge gives {} rows, {} expected; first difference at row {at}: {:?} instead of {:?}",
            merged.len(),
            expected.len(),
            merged.get(at),
            expected.get(at)
        );
    }
}
