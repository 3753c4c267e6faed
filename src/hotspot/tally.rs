//! A simulated run counted into a [`Report`]: the recorded writes per time window and
//! tablet, and the key bands of the heatmap, placed at quantiles of the keys.

use crate::key::Key;
use crate::range::KeyRange;

use super::report::{Heat, Report, ReportOptions, TabletLoad, Window, Windows};
use super::tablets::{self, Simulator};

impl Simulator {
    /// Counts the recorded writes per time window and tablet; see the [module docs](crate::hotspot).
    ///
    /// Takes [`Windows`] or [`ReportOptions`]. The simulator is left as it is, so one run can
    /// be reported with several window lengths, and recording can go on afterwards.
    ///
    /// ```
    /// use rowkey::hotspot::{Simulator, Windows};
    ///
    /// let mut sim = Simulator::dynamic(100)?;
    /// (0..1_000u32).for_each(|i| sim.record(i.to_be_bytes()));
    /// let report = sim.report(Windows::Count(20));
    /// let first = &report.windows()[0];
    /// assert_eq!(first.writes(), 50);
    /// assert_eq!(report.tablets().len(), sim.tablet_count());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn report(&self, options: impl Into<ReportOptions>) -> Report {
        let options = options.into();
        let (Some(&first), Some(&last)) = (self.times.first(), self.times.last()) else {
            return Report {
                windows: Vec::new(),
                tablets: Vec::new(),
                writes: 0,
                late_start: 0,
                heat: Heat::default(),
            };
        };
        let span = (last - first).saturating_add(1);
        let length = match options.windows {
            Windows::Count(count) => span.div_ceil(u64::try_from(count.max(1)).unwrap_or(u64::MAX)),
            Windows::Length(length) => length.max(1),
        };
        let count = usize::try_from(span.div_ceil(length)).unwrap_or(usize::MAX);

        // Plain byte slices rather than `Key`s: comparing them is one `memcmp`, which matters
        // in a debug build.
        let keys: Vec<&[u8]> = self.keys.iter().map(|k| k.as_bytes()).collect();
        let bands = band_starts(&keys, options.bands);

        // Splits only ever add points, so replaying them in order gives each window's layout.
        let mut points: Vec<&[u8]> = Vec::new();
        let mut pending = self.splits.iter().peekable();
        let mut windows = Vec::with_capacity(count);
        let mut cells = Vec::with_capacity(count);
        let mut begin = 0;
        for w in 0..count {
            let start = first.saturating_add(length.saturating_mul(w as u64));
            let end = start.saturating_add(length);
            let stop = begin + self.times[begin..].partition_point(|&t| t < end);
            while let Some((_, point)) = pending.next_if(|(at, _)| *at <= stop) {
                let point = point.as_bytes();
                points.insert(points.partition_point(|p| *p < point), point);
            }
            let mut counts = vec![0; points.len() + 1];
            let mut band_counts = vec![0; bands.len() + 1];
            for &key in &keys[begin..stop] {
                counts[points.partition_point(|&p| p <= key)] += 1;
                band_counts[bands.partition_point(|&b| b <= key)] += 1;
            }
            let (writes, tablets) = loads(tablets::tablet_ranges(&points), &counts);
            windows.push(Window { start, end, writes, tablets });
            cells.push(band_counts);
            begin = stop;
        }

        let finals: Vec<&[u8]> = self.split_points().map(|p| p.as_bytes()).collect();
        let mut counts = vec![0; finals.len() + 1];
        for &key in &keys {
            counts[finals.partition_point(|&p| p <= key)] += 1;
        }
        let (writes, tablets) = loads(tablets::tablet_ranges(&finals), &counts);

        let late = ((count as f64 * options.late).ceil() as usize).clamp(1, count);
        // Counted, not estimated: where a band or tablet starts is the share of writes below it.
        let below = |counts: Vec<u64>| -> Vec<f64> {
            let mut sum = 0;
            let mut fractions = vec![0.0];
            fractions.extend(counts.iter().map(|c| {
                sum += c;
                sum as f64 / writes as f64
            }));
            fractions
        };
        let band_totals = (0..=bands.len()).map(|b| cells.iter().map(|c: &Vec<u64>| c[b]).sum()).collect();
        let edges = below(band_totals);
        let boundaries = below(counts).into_iter().skip(1).zip(finals).map(|(at, p)| (at, Key::from(p))).collect();
        Report { windows, tablets, writes, late_start: count - late, heat: Heat { edges, cells, boundaries } }
    }
}

/// Up to this many keys decide where the heatmap's bands start.
const BAND_SAMPLE: usize = 16_384;

/// Where each heatmap band but the first starts: quantiles of the keys, so that bands hold
/// about as many writes each, whatever the keys look like.
///
/// Beyond [`BAND_SAMPLE`] keys the quantiles come from a sample, which keeps a report of a
/// million writes from sorting them all; the drawing stays exact, since band heights are
/// counted afterwards. The sample takes the writes whose position lands low under Fibonacci
/// hashing: unlike every k-th write, that cannot fall into step with a workload that repeats,
/// such as devices writing in turn.
fn band_starts<'k>(keys: &[&'k [u8]], bands: usize) -> Vec<&'k [u8]> {
    let mut sample: Vec<&[u8]> = if keys.len() <= BAND_SAMPLE {
        keys.to_vec()
    } else {
        let threshold = u64::try_from(((BAND_SAMPLE as u128) << 64) / keys.len() as u128).unwrap_or(u64::MAX);
        let picked = |i: usize| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) < threshold;
        keys.iter().enumerate().filter(|&(i, _)| picked(i)).map(|(_, &k)| k).collect()
    };
    sample.sort_unstable();
    let n = sample.len();
    let Some(&smallest) = sample.first() else { return Vec::new() };
    let bands = bands.clamp(1, n);
    let mut starts: Vec<&[u8]> = (1..bands).map(|i| sample[i * n / bands]).collect();
    starts.dedup();
    // A band starting at the smallest key would be empty.
    starts.retain(|&s| s > smallest);
    starts
}

fn loads(ranges: Vec<KeyRange>, counts: &[u64]) -> (u64, Vec<TabletLoad>) {
    let total: u64 = counts.iter().sum();
    let share = |writes: u64| if total == 0 { 0.0 } else { writes as f64 / total as f64 };
    let loads =
        ranges.into_iter().zip(counts).map(|(range, &writes)| TabletLoad { range, writes, share: share(writes) });
    (total, loads.collect())
}
