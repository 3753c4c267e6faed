//! Properties of the key-design transforms.

use proptest::prelude::*;
use rowkey::transform::{
    bit_reverse, bit_reverse_u64, reverse_domain, reverse_timestamp, reverse_url, unreverse_domain,
    unreverse_timestamp, unreverse_url,
};

/// Any `i64`, with the values where bit tricks usually break drawn often.
fn any_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
        1 => Just(0),
        1 => Just(-1),
        1 => Just(1),
        5 => any::<i64>(),
    ]
}

fn timestamp() -> impl Strategy<Value = i64> {
    prop_oneof![Just(0), Just(i64::MAX), 0..=i64::MAX, 0..=i64::MAX]
}

/// A valid host name in lowercase: 1 to 5 labels of `[a-z0-9-]`, 1 to 63 characters each,
/// at most 253 in all, and a top-level label that is not all digits (that would be a
/// malformed IPv4 address, which reverse_domain rejects).
fn host() -> impl Strategy<Value = String> {
    host_of("[a-z0-9-]{1,63}")
}

/// A host with room to add a label or extend one and stay within the DNS limits.
fn short_host() -> impl Strategy<Value = String> {
    host_of("[a-z0-9-]{1,20}")
}

fn host_of(label: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec(label, 1..=5)
        .prop_map(|labels| labels.join("."))
        .prop_filter("longer than 253", |h| h.len() <= 253)
        .prop_filter("all-digit top label", |h| !h.rsplit('.').next().unwrap().bytes().all(|b| b.is_ascii_digit()))
}

/// A host, or an IP address as it appears in a URL.
fn url_host() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => host(),
        1 => any::<std::net::Ipv4Addr>().prop_map(|ip| ip.to_string()),
        1 => any::<std::net::Ipv6Addr>().prop_map(|ip| format!("[{ip}]")),
    ]
}

/// What follows the host: nothing, or a path, query or fragment of any printable text.
fn rest() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "/\\PC*", "\\?\\PC*", "#\\PC*", "/[ -~]*\\?[ -~]*"]
}

fn url_on(host: String) -> impl Strategy<Value = String> {
    let scheme = prop_oneof![Just("http"), Just("https")];
    let port = prop::option::of(any::<u16>());
    (scheme, port, rest()).prop_map(move |(scheme, port, rest)| {
        let port = port.map(|p| format!(":{p}")).unwrap_or_default();
        format!("{scheme}://{host}{port}{rest}")
    })
}

proptest! {
    #[test]
    fn bit_reverse_is_an_involution(x in any_i64(), preserve_sign in any::<bool>()) {
        prop_assert_eq!(bit_reverse(bit_reverse(x, preserve_sign), preserve_sign), x);
    }

    #[test]
    fn preserve_sign_keeps_the_sign(x in any_i64()) {
        prop_assert_eq!(bit_reverse(x, true) < 0, x < 0);
    }

    #[test]
    fn bit_reverse_u64_is_an_involution(x in any::<u64>()) {
        prop_assert_eq!(bit_reverse_u64(bit_reverse_u64(x)), x);
    }

    #[test]
    fn reversed_timestamps_invert(ts in timestamp()) {
        let reversed = reverse_timestamp(ts).unwrap();
        prop_assert!(reversed >= 0);
        prop_assert_eq!(unreverse_timestamp(reversed), Ok(ts));
        prop_assert_eq!(reverse_timestamp(unreverse_timestamp(ts).unwrap()), Ok(ts));
    }

    #[test]
    fn reversal_reverses_order(a in timestamp(), b in timestamp()) {
        let (ra, rb) = (reverse_timestamp(a).unwrap(), reverse_timestamp(b).unwrap());
        // a < b exactly when r(a) > r(b), and equal inputs give equal outputs.
        prop_assert_eq!(a.cmp(&b), rb.cmp(&ra));
    }

    #[test]
    fn negative_timestamps_are_errors(ts in prop_oneof![Just(i64::MIN), Just(-1), i64::MIN..0]) {
        prop_assert!(reverse_timestamp(ts).is_err());
        prop_assert!(unreverse_timestamp(ts).is_err());
    }

    #[test]
    fn domains_round_trip(host in host()) {
        let reversed = reverse_domain(&host).unwrap();
        prop_assert_eq!(reversed.split('.').count(), host.split('.').count());
        prop_assert_eq!(unreverse_domain(&reversed).unwrap(), host.clone());
        prop_assert_eq!(reverse_domain(&unreverse_domain(&reversed).unwrap()).unwrap(), reversed);
        // A fully qualified name is the same host.
        prop_assert_eq!(reverse_domain(&format!("{host}.")), reverse_domain(&host));
    }

    #[test]
    fn uppercase_comes_back_lowercase(host in host(), mask in any::<u64>()) {
        let mixed: String = host
            .chars()
            .enumerate()
            .map(|(i, c)| if mask >> (i % 64) & 1 == 1 { c.to_ascii_uppercase() } else { c })
            .collect();
        let reversed = reverse_domain(&mixed).unwrap();
        prop_assert_eq!(&reversed, &reverse_domain(&host).unwrap());
        prop_assert_eq!(unreverse_domain(&reversed).unwrap(), host);
    }

    #[test]
    fn urls_round_trip(url in url_host().prop_flat_map(url_on)) {
        let key = reverse_url(&url).unwrap();
        prop_assert_eq!(unreverse_url(&key).unwrap(), url);
    }

    #[test]
    fn urls_of_a_host_share_its_prefix(
        (host, urls) in url_host().prop_flat_map(|h| (Just(h.clone()), prop::collection::vec(url_on(h), 1..8)))
    ) {
        let prefix = format!("{}/", reverse_domain(&host).unwrap());
        for url in urls {
            let key = reverse_url(&url).unwrap();
            prop_assert!(key.starts_with(&prefix), "{} does not start with {}", key, prefix);
        }
    }

    /// The claim in reverse_url's docs: `[d., d0)` holds a domain's pages and its sub-domains'
    /// and nothing else, even hosts whose reversed name merely starts with `d`.
    #[test]
    fn a_domain_and_its_subdomains_are_one_range(
        (host, own, sub, sibling) in short_host().prop_flat_map(|h| {
            let sub = ("[a-z0-9-]{1,10}", Just(h.clone()))
                .prop_map(|(label, h)| format!("{label}.{h}"))
                .prop_flat_map(url_on);
            // Extending the first label gives a name that shares the reversed prefix.
            let sibling = ("[a-z0-9_-]{1,3}", Just(h.clone()))
                .prop_map(|(more, h)| match h.split_once('.') {
                    Some((first, tail)) => format!("{first}{more}.{tail}"),
                    None => format!("{h}{more}"),
                })
                .prop_flat_map(url_on);
            (Just(h.clone()), url_on(h), sub, sibling)
        })
    ) {
        let d = reverse_domain(&host).unwrap();
        let (start, end) = (format!("{d}."), format!("{d}0"));
        let inside = |url: &str| {
            let key = reverse_url(url).unwrap();
            start <= key && key < end
        };
        prop_assert!(inside(&own));
        prop_assert!(inside(&sub));
        prop_assert!(!inside(&sibling));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic(
        s in prop_oneof![
            any::<String>(),
            "[a-zA-Z+.-]{0,6}:/{0,3}[a-zA-Z0-9_.:@\\[\\]%-]{0,24}[/?#]?\\PC{0,8}",
            "[a-z0-9.:\\[\\]/-]{0,30}",
            // Near misses of the two layouts, so that some are accepted.
            "[a-zA-Z][a-zA-Z+.-]{0,5}://[a-zA-Z0-9._-]{0,15}(:[0-9]{0,6})?[/?#]?\\PC{0,6}",
            "[a-z0-9._\\[\\]:-]{0,15}/[a-zA-Z0-9+.-]{0,6}(:[0-9]{0,6})?[/?#!]?\\PC{0,6}",
            any::<std::net::Ipv6Addr>().prop_map(|ip| format!("{ip}/http/")),
        ]
    ) {
        // Whatever is accepted is canonical: its inverse succeeds and maps back to it.
        if let Ok(r) = reverse_domain(&s) {
            prop_assert_eq!(reverse_domain(&unreverse_domain(&r).unwrap()).unwrap(), r);
        }
        if let Ok(h) = unreverse_domain(&s) {
            prop_assert_eq!(reverse_domain(&h).unwrap(), s.clone());
        }
        if let Ok(k) = reverse_url(&s) {
            prop_assert_eq!(reverse_url(&unreverse_url(&k).unwrap()).unwrap(), k);
        }
        if let Ok(u) = unreverse_url(&s) {
            prop_assert_eq!(reverse_url(&u).unwrap(), s);
        }
    }
}

#[test]
fn malformed_urls_are_errors() {
    for bad in [
        "",
        "example.com/a",
        "//example.com/a",
        "1http://example.com/",
        "http:/example.com/",
        "mailto:someone@example.com",
        "http://",
        "http:///path",
        "http://:80/",
        "http://example.com:/",
        "http://example.com:65536/",
        "http://example.com:8o/",
        "http://example.com:80:81/",
        "http://user:pw@example.com/",
        "http://a..b/",
        "http://.example.com/",
        "http://exa mple.com/",
        "http://münchen.de/",
        "http://[::1/",
        "http://[::g]/",
        "http://[::1]x/",
        "http://999.1.1.1/",
    ] {
        assert!(reverse_url(bad).is_err(), "{bad:?} was accepted");
    }
    for bad in [
        "",
        "com.example",
        "com.example/",
        "/https",
        "com.example/1http",
        "com.example/HTTPS/",
        "COM.example/https/",
        "com.example/https:/",
        "com.example/https:080/",
        "com.example/https:65536/",
        "com.example/https!/",
        ".com.example/https",
        "com..example/https",
        "::1/http/",
        "[::1/http/",
    ] {
        assert!(unreverse_url(bad).is_err(), "{bad:?} was accepted");
    }
}

#[test]
fn messages_say_what_to_do() {
    let err = reverse_url("https://user@example.com/").unwrap_err().to_string();
    assert!(err.contains("remove it"), "{err}");
    let err = reverse_domain("a..b").unwrap_err().to_string();
    assert!(err.contains("empty label"), "{err}");
    let err = reverse_domain("bücher.de").unwrap_err().to_string();
    assert!(err.contains("xn--"), "{err}");
}

/// Sequential ids 1..=100_000 bit-reversed with the sign kept: the top four value bits (62 to
/// 59) take each of their 16 values about equally often, so writes reach every sixteenth of
/// the key space.
#[test]
fn bit_reversed_ids_spread_evenly() {
    const N: i64 = 100_000;
    let mut buckets = [0i64; 16];
    for id in 1..=N {
        let value = bit_reverse(id, true);
        assert!(value > 0);
        buckets[usize::try_from(value >> 59).unwrap()] += 1;
    }
    // count <= 1.2 * N / 16, in integers.
    for (bucket, &count) in buckets.iter().enumerate() {
        assert!(
            count * 16 * 10 <= N * 12,
            "bucket {bucket} got {count} of {N} ids, over 1.2 times the mean: {buckets:?}"
        );
    }
}
