//! A hotspot simulator: replay a workload's keys against a range-partitioned store's tablets
//! and see whether its writes pile onto one of them.
//!
//! A store like Bigtable or HBase serves each contiguous key range (a tablet, or region) from
//! one server. A key that grows with time, such as a timestamp first, sends every new write to
//! the tablet at the end of the key space: splitting that tablet does not help, because the new
//! keys keep landing past the last split. This module shows that before any data is written.
//!
//! ```
//! use rowkey::RowKey;
//! use rowkey::hotspot::{Simulator, Verdict, Windows};
//!
//! // Ten devices report every second for 20 minutes, under two key designs.
//! let mut by_time = Simulator::dynamic(1_000)?;
//! let mut by_device = Simulator::dynamic(1_000)?;
//! for second in 0..1_200u64 {
//!     for device in 0..10u32 {
//!         by_time.record_at((second, device).to_key()?, second);
//!         by_device.record_at((device, second).to_key()?, second);
//!     }
//! }
//! let by_time = by_time.report(Windows::Count(24));
//! let by_device = by_device.report(Windows::Count(24));
//!
//! // With the timestamp first, one tablet at a time takes every write.
//! assert!(by_time.hottest_late().unwrap().share() > 0.99);
//! assert!(matches!(by_time.verdict(0.5), Verdict::Hot { .. }));
//! // With the device first, writes spread over the tablets.
//! assert!(matches!(by_device.verdict(0.5), Verdict::Balanced { .. }));
//!
//! let svg = by_time.to_svg(); // a heatmap with the hot band
//! assert!(svg.starts_with("<?xml"));
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! # The model
//!
//! A [`Simulator`] takes keys in write order, each with a time ([`Simulator::record_at`], any
//! unit) or with its position in the sequence as its time ([`Simulator::record`]). Tablets
//! split either dynamically, at the median key once a tablet holds more than a given number of
//! rows (Bigtable and HBase split by size; every write is a row, since every write adds a cell
//! version), or at fixed points, such as equal-count splits of a sample of keys (Bigtable's
//! `SampleRowKeys`, HBase pre-splitting).
//!
//! A [`Report`] cuts the time span into [`Windows`] and counts each window's writes per tablet,
//! against the tablets as they stand at the end of that window. A tablet that split during the
//! window passes its writes on to the half that now holds their keys, as a store's per-tablet
//! load reports do after a split. This matters for a hot range: the store splits it in
//! reaction to the load, but the load stays in one of the halves, and the window still shows
//! it on one tablet. Choose windows short enough that a tablet does not fill up in one
//! (fewer than half the split size in writes); a window in which the hot range moved across
//! several tablets spreads its writes over them.
//!
//! With dynamic splits every workload starts on one tablet, so early windows say little.
//! [`Report::hottest_late`] and [`Report::verdict`] look at the late part of the workload, by
//! default its last quarter of windows, when the split layout has settled.
//!
//! # Reading the numbers
//!
//! The hottest tablet's share over several windows is the fraction of their writes that went
//! to the hottest tablet of their own window: 1.0 means one tablet at a time took everything,
//! even if that tablet changed. Its [skew](Hotspot::skew) compares the hottest tablet to the
//! mean tablet: an even spread is 1, everything on one of `n` tablets is `n`.

mod label;
mod report;
mod svg;
mod tablets;
mod tally;

pub use crate::splits::forms::sample_split_points;
pub use report::{Hotspot, Report, ReportOptions, TabletLoad, Verdict, Window, Windows};
pub use svg::Heatmap;
pub use tablets::Simulator;
