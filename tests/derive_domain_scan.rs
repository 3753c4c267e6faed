//! `<field>_with_subdomains` on a `reverse_domain` field: exactly the host and its
//! sub-domains, in both formats, against brute force over hosts that sort between them.

use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::testing::assert_scan_exact;

/// Links by the host they point at, then an id.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Link {
    #[rowkey(reverse_domain)]
    host: String,
    id: u32,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "l")]
struct TextLink {
    #[rowkey(reverse_domain)]
    host: String,
    id: u32,
}

/// Hosts built to straddle the edges: the domain, its sub-domains, names that continue it
/// with `-` or a letter, and names of the parent.
fn hosts() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "google.com",
        "maps.google.com",
        "a.b.google.com",
        "google-analytics.com",
        "googleapis.com",
        "google.co",
        "com",
        "x.google-analytics.com",
        "oogle.com",
    ])
    .prop_map(str::to_owned)
}

fn is_under(host: &str, domain: &str) -> bool {
    host == domain || host.ends_with(&format!(".{domain}"))
}

#[test]
fn ordered_hosts_and_subdomains_are_exact() {
    let rows = prop::collection::vec((hosts(), 0u32..3).prop_map(|(host, id)| Link { host, id }), 0..20);
    assert_scan_exact(
        rows,
        hosts(),
        |domain: &String| {
            let ranges = Link::scan().host_with_subdomains(domain).ranges()?;
            assert!(ranges.len() <= 2);
            Ok(ranges)
        },
        |domain, link: &Link| is_under(&link.host, domain),
    );
}

#[test]
fn delimited_hosts_and_subdomains_are_exact() {
    let rows = prop::collection::vec((hosts(), 0u32..3).prop_map(|(host, id)| TextLink { host, id }), 0..20);
    assert_scan_exact(
        rows,
        hosts(),
        |domain: &String| TextLink::scan().host_with_subdomains(domain).ranges(),
        |domain, link: &TextLink| is_under(&link.host, domain),
    );
}
