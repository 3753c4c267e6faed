//! One interface over the scan builders: [`ScanFormat`] gives a format's builder, and
//! [`KeyScan`] is what every builder does, so code that scans (a derived key's `scan()`, a
//! function generic over the format) takes one path whatever the format.
//!
//! Each format keeps a builder of its own, because where a scan's ranges end is the format's
//! knowledge: an ordered key drops empty trailing fields, a delimited key ends a field with its
//! delimiter, a store format's fields end where their bytes do.

use std::ops::Bound;

use crate::error::Result;
use crate::field::{ValueFormat, WriteField};
use crate::format::KeyFormat;
use crate::range::KeyRanges;
use crate::transform::reverse_domain;

/// Scan bounds built field by field in key order, for keys whose fields are in the field model
/// `V`: fix leading fields, then ask for the [`ranges`](Self::ranges) they leave, a
/// [`range`](Self::range) of the next field, or the keys whose next field
/// [`starts_with`](Self::starts_with) some text.
///
/// [`OrderedScan`](super::OrderedScan), [`DelimitedScan`](super::DelimitedScan) and [`StoreScan`](super::StoreScan) implement it with their own methods of
/// the same names; a format's builder is its [`ScanFormat::Scan`].
///
/// ```
/// use rowkey::format::{FdbTuple, HBase, KeyFormat, Ordered};
/// use rowkey::scan::{KeyScan, ScanFormat};
///
/// // The keys of user 7, in any format: one function for all of them.
/// fn of_user<F: ScanFormat>(format: &F) -> rowkey::Result<rowkey::range::KeyRanges>
/// where
///     u64: rowkey::field::WriteField<F::Values>,
/// {
///     let mut scan = format.scan(2);
///     scan.fix(&7u64)?;
///     Ok(scan.ranges())
/// }
///
/// assert!(of_user(&Ordered)?.contains(&Ordered.to_key(&(7u64, "x"))?));
/// assert!(!of_user(&Ordered)?.contains(&Ordered.to_key(&(8u64, "x"))?));
/// assert!(of_user(&HBase)?.contains(&HBase.to_key(&(7u64, "x"))?));
/// let subspace = FdbTuple::with_prefix(b"\x15\x01");
/// assert!(of_user(&subspace)?.contains(&subspace.to_key(&(7u64, "x"))?));
/// assert!(!of_user(&subspace)?.contains(&FdbTuple::default().to_key(&(7u64, "x"))?));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait KeyScan<V: ValueFormat>: Clone {
    /// Fixes the next field to `value`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the value cannot be encoded.
    fn fix<T: WriteField<V> + ?Sized>(&mut self, value: &T) -> Result<&mut Self>;

    /// Puts a derived key's `prefix = "..."` where the format writes it: as the first field
    /// (ordered, delimited) or as raw bytes before the fields (the store formats, a format of
    /// your own).
    ///
    /// # Errors
    ///
    /// When the prefix is a field and cannot be encoded, or every field is fixed already.
    fn prefix(&mut self, prefix: &'static [u8]) -> Result<&mut Self>;

    /// The ranges of every key whose fixed fields have the fixed values.
    #[must_use]
    fn ranges(&self) -> KeyRanges;

    /// The keys whose fixed fields have the fixed values and whose next field is within
    /// `start` and `end`, given in the order of the field's keys.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or a bound cannot be encoded.
    fn range<T: WriteField<V> + ?Sized>(&self, start: Bound<&T>, end: Bound<&T>) -> Result<KeyRanges>;

    /// The keys whose fixed fields have the fixed values and whose next field, an ascending
    /// text field, starts with `prefix`.
    ///
    /// # Errors
    ///
    /// When every field is fixed already, or the text cannot be encoded.
    fn starts_with(&self, prefix: &str) -> Result<KeyRanges>;

    /// The keys whose next field is a host name stored reversed (`reverse_domain`) that is
    /// `host` or one of its sub-domains: the reversed name itself, and the names that continue
    /// it with a dot.
    ///
    /// # Errors
    ///
    /// An invalid host name, or a scan whose fields are all fixed.
    fn host_and_subdomains(&self, host: &str) -> Result<KeyRanges>
    where
        str: WriteField<V>,
    {
        let reversed = reverse_domain(host)?;
        let mut exact = self.clone();
        exact.fix(reversed.as_str())?;
        let mut all = exact.ranges();
        all.extend(self.starts_with(&format!("{reversed}."))?);
        Ok(all)
    }
}

/// A format that has a scan builder: every built-in format, and a format of your own that
/// implements [`StoreFormat`](super::StoreFormat).
///
/// ```
/// use rowkey::format::Delimited;
/// use rowkey::scan::{KeyScan, ScanFormat};
///
/// let hash = Delimited::default();
/// let mut scan = hash.scan(2);
/// scan.fix("user1")?;
/// assert!(scan.ranges().contains(&hash.to_key(&("user1", "x"))?));
/// assert!(!scan.ranges().contains(&hash.to_key(&("user10", "x"))?));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait ScanFormat: KeyFormat {
    /// The format's builder.
    type Scan: KeyScan<Self::Values>;

    /// A builder for keys of `fields` fields written by this format value (with its
    /// delimiter, its subspace prefix).
    fn scan(&self, fields: usize) -> Self::Scan;
}

/// The builders' own methods, which have the trait's shape; `prefix` says where the format
/// puts a derived key's prefix.
macro_rules! key_scan {
    ([$($generics:tt)*] $values:ty, $scan:ty, |$this:ident, $prefix:ident| $put_prefix:expr) => {
        impl<$($generics)*> $crate::scan::KeyScan<$values> for $scan {
            fn fix<T: $crate::field::WriteField<$values> + ?Sized>(
                &mut self,
                value: &T,
            ) -> $crate::error::Result<&mut Self> {
                <$scan>::fix(self, value)
            }

            fn prefix(&mut self, $prefix: &'static [u8]) -> $crate::error::Result<&mut Self> {
                let $this = self;
                $put_prefix
            }

            fn ranges(&self) -> $crate::range::KeyRanges {
                <$scan>::ranges(self)
            }

            fn range<T: $crate::field::WriteField<$values> + ?Sized>(
                &self,
                start: ::std::ops::Bound<&T>,
                end: ::std::ops::Bound<&T>,
            ) -> $crate::error::Result<$crate::range::KeyRanges> {
                <$scan>::range(self, start, end)
            }

            fn starts_with(&self, prefix: &str) -> $crate::error::Result<$crate::range::KeyRanges> {
                <$scan>::starts_with(self, prefix)
            }
        }
    };
}

pub(super) use key_scan;
