//! `Schema::scan_ranges`: the ranges of a query given as text, from the schema alone, are the
//! derived scan builder's (`T::scan()...ranges()`) for every scenario key, over generated
//! values: fixed leading fields, a range on the next one (each kind of bound), salt buckets
//! computed or fanned out; and `Schema::empty_scan` names the range's field exactly when they
//! hold no key.

mod common;

use std::ops::Bound;

use common::keys::*;
use common::schema_checks::{bounds, check, texts};
use common::strategies;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn reading(a in strategies::reading(), b in strategies::reading(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &Reading::SCHEMA;
        check(s, &ta, &[], None, Reading::scan().ranges())?;
        // The bucket's source is not fixed: one range per bucket.
        check(s, &ta, &["device_type"], None, Reading::scan().device_type(&a.device_type).ranges())?;
        let (lo, hi) = bounds(kind, a.device_type.as_str(), b.device_type.as_str());
        check(s, &ta, &[], Some(("device_type", &tb, kind)), Reading::scan().device_type_range((lo, hi)).ranges())?;
        let fixed = Reading::scan().device_type(&a.device_type).device_id(&a.device_id);
        check(s, &ta, &["device_type", "device_id"], None, fixed.ranges())?;
        let (lo, hi) = bounds(kind, a.ts_millis, b.ts_millis);
        let fixed = Reading::scan().device_type(&a.device_type).device_id(&a.device_id);
        check(s, &ta, &["device_type", "device_id"], Some(("ts_millis", &tb, kind)), fixed.ts_millis_range((lo, hi)).ranges())?;
        let all = Reading::scan().device_type(&a.device_type).device_id(&a.device_id).ts_millis(a.ts_millis);
        check(s, &ta, &["device_id", "ts_millis", "device_type"], None, all.ranges())?;
    }

    #[test]
    fn ordered_reading(a in strategies::ordered_reading(), b in strategies::ordered_reading(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &OrderedReading::SCHEMA;
        check(s, &ta, &["device_type"], None, OrderedReading::scan().device_type(&a.device_type).ranges())?;
        let fixed = OrderedReading::scan().device_type(&a.device_type);
        let (lo, hi) = bounds(kind, a.device_id.as_str(), b.device_id.as_str());
        check(s, &ta, &["device_type"], Some(("device_id", &tb, kind)), fixed.device_id_range((lo, hi)).ranges())?;
        let fixed = OrderedReading::scan().device_type(&a.device_type).device_id(&a.device_id);
        let (lo, hi) = bounds(kind, a.ts_millis, b.ts_millis);
        check(s, &ta, &["device_type", "device_id"], Some(("ts_millis", &tb, kind)), fixed.ts_millis_range((lo, hi)).ranges())?;
    }

    #[test]
    fn device_reading(a in strategies::device_reading(), b in strategies::device_reading(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &DeviceReading::SCHEMA;
        let (lo, hi) = bounds(kind, a.device_id.as_str(), b.device_id.as_str());
        let fixed = DeviceReading::scan().device_type(&a.device_type);
        check(s, &ta, &["device_type"], Some(("device_id", &tb, kind)), fixed.device_id_range((lo, hi)).ranges())?;
        let (lo, hi) = bounds(kind, a.ts_millis, b.ts_millis);
        let fixed = DeviceReading::scan().device_type(&a.device_type).device_id(&a.device_id);
        check(s, &ta, &["device_type", "device_id"], Some(("ts_millis", &tb, kind)), fixed.ts_millis_range((lo, hi)).ranges())?;
    }

    #[test]
    fn tenant_reading(a in strategies::tenant_reading(), b in strategies::tenant_reading(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &TenantReading::SCHEMA;
        let (lo, hi) = bounds(kind, a.device_id, b.device_id);
        let fixed = TenantReading::scan().tenant(&a.tenant).device_type(&a.device_type);
        check(s, &ta, &["tenant", "device_type"], Some(("device_id", &tb, kind)), fixed.device_id_range((lo, hi)).ranges())?;
        let (lo, hi) = bounds(kind, a.date, b.date);
        let fixed = TenantReading::scan().tenant(&a.tenant).device_type(&a.device_type).device_id(a.device_id);
        check(s, &ta, &["tenant", "device_type", "device_id"], Some(("date", &tb, kind)), fixed.date_range((lo, hi)).ranges())?;
    }

    #[test]
    fn web_page(a in strategies::web_page(), b in strategies::web_page(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &WebPage::SCHEMA;
        check(s, &ta, &["host"], None, WebPage::scan().host(&a.host).ranges())?;
        let (lo, hi) = bounds(kind, a.path.as_str(), b.path.as_str());
        check(s, &ta, &["host"], Some(("path", &tb, kind)), WebPage::scan().host(&a.host).path_range((lo, hi)).ranges())?;
        let (lo, hi) = bounds(kind, a.crawled, b.crawled);
        let fixed = WebPage::scan().host(&a.host).path(&a.path);
        check(s, &ta, &["host", "path"], Some(("crawled", &tb, kind)), fixed.crawled_range((lo, hi)).ranges())?;
    }

    #[test]
    fn web_page_micros(a in strategies::web_page_micros(), b in strategies::web_page_micros(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let (lo, hi) = bounds(kind, a.crawled_micros, b.crawled_micros);
        let fixed = WebPageMicros::scan().host(&a.host).path(&a.path);
        check(&WebPageMicros::SCHEMA, &ta, &["host", "path"], Some(("crawled_micros", &tb, kind)), fixed.crawled_micros_range((lo, hi)).ranges())?;
    }

    #[test]
    fn monitor(a in strategies::monitor(), b in strategies::monitor(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &Monitor::SCHEMA;
        // A range on the salt's source: every bucket.
        let (lo, hi) = bounds(kind, a.time, b.time);
        check(s, &ta, &[], Some(("time", &tb, kind)), Monitor::scan().time_range((lo, hi)).ranges())?;
        let (lo, hi) = bounds(kind, a.host.as_str(), b.host.as_str());
        check(s, &ta, &["time"], Some(("host", &tb, kind)), Monitor::scan().time(a.time).host_range((lo, hi)).ranges())?;
    }

    #[test]
    fn hex_reading(a in strategies::hex_reading(), b in strategies::hex_reading(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let (lo, hi) = bounds(kind, a.device_id, b.device_id);
        check(&HexReading::SCHEMA, &ta, &[], Some(("device_id", &tb, kind)), HexReading::scan().device_id_range((lo, hi)).ranges())?;
        let (lo, hi) = bounds(kind, a.ts_millis, b.ts_millis);
        let fixed = HexReading::scan().device_id(a.device_id);
        check(&HexReading::SCHEMA, &ta, &["device_id"], Some(("ts_millis", &tb, kind)), fixed.ts_millis_range((lo, hi)).ranges())?;
    }

    #[test]
    fn event_by_id(a in strategies::event_by_id(), b in strategies::event_by_id(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &EventById::SCHEMA;
        let (lo, hi) = bounds(kind, a.id, b.id);
        check(s, &ta, &[], Some(("id", &tb, kind)), EventById::scan().id_range((lo, hi)).ranges())?;
        check(s, &ta, &["id"], None, EventById::scan().id(a.id).ranges())?;
        check(s, &ta, &["id", "seq"], None, EventById::scan().id(a.id).seq(a.seq).ranges())?;
        let (lo, hi) = bounds(kind, a.seq, b.seq);
        check(s, &ta, &["id"], Some(("seq", &tb, kind)), EventById::scan().id(a.id).seq_range((lo, hi)).ranges())?;
    }

    #[test]
    fn every_field(a in strategies::every_field(), b in strategies::every_field(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        let s = &EveryField::SCHEMA;
        check(s, &ta, &["name"], None, EveryField::scan().name(&a.name).ranges())?;
        let (lo, hi) = bounds(kind, a.letter, b.letter);
        check(s, &ta, &["name"], Some(("letter", &tb, kind)), EveryField::scan().name(&a.name).letter_range((lo, hi)).ranges())?;
        let fixed = EveryField::scan().name(&a.name).letter(a.letter).maybe_letter(a.maybe_letter);
        let (lo, hi) = bounds(kind, a.level, b.level);
        check(s, &ta, &["name", "letter", "maybe_letter"], Some(("level", &tb, kind)), fixed.level_range((lo, hi)).ranges())?;
    }
}

#[test]
fn bad_queries_are_refused_with_the_reason() {
    let s = &Reading::SCHEMA;
    let err = |fixed: &[(&str, &str)], range| s.scan_ranges(fixed, range).unwrap_err().to_string();
    assert!(err(&[("device_id", "x")], None).contains("`device_type` before it"));
    assert!(err(&[("colour", "x")], None).contains("no field `colour`"));
    assert!(err(&[("bucket", "3")], None).contains("leave it out"));
    assert!(err(&[], Some(("ts_millis", Bound::Unbounded, Bound::Unbounded))).contains("here `device_type`"));
    let soon = err(
        &[("device_type", "a"), ("device_id", "b")],
        Some(("ts_millis", Bound::Included("soon"), Bound::Unbounded)),
    );
    assert!(soon.contains("`ts_millis`"), "{soon}");
    let host = WebPage::SCHEMA.scan_ranges(&[], Some(("host", Bound::Unbounded, Bound::Unbounded))).unwrap_err();
    assert!(host.to_string().contains("fix it instead"), "{host}");
}
