//! Key-design transforms: functions that change where a value's rows land in the key space.
//!
//! A range-partitioned store splits its table into tablets (regions, splits) by key range and
//! serves each from one server. Which rows share a tablet, and which tablet takes the next
//! write, follows from how the key's bytes sort. Each transform here fixes one common
//! problem:
//!
//! - **Reads want the newest rows first**, but keys sort oldest first:
//!   [`reverse_timestamp`] (`i64::MAX - ts`) makes a prefix scan return the newest rows first.
//! - **Sequential ids** (auto-increment, sequences) **send every insert to the last tablet**:
//!   [`bit_reverse`] (Spanner's `BIT_REVERSE` and bit-reversed sequences) and
//!   [`bit_reverse_u64`] land consecutive ids far apart, so writes spread over all tablets.
//! - **One site's hosts are scattered over the table** (`maps.google.com` sorts far from
//!   `www.google.com`): [`reverse_domain`] sorts a domain's sub-domains together (the domain
//!   and its sub-domains are two ranges: the name, and the prefix `com.google.`), and
//!   [`reverse_url`] puts a domain, its sub-domains and all their pages in one key range, as
//!   Bigtable's webtable does.
//!
//! As key fields, in either format: [`Reversed`] (`MAX - v`), [`BitReversed`],
//! [`ReversedDomain`] and [`ReversedUrl`] store the transformed value and decode back.
//!
//! Each function has an inverse for decoding: [`unreverse_timestamp`], [`unreverse_domain`],
//! [`unreverse_url`], and the bit reversals undo themselves.
//!
//! They solve different problems and do not replace each other. A reversed timestamp still
//! moves monotonically, so a key that starts with one has the same write hotspot as one that
//! starts with the plain time: put something with spread before it (a device id, a salt
//! bucket). Bit reversal spreads writes but gives up range scans over the original ids.
//!
//! # Example
//!
//! A webtable row for a crawl of a page, newest crawl first:
//!
//! ```
//! use rowkey::transform::{bit_reverse, reverse_timestamp, reverse_url, unreverse_url};
//!
//! let page = reverse_url("https://maps.google.com/index.html")?;
//! let crawled_at = reverse_timestamp(1_588_291_200_000)?;
//! let key = format!("{page}#{crawled_at:019}");
//! assert_eq!(key, "com.google.maps/https/index.html#9223370448563575807");
//!
//! // Every page of maps.google.com is under one prefix.
//! assert!(key.starts_with("com.google.maps/"));
//! assert_eq!(unreverse_url(&page)?, "https://maps.google.com/index.html");
//!
//! // Order ids 1, 2, 3 land in different quarters of the positive i64 range.
//! let spread: Vec<i64> = (1..=3).map(|id| bit_reverse(id, true) >> 61).collect();
//! assert_eq!(spread, [2, 1, 3]);
//! # Ok::<(), rowkey::Error>(())
//! ```

mod bits;
mod domain;
mod fields;
mod time;

pub use bits::{bit_reverse, bit_reverse_u64};
pub use domain::{reverse_domain, reverse_url, unreverse_domain, unreverse_url};
pub use fields::{BitReversed, ReversedDomain, ReversedUrl};
pub use time::{reverse_timestamp, unreverse_timestamp};

// Defined with the field types, which name it (see `field::reversed`).
#[doc(inline)]
pub use crate::field::Reversed;
