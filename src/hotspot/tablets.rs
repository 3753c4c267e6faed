//! The split model: where a range-partitioned store draws its tablet boundaries as writes
//! arrive.

use std::collections::BTreeMap;
use std::ops::Bound;

use crate::error::{Error, Result};
use crate::key::Key;
use crate::range::KeyRange;
use crate::splits::forms::sample_split_points;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Splitting {
    /// Split a tablet at its median key once it holds more than `max_rows` rows.
    Dynamic { max_rows: usize },
    /// Boundaries fixed up front; tablets never split.
    Fixed,
}

/// Replays writes against a range-partitioned store's tablets and records where each one
/// landed, for a [`Report`](super::Report).
///
/// Two ways to draw tablet boundaries:
///
/// - [`dynamic`](Self::dynamic): start with one tablet over the whole key space and split a
///   tablet at its median key when it holds more than a given number of rows, as Bigtable and
///   HBase split by size. Every write adds a row, since every write adds a cell version.
/// - [`fixed`](Self::fixed) and [`from_sample`](Self::from_sample): boundaries chosen up front,
///   as with HBase pre-splitting, or equal-count splits from a sample of keys, as Bigtable's
///   `SampleRowKeys` reports them.
///
/// Each write carries a time: [`record_at`](Self::record_at) takes one in any unit (seconds,
/// milliseconds); [`record`](Self::record) uses the write's position in the sequence instead,
/// so that time windows hold equal numbers of writes. Use one or the other for a simulation.
///
/// ```
/// use rowkey::hotspot::Simulator;
///
/// let mut sim = Simulator::dynamic(2)?;
/// for key in ["b", "d", "a"] {
///     sim.record(key);
/// }
/// // Three rows exceed two: the tablet split at its median key, "b".
/// assert_eq!(sim.tablet_count(), 2);
/// assert_eq!(sim.tablet_of(b"c").to_string(), "[b, +∞)");
/// # Ok::<(), rowkey::Error>(())
/// ```
///
/// # Cost
///
/// The simulator keeps every key it is given, so that a report can cut the same writes into
/// any time windows and key bands afterwards: about 80 bytes a write for keys of up to 56
/// bytes (longer keys add their length), on the order of 100 MB for a million writes. Finding
/// a write's tablet is a `BTreeMap` lookup.
///
/// A dynamic tablet also lists its rows, so that a split finds the exact median in linear time
/// (`select_nth_unstable`). A tablet splits again only after it has taken about half of
/// `max_rows` more writes, so this costs a constant amortised amount per write. Keeping a
/// sample of each tablet's keys instead would bound memory, but split at approximate medians
/// that depend on the sampling; the exact median keeps a simulation reproducible and easy to
/// check by hand.
#[derive(Clone, Debug)]
pub struct Simulator {
    splitting: Splitting,
    pub(super) keys: Vec<Key>,
    pub(super) times: Vec<u64>,
    /// Tablet start → tablet number. The first tablet starts at the empty key, the smallest
    /// one, so every key has a tablet.
    starts: BTreeMap<Key, usize>,
    /// Dynamic only: each tablet's rows as positions in `keys`, to find its median.
    rows: Vec<Vec<usize>>,
    /// Dynamic only: the row count above which a tablet tries to split. It is doubled for a
    /// tablet whose rows all share one key, which no store can split.
    split_above: Vec<usize>,
    /// Every split point with the number of writes recorded when it appeared (0 for fixed
    /// splits), in order of appearance, so a report can replay the layout over time.
    pub(super) splits: Vec<(usize, Key)>,
}

impl Simulator {
    /// A store that starts with one tablet and splits a tablet at its median key once it
    /// holds more than `max_rows` rows.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when `max_rows` is 0.
    ///
    /// ```
    /// use rowkey::hotspot::Simulator;
    ///
    /// let mut sim = Simulator::dynamic(100)?;
    /// for i in 0..1_000u32 {
    ///     sim.record(i.to_be_bytes());
    /// }
    /// // Each split leaves two tablets of about 50 rows.
    /// assert!((10..=20).contains(&sim.tablet_count()));
    /// assert!(Simulator::dynamic(0).is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn dynamic(max_rows: usize) -> Result<Simulator> {
        if max_rows == 0 {
            return Err(Error::argument("tablet size", "a tablet must be allowed at least one row before it splits"));
        }
        let mut sim = Simulator::with_points(Splitting::Dynamic { max_rows }, Vec::new());
        sim.rows.push(Vec::new());
        sim.split_above.push(max_rows);
        Ok(sim)
    }

    /// A store that starts pre-split at the given points (such as [`Splits::points`] from a
    /// key's [`split_planner`](crate::schema::Schema::split_planner)) and from then on splits a
    /// tablet at its median key once it holds more than `max_rows` rows, as a table created
    /// with initial splits does. The empty key and repeated points are ignored, as in
    /// [`fixed`](Self::fixed).
    ///
    /// [`Splits::points`]: crate::splits::Splits::points
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when `max_rows` is 0.
    ///
    /// ```
    /// use rowkey::hotspot::Simulator;
    ///
    /// let mut sim = Simulator::dynamic_with_splits(2, ["m"])?;
    /// assert_eq!(sim.tablet_count(), 2);
    /// for key in ["n", "p", "x"] {
    ///     sim.record(key);
    /// }
    /// // The tablet after "m" took three rows and split at their median.
    /// assert_eq!(sim.split_points().collect::<Vec<_>>(), ["m", "p"]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn dynamic_with_splits<I>(max_rows: usize, split_points: I) -> Result<Simulator>
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        if max_rows == 0 {
            return Err(Error::argument("tablet size", "a tablet must be allowed at least one row before it splits"));
        }
        let mut sim = Simulator::with_points(Splitting::Dynamic { max_rows }, sorted_points(split_points));
        // Tablet numbers are the positions in the sorted points plus one, as `with_points`
        // numbers them; each starts empty with the full allowance.
        sim.rows = vec![Vec::new(); sim.starts.len()];
        sim.split_above = vec![max_rows; sim.starts.len()];
        Ok(sim)
    }

    /// A store whose tablets start at the given split points and never split. The empty key
    /// is ignored (the first tablet starts there anyway), and so are repeated points.
    ///
    /// ```
    /// use rowkey::hotspot::Simulator;
    ///
    /// let sim = Simulator::fixed(["m", "g"]);
    /// let tablets: Vec<String> = sim.tablets().iter().map(|t| t.to_string()).collect();
    /// assert_eq!(tablets, ["(-∞, g)", "[g, m)", "[m, +∞)"]);
    /// ```
    pub fn fixed<I>(split_points: I) -> Simulator
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        Simulator::with_points(Splitting::Fixed, sorted_points(split_points))
    }

    /// A store pre-split into `tablets` tablets holding equal numbers of the sample's keys:
    /// [`fixed`](Self::fixed) with the points of [`sample_split_points`].
    ///
    /// ```
    /// use rowkey::hotspot::Simulator;
    ///
    /// let sample: Vec<String> = (0..1_000).map(|i| format!("user{i:04}")).collect();
    /// assert_eq!(Simulator::from_sample(&sample, 4).tablet_of(b"user0400").to_string(), "[user0250, user0500)");
    /// ```
    pub fn from_sample<I>(sample: I, tablets: usize) -> Simulator
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        Simulator::fixed(sample_split_points(sample, tablets))
    }

    fn with_points(splitting: Splitting, points: Vec<Key>) -> Simulator {
        let mut starts = BTreeMap::new();
        starts.insert(Key::new(), 0);
        let splits: Vec<(usize, Key)> = points.into_iter().map(|p| (0, p)).collect();
        for (i, (_, point)) in splits.iter().enumerate() {
            starts.insert(point.clone(), i + 1);
        }
        Simulator {
            splitting,
            keys: Vec::new(),
            times: Vec::new(),
            starts,
            rows: Vec::new(),
            split_above: Vec::new(),
            splits,
        }
    }

    /// Records a write at `time`, in whatever unit the caller uses throughout.
    ///
    /// Writes are fed in the order they happen, so a time earlier than the previous write's
    /// counts as the previous write's time.
    ///
    /// ```
    /// use rowkey::hotspot::Simulator;
    ///
    /// let mut sim = Simulator::dynamic(1_000)?;
    /// sim.record_at("sensor-1#0001", 1_700_000_000);
    /// sim.record_at("sensor-1#0002", 1_700_000_060);
    /// assert_eq!(sim.writes(), 2);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn record_at(&mut self, key: impl AsRef<[u8]>, time: u64) {
        let time = self.times.last().map_or(time, |&last| time.max(last));
        let key = Key::from(key.as_ref());
        let tablet = self.tablet_index(&key);
        let row = self.keys.len();
        self.keys.push(key);
        self.times.push(time);
        if let Splitting::Dynamic { max_rows } = self.splitting {
            self.rows[tablet].push(row);
            if self.rows[tablet].len() > self.split_above[tablet] {
                self.split(tablet, max_rows);
            }
        }
    }

    /// Records a write whose time is its position in the sequence (0, 1, 2, ...).
    ///
    /// ```
    /// use rowkey::hotspot::{Simulator, Windows};
    ///
    /// let mut sim = Simulator::fixed(["m"]);
    /// for key in ["a", "b", "x", "y"] {
    ///     sim.record(key);
    /// }
    /// let report = sim.report(Windows::Count(2));
    /// assert_eq!(report.windows()[0].tablets()[0].writes(), 2); // "a" and "b" come first
    /// ```
    pub fn record(&mut self, key: impl AsRef<[u8]>) {
        let time = u64::try_from(self.keys.len()).unwrap_or(u64::MAX);
        self.record_at(key, time);
    }

    /// How many writes were recorded.
    ///
    /// ```
    /// let mut sim = rowkey::hotspot::Simulator::fixed(["m"]);
    /// sim.record("a");
    /// assert_eq!(sim.writes(), 1);
    /// ```
    #[must_use]
    pub fn writes(&self) -> usize {
        self.keys.len()
    }

    /// How many tablets there are now.
    ///
    /// ```
    /// assert_eq!(rowkey::hotspot::Simulator::fixed(["a", "b"]).tablet_count(), 3);
    /// ```
    #[must_use]
    pub fn tablet_count(&self) -> usize {
        self.starts.len()
    }

    /// The current split points: where every tablet but the first starts, in key order.
    ///
    /// ```
    /// let sim = rowkey::hotspot::Simulator::fixed(["b", "a", ""]);
    /// assert_eq!(sim.split_points().collect::<Vec<_>>(), ["a", "b"]);
    /// ```
    pub fn split_points(&self) -> impl Iterator<Item = &Key> {
        self.starts.keys().skip(1)
    }

    /// The current tablets' key ranges, in key order.
    ///
    /// ```
    /// let sim = rowkey::hotspot::Simulator::fixed(["k"]);
    /// assert_eq!(sim.tablets()[1].to_string(), "[k, +∞)");
    /// ```
    #[must_use]
    pub fn tablets(&self) -> Vec<KeyRange> {
        tablet_ranges(&self.split_points().map(|p| p.as_bytes()).collect::<Vec<_>>())
    }

    /// The key range of the tablet that holds `key` now.
    ///
    /// ```
    /// let sim = rowkey::hotspot::Simulator::fixed(["g", "p"]);
    /// assert_eq!(sim.tablet_of(b"g").to_string(), "[g, p)");
    /// assert_eq!(sim.tablet_of(b"").to_string(), "(-∞, g)");
    /// ```
    #[must_use]
    pub fn tablet_of(&self, key: &[u8]) -> KeyRange {
        let start = self.starts.range::<[u8], _>((Bound::Unbounded, Bound::Included(key))).next_back();
        let end = self.starts.range::<[u8], _>((Bound::Excluded(key), Bound::Unbounded)).next();
        KeyRange::new(
            start.map_or(Bound::Unbounded, |(k, _)| start_bound(k)),
            end.map_or(Bound::Unbounded, |(k, _)| Bound::Excluded(k.clone())),
        )
    }

    fn tablet_index(&self, key: &[u8]) -> usize {
        self.starts.range::<[u8], _>((Bound::Unbounded, Bound::Included(key))).next_back().map_or(0, |(_, &t)| t)
    }

    /// Splits a dynamic tablet at its median key, or postpones the attempt when all its rows
    /// share one key.
    fn split(&mut self, tablet: usize, max_rows: usize) {
        let keys = &self.keys;
        let rows = &mut self.rows[tablet];
        let mid = rows.len() / 2;
        rows.select_nth_unstable_by(mid, |&a, &b| keys[a].as_bytes().cmp(keys[b].as_bytes()));
        let mut point = &keys[rows[mid]];
        // Rows equal to the median can sit on both sides of it; the boundary must leave at
        // least one row below it, so a median that is the smallest key moves up one key.
        if !rows.iter().any(|&r| keys[r] < *point) {
            match rows.iter().map(|&r| &keys[r]).filter(|k| *k > point).min() {
                Some(next) => point = next,
                None => {
                    self.split_above[tablet] = rows.len().saturating_mul(2);
                    return;
                }
            }
        }
        let point = point.clone();
        let (below, above): (Vec<usize>, Vec<usize>) = std::mem::take(rows).into_iter().partition(|&r| keys[r] < point);
        self.rows[tablet] = below;
        self.split_above[tablet] = max_rows;
        self.rows.push(above);
        self.split_above.push(max_rows);
        self.starts.insert(point.clone(), self.rows.len() - 1);
        self.splits.push((self.keys.len(), point));
    }
}

/// Split points sorted, without repeats and without the empty key, as `Splits` keeps them.
fn sorted_points<I>(split_points: I) -> Vec<Key>
where
    I: IntoIterator,
    I::Item: AsRef<[u8]>,
{
    crate::splits::Splits::new(split_points).into_points()
}

/// A tablet start as a bound: the first tablet starts at the empty key, shown as unbounded.
fn start_bound(start: &[u8]) -> Bound<Key> {
    if start.is_empty() { Bound::Unbounded } else { Bound::Included(Key::from(start)) }
}

/// The tablets that sorted `points` cut the key space into.
pub(super) fn tablet_ranges(points: &[&[u8]]) -> Vec<KeyRange> {
    let starts = std::iter::once(Bound::Unbounded).chain(points.iter().map(|p| start_bound(p)));
    let ends = points.iter().map(|&p| Bound::Excluded(Key::from(p))).chain(std::iter::once(Bound::Unbounded));
    starts.zip(ends).map(|(start, end)| KeyRange::new(start, end)).collect()
}
