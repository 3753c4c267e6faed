//! The bucket field of the store formats (FoundationDB tuples, memcomparable, HBase): the
//! bucket as the format's `u16` (every bucket count fits: at most 65,536), or an MD5 salt's
//! hex digits as the format's text, so a salted key there is a key of the store's own types.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::field::{FieldType, Ints, ReadField, Sink, Strings, ValueFormat, WriteField};
use crate::format::{BUCKET_FIELD, KeyReader, KeyWriter};
use crate::salt::Salt;

/// The bucket field as the store formats write it ([`Salt::store_bucket`]).
///
/// ```
/// use rowkey::Key;
/// use rowkey::format::TupleWriter;
/// use rowkey::salt::Salt;
///
/// let mut key = Key::new();
/// TupleWriter::new(&mut key).named_field("bucket", &Salt::modulo(16)?.store_bucket(3))?.named_field("id", "dev-1")?;
/// assert_eq!(key.as_bytes(), b"\x15\x03\x02dev-1\x00");
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreBucket {
    bucket: u16,
    /// The hex digits of an MD5 salt's bucket; 0 for a number.
    hex_digits: usize,
}

impl Salt {
    /// The bucket field of `bucket` in a store format (FoundationDB tuples, memcomparable,
    /// HBase): the bucket as a `u16`, or an MD5 salt's lowercase hex digits as text. A bucket
    /// the salt does not have is written as given; [`Salt::read_store_bucket`] refuses it.
    ///
    /// ```
    /// use rowkey::Key;
    /// use rowkey::format::MemcomparableWriter;
    /// use rowkey::salt::Salt;
    ///
    /// let mut key = Key::new();
    /// MemcomparableWriter::new(&mut key).field(&Salt::modulo(300)?.store_bucket(258))?;
    /// assert_eq!(key.as_bytes(), [0x01, 0x02]);
    /// let mut hex = Key::new();
    /// MemcomparableWriter::new(&mut hex).field(&Salt::md5_hex(256)?.store_bucket(0xa7))?;
    /// assert_eq!(hex.as_bytes(), b"\x01a7\0\0\0\0\0\0\x02");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn store_bucket(&self, bucket: u32) -> StoreBucket {
        // `Salt::MAX_BUCKETS` is 65,536, so every bucket is at most `u16::MAX`.
        StoreBucket { bucket: u16::try_from(bucket).unwrap_or(u16::MAX), hex_digits: self.hex_digits() }
    }

    /// The bucket a store format's bucket field holds, read as a `u16` (`number`) or as the
    /// text of an MD5 salt (`text`): the one check of a store format's bucket field.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] naming the bucket: the wrong form for this salt, or not one of
    /// its buckets.
    ///
    /// ```
    /// use rowkey::salt::Salt;
    ///
    /// let salt = Salt::modulo(16)?;
    /// assert_eq!(salt.read_store_bucket(Some(3), None)?, 3);
    /// assert!(salt.read_store_bucket(Some(16), None).is_err());
    /// assert!(salt.read_store_bucket(None, Some("3")).is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn read_store_bucket(&self, number: Option<u16>, text: Option<&str>) -> Result<u32> {
        match (self.hex_digits(), number, text) {
            (0, Some(bucket), None) if u32::from(bucket) < self.buckets() => Ok(u32::from(bucket)),
            (0, Some(bucket), None) => Err(Error::invalid(
                "bucket",
                format!(
                    "bucket {bucket} is not one of the salt's {} buckets; the key was written with another salt",
                    self.buckets()
                ),
            )),
            (digits, None, Some(text)) if digits > 0 => self.read_bucket(text.as_bytes(), true),
            (0, ..) => Err(Error::invalid("bucket", "this salt's bucket field is a number, not text")),
            _ => Err(Error::invalid("bucket", "this salt's bucket field is hex text (an MD5 salt), not a number")),
        }
    }
}

impl FieldType for StoreBucket {}

impl<F: ValueFormat + Ints<u16> + Strings> WriteField<F> for StoreBucket {
    #[inline]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        if self.hex_digits == 0 {
            return F::write_int(self.bucket, out);
        }
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut digits = [0u8; 4];
        let digits = &mut digits[..self.hex_digits.min(4)];
        let len = digits.len();
        for (i, d) in digits.iter_mut().enumerate() {
            *d = HEX[usize::from(self.bucket >> (4 * (len - 1 - i)) & 0xf)];
        }
        F::write_str(std::str::from_utf8(digits).unwrap_or_default(), out)
    }
}

/// The bucket read back by generated code: `number` or `text` as the field held it, checked
/// against the salt, with the field's index and offset for the error.
///
/// # Errors
///
/// As [`Salt::read_store_bucket`], located at the bucket field.
pub fn read_store_bucket(
    salt: &Salt,
    number: Option<u16>,
    text: Option<&str>,
    index: usize,
    offset: usize,
) -> Result<u32> {
    salt.read_store_bucket(number, text).map_err(|e| e.in_field(index, Some(BUCKET_FIELD), offset))
}

/// Writes a salted key's bucket field as the store formats write it (and a format defined
/// outside rowkey): the `u16`, or an MD5 salt's hex digits as text. What a derived key of
/// such a format calls.
///
/// # Errors
///
/// What the format's writer returns for the field.
#[inline]
pub fn write_store_bucket<V: ValueFormat, W: KeyWriter<V>>(w: &mut W, salt: &Salt, bucket: u32) -> Result<()>
where
    StoreBucket: WriteField<V>,
{
    w.named_field(BUCKET_FIELD, &salt.store_bucket(bucket)).map(|_| ())
}

/// Reads back the bucket field [`write_store_bucket`] wrote, checked against the salt.
///
/// # Errors
///
/// What the format's reader returns for the field, or a bucket that is not the salt's.
#[inline]
pub fn read_store_bucket_field<'de, V: ValueFormat, R: KeyReader<'de, V>>(r: &mut R, salt: &Salt) -> Result<u32>
where
    u16: ReadField<'de, V>,
    Cow<'de, str>: ReadField<'de, V>,
{
    let (index, at) = (r.field_index(), r.position());
    if salt.hex_digits() == 0 {
        let number = r.named_field::<u16>(BUCKET_FIELD)?;
        read_store_bucket(salt, Some(number), None, index, at)
    } else {
        let text = r.named_field::<Cow<'de, str>>(BUCKET_FIELD)?;
        read_store_bucket(salt, None, Some(&text), index, at)
    }
}
