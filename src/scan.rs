//! Field-aligned scan bounds: the key ranges that hold exactly the keys whose leading fields
//! have given values, optionally with the next field in a range or starting with a prefix.
//!
//! A byte prefix is not enough. In the ordered format the key `("A", "", "")` is the single
//! byte `41`: its empty trailing fields are dropped, so it does not start with the bytes of
//! the fixed fields `("A", "")` followed by a separator. In the delimited format `user1` is a
//! byte prefix of `user10`. These builders account for both:
//!
//! ```
//! use rowkey::{Desc, RowKey};
//! use rowkey::scan::OrderedScan;
//! use std::collections::BTreeMap;
//! use std::ops::Bound;
//!
//! type Reading = (String, String, Desc<i64>);
//! let mut table = BTreeMap::new();
//! for (device, ts) in [("a", 1), ("a", 5), ("a", 9), ("ab", 3), ("b", 2)] {
//!     table.insert(("phone", device, Desc(ts as i64)).to_key()?, ts);
//! }
//!
//! // Device "a" only (not "ab"), its readings with 2 <= ts < 9, newest first.
//! let mut scan = OrderedScan::for_key::<Reading>();
//! scan.fix("phone")?.fix("a")?;
//! let ranges = scan.range(Bound::Excluded(&Desc(9i64)), Bound::Included(&Desc(2i64)))?;
//! let found: Vec<i32> = ranges.iter().flat_map(|r| table.range(r).map(|(_, ts)| *ts)).collect();
//! assert_eq!(found, [5]);
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! Bounds are given in the field type's own order, which is its key order: for a
//! [`Desc`](crate::Desc) or [`Reversed`](crate::field::Reversed) field, the larger value is
//! the start. A salted key fixes its bucket first; [`Salt::fan_out`](crate::salt::Salt::fan_out) repeats the bounds in
//! every bucket when the bucket is not known.
//!
//! Each format has a builder ([`OrderedScan`], [`DelimitedScan`], [`StoreScan`] for the store
//! formats and formats of your own); [`ScanFormat`] gives a format's, and [`KeyScan`] is what
//! all of them do, for code that scans in any format.

mod delimited;
mod key_scan;
mod ordered;
mod store;

use std::ops::Bound;

use crate::error::{Error, Result};
use crate::key::Key;
use crate::range::prefix_successor;

pub use delimited::DelimitedScan;
pub use key_scan::{KeyScan, ScanFormat};
pub use ordered::OrderedScan;
pub use store::{StoreFormat, StoreScan};

/// The index of the next field to fix, or the error of a scan whose fields are all fixed.
#[inline]
fn next_field(fixed: usize, fields: usize) -> Result<usize> {
    if fixed < fields { Ok(fixed) } else { Err(all_fixed(fields)) }
}

// Out of line, so the formatting stays off the path of every `fix`.
#[cold]
#[inline(never)]
fn all_fixed(fields: usize) -> Error {
    Error::argument("scan field", format!("all {fields} fields of the key are fixed already"))
}

/// The exclusive end past every key that starts with `prefix`.
fn bound_after(prefix: &[u8]) -> Bound<Key> {
    prefix_successor(prefix).map_or(Bound::Unbounded, Bound::Excluded)
}
