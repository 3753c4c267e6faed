//! A web crawl table keyed by reversed host name, so that all pages of a site are one key
//! range, each page's crawls newest first.
//!
//! `cargo run --example web_table`
//!
//! This follows Bigtable's schema design guide on domain names (and the webtable of the
//! original Bigtable paper): store `maps.google.com` as `com.google.maps`. Hosts then sort by
//! top-level domain, then domain, then sub-domain, so `google.com`'s pages sit together
//! instead of next to every other site whose name starts with the same letters.

mod tempdb;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redb::{ReadOnlyTable, ReadableTable, TableDefinition};
use rowkey::scan::OrderedScan;
use rowkey::transform::reverse_domain;
use rowkey::{KeyRanges, RowKey};

/// The ordered format: paths hold any bytes a URL can, `#` included, which the delimited
/// format would refuse. `desc` puts the newest crawl of a page first.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Page {
    #[rowkey(reverse_domain)]
    host: String,
    path: String,
    #[rowkey(desc)]
    crawled: SystemTime,
}

/// Key bytes to the page's size in bytes at that crawl.
const PAGES: TableDefinition<&[u8], u32> = TableDefinition::new("pages");

const HOSTS: [&str; 9] = [
    "google.com",
    "www.google.com",
    "maps.google.com",
    "mail.google.com",
    "google-analytics.com",
    "googleusercontent.com",
    "example.com",
    "en.wikipedia.org",
    "wikipedia.org",
];
const PATHS: [&str; 3] = ["/", "/about", "/search?q=a#top"];

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("web-table")?;
    let db = &temp.db;

    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(PAGES)?;
        for (h, host) in HOSTS.iter().enumerate() {
            for (p, path) in PATHS.iter().enumerate() {
                for crawl in 0..4u64 {
                    let page = Page { host: (*host).into(), path: (*path).into(), crawled: day(crawl * 7 + h as u64) };
                    table.insert(page.to_key()?.as_bytes(), 1_000 + (h * 100 + p * 10) as u32 + crawl as u32)?;
                }
            }
        }
    }
    tx.commit()?;
    let read = db.begin_read()?;
    let table = read.open_table(PAGES)?;

    println!("hosts in key order:");
    let mut last = String::new();
    for row in table.iter()? {
        let page = Page::from_key(row?.0.value())?;
        if page.host != last {
            println!("  {:<24} {}", reverse_domain(&page.host)?, page.host);
            last = page.host;
        }
    }

    // All pages of google.com, every crawl: one range.
    let google = Page::scan().host("google.com").ranges()?;
    println!("\nall pages of google.com: {} range {google}", google.len());
    show(&table, &google)?;

    // The newest crawl of one page: the first row of its range.
    let maps = Page::scan().host("maps.google.com").path("/").ranges()?;
    if let Some(range) = maps.iter().next() {
        let (key, size) = table.range::<&[u8]>(range.bounds())?.next().ok_or("never crawled")??;
        let page = Page::from_key(key.value())?;
        println!("\nnewest crawl of maps.google.com/: day {} ({} bytes)", day_of(page.crawled), size.value());
    }

    // google.com and its sub-domains: the host itself, plus every host whose reversed name
    // starts `com.google.`. These are two ranges, not one: `google-analytics.com` reverses to
    // `com.google-analytics`, which sorts between them (`-` is below `.`) and is another site.
    let mut site = Page::scan().host("google.com").ranges()?;
    let subdomains = format!("{}.", reverse_domain("google.com")?);
    site.extend(OrderedScan::for_key::<Page>().starts_with(subdomains.as_str())?);
    println!("\ngoogle.com and its sub-domains: {} ranges {site}", site.len());
    let mut hosts: Vec<String> = Vec::new();
    for range in &site {
        for row in table.range::<&[u8]>(range.bounds())? {
            let host = Page::from_key(row?.0.value())?.host;
            if hosts.last() != Some(&host) {
                hosts.push(host);
            }
        }
    }
    println!("  hosts found: {}", hosts.join(", "));
    assert!(hosts.iter().all(|h| h == "google.com" || h.ends_with(".google.com")));
    assert_eq!(hosts.len(), 4);
    Ok(())
}

/// Prints the rows of `ranges`, one line a page.
fn show(table: &ReadOnlyTable<&[u8], u32>, ranges: &KeyRanges) -> Result<(), Error> {
    let mut line = String::new();
    for range in ranges {
        for row in table.range::<&[u8]>(range.bounds())? {
            let (key, size) = row?;
            let page = Page::from_key(key.value())?;
            let start = format!("  {}{}:", page.host, page.path);
            if !line.starts_with(&start) {
                if !line.is_empty() {
                    println!("{line}");
                }
                line = start;
            }
            line += &format!(" day {} ({} B)", day_of(page.crawled), size.value());
        }
    }
    println!("{line}");
    Ok(())
}

/// Crawl days as times; whole days keep the output short.
fn day(n: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_588_291_200 + n * 86_400)
}

fn day_of(t: SystemTime) -> u64 {
    (t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) - 1_588_291_200) / 86_400
}
