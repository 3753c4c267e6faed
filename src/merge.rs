//! [`merge`] and [`try_merge`]: one sorted stream from many already-sorted ones, such as the
//! per-bucket scans of a salted read.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;
use std::iter::FusedIterator;

/// Merges streams that are each sorted by `key_of` into one stream sorted by `key_of`, lazily.
///
/// A salted table spreads neighbouring keys over buckets, so a read that does not know the
/// salt scans every bucket and gets one sorted stream per bucket. `key_of` gives the order the
/// rows should come out in: typically the key without its bucket field (the unsalted key),
/// as any `Ord` value. A [`Key`](crate::Key) holds up to 56 bytes without allocating, which
/// makes `Key::from(&key[1..])` a cheap extractor.
///
/// Each row costs O(log k) for k streams. Rows with equal keys come out in stream order (all
/// of stream 0's first), and in their own order within a stream.
///
/// The merge pulls a row from a stream only when it must: nothing before the first call to
/// `next`, then one row from every stream, then one more row from the stream that the last
/// row came from, when the following row is asked for. So a stream is never read more than
/// one row past what was taken from it, and stopping early with
/// [`take`](Iterator::take) stops the reads: the latest 10 readings across 16 buckets read at
/// most 10 + 15 rows.
///
/// ```
/// use rowkey::{merge, Key};
///
/// // Readings keyed `bucket ++ (u64::MAX - millis) ++ device`: newest first in each bucket,
/// // the bucket spreading the writes of each moment over 16 tablets.
/// let key = |bucket: u8, millis: u64, device: &str| {
///     let mut key = Key::from(&[bucket][..]);
///     key.extend_from_slice(&(u64::MAX - millis).to_be_bytes());
///     key.extend_from_slice(device.as_bytes());
///     key
/// };
/// let buckets: Vec<Vec<(Key, f32)>> = (0..16u8)
///     .map(|b| (0..100u64).map(|i| (key(b, 1_000 * i + u64::from(b), "d"), 20.5)).rev().collect())
///     .collect();
///
/// let latest: Vec<(Key, f32)> =
///     merge(buckets, |(key, _)| Key::from(&key[1..])).take(10).collect();
///
/// let millis = |key: &Key| u64::MAX - u64::from_be_bytes(key[1..9].try_into().unwrap());
/// let times: Vec<u64> = latest.iter().map(|(key, _)| millis(key)).collect();
/// assert_eq!(times, [99_015, 99_014, 99_013, 99_012, 99_011, 99_010, 99_009, 99_008, 99_007, 99_006]);
/// ```
///
/// For streams that can fail, such as scans over the network, use [`try_merge`].
pub fn merge<I, T, F, K>(streams: I, key_of: F) -> Merge<<I::Item as IntoIterator>::IntoIter, F, K>
where
    I: IntoIterator,
    I::Item: IntoIterator<Item = T>,
    F: FnMut(&T) -> K,
    K: Ord,
{
    Merge { heads: Heads::new(streams), key_of }
}

/// Like [`merge`], for streams of `Result`s: rows come out as `merge` orders the `Ok` ones,
/// and the first `Err` any stream gives comes out as soon as it is read, after which the merge
/// ends and drops the streams.
///
/// `key_of` sees the `Ok` rows only.
///
/// ```
/// let buckets = vec![
///     vec![Ok(1), Ok(4)],
///     vec![Ok(2), Err("bucket 1 timed out"), Ok(3)],
/// ];
/// let rows: Vec<Result<i32, &str>> = rowkey::try_merge(buckets, |row| *row).collect();
/// assert_eq!(rows, [Ok(1), Ok(2), Err("bucket 1 timed out")]);
///
/// // Or stop at the first error with `collect` into a `Result`:
/// let all: Result<Vec<i32>, &str> =
///     rowkey::try_merge([vec![Ok(3)], vec![Ok(1), Ok(5)]], |row| *row).collect();
/// assert_eq!(all, Ok(vec![1, 3, 5]));
/// ```
pub fn try_merge<I, T, E, F, K>(streams: I, key_of: F) -> TryMerge<<I::Item as IntoIterator>::IntoIter, F, K>
where
    I: IntoIterator,
    I::Item: IntoIterator<Item = Result<T, E>>,
    F: FnMut(&T) -> K,
    K: Ord,
{
    TryMerge { heads: Heads::new(streams), key_of }
}

/// The iterator [`merge`] returns.
///
/// ```
/// let merged: rowkey::Merge<_, _, _> = rowkey::merge([[1, 3], [2, 4]], |n| *n);
/// assert_eq!(merged.collect::<Vec<_>>(), [1, 2, 3, 4]);
/// ```
pub struct Merge<S: Iterator, F, K> {
    heads: Heads<S, K>,
    key_of: F,
}

impl<S, F, K> Iterator for Merge<S, F, K>
where
    S: Iterator,
    F: FnMut(&S::Item) -> K,
    K: Ord,
{
    type Item = S::Item;

    fn next(&mut self) -> Option<S::Item> {
        self.heads.next(&mut self.key_of)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.heads.size_hint()
    }
}

impl<S, F, K> FusedIterator for Merge<S, F, K>
where
    S: Iterator,
    F: FnMut(&S::Item) -> K,
    K: Ord,
{
}

impl<S: Iterator, F, K> fmt::Debug for Merge<S, F, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.heads.debug(f, "Merge")
    }
}

/// The iterator [`try_merge`] returns.
///
/// ```
/// let merged = rowkey::try_merge([[Ok::<_, ()>(2)], [Ok(1)]], |n| *n);
/// assert_eq!(merged.collect::<Result<Vec<_>, _>>(), Ok(vec![1, 2]));
/// ```
pub struct TryMerge<S: Iterator, F, K> {
    // Errors sort first (`None`), so one comes out right after it is read.
    heads: Heads<S, Option<K>>,
    key_of: F,
}

impl<S, T, E, F, K> Iterator for TryMerge<S, F, K>
where
    S: Iterator<Item = Result<T, E>>,
    F: FnMut(&T) -> K,
    K: Ord,
{
    type Item = Result<T, E>;

    fn next(&mut self) -> Option<Result<T, E>> {
        let key_of = &mut self.key_of;
        let row = self.heads.next(|row: &Result<T, E>| row.as_ref().ok().map(&mut *key_of))?;
        if row.is_err() {
            self.heads.stop();
        }
        Some(row)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // An error may end the merge at any row.
        let (lower, upper) = self.heads.size_hint();
        (lower.min(1), upper)
    }
}

impl<S, T, E, F, K> FusedIterator for TryMerge<S, F, K>
where
    S: Iterator<Item = Result<T, E>>,
    F: FnMut(&T) -> K,
    K: Ord,
{
}

impl<S: Iterator, F, K> fmt::Debug for TryMerge<S, F, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.heads.debug(f, "TryMerge")
    }
}

/// The streams and the row each has waiting, shared by both merges.
struct Heads<S: Iterator, K> {
    /// `None` once a stream has ended, so it is neither read again nor kept alive.
    streams: Vec<Option<S>>,
    heap: BinaryHeap<Head<K, S::Item>>,
    pull: Pull,
}

/// Which streams to read before the next row can be chosen.
#[derive(Clone, Copy)]
enum Pull {
    All,
    One(usize),
    None,
}

impl<S: Iterator, K: Ord> Heads<S, K> {
    fn new<I>(streams: I) -> Self
    where
        I: IntoIterator,
        I::Item: IntoIterator<IntoIter = S>,
    {
        let streams: Vec<_> = streams.into_iter().map(|s| Some(s.into_iter())).collect();
        let heap = BinaryHeap::with_capacity(streams.len());
        Heads { streams, heap, pull: Pull::All }
    }

    fn next(&mut self, mut key_of: impl FnMut(&S::Item) -> K) -> Option<S::Item> {
        // The row taken last is replaced only now, so a caller that stops taking rows never
        // makes a stream read past them.
        match std::mem::replace(&mut self.pull, Pull::None) {
            Pull::All => (0..self.streams.len()).for_each(|i| self.read(i, &mut key_of)),
            Pull::One(i) => self.read(i, &mut key_of),
            Pull::None => {}
        }
        let head = self.heap.pop()?;
        self.pull = Pull::One(head.stream);
        Some(head.row)
    }

    fn read(&mut self, stream: usize, key_of: &mut impl FnMut(&S::Item) -> K) {
        let Some(source) = &mut self.streams[stream] else {
            return;
        };
        match source.next() {
            Some(row) => self.heap.push(Head { key: key_of(&row), stream, row }),
            None => self.streams[stream] = None,
        }
    }

    fn stop(&mut self) {
        self.streams.clear();
        self.heap.clear();
        self.pull = Pull::None;
    }
}

impl<S: Iterator, K> Heads<S, K> {
    fn size_hint(&self) -> (usize, Option<usize>) {
        let waiting = self.heap.len();
        self.streams
            .iter()
            .flatten()
            .map(Iterator::size_hint)
            .fold((waiting, Some(waiting)), |(lower, upper), (l, u)| {
                (lower.saturating_add(l), upper.zip(u).and_then(|(a, b)| a.checked_add(b)))
            })
    }

    fn debug(&self, f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
        f.debug_struct(name)
            .field("streams", &self.streams.len())
            .field("open", &self.streams.iter().flatten().count())
            .field("waiting", &self.heap.len())
            .finish_non_exhaustive()
    }
}

/// A stream's next row, ordered so that `BinaryHeap`, which pops its greatest element, pops
/// the smallest key and, among equal keys, the lowest stream.
struct Head<K, T> {
    key: K,
    stream: usize,
    row: T,
}

impl<K: Ord, T> Ord for Head<K, T> {
    fn cmp(&self, other: &Self) -> Ordering {
        (&other.key, other.stream).cmp(&(&self.key, self.stream))
    }
}

impl<K: Ord, T> PartialOrd for Head<K, T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord, T> PartialEq for Head<K, T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<K: Ord, T> Eq for Head<K, T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_come_out_in_stream_order() {
        let streams = [vec![(1, 'a'), (1, 'b')], vec![(0, 'c'), (1, 'd')], vec![(1, 'e')]];
        let merged: String = merge(streams, |row: &(i32, char)| row.0).map(|(_, c)| c).collect();
        assert_eq!(merged, "cabde");
    }

    #[test]
    fn no_streams_and_empty_streams() {
        assert_eq!(merge(Vec::<Vec<u8>>::new(), |b: &u8| *b).next(), None);
        let merged = merge([vec![], vec![2u8], vec![]], |b: &u8| *b);
        assert_eq!(merged.size_hint(), (1, Some(1)));
        assert_eq!(merged.collect::<Vec<_>>(), [2]);
    }

    #[test]
    fn an_error_ends_the_merge() {
        let streams = [vec![Ok(5), Ok(6)], vec![Err('x'), Ok(1)]];
        let mut merged = try_merge(streams, |n| *n);
        assert_eq!(merged.next(), Some(Err('x')));
        assert_eq!(merged.next(), None);
        assert_eq!(merged.size_hint(), (0, Some(0)));
    }
}
