//! The derived scan builders and `OrderedScan` against brute force: rows and a query built
//! with `arbitrary`; a row's key is in the query's ranges exactly when its value matches.

use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use arbitrary::Unstructured;
use rowkey::scan::OrderedScan;
use rowkey::{Desc, KeyRanges, RowKey, RowKeyOwned};

use crate::keys::{Monitor, Reading, WebPage};

/// A tenant's events, newest first, with an optional kind.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "t")]
pub struct Event {
    pub tenant: String,
    #[rowkey(desc)]
    pub at: i64,
    pub kind: Option<String>,
}

/// Text from a tiny alphabet, so that equal values and prefixes are common: `00` and `ff`
/// for the ordered format's escapes.
fn tight(u: &mut Unstructured<'_>, alphabet: &[char]) -> arbitrary::Result<String> {
    let len = u.int_in_range(0..=3)?;
    (0..len).map(|_| u.choose(alphabet).copied()).collect()
}

const ORDERED: &[char] = &['\0', 'a', 'b', '\u{ff}'];
/// Above the delimiter `#`, with `$` just above it.
const TEXT: &[char] = &['$', 'a', 'b', '~'];

fn bound<T>(u: &mut Unstructured<'_>, value: T) -> arbitrary::Result<Bound<T>> {
    Ok(match u.int_in_range(0..=2)? {
        0 => Bound::Unbounded,
        1 => Bound::Included(value),
        _ => Bound::Excluded(value),
    })
}

/// Every row's key is in `ranges` exactly when `matches` says its value is.
fn check<T: RowKeyOwned + Debug>(rows: &[T], ranges: &KeyRanges, matches: impl Fn(&T) -> bool, query: &dyn Debug) {
    for row in rows {
        let Ok(key) = row.to_key() else { continue };
        assert_eq!(ranges.contains(&key), matches(row), "{row:?} ({key}) against {query:?}: ranges {ranges}");
    }
}

fn rows<T>(
    u: &mut Unstructured<'_>,
    row: impl Fn(&mut Unstructured<'_>) -> arbitrary::Result<T>,
) -> arbitrary::Result<Vec<T>> {
    let len = u.int_in_range(1..=40)?;
    (0..len).map(|_| row(u)).collect()
}

/// Runs one query over generated rows, chosen by the input.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = match u.int_in_range(0u8..=4) {
        Ok(0) => events(&mut u),
        Ok(1) => readings(&mut u),
        Ok(2) => monitors(&mut u),
        Ok(3) => pages(&mut u),
        Ok(_) => tuples(&mut u),
        Err(e) => Err(e),
    };
}

fn events(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let event = |u: &mut Unstructured<'_>| -> arbitrary::Result<Event> {
        let kind = if u.arbitrary()? { Some(tight(u, ORDERED)?) } else { None };
        Ok(Event { tenant: tight(u, ORDERED)?, at: u.int_in_range(-2..=2)?, kind })
    };
    let rows = rows(u, event)?;
    let probe = event(u)?;
    let other = event(u)?;
    let (tenant, at, kind) = (probe.tenant.as_str(), probe.at, probe.kind.clone());
    match u.int_in_range(0..=4)? {
        0 => check(&rows, &Event::scan().tenant(tenant).ranges().unwrap(), |r| r.tenant == tenant, &probe),
        1 => {
            let range = (bound(u, at)?, bound(u, other.at)?);
            let ranges = Event::scan().tenant(tenant).at_range(range).ranges().unwrap();
            check(&rows, &ranges, |r| r.tenant == tenant && range.contains(&r.at), &(&probe, range));
        }
        2 => {
            let ranges = Event::scan().tenant_starts_with(tenant).ranges().unwrap();
            check(&rows, &ranges, |r| r.tenant.starts_with(tenant), &probe);
        }
        3 => {
            let ranges = Event::scan().tenant(tenant).at(at).kind(kind.clone()).ranges().unwrap();
            check(&rows, &ranges, |r| r.tenant == tenant && r.at == at && r.kind == kind, &probe);
        }
        _ => {
            let range = (bound(u, kind.clone())?, bound(u, other.kind.clone())?);
            let ranges = Event::scan().tenant(tenant).at(at).kind_range(range.clone()).ranges().unwrap();
            check(&rows, &ranges, |r| r.tenant == tenant && r.at == at && range.contains(&r.kind), &(&probe, &range));
        }
    }
    Ok(())
}

fn readings(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let reading = |u: &mut Unstructured<'_>| -> arbitrary::Result<Reading> {
        Ok(Reading { device_type: tight(u, TEXT)?, device_id: tight(u, TEXT)?, ts_millis: u.int_in_range(0..=4)? })
    };
    let rows = rows(u, reading)?;
    let probe = reading(u)?;
    let (kind, id) = (probe.device_type.as_str(), probe.device_id.as_str());
    match u.int_in_range(0..=2)? {
        0 => {
            let end = u.int_in_range(0..=4)?;
            let range = (bound(u, probe.ts_millis)?, bound(u, end)?);
            let ranges = Reading::scan().device_type(kind).device_id(id).ts_millis_range(range).ranges().unwrap();
            let matches = |r: &Reading| r.device_type == kind && r.device_id == id && range.contains(&r.ts_millis);
            check(&rows, &ranges, matches, &(&probe, range));
        }
        1 => check(&rows, &Reading::scan().device_type(kind).ranges().unwrap(), |r| r.device_type == kind, &probe),
        _ => {
            let ranges = Reading::scan().device_type_starts_with(kind).ranges().unwrap();
            check(&rows, &ranges, |r| r.device_type.starts_with(kind), &probe);
        }
    }
    Ok(())
}

fn monitors(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let monitor = |u: &mut Unstructured<'_>| -> arbitrary::Result<Monitor> {
        Ok(Monitor { time: u.int_in_range(-20..=20)?, host: tight(u, ORDERED)?, metric: tight(u, ORDERED)? })
    };
    let rows = rows(u, monitor)?;
    let probe = monitor(u)?;
    if u.arbitrary()? {
        let host = probe.host.as_str();
        let ranges = Monitor::scan().time(probe.time).host_starts_with(host).ranges().unwrap();
        check(&rows, &ranges, |r| r.time == probe.time && r.host.starts_with(host), &probe);
    } else {
        let end = u.int_in_range(-20..=20)?;
        let range = (bound(u, probe.time)?, bound(u, end)?);
        let ranges = Monitor::scan().time_range(range).ranges().unwrap();
        check(&rows, &ranges, |r| range.contains(&r.time), &range);
    }
    Ok(())
}

fn pages(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let host = |u: &mut Unstructured<'_>| -> arbitrary::Result<String> {
        let labels = u.int_in_range(1..=3)?;
        let labels: Vec<&str> =
            (0..labels).map(|_| u.choose(&["a", "b", "com", "a-b"]).copied()).collect::<Result<_, _>>()?;
        Ok(labels.join("."))
    };
    let page = |u: &mut Unstructured<'_>| -> arbitrary::Result<WebPage> {
        let crawled = std::time::UNIX_EPOCH + std::time::Duration::from_secs(u.int_in_range(0..=3)?);
        Ok(WebPage { host: host(u)?, path: tight(u, ORDERED)?, crawled })
    };
    let rows = rows(u, page)?;
    let probe = host(u)?;
    let ranges = WebPage::scan().host_with_subdomains(&probe).ranges().unwrap();
    let matches = |r: &WebPage| r.host == probe || r.host.ends_with(&format!(".{probe}"));
    check(&rows, &ranges, matches, &probe);
    Ok(())
}

type Row = (String, i64, Desc<String>, Option<Vec<u8>>);

/// `OrderedScan` on a tuple key: fixed leading fields, then a range or a prefix.
fn tuples(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let row = |u: &mut Unstructured<'_>| -> arbitrary::Result<Row> {
        let bytes = if u.arbitrary()? { Some(tight(u, &['\0', '\u{1}', 'a'])?.into_bytes()) } else { None };
        Ok((tight(u, ORDERED)?, u.int_in_range(-2..=2)?, Desc(tight(u, ORDERED)?), bytes))
    };
    let rows = rows(u, row)?;
    let (p, o) = (row(u)?, row(u)?);
    let fixed = u.int_in_range(0..=3)?;
    let mut scan = OrderedScan::for_key::<Row>();
    if fixed > 0 {
        scan.fix(p.0.as_str()).unwrap();
    }
    if fixed > 1 {
        scan.fix(&p.1).unwrap();
    }
    if fixed > 2 {
        scan.fix(&p.2).unwrap();
    }
    let same = |r: &Row| [r.0 == p.0, r.1 == p.1, r.2 == p.2][..fixed].iter().all(|&s| s);
    let starts_with: bool = u.arbitrary()?;
    match fixed {
        0 if starts_with => check(&rows, &scan.starts_with(o.0.as_str()).unwrap(), |r| r.0.starts_with(&o.0), &o),
        0 => {
            let range = (bound(u, p.0.clone())?, bound(u, o.0.clone())?);
            let ranges = scan.range(range.0.as_ref(), range.1.as_ref()).unwrap();
            check(&rows, &ranges, |r| range.contains(&r.0), &range);
        }
        1 => {
            let range = (bound(u, p.1)?, bound(u, o.1)?);
            let ranges = scan.range(range.0.as_ref(), range.1.as_ref()).unwrap();
            check(&rows, &ranges, |r| same(r) && range.contains(&r.1), &(&p, range));
        }
        2 if starts_with => {
            let ranges = scan.starts_with(&Desc(o.2.0.as_str())).unwrap();
            check(&rows, &ranges, |r| same(r) && r.2.0.starts_with(&o.2.0), &(&p, &o));
        }
        2 => {
            let range = (bound(u, p.2.clone())?, bound(u, o.2.clone())?);
            let ranges = scan.range(range.0.as_ref(), range.1.as_ref()).unwrap();
            check(&rows, &ranges, |r| same(r) && range.contains(&r.2), &(&p, &range));
        }
        _ => {
            let range = (bound(u, p.3.clone())?, bound(u, o.3.clone())?);
            let ranges = scan.range(range.0.as_ref(), range.1.as_ref()).unwrap();
            check(&rows, &ranges, |r| same(r) && range.contains(&r.3), &(&p, &range));
        }
    }
    Ok(())
}
