//! Scan bounds for the ordered format: [`OrderedScan`].

use std::ops::Bound;

use crate::error::Result;
use crate::field::{FieldType, WriteField};
use crate::format::Ordered;
use crate::format::ordered::{EMPTY_FIELD, OrderedKey, SEPARATOR, append_escaped, append_terminated};
use crate::key::Key;
use crate::range::{KeyRange, KeyRanges, prefix_successor};

use super::key_scan::{KeyScan, ScanFormat, key_scan};
use super::{bound_after, next_field};

/// Scan bounds for an ordered key: fix leading fields with [`fix`](Self::fix), then ask for
/// [`ranges`](Self::ranges), a [`range`](Self::range) of the next field, or the keys whose
/// next field [`starts_with`](Self::starts_with) a prefix.
#[derive(Clone, Debug)]
pub struct OrderedScan {
    /// The fixed fields, each terminated as if more fields follow.
    prefix: Key,
    /// How much of `prefix` a complete key keeps when every later field is empty and
    /// dropped: up to the end of the last field that is not an empty ascending one.
    kept: usize,
    fields: usize,
    fixed: usize,
}

impl OrderedScan {
    /// Bounds for a key type of `fields` fields.
    #[must_use]
    pub fn new(fields: usize) -> Self {
        OrderedScan { prefix: Key::new(), kept: 0, fields, fixed: 0 }
    }

    /// Bounds for the key type `K` (a tuple or a derived key).
    #[must_use]
    pub fn for_key<'de, K: OrderedKey<'de>>() -> Self {
        OrderedScan::new(K::FIELDS)
    }

    /// Fixes the next field to `value`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the value cannot be encoded.
    #[inline]
    pub fn fix<T: WriteField<Ordered> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        let index = self.next_field()?;
        let start = self.prefix.len();
        match append_terminated(&mut self.prefix, value) {
            Ok(empty) => {
                if !empty {
                    self.kept = if <T as FieldType>::DESCENDING {
                        self.prefix.len()
                    } else {
                        self.prefix.len() - SEPARATOR.len()
                    };
                }
                self.fixed += 1;
                Ok(self)
            }
            Err(e) => {
                self.prefix.truncate(start);
                Err(e.in_field(index, None, start))
            }
        }
    }

    #[inline]
    fn next_field(&self) -> Result<usize> {
        next_field(self.fixed, self.fields)
    }

    /// The key whose fields after the fixed ones are all empty, and so dropped.
    fn dropped_key(&self) -> Key {
        if self.kept == 0 {
            return Key::from(&EMPTY_FIELD[..]);
        }
        // A clone of an inline key is one fixed-size copy, cheaper than building a new one.
        let mut dropped = self.prefix.clone();
        dropped.truncate(self.kept);
        dropped
    }

    /// The first key past every key that starts with the prefix. The prefix ends in a
    /// separator (`01`, or `fe` negated), so that is the prefix with its last byte raised.
    fn after_prefix(&self) -> Bound<Key> {
        match self.prefix.as_bytes().last() {
            Some(&last) if last != 0xff => {
                let mut end = self.prefix.clone();
                let at = end.len() - 1;
                end.as_mut_bytes()[at] = last + 1;
                Bound::Excluded(end)
            }
            _ => bound_after(&self.prefix),
        }
    }

    /// Whether `dropped` lies just before `prefix` with no key of the type between them, so
    /// one range can hold both.
    fn touches(&self, dropped: &Key) -> bool {
        self.prefix.len() == dropped.len() + SEPARATOR.len() && self.prefix.ends_with(&SEPARATOR)
    }

    /// The ranges of every key whose fixed fields have the fixed values: one range, or two
    /// when a fixed field is empty (the key that drops it sorts apart from the others).
    ///
    /// ```
    /// use rowkey::scan::OrderedScan;
    ///
    /// let mut scan = OrderedScan::new(3);
    /// scan.fix("A")?.fix("")?;
    /// // ("A", "", "") is the key `A`; ("A", "", "x") starts A 00 01 00 00 00 01.
    /// assert_eq!(scan.ranges().len(), 2);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn ranges(&self) -> KeyRanges {
        let dropped = self.dropped_key();
        if self.fixed == self.fields {
            return KeyRanges::from(KeyRange::key(&dropped));
        }
        let end = self.after_prefix();
        if self.touches(&dropped) {
            // The usual case: the dropped key starts the range, with no copy of the prefix;
            // it sorts below the prefix's successor, so the range is never empty.
            return KeyRanges::one(KeyRange::new(Bound::Included(dropped), end));
        }
        self.with_dropped(Some(dropped), Bound::Included(self.prefix.clone()), end)
    }

    /// The main range `[start, end)` plus the dropped key when it belongs.
    fn with_dropped(&self, dropped: Option<Key>, start: Bound<Key>, end: Bound<Key>) -> KeyRanges {
        let mut ranges = KeyRanges::new();
        match dropped {
            Some(d) if matches!(&start, Bound::Included(s) if *s == self.prefix) && self.touches(&d) => {
                ranges.push(KeyRange::new(Bound::Included(d), end));
            }
            Some(d) => {
                ranges.push(KeyRange::key(&d));
                ranges.push(KeyRange::new(start, end));
            }
            None => ranges.push(KeyRange::new(start, end)),
        }
        ranges
    }

    /// The keys whose fixed fields have the fixed values and whose next field is within
    /// `start` and `end`, given in the field type's order.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or a bound cannot be encoded.
    pub fn range<T: WriteField<Ordered> + ?Sized>(&self, start: Bound<&T>, end: Bound<&T>) -> Result<KeyRanges> {
        self.next_field()?;
        let extended = |value: &T, terminated: bool| -> Result<Key> {
            let mut key = self.prefix.clone();
            if terminated || <T as FieldType>::DESCENDING {
                append_terminated(&mut key, value)?;
            } else {
                append_escaped(&mut key, value)?;
            }
            Ok(key)
        };
        // The smallest key with the field at a value is the prefix and the value's bytes; the
        // first key past every key with it is the successor of the value's terminated form.
        let low = match start {
            Bound::Unbounded => Bound::Included(self.prefix.clone()),
            Bound::Included(a) => Bound::Included(extended(a, false)?),
            Bound::Excluded(a) => match prefix_successor(&extended(a, true)?) {
                Some(after) => Bound::Included(after),
                None => return Ok(KeyRanges::new()),
            },
        };
        let high = match end {
            Bound::Unbounded => bound_after(&self.prefix),
            Bound::Excluded(b) => Bound::Excluded(extended(b, false)?),
            Bound::Included(b) => bound_after(&extended(b, true)?),
        };
        // The dropped key has the field empty, the lowest value; it belongs when the bounds
        // admit that value. A descending field is never dropped.
        let is_empty = |value: &T| -> Result<bool> {
            let mut bytes = Vec::new();
            value.write(&mut bytes)?;
            Ok(bytes.is_empty())
        };
        let admits_empty = !<T as FieldType>::DESCENDING
            && match start {
                Bound::Unbounded => true,
                Bound::Included(a) => is_empty(a)?,
                Bound::Excluded(_) => false,
            }
            && match end {
                Bound::Unbounded | Bound::Included(_) => true,
                Bound::Excluded(b) => !is_empty(b)?,
            };
        Ok(self.with_dropped(admits_empty.then(|| self.dropped_key()), low, high))
    }

    /// The keys whose fixed fields have the fixed values and whose next field starts with
    /// `prefix` (a string or byte-string field).
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the prefix cannot be encoded.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::scan::OrderedScan;
    ///
    /// let mut scan = OrderedScan::new(2);
    /// scan.fix("tenant-1")?;
    /// let ranges = scan.starts_with("us")?;
    /// assert!(ranges.contains(&("tenant-1", "user-9").to_key()?));
    /// assert!(!ranges.contains(&("tenant-1", "u").to_key()?));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn starts_with<T: WriteField<Ordered> + ?Sized>(&self, prefix: &T) -> Result<KeyRanges> {
        self.next_field()?;
        let mut bytes = self.prefix.clone();
        append_escaped(&mut bytes, prefix)?;
        if bytes.len() == self.prefix.len() {
            return Ok(self.ranges());
        }
        Ok(KeyRanges::from(KeyRange::prefix(&bytes)))
    }

    /// The keys whose next field is a host name stored reversed (`reverse_domain`) that is
    /// `host` or one of its sub-domains: two ranges, the reversed name itself and the names
    /// that continue it with a dot. A name that continues it with a byte below `.`
    /// (`com.google-analytics` after `com.google`) sorts between the two and is in neither.
    ///
    /// # Errors
    ///
    /// An invalid host name, or a scan whose fields are all fixed.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::scan::OrderedScan;
    /// use rowkey::transform::ReversedDomain;
    ///
    /// let ranges = OrderedScan::new(2).host_and_subdomains("google.com")?;
    /// let key = |host: &str| (ReversedDomain(host), "/").to_key();
    /// assert!(ranges.contains(&key("google.com")?) && ranges.contains(&key("maps.google.com")?));
    /// assert!(!ranges.contains(&key("google-analytics.com")?) && !ranges.contains(&key("google.co")?));
    /// assert_eq!(ranges.len(), 2);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn host_and_subdomains(&self, host: &str) -> Result<KeyRanges> {
        KeyScan::host_and_subdomains(self, host)
    }
}

impl ScanFormat for Ordered {
    type Scan = OrderedScan;

    fn scan(&self, fields: usize) -> OrderedScan {
        OrderedScan::new(fields)
    }
}

key_scan!([] Ordered, OrderedScan, |scan, prefix| scan.fix(prefix));
