//! Scan bounds for the delimited format: [`DelimitedScan`].

use std::ops::Bound;

use crate::error::Result;
use crate::field::text::EncodeText;
use crate::format::delimited::DelimitedKey;
use crate::format::{Delimited, DelimitedText};
use crate::key::Key;
use crate::range::{KeyRange, KeyRanges, prefix_successor};

use super::key_scan::{KeyScan, ScanFormat, key_scan};
use super::{bound_after, next_field};

/// Scan bounds for a delimited key. Every field is always written, so the keys with fixed
/// leading fields are exactly those that start with them and the delimiter.
///
/// ```
/// use rowkey::format::Delimited;
/// use rowkey::scan::DelimitedScan;
///
/// let hash = Delimited::default();
/// let mut scan = DelimitedScan::for_key::<(String, String, u32)>(&hash);
/// scan.fix("user1")?;
/// let ranges = scan.ranges();
/// assert!(ranges.contains(&hash.to_key(&("user1", "x", 7u32))?));
/// assert!(!ranges.contains(&hash.to_key(&("user10", "x", 7u32))?));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DelimitedScan {
    format: Delimited,
    prefix: Key,
    fields: usize,
    fixed: usize,
}

impl DelimitedScan {
    /// Bounds for keys of `fields` fields in `format`.
    #[must_use]
    pub fn new(format: &Delimited, fields: usize) -> Self {
        DelimitedScan { format: format.clone(), prefix: Key::new(), fields, fixed: 0 }
    }

    /// Bounds for the key type `K` in `format`.
    #[must_use]
    pub fn for_key<'de, K: DelimitedKey<'de>>(format: &Delimited) -> Self {
        DelimitedScan::new(format, K::FIELDS)
    }

    #[inline]
    fn next_field(&self) -> Result<usize> {
        next_field(self.fixed, self.fields)
    }

    /// Fixes the next field to `value`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the value breaks the sorted-mode rule.
    pub fn fix<T: EncodeText + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        let index = self.next_field()?;
        let start = self.prefix.len();
        if let Err(e) = self.format.append_text(&mut self.prefix, index, None, value) {
            self.prefix.truncate(start);
            return Err(e);
        }
        self.fixed += 1;
        if self.fixed < self.fields {
            self.prefix.extend_from_slice(self.format.delimiter());
        }
        Ok(self)
    }

    /// The ranges of every key whose fixed fields have the fixed values.
    #[must_use]
    pub fn ranges(&self) -> KeyRanges {
        if self.fixed == self.fields {
            return KeyRanges::from(KeyRange::key(&self.prefix));
        }
        KeyRanges::from(KeyRange::new(Bound::Included(self.prefix.clone()), bound_after(&self.prefix)))
    }

    fn extended<T: EncodeText + ?Sized>(&self, value: &T, delimited: bool) -> Result<Key> {
        let mut key = self.prefix.clone();
        self.format.append_text(&mut key, self.fixed, None, value)?;
        if delimited {
            key.extend_from_slice(self.format.delimiter());
        }
        Ok(key)
    }

    /// The keys whose fixed fields have the fixed values and whose next field is within
    /// `start` and `end`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or a bound breaks the sorted-mode rule.
    ///
    /// ```
    /// use rowkey::field::Padded;
    /// use rowkey::format::Delimited;
    /// use rowkey::scan::DelimitedScan;
    /// use std::ops::Bound;
    ///
    /// let hash = Delimited::default();
    /// let mut scan = DelimitedScan::new(&hash, 2);
    /// scan.fix("sensor")?;
    /// let may = scan.range(Bound::Included(&Padded::<u32, 8>(20200501)), Bound::Excluded(&Padded::<u32, 8>(20200601)))?;
    /// assert!(may.contains(b"sensor#20200531"));
    /// assert!(!may.contains(b"sensor#20200601"));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn range<T: EncodeText + ?Sized>(&self, start: Bound<&T>, end: Bound<&T>) -> Result<KeyRanges> {
        self.next_field()?;
        // A value's keys are the prefix, its text, and (unless it is the last field) the
        // delimiter and more; the delimiter sorts below every byte a field holds.
        let low = match start {
            Bound::Unbounded => Bound::Included(self.prefix.clone()),
            Bound::Included(a) => Bound::Included(self.extended(a, false)?),
            Bound::Excluded(a) => match prefix_successor(&self.extended(a, true)?) {
                Some(after) => Bound::Included(after),
                None => return Ok(KeyRanges::new()),
            },
        };
        let high = match end {
            Bound::Unbounded => bound_after(&self.prefix),
            Bound::Excluded(b) => Bound::Excluded(self.extended(b, false)?),
            Bound::Included(b) => bound_after(&self.extended(b, true)?),
        };
        Ok(KeyRanges::from(KeyRange::new(low, high)))
    }

    /// The keys whose fixed fields have the fixed values and whose next field starts with
    /// `prefix`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the prefix breaks the sorted-mode rule.
    pub fn starts_with<T: EncodeText + ?Sized>(&self, prefix: &T) -> Result<KeyRanges> {
        self.next_field()?;
        Ok(KeyRanges::from(KeyRange::prefix(&self.extended(prefix, false)?)))
    }

    /// As [`OrderedScan::host_and_subdomains`](super::OrderedScan::host_and_subdomains), for a delimited key.
    ///
    /// # Errors
    ///
    /// An invalid host name, or a scan whose fields are all fixed.
    ///
    /// ```
    /// use rowkey::format::Delimited;
    /// use rowkey::scan::DelimitedScan;
    /// use rowkey::transform::ReversedDomain;
    ///
    /// let hash = Delimited::default();
    /// let ranges = DelimitedScan::new(&hash, 2).host_and_subdomains("google.com")?;
    /// assert_eq!(ranges.to_string(), "{[com.google#, com.google$), [com.google., com.google/)}");
    /// assert!(ranges.contains(&hash.to_key(&(ReversedDomain("maps.google.com"), "x"))?));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn host_and_subdomains(&self, host: &str) -> Result<KeyRanges> {
        KeyScan::host_and_subdomains(self, host)
    }
}

impl ScanFormat for Delimited {
    type Scan = DelimitedScan;

    fn scan(&self, fields: usize) -> DelimitedScan {
        DelimitedScan::new(self, fields)
    }
}

key_scan!([] DelimitedText, DelimitedScan, |scan, prefix| scan.fix(prefix));
