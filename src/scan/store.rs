//! Scan bounds for the store formats (FoundationDB tuples, memcomparable, HBase): one builder,
//! [`StoreScan`], over what the formats share. Each writes every field, so no key drops a
//! field as an ordered key does, and each field's bytes end where the field does, so the keys
//! whose fixed fields have given values are those that start with those fields' bytes; only
//! where that range ends differs.
//!
//! | format | keys that extend the fixed fields `P` |
//! |---|---|
//! | FoundationDB tuples | `P` .. `P ff`: no field starts with `ff`, and `P ff` is where a longer string than the last fixed one continues (`"a"` is `02 61 00`, `"a\0"` is `02 61 00 ff 00`) |
//! | memcomparable, HBase | `P` .. the successor of `P`: no field's bytes are a prefix of another value's bytes |
//!
//! The last field of a key is the whole rest of the key (HBase writes a last byte-string field
//! with no end), so a bound on it is a bound on the key itself, never on its extensions.

use std::marker::PhantomData;
use std::ops::Bound;

use crate::error::Result;
use crate::field::{ByteStrings, Strings, ValueFormat, WriteField};
use crate::format::{FdbTuple, HBase, HBaseWriter, KeyFormat, Memcomparable, MemcomparableWriter, TupleWriter};
use crate::key::Key;
use crate::range::{KeyRange, KeyRanges, key_after, prefix_successor};

use super::key_scan::{KeyScan, ScanFormat, key_scan};
use super::{bound_after, next_field};

/// A format whose keys [`StoreScan`] bounds, and so a derived key's `scan()` builder: the
/// store formats, [`FdbTuple`], [`Memcomparable`] and [`HBase`], and a format of your own whose
/// fields, like theirs, each end where their bytes do (so the keys whose fixed fields have
/// given values are the keys that start with those fields' bytes). Its methods say how the
/// format frames one field, which only the format knows.
///
/// `tests/custom_format.rs` in the repository implements it for a format defined outside
/// rowkey. A format whose fields can be empty or escaped (the ordered format) has a builder
/// of its own instead.
///
/// ```
/// use rowkey::format::Memcomparable;
/// use rowkey::scan::StoreFormat;
///
/// let mut key = rowkey::Key::new();
/// Memcomparable::append(&mut key, 0, 2, &7u16)?;
/// assert_eq!(key.as_bytes(), [0, 7]);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait StoreFormat: ValueFormat + Strings + ByteStrings + Sized {
    /// Appends `value` as field `index` of a key of `fields` fields.
    ///
    /// # Errors
    ///
    /// What the field's encoder returns.
    fn append<T: WriteField<Self> + ?Sized>(out: &mut Key, index: usize, fields: usize, value: &T) -> Result<()>;

    /// The end of the keys that extend `fields`, the bytes of some leading fields.
    fn after_extensions(fields: &Key) -> Bound<Key>;

    /// The keys whose field `index` (ascending text) starts with `text`, after `fixed`.
    ///
    /// # Errors
    ///
    /// What the text's encoder returns.
    fn text_prefix(fixed: &Key, index: usize, fields: usize, text: &str) -> Result<KeyRange>;
}

impl StoreFormat for FdbTuple {
    fn append<T: WriteField<Self> + ?Sized>(out: &mut Key, index: usize, _: usize, value: &T) -> Result<()> {
        TupleWriter::at_field(out, index).field(value)
    }

    fn after_extensions(fields: &Key) -> Bound<Key> {
        let mut end = fields.clone();
        end.push(0xff);
        Bound::Excluded(end)
    }

    // A string is `02`, its bytes with each `00` as `00 ff`, then `00`: without that end, the
    // start of every string that starts with `text`.
    fn text_prefix(fixed: &Key, index: usize, fields: usize, text: &str) -> Result<KeyRange> {
        let mut start = fixed.clone();
        Self::append(&mut start, index, fields, text)?;
        start.truncate(start.len() - 1);
        Ok(KeyRange::prefix(&start))
    }
}

impl StoreFormat for Memcomparable {
    fn append<T: WriteField<Self> + ?Sized>(out: &mut Key, index: usize, _: usize, value: &T) -> Result<()> {
        MemcomparableWriter::at_field(out, index).field(value).map(|_| ())
    }

    fn after_extensions(fields: &Key) -> Bound<Key> {
        bound_after(fields)
    }

    // Text is padded with `00`s to whole 8-byte groups, so the bytes of a prefix that ends in
    // `00` also start a shorter string: the range runs from `text` to the first byte string
    // past every one that starts with it (byte strings are written as text is).
    fn text_prefix(fixed: &Key, index: usize, fields: usize, text: &str) -> Result<KeyRange> {
        let mut start = fixed.clone();
        Self::append(&mut start, index, fields, text)?;
        let end = match prefix_successor(text.as_bytes()) {
            Some(after) => {
                let mut end = fixed.clone();
                Self::append(&mut end, index, fields, after.as_bytes())?;
                Bound::Excluded(end)
            }
            None => Self::after_extensions(fixed),
        };
        Ok(KeyRange::new(Bound::Included(start), end))
    }
}

impl StoreFormat for HBase {
    fn append<T: WriteField<Self> + ?Sized>(out: &mut Key, index: usize, fields: usize, value: &T) -> Result<()> {
        HBaseWriter::at_field(out, index, fields).field(value).map(|_| ())
    }

    fn after_extensions(fields: &Key) -> Bound<Key> {
        bound_after(fields)
    }

    // Text is `34`, its bytes (never `00`), then `00`, last field or not: without that end, the
    // start of every text that starts with `text`.
    fn text_prefix(fixed: &Key, index: usize, fields: usize, text: &str) -> Result<KeyRange> {
        let mut start = fixed.clone();
        Self::append(&mut start, index, fields, text)?;
        start.truncate(start.len() - 1);
        Ok(KeyRange::prefix(&start))
    }
}

/// Scan bounds for a key in a store format `F`: fix leading fields with [`fix`](Self::fix),
/// then ask for [`ranges`](Self::ranges), a [`range`](Self::range) of the next field, or the
/// keys whose next field [`starts_with`](Self::starts_with) some text. A derived key's
/// `scan()` builder stands on it.
///
/// ```
/// use rowkey::format::FdbTuple;
/// use rowkey::scan::StoreScan;
/// use std::ops::Bound;
///
/// let tuples = FdbTuple::default();
/// let mut scan = StoreScan::<FdbTuple>::new(2);
/// scan.fix("a")?;
/// let ranges = scan.range(Bound::Included(&10u32), Bound::Excluded(&20u32))?;
/// assert!(ranges.contains(&tuples.to_key(&("a", 12u32))?));
/// assert!(!ranges.contains(&tuples.to_key(&("a", 20u32))?));
/// assert!(!ranges.contains(&tuples.to_key(&("a\0", 12u32))?));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Debug)]
pub struct StoreScan<F> {
    /// The raw prefix and the fixed fields' bytes.
    prefix: Key,
    fields: usize,
    fixed: usize,
    format: PhantomData<F>,
}

impl<F> Clone for StoreScan<F> {
    fn clone(&self) -> Self {
        StoreScan { prefix: self.prefix.clone(), fields: self.fields, fixed: self.fixed, format: PhantomData }
    }
}

impl<F: StoreFormat> StoreScan<F> {
    /// Bounds for a key type of `fields` fields.
    ///
    /// ```
    /// let scan = rowkey::scan::StoreScan::<rowkey::format::HBase>::new(3);
    /// assert_eq!(scan.ranges().len(), 1);
    /// ```
    #[must_use]
    pub fn new(fields: usize) -> Self {
        StoreScan { prefix: Key::new(), fields, fixed: 0, format: PhantomData }
    }

    /// Puts `bytes`, the key type's raw prefix (a subspace's, a table's), before the fields.
    ///
    /// ```
    /// use rowkey::format::Memcomparable;
    /// use rowkey::scan::StoreScan;
    ///
    /// let mut scan = StoreScan::<Memcomparable>::new(1);
    /// scan.raw_prefix(b"t1_");
    /// assert!(scan.ranges().contains(b"t1_\x07"));
    /// assert!(!scan.ranges().contains(b"t2_\x07"));
    /// ```
    pub fn raw_prefix(&mut self, bytes: &[u8]) -> &mut Self {
        self.prefix.extend_from_slice(bytes);
        self
    }

    /// Fixes the next field to `value`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the value cannot be encoded.
    ///
    /// ```
    /// use rowkey::format::HBase;
    /// use rowkey::scan::StoreScan;
    ///
    /// let mut scan = StoreScan::<HBase>::new(2);
    /// scan.fix(&7i32)?;
    /// assert!(scan.ranges().contains(&HBase.to_key(&(7i32, "x"))?));
    /// assert!(scan.fix(&1i32)?.fix(&2i32).is_err()); // both fields are fixed
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn fix<T: WriteField<F> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        let index = next_field(self.fixed, self.fields)?;
        let start = self.prefix.len();
        if let Err(e) = F::append(&mut self.prefix, index, self.fields, value) {
            self.prefix.truncate(start);
            return Err(e);
        }
        self.fixed += 1;
        Ok(self)
    }

    /// The range of every key whose fixed fields have the fixed values: the one key when
    /// every field is fixed.
    ///
    /// ```
    /// use rowkey::format::FdbTuple;
    /// use rowkey::scan::StoreScan;
    ///
    /// let mut scan = StoreScan::<FdbTuple>::new(2);
    /// scan.fix("a")?;
    /// let key = |name: &str| FdbTuple::default().to_key(&(name, 1u8));
    /// assert!(scan.ranges().contains(&key("a")?));
    /// assert!(!scan.ranges().contains(&key("a\0")?) && !scan.ranges().contains(&key("ab")?));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn ranges(&self) -> KeyRanges {
        if self.fixed == self.fields {
            return KeyRanges::from(KeyRange::key(&self.prefix));
        }
        KeyRanges::from(KeyRange::new(Bound::Included(self.prefix.clone()), F::after_extensions(&self.prefix)))
    }

    /// The keys whose fixed fields have the fixed values and whose next field is within
    /// `start` and `end`, given in the order of the field's bytes (for a descending field,
    /// the larger value first).
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or a bound cannot be encoded.
    ///
    /// ```
    /// use rowkey::format::Memcomparable;
    /// use rowkey::scan::StoreScan;
    /// use std::ops::Bound;
    ///
    /// let ranges = StoreScan::<Memcomparable>::new(2).range(Bound::Excluded(&3u16), Bound::Unbounded)?;
    /// assert!(!ranges.contains(&Memcomparable.to_key(&(3u16, "z"))?));
    /// assert!(ranges.contains(&Memcomparable.to_key(&(4u16, ""))?));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn range<T: WriteField<F> + ?Sized>(&self, start: Bound<&T>, end: Bound<&T>) -> Result<KeyRanges> {
        let index = next_field(self.fixed, self.fields)?;
        let last = index + 1 == self.fields;
        let with = |value: &T| -> Result<Key> {
            let mut key = self.prefix.clone();
            F::append(&mut key, index, self.fields, value)?;
            Ok(key)
        };
        // The end of the keys whose field is `value`: past the key itself when it is the last
        // field, past its extensions otherwise.
        let after = |value: &T| -> Result<Bound<Key>> {
            let key = with(value)?;
            Ok(if last { Bound::Excluded(key_after(&key)) } else { F::after_extensions(&key) })
        };
        let low = match start {
            Bound::Unbounded => Bound::Included(self.prefix.clone()),
            Bound::Included(a) => Bound::Included(with(a)?),
            Bound::Excluded(a) => match after(a)? {
                Bound::Excluded(key) => Bound::Included(key),
                _ => return Ok(KeyRanges::new()),
            },
        };
        let high = match end {
            Bound::Unbounded => F::after_extensions(&self.prefix),
            Bound::Excluded(b) => Bound::Excluded(with(b)?),
            Bound::Included(b) => after(b)?,
        };
        Ok(KeyRanges::from(KeyRange::new(low, high)))
    }

    /// The keys whose fixed fields have the fixed values and whose next field, an ascending
    /// text field, starts with `prefix`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the text cannot be encoded (HBase holds no
    /// U+0000).
    ///
    /// ```
    /// use rowkey::format::Memcomparable;
    /// use rowkey::scan::StoreScan;
    ///
    /// let ranges = StoreScan::<Memcomparable>::new(1).starts_with("ab\0")?;
    /// assert!(ranges.contains(&Memcomparable.to_key(&("ab\0c",))?));
    /// assert!(!ranges.contains(&Memcomparable.to_key(&("ab",))?)); // padded with 00s, yet shorter
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn starts_with(&self, prefix: &str) -> Result<KeyRanges> {
        let index = next_field(self.fixed, self.fields)?;
        Ok(KeyRanges::from(F::text_prefix(&self.prefix, index, self.fields, prefix)?))
    }

    /// The keys whose next field is a host name stored reversed (`reverse_domain`) that is
    /// `host` or one of its sub-domains: the reversed name itself, and the names that
    /// continue it with a dot.
    ///
    /// # Errors
    ///
    /// An invalid host name, or a scan whose fields are all fixed.
    ///
    /// ```
    /// use rowkey::format::FdbTuple;
    /// use rowkey::scan::StoreScan;
    /// use rowkey::transform::ReversedDomain;
    ///
    /// let ranges = StoreScan::<FdbTuple>::new(2).host_and_subdomains("google.com")?;
    /// let key = |host: &str| FdbTuple::default().to_key(&(ReversedDomain(host), "/"));
    /// assert!(ranges.contains(&key("google.com")?) && ranges.contains(&key("maps.google.com")?));
    /// assert!(!ranges.contains(&key("google-analytics.com")?));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn host_and_subdomains(&self, host: &str) -> Result<KeyRanges> {
        KeyScan::host_and_subdomains(self, host)
    }
}

impl<F: StoreFormat + KeyFormat<Values = F>> ScanFormat for F {
    type Scan = StoreScan<F>;

    fn scan(&self, fields: usize) -> StoreScan<F> {
        // What the format writes before any field (a FoundationDB subspace's prefix) starts
        // every range.
        let mut start = Key::new();
        drop(self.writer(&mut start, fields));
        let mut scan = StoreScan::new(fields);
        scan.raw_prefix(&start);
        scan
    }
}

key_scan!([F: StoreFormat] F, StoreScan<F>, |scan, prefix| Ok(scan.raw_prefix(prefix)));
