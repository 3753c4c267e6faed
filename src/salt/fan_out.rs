//! Reading a salted table across its buckets: each bucket's key prefix in either format, and
//! the union of one read's ranges over every bucket.

use crate::error::Result;
use crate::field::EncodeText;
use crate::format::Delimited;
use crate::format::ordered::OrderedWriter;
use crate::key::Key;
use crate::range::KeyRanges;
use crate::salt::Salt;

impl Salt {
    /// The key prefix of every bucket in the ordered format, in bucket order. Each bucket's
    /// keys are exactly the keys that start with its prefix (integer encodings are never a
    /// prefix of one another, and an MD5 salt's hex digits all have one width), so one
    /// prefix scan per bucket reads them all.
    ///
    /// ```
    /// use rowkey::salt::Salt;
    ///
    /// let prefixes = Salt::farmhash(4)?.ordered_prefixes();
    /// assert_eq!(prefixes, [b"\x80", b"\x81", b"\x82", b"\x83"]);
    /// // An MD5 salt's buckets are their hex digits, in the same order as their numbers.
    /// let prefixes = Salt::md5_hex(256)?.ordered_prefixes();
    /// assert_eq!((prefixes[0x00].as_bytes(), prefixes[0xa7].as_bytes()), (&b"00"[..], &b"a7"[..]));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn ordered_prefixes(&self) -> Vec<Key> {
        (0..self.buckets())
            .map(|b| {
                let mut key = Key::new();
                let mut w = OrderedWriter::new(&mut key);
                // A bucket field always encodes; the writer adds nothing else for a lone field.
                let _ = w.field(&self.bucket_field(b));
                w.finish();
                key
            })
            .collect()
    }

    /// The key prefix of every bucket in the delimited format: the bucket and the delimiter.
    ///
    /// ```
    /// use rowkey::format::Delimited;
    ///
    /// let prefixes = rowkey::salt::Salt::farmhash(12)?.delimited_prefixes(&Delimited::default());
    /// assert_eq!(prefixes.first().unwrap(), "00#");
    /// assert_eq!(prefixes.last().unwrap(), "11#");
    /// let prefixes = rowkey::salt::Salt::md5_hex(65_536)?.delimited_prefixes(&Delimited::default());
    /// assert_eq!(prefixes.last().unwrap(), "ffff#");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn delimited_prefixes(&self, format: &Delimited) -> Vec<Key> {
        (0..self.buckets())
            .map(|b| {
                let mut key = Key::new();
                // The digits of a bucket below the count always fit the width.
                let _ = self.bucket_field(b).encode_text(&mut key);
                key.extend_from_slice(format.delimiter());
                key
            })
            .collect()
    }

    /// The union of the ranges `per_bucket` gives for every bucket: the fan-out of a read
    /// that does not know the salt source fields.
    ///
    /// # Errors
    ///
    /// The first error `per_bucket` returns.
    ///
    /// ```
    /// use rowkey::salt::Salt;
    /// use rowkey::scan::OrderedScan;
    ///
    /// let salt = Salt::farmhash(16)?;
    /// let ranges = salt.fan_out(|bucket| {
    ///     let mut scan = OrderedScan::new(3);
    ///     // The bucket as the salt writes it: a number here, hex digits for an MD5 salt.
    ///     scan.fix(&salt.bucket_field(bucket))?.fix("phone")?;
    ///     Ok(scan.ranges())
    /// })?;
    /// assert_eq!(ranges.len(), 16);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn fan_out(&self, mut per_bucket: impl FnMut(u32) -> Result<KeyRanges>) -> Result<KeyRanges> {
        let mut all = KeyRanges::new();
        for bucket in 0..self.buckets() {
            all.extend(per_bucket(bucket)?);
        }
        Ok(all)
    }
}
