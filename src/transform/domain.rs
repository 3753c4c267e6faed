//! Reversed domain names and URLs: one site's rows next to each other.
//!
//! Both directions share one validator (`flip`), so whatever [`reverse_domain`] writes,
//! [`unreverse_domain`] accepts, and nothing else; the URL functions build on them.

use std::net::{Ipv4Addr, Ipv6Addr};

use crate::{Error, Result};

/// DNS limits (RFC 1035): 63 bytes a label, 253 for the name without its trailing dot.
const MAX_LABEL: usize = 63;
const MAX_NAME: usize = 253;

/// Reverses the labels of a host name: `maps.google.com` → `com.google.maps`.
///
/// Keys that start with a host scatter one site over the whole table: `maps.google.com` and
/// `www.google.com` sort far apart, next to unrelated sites. Reversed, the names sort by
/// top-level domain, then domain, then sub-domain, as in Bigtable's webtable
/// (`com.google.maps/index.html`). A domain and its sub-domains are then two key ranges, not
/// one: the domain itself, and every name that starts with it and a dot. Between them sort
/// the names that continue it with a byte below `.`, such as `com.google-analytics` (`-` is
/// below `.`); [`reverse_url`] keys avoid this by putting `/` after the host.
///
/// - The result is lowercase, since host names are case-insensitive.
/// - One trailing dot (a fully qualified `example.com.`) is dropped: it names the same host,
///   and should get the same key. Two trailing dots, a leading dot or `a..b` are an error.
/// - Labels hold ASCII letters, digits, `-` and `_` (found in real DNS names), 1 to 63 of
///   them, and the name at most 253 bytes.
/// - An IPv4 address is returned unchanged and an IPv6 address (bare, or in brackets as in a
///   URL) lowercased: an address has no domain hierarchy, so there is nothing to reverse.
///
/// # Errors
///
/// [`Error::InvalidArgument`] for an empty name, an empty or too long label, a character a
/// host name cannot hold (an internationalized name must be converted to its `xn--` form
/// first), a port (use [`reverse_url`]), or a name that ends in an all-digit label but is not
/// an IPv4 address.
///
/// # Examples
///
/// ```
/// use rowkey::transform::reverse_domain;
///
/// assert_eq!(reverse_domain("maps.google.com")?, "com.google.maps");
/// assert_eq!(reverse_domain("WWW.Example.CO.UK.")?, "uk.co.example.www");
/// assert_eq!(reverse_domain("localhost")?, "localhost");
/// assert_eq!(reverse_domain("192.168.0.1")?, "192.168.0.1");
/// assert_eq!(reverse_domain("[2001:DB8::1]")?, "[2001:db8::1]");
/// assert!(reverse_domain("a..b").is_err());
/// assert!(reverse_domain("example.com:8080").is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn reverse_domain(host: &str) -> Result<String> {
    flip(host, Side::Host)
}

/// Undoes [`reverse_domain`]: `com.google.maps` → `maps.google.com`.
///
/// It accepts exactly what [`reverse_domain`] writes, so
/// `reverse_domain(&unreverse_domain(r)?)? == r` whenever it succeeds. IP addresses come back
/// unchanged.
///
/// # Errors
///
/// [`Error::InvalidArgument`] for what [`reverse_domain`] rejects, and also for uppercase
/// letters or a leading dot, which it never writes: a key holding them was written by other
/// code, and a scan for the lowercase prefix would miss it.
///
/// # Examples
///
/// ```
/// use rowkey::transform::unreverse_domain;
///
/// assert_eq!(unreverse_domain("com.google.maps")?, "maps.google.com");
/// assert_eq!(unreverse_domain("10.0.0.1")?, "10.0.0.1");
/// assert!(unreverse_domain("com.Example").is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn unreverse_domain(reversed: &str) -> Result<String> {
    flip(reversed, Side::Reversed)
}

/// Reverses the host of a URL and moves the scheme and port behind it, so that all pages of
/// a site share a key prefix: `https://www.example.com:8080/a?b` becomes
/// `com.example.www/https:8080/a?b`.
///
/// The layout is `host/scheme[:port]rest`:
///
/// | URL | key |
/// |---|---|
/// | `https://www.example.com:8080/a?b` | `com.example.www/https:8080/a?b` |
/// | `http://maps.google.com/index.html` | `com.google.maps/http/index.html` |
/// | `https://example.com` | `com.example/https` |
/// | `http://[2001:db8::1]/x` | `[2001:db8::1]/http/x` |
///
/// - The host is reversed and lowercased by [`reverse_domain`] (so a trailing dot is
///   dropped), and comes first: every URL of a host starts with `reverse_domain(host)`
///   followed by `/`.
/// - The scheme is lowercased, and the port, when the URL has one, follows it as a number
///   without leading zeros.
/// - `rest` is the path, query and fragment exactly as given: everything from the first `/`,
///   `?` or `#` after the host, so their case and percent-escapes survive.
///
/// Why `/` after the host, where Apache Nutch writes `com.example.www:https:8080/...`: `/` is
/// the byte right after `.`, so for a reversed domain `d` the keys continuing with `.` (its
/// sub-domains) are directly followed by those continuing with `/` (its own pages), and no
/// other host sorts between them. A domain with all its sub-domains is the one range from
/// `d.` (inclusive) to `d0` (exclusive), its own pages are the prefix `d/`. After a `:`,
/// `example0.com` to `example9.com` would sort between `www.example.com` and `example.com`.
///
/// Nothing else is normalized: `:80` stays in an `http` URL, and paths are neither resolved
/// nor re-escaped. Canonicalize URLs first if one page must always get one key.
///
/// # Errors
///
/// [`Error::InvalidArgument`] for a URL without a `scheme://` (this includes `mailto:` and
/// other URLs without a host), with an empty or invalid host, with a port that is empty, not
/// a number or above 65535, or with userinfo (`user:password@`): credentials do not belong in
/// row keys, so strip them first.
///
/// # Examples
///
/// ```
/// use rowkey::transform::reverse_url;
///
/// let key = reverse_url("https://www.example.com:8080/a?b")?;
/// assert_eq!(key, "com.example.www/https:8080/a?b");
/// let key = reverse_url("HTTP://Maps.Google.com/Index.html")?;
/// assert_eq!(key, "com.google.maps/http/Index.html");
/// assert_eq!(reverse_url("https://example.com?q=1#top")?, "com.example/https?q=1#top");
///
/// // Pages of a site and of its sub-domains sort together.
/// let mut keys = ["https://example.com/b", "https://example.net/", "https://www.example.com/a"]
///     .map(|u| reverse_url(u).unwrap());
/// keys.sort();
/// assert_eq!(keys, ["com.example.www/https/a", "com.example/https/b", "net.example/https/"]);
///
/// assert!(reverse_url("www.example.com/a").is_err());
/// assert!(reverse_url("https://user@example.com/").is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn reverse_url(url: &str) -> Result<String> {
    let Some((scheme, after)) = url.split_once("://") else {
        return Err(url_error(url, "has no `scheme://`; write it as https://example.com/path"));
    };
    check_scheme(scheme, "URL", url)?;
    let end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let (authority, rest) = after.split_at(end);
    if authority.contains('@') {
        return Err(url_error(
            url,
            "has userinfo (`user@`) before the host; remove it, credentials do not belong in \
             row keys",
        ));
    }
    let (host, port) = split_port(authority, url)?;
    if host.is_empty() {
        return Err(url_error(url, "has an empty host; only URLs with a host can be reversed"));
    }
    let mut key = reverse_domain(host)?;
    key.push('/');
    key.extend(scheme.chars().map(|c| c.to_ascii_lowercase()));
    if let Some(port) = port {
        key.push(':');
        key.push_str(&port.to_string());
    }
    key.push_str(rest);
    Ok(key)
}

/// Undoes [`reverse_url`]: `com.example.www/https:8080/a?b` becomes
/// `https://www.example.com:8080/a?b`.
///
/// It accepts exactly what [`reverse_url`] writes, so `reverse_url(&unreverse_url(k)?)? == k`
/// whenever it succeeds.
///
/// # Errors
///
/// [`Error::InvalidArgument`] when `s` is not in the layout [`reverse_url`] writes: no `/`
/// after the host, a host [`unreverse_domain`] rejects or an IPv6 one without brackets, no
/// scheme or an uppercase one, a port
/// that is not a canonical number up to 65535, or something other than `/`, `?`, `#` or the
/// end after the scheme and port.
///
/// # Examples
///
/// ```
/// use rowkey::transform::{reverse_url, unreverse_url};
///
/// let url = unreverse_url("com.example.www/https:8080/a?b")?;
/// assert_eq!(url, "https://www.example.com:8080/a?b");
/// let url = "http://[::1]:3000/Path?Q#F";
/// assert_eq!(unreverse_url(&reverse_url(url)?)?, url);
/// assert!(unreverse_url("com.example.www").is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn unreverse_url(s: &str) -> Result<String> {
    let Some((reversed_host, tail)) = s.split_once('/') else {
        return Err(key_error(s, "has no `/` after the host"));
    };
    if reversed_host.contains(':') && !reversed_host.starts_with('[') {
        return Err(key_error(s, "has an IPv6 host without the brackets a URL needs"));
    }
    let host = unreverse_domain(reversed_host)?;
    let scheme_end = tail.find(|c: char| !is_scheme_char(c)).unwrap_or(tail.len());
    let (scheme, mut rest) = tail.split_at(scheme_end);
    check_scheme(scheme, "reversed URL", s)?;
    if scheme.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(key_error(s, "has an uppercase scheme, which reverse_url never writes"));
    }
    let mut port = None;
    if let Some(after_colon) = rest.strip_prefix(':') {
        let digits = after_colon.find(|c: char| !c.is_ascii_digit()).unwrap_or(after_colon.len());
        let (text, after_port) = after_colon.split_at(digits);
        match text.parse::<u16>() {
            Ok(n) if n.to_string() == text => port = Some(text),
            _ => {
                return Err(key_error(s, "has a port that is not a number in 0..=65535 without leading zeros"));
            }
        }
        rest = after_port;
    }
    if !(rest.is_empty() || rest.starts_with(['/', '?', '#'])) {
        return Err(key_error(s, "continues after the scheme and port with something other than `/`, `?` or `#`"));
    }
    let mut url = format!("{scheme}://{host}");
    if let Some(port) = port {
        url.push(':');
        url.push_str(port);
    }
    url.push_str(rest);
    Ok(url)
}

/// Which way a name is going, for the checks and messages that differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// A host name, as in a URL.
    Host,
    /// The output of [`reverse_domain`].
    Reversed,
}

impl Side {
    fn what(self) -> &'static str {
        match self {
            Side::Host => "host name",
            Side::Reversed => "reversed host name",
        }
    }

    fn error(self, name: &str, detail: &str) -> Error {
        Error::argument(self.what(), format!("{name:?} {detail}"))
    }
}

fn flip(name: &str, side: Side) -> Result<String> {
    if let Some(ip) = ip_literal(name, side)? {
        return Ok(ip);
    }
    let body = match side {
        Side::Host => name.strip_suffix('.').unwrap_or(name),
        Side::Reversed => name,
    };
    if body.is_empty() {
        return Err(side.error(name, "is empty; give a name such as example.com"));
    }
    for label in body.split('.') {
        check_label(label, name, side)?;
    }
    if body.len() > MAX_NAME {
        return Err(side.error(name, "is longer than 253 characters, the DNS limit"));
    }
    // The top-level domain is the last label of a host and the first of a reversed one.
    let top = match side {
        Side::Host => body.rsplit('.').next(),
        Side::Reversed => body.split('.').next(),
    };
    if top.is_some_and(|label| label.bytes().all(|b| b.is_ascii_digit())) {
        return Err(side.error(
            name,
            "has an all-digit top-level label but is not an IPv4 address; no top-level \
             domain is all digits, so check the address",
        ));
    }
    let mut out = String::with_capacity(body.len());
    for (i, label) in body.rsplit('.').enumerate() {
        if i > 0 {
            out.push('.');
        }
        out.push_str(label);
    }
    out.make_ascii_lowercase();
    Ok(out)
}

fn check_label(label: &str, name: &str, side: Side) -> Result<()> {
    if label.is_empty() {
        let detail = match side {
            Side::Host => "has an empty label (a leading dot, two dots in a row, or two trailing dots)",
            Side::Reversed => "has an empty label (a leading or trailing dot, or two dots in a row)",
        };
        return Err(side.error(name, detail));
    }
    if let Some(c) = label.chars().find(|&c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
        return Err(side.error(
            name,
            &format!(
                "contains {c:?}, which a host name cannot hold; labels use ASCII letters, \
                 digits, '-' and '_' (convert an internationalized name to its xn-- form first)"
            ),
        ));
    }
    if side == Side::Reversed && label.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(side.error(name, "has uppercase letters, which reverse_domain never writes"));
    }
    if label.len() > MAX_LABEL {
        return Err(side.error(name, "has a label longer than 63 characters, the DNS limit"));
    }
    Ok(())
}

/// An IP address in canonical case, `None` for anything that is not trying to be one.
fn ip_literal(name: &str, side: Side) -> Result<Option<String>> {
    let v6 = match name.strip_prefix('[') {
        Some(inner) => Some(inner.strip_suffix(']').unwrap_or("")),
        None => name.contains(':').then_some(name),
    };
    if let Some(v6) = v6 {
        if v6.parse::<Ipv6Addr>().is_err() {
            return Err(side.error(
                name,
                "is not a valid IPv6 address (the only host with `:` or `[`); a port belongs \
                 in a URL, see reverse_url",
            ));
        }
        if side == Side::Reversed && name.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(side.error(name, "has uppercase hex digits, which reverse_domain never writes"));
        }
        return Ok(Some(name.to_ascii_lowercase()));
    }
    Ok(name.parse::<Ipv4Addr>().is_ok().then(|| name.to_owned()))
}

fn is_scheme_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
}

/// RFC 3986: a letter, then letters, digits, `+`, `-` and `.`.
fn check_scheme(scheme: &str, what: &'static str, input: &str) -> Result<()> {
    let starts_with_letter = scheme.starts_with(|c: char| c.is_ascii_alphabetic());
    if !starts_with_letter || !scheme.chars().all(is_scheme_char) {
        return Err(Error::argument(
            what,
            format!(
                "{input:?} has no valid scheme: it must start with a letter followed by \
                 letters, digits, '+', '-' or '.', as in https"
            ),
        ));
    }
    Ok(())
}

/// Splits `host[:port]`, keeping the brackets of an IPv6 host.
fn split_port<'a>(authority: &'a str, url: &str) -> Result<(&'a str, Option<u16>)> {
    let colon = match authority.strip_prefix('[') {
        Some(inner) => inner.find(']').map(|i| i + 2).filter(|&i| i < authority.len()),
        None => authority.find(':'),
    };
    let Some(colon) = colon else {
        return Ok((authority, None));
    };
    let (host, port) = authority.split_at(colon);
    let digits = port.strip_prefix(':').unwrap_or("");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(url_error(url, "has a port that is empty or not a number; write host:port, or drop the `:`"));
    }
    match digits.parse::<u16>() {
        Ok(port) => Ok((host, Some(port))),
        Err(_) => Err(url_error(url, "has a port above 65535")),
    }
}

fn url_error(url: &str, detail: &str) -> Error {
    Error::argument("URL", format!("{url:?} {detail}"))
}

fn key_error(key: &str, detail: &str) -> Error {
    Error::argument(
        "reversed URL",
        format!(
            "{key:?} {detail}; reverse_url writes host/scheme[:port] and the rest of the URL, \
             as in com.example.www/https:8080/a?b"
        ),
    )
}
