//! The hotspot simulator: its split model, its numbers on known-good and known-bad key
//! designs, and the heatmap's markup.

mod common;

use common::keys::{EventById, HexReading, Reading};
use rowkey::hotspot::{Heatmap, Report, Simulator, Verdict, Windows, sample_split_points};
use rowkey::salt::{Salt, farm_fingerprint};
use rowkey::{Key, KeyRange, RowKey};

/// 100 devices reporting every 10 seconds for 2 hours: 72,000 writes, in write order, with
/// their time in seconds.
fn workload(key: impl Fn(&str, &str, i64) -> rowkey::Result<Key>) -> Vec<(Key, u64)> {
    let devices: Vec<(&str, String)> = (0..100u32)
        .map(|i| {
            (["phone", "tablet", "watch"][i as usize % 3], format!("{:08x}", farm_fingerprint(&i.to_be_bytes()) as u32))
        })
        .collect();
    let mut writes = Vec::new();
    for second in 0..2 * 3600u64 {
        for (i, (kind, device)) in devices.iter().enumerate() {
            if (second + i as u64).is_multiple_of(10) {
                let millis = 1_588_291_200_000 + 1000 * second as i64;
                writes.push((key(kind, device, millis).unwrap(), second));
            }
        }
    }
    writes
}

fn timestamp_first() -> Vec<(Key, u64)> {
    workload(|kind, device, millis| (millis, kind, device).to_key())
}

fn salted() -> Vec<(Key, u64)> {
    let salt = Salt::farmhash(16).unwrap();
    workload(|kind, device, millis| salt.ordered_key(&(device,), &(kind, device, millis)))
}

/// Reports the writes with tablets that split past 3,000 rows, and with 16 tablets pre-split
/// from a sample of the keys. One-minute windows hold 600 writes, under half a tablet.
fn both_ways(writes: &[(Key, u64)]) -> [(&'static str, Report); 2] {
    let mut dynamic = Simulator::dynamic(3_000).unwrap();
    let sample = writes.iter().map(|(key, _)| key).filter(|key| farm_fingerprint(key) % 8 == 0);
    let mut fixed = Simulator::from_sample(sample, 16);
    for (key, second) in writes {
        dynamic.record_at(key, *second);
        fixed.record_at(key, *second);
    }
    [("dynamic", dynamic.report(Windows::Length(60))), ("fixed", fixed.report(Windows::Length(60)))]
}

#[test]
fn timestamp_first_puts_late_writes_on_one_tablet() {
    for (splits, report) in both_ways(&timestamp_first()) {
        let late = report.hottest_late().unwrap();
        assert!(late.share() > 0.9, "{splits}: {:.3}", late.share());
        // The hot tablet is the last one: new timestamps sort after every split point.
        assert!(late.tablet().end_key_open().is_none(), "{splits}: {}", late.tablet());
        assert!(matches!(report.verdict(0.5), Verdict::Hot { share, .. } if share > 0.9), "{splits}");
    }
}

#[test]
fn salted_keeps_every_tablet_under_twice_the_mean() {
    for (splits, report) in both_ways(&salted()) {
        assert!(report.tablets().len() >= 16, "{splits}: {} tablets", report.tablets().len());
        for window in &report.windows()[report.late_windows()] {
            let mean = window.writes() as f64 / window.tablets().len() as f64;
            for tablet in window.tablets() {
                assert!(
                    (tablet.writes() as f64) < 2.0 * mean,
                    "{splits}: {} took {} of {mean}",
                    tablet.range(),
                    tablet.writes()
                );
            }
        }
        assert!(report.hottest_late().unwrap().skew() < 2.0, "{splits}");
        assert!(matches!(report.verdict(0.5), Verdict::Balanced { share } if share < 0.2), "{splits}");
    }
}

#[test]
fn a_tablet_splits_at_its_median_when_it_exceeds_its_size() {
    let mut sim = Simulator::dynamic(4).unwrap();
    for key in ["c", "a", "e", "b"] {
        sim.record(key);
    }
    assert_eq!(sim.tablet_count(), 1, "four rows do not exceed four");
    sim.record("d");
    assert_eq!(sim.split_points().collect::<Vec<_>>(), ["c"]);
    let rows: Vec<u64> = sim.report(Windows::Count(1)).tablets().iter().map(|t| t.writes()).collect();
    assert_eq!(rows, [2, 3]);

    // Each half splits again only once it exceeds the size itself.
    sim.record("f");
    assert_eq!(sim.tablet_count(), 2);
    sim.record("g");
    assert_eq!(sim.split_points().collect::<Vec<_>>(), ["c", "e"]);
}

#[test]
fn a_split_never_leaves_a_tablet_empty() {
    // The median is the smallest key: the boundary moves up to the next key.
    let mut sim = Simulator::dynamic(3).unwrap();
    for key in ["a", "a", "a", "b"] {
        sim.record(key);
    }
    assert_eq!(sim.split_points().collect::<Vec<_>>(), ["b"]);

    // One row written over and over cannot be split, as in a real store.
    let mut sim = Simulator::dynamic(3).unwrap();
    for _ in 0..100 {
        sim.record("hot-row");
    }
    assert_eq!(sim.tablet_count(), 1);
    let report = sim.report(Windows::Count(10));
    assert!(report.tablets().iter().all(|t| t.writes() > 0));
}

#[test]
fn shares_sum_to_one() {
    for (splits, report) in both_ways(&salted()) {
        let mut total = 0;
        for window in report.windows() {
            let writes: u64 = window.tablets().iter().map(|t| t.writes()).sum();
            assert_eq!(writes, window.writes(), "{splits}");
            let shares: f64 = window.tablets().iter().map(|t| t.share()).sum();
            assert!(window.writes() == 0 || (shares - 1.0).abs() < 1e-9, "{splits}: {shares}");
            total += window.writes();
        }
        assert_eq!(total, report.writes(), "{splits}");
        let overall: f64 = report.tablets().iter().map(|t| t.share()).sum();
        assert!((overall - 1.0).abs() < 1e-9, "{splits}");
    }
}

#[test]
fn keys_land_in_the_right_tablet() {
    let sim = Simulator::fixed(["g", "p"]);
    for (key, tablet) in [("", "(-∞, g)"), ("a", "(-∞, g)"), ("g", "[g, p)"), ("o\u{7f}", "[g, p)"), ("p", "[p, +∞)")]
    {
        assert_eq!(sim.tablet_of(key.as_bytes()).to_string(), tablet, "{key:?}");
    }

    // After dynamic splits, every tablet's count is exactly the keys its range contains.
    let writes = salted();
    let mut sim = Simulator::dynamic(2_000).unwrap();
    for (key, _) in writes.iter().take(20_000) {
        sim.record(key);
    }
    let report = sim.report(Windows::Count(4));
    let tablets: Vec<&KeyRange> = report.tablets().iter().map(|t| t.range()).collect();
    assert_eq!(tablets, sim.tablets().iter().collect::<Vec<_>>());
    for tablet in report.tablets() {
        let inside = writes.iter().take(20_000).filter(|(key, _)| tablet.range().contains(key)).count();
        assert_eq!(tablet.writes(), inside as u64, "{}", tablet.range());
        assert!(inside > 0);
    }
}

#[test]
fn sample_splits_make_equal_count_tablets() {
    let sample: Vec<Key> =
        (0..1_000u32).map(|i| Key::from(farm_fingerprint(&i.to_be_bytes()).to_be_bytes().to_vec())).collect();
    assert_eq!(sample_split_points(&sample, 10).len(), 9);
    let mut sim = Simulator::from_sample(&sample, 10);
    for key in &sample {
        sim.record(key);
    }
    let rows: Vec<u64> = sim.report(Windows::Count(1)).tablets().iter().map(|t| t.writes()).collect();
    assert_eq!(rows, [100; 10]);
}

#[test]
fn windows_cover_the_run() {
    let mut sim = Simulator::fixed(["m"]);
    for (key, time) in [("a", 100), ("b", 105), ("z", 150), ("y", 140), ("c", 299)] {
        sim.record_at(key, time);
    }
    let report = sim.report(Windows::Length(50));
    let spans: Vec<(u64, u64, u64)> = report.windows().iter().map(|w| (w.start(), w.end(), w.writes())).collect();
    // The late write at 140 counts as 150: writes arrive in order.
    assert_eq!(spans, [(100, 150, 2), (150, 200, 2), (200, 250, 0), (250, 300, 1)]);
    assert_eq!(report.windows()[2].hottest(), None);
    assert_eq!(report.windows()[2].skew(), None);
    assert_eq!(report.late_windows(), 3..4);
    assert_eq!(sim.report(Windows::Count(2)).windows().len(), 2);
}

#[test]
fn an_empty_run_reports_nothing() {
    let report = Simulator::dynamic(10).unwrap().report(Windows::Count(10));
    assert!(report.windows().is_empty() && report.tablets().is_empty());
    assert_eq!(report.hottest(), None);
    assert_eq!(report.verdict(0.5), Verdict::Balanced { share: 0.0 });
    assert_well_formed(&report.to_svg());
}

#[test]
fn heatmap_is_well_formed_xml() {
    // Keys and a title full of markup characters, control bytes and non-ASCII bytes.
    let mut sim = Simulator::dynamic(50).unwrap();
    for i in 0..2_000u32 {
        let key = ("<a&b>\"'", i % 7, "\u{0}\u{ff}]]>", i).to_key().unwrap();
        sim.record(&key);
    }
    let report = sim.report(Windows::Count(10));
    let svg = rowkey::hotspot::Heatmap::new(&report).title("<&> \"quoted\" 'key' \u{1}").size(700, 300).to_svg();
    assert_well_formed(&svg);
    assert!(svg.contains("&lt;a&amp;b&gt;"), "key labels are escaped");

    for (_, report) in both_ways(&timestamp_first()) {
        assert_well_formed(&report.to_svg());
    }
}

/// A minimal XML check, enough to catch what breaks a browser: every tag closed in order, one
/// root, attributes quoted, and no raw `<` or stray `&` in text or attribute values.
fn assert_well_formed(doc: &str) {
    if let Err(e) = check_xml(doc) {
        panic!("not well-formed: {e}");
    }
}

fn check_xml(doc: &str) -> Result<(), String> {
    let mut rest = doc.strip_prefix(r#"<?xml version="1.0" encoding="UTF-8"?>"#).ok_or("no XML declaration")?;
    let mut open: Vec<&str> = Vec::new();
    let mut roots = 0;
    while let Some(lt) = rest.find('<') {
        check_text(&rest[..lt])?;
        let tag = &rest[lt + 1..];
        let end = tag_end(tag).ok_or_else(|| format!("unterminated tag at {:.40}", tag))?;
        let (body, after) = (&tag[..end], &tag[end + 1..]);
        rest = after;
        if let Some(name) = body.strip_prefix('/') {
            match open.pop() {
                Some(expected) if expected == name => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let (body, closes) = match body.strip_suffix('/') {
            Some(body) => (body, true),
            None => (body, false),
        };
        let name = body.split_whitespace().next().ok_or("empty tag")?;
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':') {
            return Err(format!("bad element name {name:?}"));
        }
        check_attributes(&body[name.len()..])?;
        if open.is_empty() {
            roots += 1;
        }
        if !closes {
            open.push(name);
        }
    }
    check_text(rest)?;
    match (roots, open.as_slice()) {
        (1, []) => Ok(()),
        (roots, open) => Err(format!("{roots} root elements, {open:?} left open")),
    }
}

/// Where a tag ends: the first `>` outside a quoted attribute value.
fn tag_end(tag: &str) -> Option<usize> {
    let mut quoted = false;
    tag.char_indices().find_map(|(i, c)| {
        if c == '"' {
            quoted = !quoted;
        }
        (c == '>' && !quoted).then_some(i)
    })
}

fn check_attributes(mut attrs: &str) -> Result<(), String> {
    loop {
        attrs = attrs.trim_start();
        if attrs.is_empty() {
            return Ok(());
        }
        let eq = attrs.find("=\"").ok_or_else(|| format!("unquoted attribute in {attrs:.40}"))?;
        let name = &attrs[..eq];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':') {
            return Err(format!("bad attribute name {name:?}"));
        }
        let value = &attrs[eq + 2..];
        let close = value.find('"').ok_or("unterminated attribute value")?;
        check_text(&value[..close])?;
        attrs = &value[close + 1..];
    }
}

fn check_text(text: &str) -> Result<(), String> {
    if text.contains('<') {
        return Err(format!("raw < in {text:.40}"));
    }
    if text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) {
        return Err(format!("control character in {text:?}"));
    }
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..];
        let known = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].iter().any(|e| entity.starts_with(e));
        if !known {
            return Err(format!("stray & in {entity:.40}"));
        }
    }
    Ok(())
}

/// A table created with the salt's bucket boundaries as initial splits (`rowkey::splits`)
/// spreads the first minutes' writes over its 16 tablets; the same table created unsplit takes
/// them all on its one tablet until it has grown enough to split.
#[test]
fn a_pre_split_salted_table_spreads_writes_from_the_first_window() {
    let writes = workload(|kind, device, millis| {
        Reading { device_type: kind.into(), device_id: device.into(), ts_millis: millis }.to_key()
    });
    let splits = Reading::SCHEMA.split_planner().plan().unwrap();
    assert_eq!(splits.len(), 15);
    let mut unsplit = Simulator::dynamic(5_000).unwrap();
    let mut presplit = Simulator::dynamic_with_splits(5_000, splits.points()).unwrap();
    assert_eq!(presplit.tablet_count(), 16);
    for (key, second) in &writes {
        unsplit.record_at(key, *second);
        presplit.record_at(key, *second);
    }
    // Two-minute windows: 1,200 writes, well under a tablet's 5,000 rows.
    let (unsplit, presplit) = (unsplit.report(Windows::Length(120)), presplit.report(Windows::Length(120)));
    let busy = |report: &Report| report.windows()[0].tablets().iter().filter(|t| t.writes() > 0).count();
    let first_share = |report: &Report| report.windows()[0].hottest().unwrap().share();
    assert_eq!(busy(&unsplit), 1);
    assert_eq!(first_share(&unsplit), 1.0);
    assert_eq!(busy(&presplit), 16);
    assert!(first_share(&presplit) < 0.15, "{}", first_share(&presplit));
    // Later both have split by size, and the salt keeps them balanced.
    assert!(matches!(unsplit.verdict(0.5), Verdict::Balanced { .. }), "{}", unsplit.verdict(0.5));

    // With the schema, the key axis names fields, and a bucket boundary (`02#`) its bucket.
    let svg = Heatmap::new(&presplit).schema(&Reading::SCHEMA).to_svg();
    assert!(svg.contains(">bucket=") && svg.contains(" device_type="), "no field labels");
    assert!(svg.contains(">bucket=2</text>"), "no bucket label");
    assert!(!svg.contains(">02#</text>"));
    let plain = Heatmap::new(&presplit).to_svg();
    assert!(!plain.contains(">bucket="));
}

/// The labels of a heatmap's key axis, from its markup.
fn axis_labels(svg: &str) -> Vec<&str> {
    svg.lines()
        .filter(|line| line.starts_with(r#"<text x="242""#))
        .filter_map(|line| line.split_once('>').and_then(|(_, rest)| rest.strip_suffix("</text>")))
        .collect()
}

/// Points inside buckets (`per_bucket`) are labelled by the bucket and the leading digits of
/// the field they split along, in both formats, as bucket boundaries are by their bucket.
#[test]
fn split_points_inside_buckets_are_labelled_by_field() {
    fn labels(splits: &rowkey::splits::Splits, keys: &[Key], schema: &rowkey::schema::Schema) -> Vec<String> {
        // A threshold no tablet reaches: the tablets are the planned ones to the end.
        let mut sim = Simulator::dynamic_with_splits(1_000_000, splits.points()).unwrap();
        for (second, key) in keys.iter().enumerate() {
            sim.record_at(key, second as u64);
        }
        let svg = Heatmap::new(&sim.report(Windows::Count(4))).schema(schema).size(900, 1400).to_svg();
        axis_labels(&svg).into_iter().map(str::to_owned).collect()
    }
    let hex = HexReading::SCHEMA.split_planner().per_bucket(3).plan().unwrap();
    let keys: Vec<Key> = (0..2_000u32)
        .map(|i| HexReading { device_id: i.wrapping_mul(2_654_435_761), ts_millis: 0 }.to_key().unwrap())
        .collect();
    let shown = labels(&hex, &keys, &HexReading::SCHEMA);
    assert!(shown.len() >= 8, "{shown:?}");
    // 4, 8 and c: the quarters of the id's first hex digit.
    let inner = |l: &&String| l.contains(" device_id≥");
    assert!(shown.iter().filter(inner).all(|l| ["≥4…", "≥8…", "≥c…"].iter().any(|d| l.ends_with(d))), "{shown:?}");
    assert!(shown.iter().any(|l| l.starts_with("bucket=") && inner(&l)), "{shown:?}");
    assert!(shown.iter().all(|l| !l.contains('#')), "escaped bytes in {shown:?}");

    let events = EventById::SCHEMA.split_planner().per_bucket(3).plan().unwrap();
    let keys: Vec<Key> = (0..2_000i64)
        .map(|seq| EventById { id: (seq as u32).wrapping_mul(2_654_435_761).to_be_bytes(), seq }.to_key().unwrap())
        .collect();
    let shown = labels(&events, &keys, &EventById::SCHEMA);
    // Descending bytes: the points are the ids at or below c0, 80 and 40, as hex pairs.
    let inner: Vec<&String> = shown.iter().filter(|l| l.contains(" id≤")).collect();
    assert!(!inner.is_empty(), "{shown:?}");
    assert!(inner.iter().all(|l| ["≤c0…", "≤80…", "≤40…"].iter().any(|d| l.ends_with(d))), "{shown:?}");
}
