//! [`KeyRanges`]: a sorted set of disjoint key ranges, what a read fans out to.

use std::fmt;

use smallvec::SmallVec;

use super::{Cut, KeyRange};

/// A set of keys as ranges kept sorted by start, with no two overlapping or meeting: ranges
/// that overlap or touch (`[a, b)` and `[b, c)`, `[a, b]` and `(b, c)`) are merged into one,
/// and empty ranges are dropped.
///
/// This is what a read fans out to, such as one range per salt bucket.
///
/// ```
/// use rowkey::{KeyRange, KeyRanges};
///
/// let ranges: KeyRanges = [
///     KeyRange::prefix(b"\x01phone#"),
///     KeyRange::prefix(b"\x00phone#"),
///     KeyRange::from("b".."a"),                   // empty: dropped
///     KeyRange::from(&b"\x00phone$"[..]..b"\x00q"), // meets the first: merged
/// ]
/// .into_iter()
/// .collect();
/// assert_eq!(ranges.to_string(), r"{[\x00phone#, \x00q), [\x01phone#, \x01phone$)}");
/// assert!(ranges.contains(b"\x00phone$1") && !ranges.contains(b"\x01q"));
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct KeyRanges {
    // One range is the common case (a prefix, or a prefix and a range of the next field):
    // it stays inline, so computing it allocates nothing. Room for one only: a `KeyRange`
    // is 144 bytes, and every byte held inline is copied each time the ranges move (a
    // derived scan's `Result` moves them twice), which made a prefix range cost more than
    // three encodes with room for two.
    ranges: SmallVec<[KeyRange; 1]>,
}

impl KeyRanges {
    /// No ranges.
    ///
    /// ```
    /// assert!(rowkey::KeyRanges::new().is_empty());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        KeyRanges::default()
    }

    /// Adds a range, merging it with the ranges it overlaps or meets; an empty range changes
    /// nothing.
    ///
    /// ```
    /// use rowkey::{KeyRange, KeyRanges};
    ///
    /// let mut ranges = KeyRanges::new();
    /// ranges.push(KeyRange::from("c".."d"));
    /// ranges.push(KeyRange::from("a".."b"));
    /// ranges.push(KeyRange::from("b"..="c"));
    /// assert_eq!(ranges.to_string(), "{[a, d)}");
    /// ```
    pub fn push(&mut self, range: KeyRange) {
        if range.is_empty() {
            return;
        }
        // Ranges usually arrive in order (a fan-out, bucket by bucket): append without a search.
        if self.ranges.last().is_none_or(|last| last.upper() < range.lower()) {
            self.ranges.push(range);
            return;
        }
        // Ranges before `first` end below the new one's start, ranges from `past` on start
        // above its end: those in between overlap or meet it.
        let first = self.ranges.partition_point(|r| r.upper() < range.lower());
        let past = self.ranges.partition_point(|r| r.lower() <= range.upper());
        let mut merged = range;
        for overlapping in self.ranges.drain(first..past) {
            merged.absorb(overlapping);
        }
        self.ranges.insert(first, merged);
    }

    /// The ranges, in key order.
    ///
    /// ```
    /// let ranges: rowkey::KeyRanges = [rowkey::KeyRange::key(b"a")].into_iter().collect();
    /// assert_eq!(ranges.iter().next(), Some(&rowkey::KeyRange::key(b"a")));
    /// ```
    pub fn iter(&self) -> std::slice::Iter<'_, KeyRange> {
        self.ranges.iter()
    }

    /// The ranges as a slice, in key order.
    ///
    /// ```
    /// let ranges: rowkey::KeyRanges = [rowkey::KeyRange::all()].into_iter().collect();
    /// assert_eq!(ranges.as_slice(), [rowkey::KeyRange::all()]);
    /// ```
    #[must_use]
    pub fn as_slice(&self) -> &[KeyRange] {
        &self.ranges
    }

    /// How many disjoint ranges there are.
    ///
    /// ```
    /// let ranges: rowkey::KeyRanges = ["a".."b", "b".."c"].map(rowkey::KeyRange::from).into_iter().collect();
    /// assert_eq!(ranges.len(), 1);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Whether there are no ranges, so no key is covered: a query that no key can match.
    ///
    /// Check it before turning the ranges into a store's request. A read over no ranges
    /// should not reach the store at all, since stores read a request without bounds as the
    /// whole key space: a Bigtable `ReadRowsRequest` whose `RowSet` holds no range returns
    /// every row of the table.
    ///
    /// ```
    /// let ranges: rowkey::KeyRanges = [rowkey::KeyRange::from("b".."a")].into_iter().collect();
    /// assert!(ranges.is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether one of the ranges holds `key`; a binary search.
    ///
    /// ```
    /// let ranges: rowkey::KeyRanges = [b"\x00a", b"\x01a"].map(|p| rowkey::KeyRange::prefix(p)).into_iter().collect();
    /// assert!(ranges.contains(b"\x01a1") && !ranges.contains(b"\x01b"));
    /// ```
    #[must_use]
    pub fn contains(&self, key: &[u8]) -> bool {
        let at = Cut::below(key);
        let after = self.ranges.partition_point(|r| r.lower() <= at);
        after > 0 && at < self.ranges[after - 1].upper()
    }
}

impl KeyRanges {
    /// The keys of these ranges above `key`: the ranges that end at or below it are gone,
    /// the one holding it starts just after it. A resumed read asks for exactly this after
    /// the last row it received.
    ///
    /// ```
    /// use rowkey::{KeyRange, KeyRanges};
    ///
    /// let ranges: KeyRanges = [KeyRange::prefix(b"a"), KeyRange::prefix(b"c")].into_iter().collect();
    /// assert_eq!(ranges.after(b"a7").to_string(), "{(a7, b), [c, d)}");
    /// assert_eq!(ranges.after(b"c").to_string(), "{(c, d)}");
    /// assert!(ranges.after(b"d").is_empty());
    /// ```
    #[must_use]
    pub fn after(&self, key: &[u8]) -> KeyRanges {
        let at = Cut::Below { key, nul: true };
        // Ranges whose end is at or below the cut just past `key` hold nothing above it.
        let first = self.ranges.partition_point(|r| r.upper() <= at);
        let mut rest = self.ranges[first..].iter();
        let mut ranges = SmallVec::<[KeyRange; 1]>::with_capacity(self.ranges.len() - first);
        if let Some(head) = rest.next() {
            ranges.push(head.after(key));
        }
        ranges.extend(rest.cloned());
        KeyRanges { ranges }
    }
}

impl FromIterator<KeyRange> for KeyRanges {
    fn from_iter<I: IntoIterator<Item = KeyRange>>(iter: I) -> Self {
        let mut sorted: Vec<KeyRange> = iter.into_iter().filter(|r| !r.is_empty()).collect();
        sorted.sort_by(|a, b| a.lower().cmp(&b.lower()));
        let mut ranges = SmallVec::<[KeyRange; 1]>::with_capacity(sorted.len());
        for range in sorted {
            match ranges.last_mut() {
                Some(last) if range.lower() <= last.upper() => last.absorb(range),
                _ => ranges.push(range),
            }
        }
        KeyRanges { ranges }
    }
}

impl Extend<KeyRange> for KeyRanges {
    fn extend<I: IntoIterator<Item = KeyRange>>(&mut self, iter: I) {
        for range in iter {
            self.push(range);
        }
    }
}

impl From<KeyRange> for KeyRanges {
    /// One range (none when it is empty), held inline: no sort and no allocation.
    #[inline]
    fn from(range: KeyRange) -> Self {
        if range.is_empty() {
            return KeyRanges::new();
        }
        KeyRanges::one(range)
    }
}

impl KeyRanges {
    /// One range that the caller knows is not empty, built in place.
    #[inline]
    pub(crate) fn one(range: KeyRange) -> Self {
        debug_assert!(!range.is_empty());
        KeyRanges { ranges: smallvec::smallvec![range] }
    }
}

impl IntoIterator for KeyRanges {
    type Item = KeyRange;
    type IntoIter = smallvec::IntoIter<[KeyRange; 1]>;

    fn into_iter(self) -> Self::IntoIter {
        self.ranges.into_iter()
    }
}

impl<'a> IntoIterator for &'a KeyRanges {
    type Item = &'a KeyRange;
    type IntoIter = std::slice::Iter<'a, KeyRange>;

    fn into_iter(self) -> Self::IntoIter {
        self.ranges.iter()
    }
}

/// The ranges in braces, each as [`KeyRange`] shows it: `{[a, b), [c, d]}`.
impl fmt::Display for KeyRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, range) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{range}")?;
        }
        f.write_str("}")
    }
}

impl fmt::Debug for KeyRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
