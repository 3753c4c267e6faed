//! The report of a simulated run: write counts per tablet and time window, and the measures
//! drawn from them (the hottest tablet, skew, the late part of the run).

use std::ops::{Bound, Range, RangeBounds};

use crate::key::Key;
use crate::range::KeyRange;

use super::label::key_label;
use crate::schema::Schema;

/// How a [`Report`] cuts the recorded time span, from the first write's time to the last's,
/// into windows.
///
/// ```
/// use rowkey::hotspot::{Simulator, Windows};
///
/// let mut sim = Simulator::fixed(["m"]);
/// for (key, second) in [("a", 0), ("b", 30), ("x", 60), ("y", 119)] {
///     sim.record_at(key, second);
/// }
/// assert_eq!(sim.report(Windows::Count(4)).windows().len(), 4);
/// let minutes = sim.report(Windows::Length(60));
/// assert_eq!((minutes.windows()[1].start(), minutes.windows()[1].end()), (60, 120));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Windows {
    /// This many windows of equal length (fewer when the span has fewer time units).
    Count(usize),
    /// Windows of this many time units each; the last one may reach past the last write.
    Length(u64),
}

/// What a [`Report`] measures: its [`Windows`], how many key bands its heatmap has, and which
/// share of the windows counts as the late part of the workload.
///
/// ```
/// use rowkey::hotspot::{ReportOptions, Simulator, Windows};
///
/// let mut sim = Simulator::dynamic(10)?;
/// (0..100u32).for_each(|i| sim.record(i.to_be_bytes()));
/// let report = sim.report(ReportOptions::new(Windows::Count(10)).bands(16).late_fraction(0.5));
/// assert_eq!(report.late_windows(), 5..10);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportOptions {
    pub(super) windows: Windows,
    pub(super) bands: usize,
    pub(super) late: f64,
}

impl ReportOptions {
    /// The given windows, 64 key bands, and the last quarter of the windows as the late part.
    #[must_use]
    pub const fn new(windows: Windows) -> Self {
        ReportOptions { windows, bands: 64, late: 0.25 }
    }

    /// How many bands the heatmap cuts the key space into (at least 1; at most one per
    /// distinct key written).
    #[must_use]
    pub const fn bands(mut self, bands: usize) -> Self {
        self.bands = bands;
        self
    }

    /// Which fraction of the windows, the last ones, is the late part of the workload
    /// (clamped to 0..=1; at least one window is always late).
    #[must_use]
    pub fn late_fraction(mut self, fraction: f64) -> Self {
        self.late = if fraction.is_nan() { 0.0 } else { fraction.clamp(0.0, 1.0) };
        self
    }
}

impl Default for ReportOptions {
    /// 48 windows, 64 bands, the last quarter late.
    fn default() -> Self {
        ReportOptions::new(Windows::Count(48))
    }
}

impl From<Windows> for ReportOptions {
    fn from(windows: Windows) -> Self {
        ReportOptions::new(windows)
    }
}

/// One tablet's writes: in one window, or in the whole run for [`Report::tablets`].
///
/// ```
/// use rowkey::hotspot::{Simulator, Windows};
///
/// let mut sim = Simulator::fixed(["m"]);
/// for key in ["a", "x", "y", "z"] {
///     sim.record(key);
/// }
/// let report = sim.report(Windows::Count(1));
/// let last = &report.tablets()[1];
/// assert_eq!((last.range().to_string(), last.writes(), last.share()), ("[m, +∞)".to_owned(), 3, 0.75));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TabletLoad {
    pub(super) range: KeyRange,
    pub(super) writes: u64,
    pub(super) share: f64,
}

impl TabletLoad {
    /// The tablet's key range.
    #[must_use]
    pub fn range(&self) -> &KeyRange {
        &self.range
    }

    /// How many writes it took.
    #[must_use]
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Its fraction of the writes (0 when there were none).
    #[must_use]
    pub fn share(&self) -> f64 {
        self.share
    }
}

/// One time window of a [`Report`]: its writes per tablet, for the tablets at its end.
///
/// ```
/// use rowkey::hotspot::{Simulator, Windows};
///
/// let mut sim = Simulator::fixed(["m"]);
/// for key in ["a", "n", "o", "p"] {
///     sim.record(key);
/// }
/// let report = sim.report(Windows::Count(1));
/// let window = &report.windows()[0];
/// let hottest = window.hottest().unwrap();
/// assert_eq!((hottest.range().to_string(), hottest.share()), ("[m, +∞)".to_owned(), 0.75));
/// assert_eq!(window.skew(), Some(1.5)); // 3 writes against a mean of 2
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    pub(super) start: u64,
    pub(super) end: u64,
    pub(super) writes: u64,
    pub(super) tablets: Vec<TabletLoad>,
}

impl Window {
    /// The window's first time unit.
    #[must_use]
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The time unit after its last one.
    #[must_use]
    pub fn end(&self) -> u64 {
        self.end
    }

    /// How many writes fell in it.
    #[must_use]
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Every tablet at the window's end, in key order, with the writes of the window it holds.
    #[must_use]
    pub fn tablets(&self) -> &[TabletLoad] {
        &self.tablets
    }

    /// The tablet that took the most writes (the first in key order among equals); `None`
    /// for a window without writes.
    #[must_use]
    pub fn hottest(&self) -> Option<&TabletLoad> {
        let hottest = self.tablets.iter().reduce(|best, t| if t.writes > best.writes { t } else { best })?;
        (hottest.writes > 0).then_some(hottest)
    }

    /// The hottest tablet's writes over the mean tablet's: 1 when every tablet took the same,
    /// the number of tablets when one took everything; `None` for a window without writes.
    #[must_use]
    pub fn skew(&self) -> Option<f64> {
        let hottest = self.hottest()?;
        Some(hottest.writes as f64 * self.tablets.len() as f64 / self.writes as f64)
    }
}

/// How concentrated the writes of several windows were: see [`Report::hottest_in`].
///
/// ```
/// use rowkey::hotspot::{Simulator, Windows};
///
/// let mut sim = Simulator::fixed(["m"]);
/// // First both tablets take writes, then only the second one does.
/// for key in ["a", "x", "b", "y", "z", "z", "z", "z"] {
///     sim.record(key);
/// }
/// let hot = sim.report(Windows::Count(4)).hottest().unwrap();
/// assert_eq!(hot.share(), 0.75); // 1 of 2, 1 of 2, 2 of 2, 2 of 2
/// assert_eq!(hot.skew(), 2.0); // everything on one of two tablets
/// assert_eq!((hot.window(), hot.tablet().to_string()), (3, "[m, +∞)".to_owned()));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Hotspot {
    share: f64,
    skew: f64,
    tablet: KeyRange,
    window: usize,
}

impl Hotspot {
    /// The fraction of the writes that went to the hottest tablet of their own window.
    #[must_use]
    pub fn share(&self) -> f64 {
        self.share
    }

    /// The highest [`Window::skew`] among the windows.
    #[must_use]
    pub fn skew(&self) -> f64 {
        self.skew
    }

    /// The hottest tablet of the peak window.
    #[must_use]
    pub fn tablet(&self) -> &KeyRange {
        &self.tablet
    }

    /// The peak window: the one whose hottest tablet had the highest share, the latest among
    /// equals, so that a range that stays hot is named as it is at the end.
    #[must_use]
    pub fn window(&self) -> usize {
        self.window
    }
}

/// Whether the late part of a workload has a hotspot: see [`Report::verdict`].
///
/// ```
/// use rowkey::hotspot::{Simulator, Verdict, Windows};
///
/// let mut sim = Simulator::fixed(["m"]);
/// for key in ["a", "x", "b", "y"] {
///     sim.record(key);
/// }
/// let verdict = sim.report(Windows::Count(2)).verdict(0.6);
/// assert_eq!(verdict, Verdict::Balanced { share: 0.5 });
/// assert_eq!(verdict.to_string(), "balanced: the hottest tablet takes 50.0% of late writes");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// One tablet at a time takes more than the threshold's share of the late writes.
    Hot {
        /// The hottest tablet of the peak late window.
        tablet: KeyRange,
        /// The hottest tablets' share of the late writes.
        share: f64,
    },
    /// No tablet does.
    Balanced {
        /// The hottest tablets' share of the late writes (0 without writes).
        share: f64,
    },
}

impl Verdict {
    /// The verdict with the tablet's bounds shown by the fields of `schema`, as the
    /// [`Heatmap`](super::Heatmap) labels them, so that a `sensitive` field's value is never printed (the
    /// plain `Display` prints the bounds' bytes).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::hotspot::{Simulator, Windows};
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Login {
    ///     #[rowkey(sensitive)]
    ///     email: String,
    ///     at: u32,
    /// }
    ///
    /// // One user's logins, in time order: the newest tablet takes them all.
    /// let mut sim = Simulator::dynamic(1_000)?;
    /// for at in 0..12_000u32 {
    ///     sim.record(Login { email: "ann@example.com".into(), at }.to_key()?);
    /// }
    /// let verdict = sim.report(Windows::Count(24)).verdict(0.5);
    /// let text = verdict.labelled(&Login::SCHEMA).to_string();
    /// assert!(text.starts_with("hot: one tablet takes"), "{text}");
    /// assert!(!text.contains("ann"), "{text}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn labelled<'a>(&'a self, schema: &'a Schema) -> impl std::fmt::Display + 'a {
        Labelled { verdict: self, schema }
    }
}

struct Labelled<'a> {
    verdict: &'a Verdict,
    schema: &'a Schema,
}

impl std::fmt::Display for Labelled<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Verdict::Hot { tablet, share } = self.verdict else {
            return self.verdict.fmt(f);
        };
        let label = |key: &Key| key_label(Some(self.schema), key);
        let start = match tablet.start() {
            Bound::Included(key) => format!("[{}", label(key)),
            Bound::Excluded(key) => format!("({}", label(key)),
            Bound::Unbounded => "(-∞".to_owned(),
        };
        let end = match tablet.end() {
            Bound::Included(key) => format!("{}]", label(key)),
            Bound::Excluded(key) => format!("{})", label(key)),
            Bound::Unbounded => "+∞)".to_owned(),
        };
        write!(f, "hot: one tablet takes {:.1}% of late writes, such as {start}, {end}", share * 100.0)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Hot { tablet, share } => {
                write!(f, "hot: one tablet takes {:.1}% of late writes, such as {tablet}", share * 100.0)
            }
            Verdict::Balanced { share } => {
                write!(f, "balanced: the hottest tablet takes {:.1}% of late writes", share * 100.0)
            }
        }
    }
}

/// Where a [`Simulator`]'s writes went, per time window and per tablet; see the
/// [module docs](crate::hotspot) for how writes are counted.
///
/// ```
/// use rowkey::hotspot::{Simulator, Windows};
///
/// let mut sim = Simulator::from_sample(["a", "b", "c", "d"], 2);
/// for key in ["a", "d", "b", "c"] {
///     sim.record(key);
/// }
/// let report = sim.report(Windows::Count(2));
/// assert_eq!(report.writes(), 4);
/// assert_eq!(report.tablets().len(), 2);
/// assert_eq!(report.hottest().unwrap().share(), 0.5);
/// ```
///
/// [`Simulator`]: crate::hotspot::Simulator
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub(super) windows: Vec<Window>,
    pub(super) tablets: Vec<TabletLoad>,
    pub(super) writes: u64,
    pub(super) late_start: usize,
    pub(super) heat: Heat,
}

/// What the heatmap draws: writes per window and key band, and where the bands and final
/// tablets sit in key order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Heat {
    /// Each band's start and end as the fraction of all writes whose keys sort below it:
    /// from 0 to 1, one more than there are bands.
    pub(super) edges: Vec<f64>,
    /// Writes per window (outer) and band (inner).
    pub(super) cells: Vec<Vec<u64>>,
    /// The final split points, each with the fraction of writes below it.
    pub(super) boundaries: Vec<(f64, Key)>,
}

impl Report {
    /// The windows, in time order.
    #[must_use]
    pub fn windows(&self) -> &[Window] {
        &self.windows
    }

    /// The final tablets, each with every write whose key it holds: for dynamic splits, its
    /// row count.
    #[must_use]
    pub fn tablets(&self) -> &[TabletLoad] {
        &self.tablets
    }

    /// How many writes were recorded.
    ///
    /// ```
    /// let mut sim = rowkey::hotspot::Simulator::fixed(["m"]);
    /// sim.record("a");
    /// assert_eq!(sim.report(rowkey::hotspot::Windows::Count(1)).writes(), 1);
    /// ```
    #[must_use]
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// The windows that make up the late part of the workload.
    #[must_use]
    pub fn late_windows(&self) -> Range<usize> {
        self.late_start..self.windows.len()
    }

    /// The hottest tablets over every window; `None` without writes.
    ///
    /// ```
    /// let mut sim = rowkey::hotspot::Simulator::fixed(["m"]);
    /// (0..10).for_each(|_| sim.record("z"));
    /// assert_eq!(sim.report(rowkey::hotspot::Windows::Count(5)).hottest().unwrap().share(), 1.0);
    /// ```
    #[must_use]
    pub fn hottest(&self) -> Option<Hotspot> {
        self.hottest_in(..)
    }

    /// The hottest tablets over the [late windows](Self::late_windows).
    ///
    /// ```
    /// use rowkey::hotspot::{Simulator, Windows};
    ///
    /// let mut sim = Simulator::fixed(["m"]);
    /// for key in ["a", "b", "c", "x", "n", "y", "o", "z"] {
    ///     sim.record(key);
    /// }
    /// let report = sim.report(Windows::Count(4));
    /// assert_eq!(report.hottest_late().unwrap().tablet().to_string(), "[m, +∞)");
    /// ```
    #[must_use]
    pub fn hottest_late(&self) -> Option<Hotspot> {
        self.hottest_in(self.late_windows())
    }

    /// The hottest tablets over the given windows: the fraction of their writes that the
    /// hottest tablet of each window took, the highest skew, and the peak window's hottest
    /// tablet. `None` when those windows have no writes.
    ///
    /// ```
    /// use rowkey::hotspot::{Simulator, Windows};
    ///
    /// let mut sim = Simulator::fixed(["m"]);
    /// for key in ["a", "x", "y", "z"] {
    ///     sim.record(key);
    /// }
    /// let report = sim.report(Windows::Count(2));
    /// assert_eq!(report.hottest_in(0..1).unwrap().share(), 0.5);
    /// assert_eq!(report.hottest_in(1..).unwrap().skew(), 2.0);
    /// ```
    #[must_use]
    pub fn hottest_in(&self, windows: impl RangeBounds<usize>) -> Option<Hotspot> {
        let len = self.windows.len();
        let start = match windows.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s.saturating_add(1),
            Bound::Unbounded => 0,
        };
        let end = match windows.end_bound() {
            Bound::Included(&e) => e.saturating_add(1),
            Bound::Excluded(&e) => e,
            Bound::Unbounded => len,
        };
        let (mut hot, mut total, mut skew) = (0u64, 0u64, 0f64);
        let mut peak: Option<(usize, &TabletLoad)> = None;
        for (i, window) in self.windows.iter().enumerate().take(end.min(len)).skip(start) {
            let (Some(hottest), Some(window_skew)) = (window.hottest(), window.skew()) else { continue };
            hot += hottest.writes;
            total += window.writes;
            skew = skew.max(window_skew);
            if peak.is_none_or(|(_, p)| hottest.share >= p.share) {
                peak = Some((i, hottest));
            }
        }
        let (window, tablet) = peak?;
        Some(Hotspot { share: hot as f64 / total as f64, skew, tablet: tablet.range.clone(), window })
    }

    /// [`Verdict::Hot`] when the hottest tablets take more than `threshold` (a fraction) of the
    /// late writes.
    ///
    /// An even spread over `n` tablets gives each `1 / n`, so pick a threshold well above that
    /// for the tablet count the store will have; 0.5 flags a design that sends most writes to
    /// one place.
    ///
    /// ```
    /// use rowkey::hotspot::{Simulator, Verdict, Windows};
    ///
    /// let mut sim = Simulator::fixed(["m"]);
    /// (0..8).for_each(|_| sim.record("z"));
    /// let verdict = sim.report(Windows::Count(4)).verdict(0.5);
    /// assert!(matches!(verdict, Verdict::Hot { share: 1.0, .. }));
    /// assert_eq!(verdict.to_string(), "hot: one tablet takes 100.0% of late writes, such as [m, +∞)");
    /// ```
    #[must_use]
    pub fn verdict(&self, threshold: f64) -> Verdict {
        match self.hottest_late() {
            Some(hot) if hot.share > threshold => Verdict::Hot { tablet: hot.tablet, share: hot.share },
            hot => Verdict::Balanced { share: hot.map_or(0.0, |h| h.share) },
        }
    }
}
