//! Scan bounds over raw key bytes: [`prefix_successor`], [`key_after`], [`KeyRange`] and
//! [`KeyRanges`].
//!
//! A range-partitioned store serves one key, one prefix or one range fast. These types say
//! which keys a read covers, in the store's own terms (bytes, sorted bytewise, a prefix before
//! its extensions), independently of how the keys were encoded.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Bound, Range, RangeBounds, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

use crate::key::Key;

mod ranges;

pub use ranges::KeyRanges;

/// The exclusive end of a scan over every key that starts with `prefix`; `None` when no such
/// end exists and the scan runs to the end of the table.
///
/// Trailing `FF` bytes are dropped and the last remaining byte is incremented, so the end is
/// the shortest key above every extension of the prefix. This is the end key the Go and Java
/// Bigtable clients and HBase compute. Keeping the length instead (`01 FF` → `02 00`, as TiKV
/// does) would also admit the key `02`; an empty or all-`FF` prefix has no finite end.
///
/// ```
/// use rowkey::prefix_successor;
///
/// assert_eq!(prefix_successor(b"phone#").unwrap(), "phone$");
/// assert_eq!(prefix_successor(b"\x01\xff").unwrap(), b"\x02");
/// assert_eq!(prefix_successor(b"\xff\xff"), None);
/// assert_eq!(prefix_successor(b""), None);
/// ```
#[must_use]
pub fn prefix_successor(prefix: &[u8]) -> Option<Key> {
    let last = prefix.iter().rposition(|&b| b != 0xff)?;
    let mut end = Key::from(&prefix[..=last]);
    end.as_mut_bytes()[last] += 1;
    Some(end)
}

/// The smallest key greater than `key`: `key` followed by one `00` byte.
///
/// No key lies strictly between `key` and `key_after(key)`, so an inclusive end at `key` and an
/// exclusive end at `key_after(key)` bound the same keys.
///
/// ```
/// use rowkey::key_after;
///
/// assert_eq!(key_after(b"user1"), b"user1\x00");
/// assert!(key_after(b"user1").as_bytes() < b"user1\x01".as_slice());
/// ```
#[must_use]
pub fn key_after(key: &[u8]) -> Key {
    let mut after = Key::with_capacity(key.len() + 1);
    after.extend_from_slice(key);
    after.push(0);
    after
}

/// A position between keys, for comparing bounds of any kind against each other.
///
/// Every bound is such a position: a start at `k` inclusive sits just below `k`, a start at
/// `k` exclusive just below `k ++ 00` (nothing lies between the two keys), and so on. Two
/// bounds meet exactly when their positions are equal, which makes emptiness, adjacency and
/// overlap plain comparisons.
#[derive(Clone, Copy)]
enum Cut<'a> {
    /// Just below `key`, or below `key ++ 00` when `nul` is set; the `00` is never
    /// materialised so that comparing bounds does not allocate.
    Below { key: &'a [u8], nul: bool },
    /// Above every key.
    Top,
}

impl<'a> Cut<'a> {
    fn below(key: &'a [u8]) -> Self {
        Cut::Below { key, nul: false }
    }

    fn start(bound: Bound<&'a Key>) -> Self {
        match bound {
            // The empty key is the smallest, so "no start" is "from the empty key".
            Bound::Unbounded => Cut::below(b""),
            Bound::Included(key) => Cut::below(key),
            Bound::Excluded(key) => Cut::Below { key, nul: true },
        }
    }

    fn end(bound: Bound<&'a Key>) -> Self {
        match bound {
            Bound::Unbounded => Cut::Top,
            Bound::Included(key) => Cut::Below { key, nul: true },
            Bound::Excluded(key) => Cut::below(key),
        }
    }
}

impl Ord for Cut<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Cut::Top, Cut::Top) => Ordering::Equal,
            (Cut::Top, Cut::Below { .. }) => Ordering::Greater,
            (Cut::Below { .. }, Cut::Top) => Ordering::Less,
            (Cut::Below { key: a, nul: a_nul }, Cut::Below { key: b, nul: b_nul }) => {
                // The common length as slices (a memcmp), then what is left of the longer key
                // against the other's `00`, if any: at most two more bytes compared.
                let n = a.len().min(b.len());
                let tail = |nul: &bool| if *nul { &[0u8][..] } else { &[][..] };
                a[..n].cmp(&b[..n]).then_with(|| a[n..].iter().chain(tail(a_nul)).cmp(b[n..].iter().chain(tail(b_nul))))
            }
        }
    }
}

impl PartialOrd for Cut<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// By position, not by representation: `k` exclusive and `k ++ 00` inclusive are one start.
impl PartialEq for Cut<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Cut<'_> {}

/// The keys between a start and an end bound, each inclusive, exclusive or unbounded.
///
/// A `KeyRange` implements [`RangeBounds<[u8]>`](RangeBounds), so it goes straight to
/// [`BTreeMap::range`](std::collections::BTreeMap::range) over [`Key`]s and to stores with a
/// similar API; [`bounds`](KeyRange::bounds) gives the same bounds over `&[u8]` for APIs that
/// want those instead. The `start_key_*` and `end_key_*` methods give the sides of a Bigtable
/// `RowRange`.
///
/// Ranges are built from a prefix, a single key, explicit bounds, or any std range over bytes,
/// strings or keys through `From` (`a..b`, `a..=b`, `a..`, `..b`, `..=b`, `..` and a pair of
/// [`Bound`]s):
///
/// ```
/// use std::collections::BTreeMap;
/// use rowkey::{Key, KeyRange};
///
/// let rows: BTreeMap<Key, u32> =
///     [("phone#1", 1), ("phone#2", 2), ("tablet#1", 3)].map(|(k, v)| (Key::from(k), v)).into();
///
/// let phones = KeyRange::prefix(b"phone#");
/// assert_eq!(phones.to_string(), "[phone#, phone$)");
/// let found: Vec<u32> = rows.range::<[u8], _>(&phones).map(|(_, v)| *v).collect();
/// assert_eq!(found, [1, 2]);
///
/// let up_to_tablets = KeyRange::from("phone#2"..="tablet#1");
/// assert_eq!(rows.range::<[u8], _>(&up_to_tablets).count(), 2);
/// ```
///
/// `BTreeMap::range` panics when the start is above the end; check
/// [`is_empty`](KeyRange::is_empty) first when a range may be empty. Equality compares the
/// bounds as written: `[a, a]` and `[a, a\x00)` hold the same keys but are not `==`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct KeyRange {
    start: Bound<Key>,
    end: Bound<Key>,
}

impl KeyRange {
    /// The range between two bounds, as given; it may be empty.
    ///
    /// ```
    /// use std::ops::Bound::{Excluded, Included};
    /// use rowkey::{Key, KeyRange};
    ///
    /// let range = KeyRange::new(Excluded(Key::from("a")), Included(Key::from("c")));
    /// assert!(!range.contains(b"a") && range.contains(b"b") && range.contains(b"c"));
    /// ```
    #[must_use]
    pub fn new(start: Bound<Key>, end: Bound<Key>) -> Self {
        KeyRange { start, end }
    }

    /// Every key.
    ///
    /// ```
    /// assert!(rowkey::KeyRange::all().contains(b"\xff\xff"));
    /// ```
    #[must_use]
    pub fn all() -> Self {
        KeyRange::new(Bound::Unbounded, Bound::Unbounded)
    }

    /// Every key that starts with `prefix`: from the prefix inclusive to its
    /// [`prefix_successor`] exclusive, or to the end of the table when it has none.
    ///
    /// This works on bytes: the prefix `user1` also covers `user10`. Stop at a field boundary
    /// (include the separator) to match a whole field value.
    ///
    /// ```
    /// use rowkey::KeyRange;
    ///
    /// let range = KeyRange::prefix(b"\x01\xff");
    /// assert_eq!(range.to_string(), r"[\x01\xff, \x02)");
    /// assert!(range.contains(b"\x01\xff\xff") && !range.contains(b"\x02"));
    /// assert_eq!(KeyRange::prefix(b"\xff").end_key_open(), None);
    /// ```
    #[must_use]
    pub fn prefix(prefix: &[u8]) -> Self {
        let end = prefix_successor(prefix).map_or(Bound::Unbounded, Bound::Excluded);
        KeyRange::new(Bound::Included(Key::from(prefix)), end)
    }

    /// Exactly one key: `[key, key]`.
    ///
    /// ```
    /// let range = rowkey::KeyRange::key(b"user1");
    /// assert!(range.contains(b"user1") && !range.contains(b"user1\x00"));
    /// ```
    #[must_use]
    pub fn key(key: &[u8]) -> Self {
        let key = Key::from(key);
        KeyRange::new(Bound::Included(key.clone()), Bound::Included(key))
    }

    /// Copies the bounds of anything that bounds byte slices, such as a pair of
    /// `Bound<&[u8]>` from another API. Std ranges over strings, arrays or keys convert with
    /// `From` instead.
    ///
    /// ```
    /// use std::ops::Bound::{Excluded, Unbounded};
    /// use rowkey::KeyRange;
    ///
    /// let bounds: (std::ops::Bound<&[u8]>, _) = (Unbounded, Excluded(&b"m"[..]));
    /// assert_eq!(KeyRange::from_bounds(bounds).to_string(), "(-∞, m)");
    /// ```
    #[must_use]
    pub fn from_bounds<R: RangeBounds<[u8]>>(range: R) -> Self {
        KeyRange::new(range.start_bound().map(Key::from), range.end_bound().map(Key::from))
    }

    /// The start bound.
    ///
    /// Returned as `Bound<&Key>` to keep the key's readable `Display`; a `&Key` dereferences
    /// to `&[u8]`, and [`RangeBounds::start_bound`] gives the bound over `[u8]`.
    ///
    /// ```
    /// use std::ops::Bound;
    /// let range = rowkey::KeyRange::prefix(b"a");
    /// assert_eq!(range.start(), Bound::Included(&rowkey::Key::from("a")));
    /// ```
    #[must_use]
    pub fn start(&self) -> Bound<&Key> {
        self.start.as_ref()
    }

    /// The end bound; see [`start`](KeyRange::start) for the type.
    ///
    /// ```
    /// use std::ops::Bound;
    /// let range = rowkey::KeyRange::prefix(b"a");
    /// assert_eq!(range.end(), Bound::Excluded(&rowkey::Key::from("b")));
    /// ```
    #[must_use]
    pub fn end(&self) -> Bound<&Key> {
        self.end.as_ref()
    }

    /// Both bounds over `&[u8]`, for range APIs that take `RangeBounds<&[u8]>` rather than
    /// `RangeBounds<[u8]>`.
    ///
    /// ```
    /// use std::collections::BTreeSet;
    /// let keys: BTreeSet<&[u8]> = [&b"a"[..], b"ab", b"b"].into();
    /// let range = rowkey::KeyRange::prefix(b"a");
    /// assert_eq!(keys.range::<&[u8], _>(range.bounds()).count(), 2);
    /// ```
    #[must_use]
    pub fn bounds(&self) -> (Bound<&[u8]>, Bound<&[u8]>) {
        (self.start_bound(), self.end_bound())
    }

    /// The owned bounds, start then end.
    ///
    /// ```
    /// let (start, _end) = rowkey::KeyRange::all().into_bounds();
    /// assert_eq!(start, std::ops::Bound::Unbounded);
    /// ```
    #[must_use]
    pub fn into_bounds(self) -> (Bound<Key>, Bound<Key>) {
        (self.start, self.end)
    }

    /// Whether `key` lies in the range.
    ///
    /// ```
    /// let range = rowkey::KeyRange::from(&b"a"[..]..&b"b"[..]);
    /// assert!(range.contains(b"a\xff") && !range.contains(b"b"));
    /// ```
    #[must_use]
    pub fn contains(&self, key: &[u8]) -> bool {
        let at = Cut::below(key);
        self.lower() <= at && at < self.upper()
    }

    /// Whether no key can lie in the range: the start is above the end, or they meet with no
    /// key between them, as in `[k, k)`, `(k, k]` and `(k, k\x00)`.
    ///
    /// ```
    /// use rowkey::{key_after, Key, KeyRange};
    /// use std::ops::Bound::Excluded;
    ///
    /// assert!(KeyRange::from("b".."a").is_empty());
    /// assert!(KeyRange::new(Excluded(Key::from("k")), Excluded(key_after(b"k"))).is_empty());
    /// assert!(!KeyRange::key(b"k").is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lower() >= self.upper()
    }

    /// The key of Bigtable's `RowRange.start_key_closed`, set when the start is inclusive.
    ///
    /// Bigtable's `RowRange` holds one of `start_key_closed` and `start_key_open`, and one of
    /// `end_key_open` and `end_key_closed`; a side with neither is unbounded. Do not send a
    /// range whose end key is empty: it holds no row Bigtable can store, and some clients read
    /// an empty end as no end at all.
    ///
    /// ```
    /// let range = rowkey::KeyRange::prefix(b"phone#");
    /// assert_eq!(range.start_key_closed(), Some(&b"phone#"[..]));
    /// assert_eq!(range.start_key_open(), None);
    /// assert_eq!(range.end_key_open(), Some(&b"phone$"[..]));
    /// assert_eq!(range.end_key_closed(), None);
    /// ```
    #[must_use]
    pub fn start_key_closed(&self) -> Option<&[u8]> {
        included(self.start_bound())
    }

    /// The key of Bigtable's `RowRange.start_key_open`, set when the start is exclusive.
    ///
    /// ```
    /// let range = rowkey::KeyRange::from((std::ops::Bound::Excluded("a"), std::ops::Bound::Unbounded));
    /// assert_eq!(range.start_key_open(), Some(&b"a"[..]));
    /// ```
    #[must_use]
    pub fn start_key_open(&self) -> Option<&[u8]> {
        excluded(self.start_bound())
    }

    /// The key of Bigtable's `RowRange.end_key_open`, set when the end is exclusive.
    ///
    /// ```
    /// assert_eq!(rowkey::KeyRange::from("a".."b").end_key_open(), Some(&b"b"[..]));
    /// ```
    #[must_use]
    pub fn end_key_open(&self) -> Option<&[u8]> {
        excluded(self.end_bound())
    }

    /// The key of Bigtable's `RowRange.end_key_closed`, set when the end is inclusive.
    ///
    /// ```
    /// assert_eq!(rowkey::KeyRange::key(b"a").end_key_closed(), Some(&b"a"[..]));
    /// ```
    #[must_use]
    pub fn end_key_closed(&self) -> Option<&[u8]> {
        included(self.end_bound())
    }

    /// The part of the range above `key`: what is left to read once a scan has returned
    /// `key`. The start becomes `(key` when that is higher than the range's own start; the
    /// end stays. The result may be empty.
    ///
    /// ```
    /// use rowkey::KeyRange;
    ///
    /// let range = KeyRange::prefix(b"phone#");
    /// assert_eq!(range.after(b"phone#7").to_string(), "(phone#7, phone$)");
    /// assert_eq!(range.after(b"a"), range); // below the start: nothing is cut
    /// assert!(range.after(b"phone$").is_empty());
    /// ```
    #[must_use]
    pub fn after(&self, key: &[u8]) -> KeyRange {
        if self.lower() > (Cut::Below { key, nul: true }) {
            return self.clone();
        }
        KeyRange::new(Bound::Excluded(Key::from(key)), self.end.clone())
    }

    fn lower(&self) -> Cut<'_> {
        Cut::start(self.start())
    }

    fn upper(&self) -> Cut<'_> {
        Cut::end(self.end())
    }

    /// Grows to the smallest range covering both; only meaningful when they overlap or meet.
    fn absorb(&mut self, other: KeyRange) {
        let (lower, upper) = (other.lower() < self.lower(), other.upper() > self.upper());
        if lower {
            self.start = other.start;
        }
        if upper {
            self.end = other.end;
        }
    }
}

fn included(bound: Bound<&[u8]>) -> Option<&[u8]> {
    match bound {
        Bound::Included(key) => Some(key),
        _ => None,
    }
}

fn excluded(bound: Bound<&[u8]>) -> Option<&[u8]> {
    match bound {
        Bound::Excluded(key) => Some(key),
        _ => None,
    }
}

impl RangeBounds<[u8]> for KeyRange {
    fn start_bound(&self) -> Bound<&[u8]> {
        self.start.as_ref().map(Key::as_bytes)
    }

    fn end_bound(&self) -> Bound<&[u8]> {
        self.end.as_ref().map(Key::as_bytes)
    }
}

// `BTreeMap::range` takes its argument by value; this lets callers lend a range instead.
impl RangeBounds<[u8]> for &KeyRange {
    fn start_bound(&self) -> Bound<&[u8]> {
        (**self).start_bound()
    }

    fn end_bound(&self) -> Bound<&[u8]> {
        (**self).end_bound()
    }
}

fn to_key<T: AsRef<[u8]>>(bytes: T) -> Key {
    Key::from(bytes.as_ref())
}

impl<T: AsRef<[u8]>> From<Range<T>> for KeyRange {
    fn from(range: Range<T>) -> Self {
        KeyRange::new(Bound::Included(to_key(range.start)), Bound::Excluded(to_key(range.end)))
    }
}

impl<T: AsRef<[u8]>> From<RangeInclusive<T>> for KeyRange {
    fn from(range: RangeInclusive<T>) -> Self {
        let (start, end) = range.into_inner();
        KeyRange::new(Bound::Included(to_key(start)), Bound::Included(to_key(end)))
    }
}

impl<T: AsRef<[u8]>> From<RangeFrom<T>> for KeyRange {
    fn from(range: RangeFrom<T>) -> Self {
        KeyRange::new(Bound::Included(to_key(range.start)), Bound::Unbounded)
    }
}

impl<T: AsRef<[u8]>> From<RangeTo<T>> for KeyRange {
    fn from(range: RangeTo<T>) -> Self {
        KeyRange::new(Bound::Unbounded, Bound::Excluded(to_key(range.end)))
    }
}

impl<T: AsRef<[u8]>> From<RangeToInclusive<T>> for KeyRange {
    fn from(range: RangeToInclusive<T>) -> Self {
        KeyRange::new(Bound::Unbounded, Bound::Included(to_key(range.end)))
    }
}

impl From<RangeFull> for KeyRange {
    fn from(_: RangeFull) -> Self {
        KeyRange::all()
    }
}

impl<T: AsRef<[u8]>> From<(Bound<T>, Bound<T>)> for KeyRange {
    fn from((start, end): (Bound<T>, Bound<T>)) -> Self {
        KeyRange::new(start.map(to_key), end.map(to_key))
    }
}

/// `[start, end)` with each side's bracket showing how it is bounded and the keys in their
/// readable form; an unbounded side shows as `-∞` or `+∞`.
impl fmt::Display for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            Bound::Included(key) => write!(f, "[{key}, ")?,
            Bound::Excluded(key) => write!(f, "({key}, ")?,
            Bound::Unbounded => f.write_str("(-∞, ")?,
        }
        match &self.end {
            Bound::Included(key) => write!(f, "{key}]"),
            Bound::Excluded(key) => write!(f, "{key})"),
            Bound::Unbounded => f.write_str("+∞)"),
        }
    }
}

impl fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key of up to three bytes over `00`, `01` and `ff`.
    fn short_keys() -> Vec<Vec<u8>> {
        let mut keys = vec![Vec::new()];
        for len in 1..=3 {
            for n in 0..3usize.pow(len) {
                keys.push((0..len).map(|i| [0x00, 0x01, 0xff][n / 3usize.pow(i) % 3]).collect());
            }
        }
        keys
    }

    #[test]
    fn cuts_compare_as_their_keys_with_the_nul_appended() {
        let keys = short_keys();
        for a in &keys {
            for b in &keys {
                for (a_nul, b_nul) in [(false, false), (false, true), (true, false), (true, true)] {
                    let materialised = |key: &[u8], nul: bool| [key, if nul { &[0][..] } else { &[] }].concat();
                    let want = materialised(a, a_nul).cmp(&materialised(b, b_nul));
                    let got = Cut::Below { key: a, nul: a_nul }.cmp(&Cut::Below { key: b, nul: b_nul });
                    assert_eq!(
                        got,
                        want,
                        "{a:x?}{} vs {b:x?}{}",
                        if a_nul { "+00" } else { "" },
                        if b_nul { "+00" } else { "" }
                    );
                }
            }
            assert_eq!(Cut::below(a).cmp(&Cut::Top), Ordering::Less);
        }
    }
}
