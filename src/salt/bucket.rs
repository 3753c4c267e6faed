//! [`Salt`]: which bucket a key goes to, and the bucket field in front of it.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::decimal::decode_decimal;
use crate::field::{FieldBytes, ReadField, ValueFormat, WriteField};
use crate::format::OrderedScalar;
use crate::format::delimited::{DelimitedKey, DelimitedReader, DelimitedWriter};
use crate::format::key_format::{FormatKey, KeyReader, KeyWriter, decode_key};
use crate::format::ordered::{OrderedKey, OrderedReader, OrderedWriter};
use crate::format::{BUCKET_FIELD, Delimited, Ordered};
use crate::key::Key;
use crate::salt::bucket_field::{BUCKET_ALPHABET, BucketField};
use crate::salt::farmhash::farm_fingerprint;

// Defined with the rest of the key's description, which a schema's salt names (see
// `field::description`).
pub use crate::field::description::SaltHash;

/// The hex digits of an MD5 salt of `buckets` buckets, whose count must be 16 to the power of
/// its 1 to 4 digits; `None` for any other count.
pub(crate) fn md5_digits(buckets: u32) -> Option<usize> {
    [16, 256, 4096, 65_536].iter().position(|&n| n == buckets).map(|i| i + 1)
}

/// A salt: a bucket number in front of the key, computed from some of its fields, so that
/// writes that would all hit one tablet (sequential ids, timestamps) spread over `buckets`
/// key ranges.
///
/// A read that knows every salt source field touches one bucket; one that does not fans out
/// to all of them ([`ordered_prefixes`](Self::ordered_prefixes)) and merges the results.
///
/// In the ordered format the bucket is an orderedcode int64 field (one byte below 64
/// buckets); in the delimited format it is zero-padded decimal as wide as `buckets - 1`
/// (`07#...` for 16 buckets). An [MD5 salt](SaltHash::Md5Hex) writes its bucket as hex
/// digits in both formats ([`bucket_field`](Self::bucket_field)).
///
/// ```
/// use rowkey::salt::Salt;
/// use rowkey::Desc;
///
/// let salt = Salt::farmhash(16)?;
/// let device = "4c410523";
/// let key = salt.ordered_key(&(device,), &("phone", device, Desc(1_588_291_200_000i64)))?;
///
/// let (bucket, (kind, id, ts)) = salt.decode_ordered::<(String, String, Desc<i64>)>(&key)?;
/// assert_eq!(bucket, salt.bucket(&(device,))?);
/// assert_eq!((kind.as_str(), id.as_str(), ts.0), ("phone", device, 1_588_291_200_000));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Salt {
    buckets: u32,
    hash: SaltHash,
}

impl Salt {
    /// The most buckets a salt may have.
    pub const MAX_BUCKETS: u32 = 65_536;

    /// A salt of `buckets` buckets (1 to 65536) chosen by `hash`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a bucket count outside 1 to 65536; for
    /// [`SaltHash::Md5Hex`], a count other than 16, 256, 4096 or 65536, or rowkey built
    /// without its `md5` feature.
    ///
    /// ```
    /// use rowkey::salt::{Salt, SaltHash};
    ///
    /// assert!(Salt::new(16, SaltHash::Modulo).is_ok());
    /// assert!(Salt::new(0, SaltHash::FarmHash).is_err());
    /// ```
    pub fn new(buckets: u32, hash: SaltHash) -> Result<Salt> {
        if hash == SaltHash::Md5Hex {
            if !cfg!(feature = "md5") {
                return Err(Error::argument(
                    "salt",
                    "an MD5 salt needs rowkey's `md5` feature: add `features = [\"md5\"]` to the rowkey dependency",
                ));
            }
            // Before the general range, so that 0 or 100000 also hears which counts an MD5
            // salt takes.
            if md5_digits(buckets).is_none() {
                return Err(Error::argument(
                    "bucket count",
                    format!(
                        "an MD5 salt's buckets are its first 1 to 4 hex digits, so there are 16, 256, 4096 or 65536 \
                         of them, not {buckets}"
                    ),
                ));
            }
        }
        if !(1..=Self::MAX_BUCKETS).contains(&buckets) {
            return Err(Error::argument(
                "bucket count",
                format!("{buckets} is outside 1 to 65536; a few times the number of servers is typical, such as 16"),
            ));
        }
        Ok(Salt { buckets, hash })
    }

    /// A [`SaltHash::Md5Hex`] salt of `buckets` buckets: 16, 256, 4096 or 65536, the first 1,
    /// 2, 3 or 4 hex digits of the digest.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new): another bucket count.
    ///
    /// ```
    /// use rowkey::salt::Salt;
    ///
    /// let salt = Salt::md5_hex(65_536)?;
    /// // MD5("row1") is e674db5d...: the bucket is e674, and the key starts with it.
    /// assert_eq!(salt.bucket(&("row1",))?, 0xe674);
    /// assert_eq!(salt.ordered_key(&("row1",), &("row1",))?.as_bytes(), b"e674\x00\x01row1");
    /// assert!(Salt::md5_hex(100).is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[cfg(feature = "md5")]
    pub fn md5_hex(buckets: u32) -> Result<Salt> {
        Salt::new(buckets, SaltHash::Md5Hex)
    }

    /// A [`SaltHash::FarmHash`] salt.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new).
    ///
    /// ```
    /// assert_eq!(rowkey::salt::Salt::farmhash(16)?.buckets(), 16);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn farmhash(buckets: u32) -> Result<Salt> {
        Salt::new(buckets, SaltHash::FarmHash)
    }

    /// A [`SaltHash::Modulo`] salt.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new).
    ///
    /// ```
    /// let salt = rowkey::salt::Salt::modulo(16)?;
    /// assert_eq!(salt.bucket(&(1_588_291_200_003i64,))?, 3);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn modulo(buckets: u32) -> Result<Salt> {
        Salt::new(buckets, SaltHash::Modulo)
    }

    /// The number of buckets.
    #[must_use]
    pub fn buckets(&self) -> u32 {
        self.buckets
    }

    /// How the bucket is chosen.
    #[must_use]
    pub fn hash(&self) -> SaltHash {
        self.hash
    }

    /// The bucket for the salt source fields, given as a tuple (or any [`OrderedKey`]).
    ///
    /// It depends on those fields' values only, so a reader that knows them knows the
    /// bucket. For [`SaltHash::FarmHash`] and [`SaltHash::Md5Hex`] the input is the fields'
    /// ordered encoding: for a single string field without `\0`, its UTF-8 bytes (none for
    /// `""`), so GoogleSQL's `ABS(MOD(FARM_FINGERPRINT(field), buckets))`, or the first hex
    /// characters of `MD5(field)` that Tablestore's examples compute, give the same bucket.
    ///
    /// # Errors
    ///
    /// A source field that cannot be encoded; for [`SaltHash::Modulo`], a source that is not
    /// exactly one integer field.
    ///
    /// ```
    /// use rowkey::salt::{Salt, farm_fingerprint};
    ///
    /// let salt = Salt::farmhash(16)?;
    /// let bucket = salt.bucket(&("4c410523",))?;
    /// assert_eq!(i64::from(bucket), (farm_fingerprint(b"4c410523") % 16).abs());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn bucket<'de, S: OrderedKey<'de>>(&self, source: &S) -> Result<u32> {
        let mut encoded = Key::new();
        // No finish(): sources whose fields are all empty hash as empty bytes, as
        // FARM_FINGERPRINT('') does, not as the `00 00` that stands for such a key.
        source.write_fields(&mut OrderedWriter::new(&mut encoded))?;
        self.bucket_of_encoded(&encoded)
    }

    /// The bucket for salt source fields already written by an [`OrderedWriter`] (a key
    /// whose fields are all empty is no bytes here, not `00 00`).
    ///
    /// For [`SaltHash::Modulo`] the bytes are read back as an `i64` field first, then as a
    /// `u64`: some `u64` values' bytes are also another `i64`'s (the 5 bytes of `2^24` read
    /// as a negative `i64`), so give a `u64` source to [`modulo_bucket`](Self::modulo_bucket)
    /// by value, as derived keys do.
    ///
    /// # Errors
    ///
    /// For [`SaltHash::Modulo`], bytes that are not one integer field.
    pub fn bucket_of_encoded(&self, encoded: &[u8]) -> Result<u32> {
        match self.hash {
            SaltHash::FarmHash => Ok(self.farmhash_bucket(encoded)),
            SaltHash::Md5Hex => self.md5_bucket(encoded),
            SaltHash::Modulo => {
                let value = match decode_key::<_, (i64,)>(&Ordered, encoded) {
                    // An integer field is never empty, so these are a whole key's bytes.
                    Ok((v,)) => i128::from(v),
                    Err(_) => i128::from(
                        decode_key::<_, (u64,)>(&Ordered, encoded)
                            .map_err(|_| {
                                Error::argument("salt source", "a modulo salt takes exactly one integer field")
                            })?
                            .0,
                    ),
                };
                Ok(self.modulo_bucket(value))
            }
        }
    }

    /// `ABS(MOD(FARM_FINGERPRINT(bytes), buckets))`.
    #[must_use]
    pub fn farmhash_bucket(&self, bytes: &[u8]) -> u32 {
        let bucket = (farm_fingerprint(bytes) % i64::from(self.buckets)).unsigned_abs();
        u32::try_from(bucket).unwrap_or(0)
    }

    /// The first [`hex_digits`](Self::hex_digits) hex digits of MD5 of `bytes`, as a number.
    fn md5_bucket(&self, bytes: &[u8]) -> Result<u32> {
        #[cfg(feature = "md5")]
        {
            use ::md5::Digest;
            let digest = ::md5::Md5::digest(bytes);
            let top = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
            Ok(top >> (32 - 4 * self.hex_digits()))
        }
        #[cfg(not(feature = "md5"))]
        {
            let _ = bytes;
            Err(Error::argument("salt", "an MD5 salt needs rowkey's `md5` feature"))
        }
    }

    /// How many hex digits an [MD5 salt](SaltHash::Md5Hex)'s bucket has (its bucket count is
    /// 16 to that power); 0 for the other salts.
    ///
    /// ```
    /// assert_eq!(rowkey::salt::Salt::md5_hex(4096)?.hex_digits(), 3);
    /// assert_eq!(rowkey::salt::Salt::farmhash(16)?.hex_digits(), 0);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn hex_digits(&self) -> usize {
        match self.hash {
            // `new` admitted only the counts that have digits.
            SaltHash::Md5Hex => md5_digits(self.buckets).unwrap_or(0),
            SaltHash::FarmHash | SaltHash::Modulo => 0,
        }
    }

    /// The bucket field that goes in front of a key, for the key writers: an orderedcode
    /// int64 in the ordered format and zero-padded decimal in the delimited one, or the hex
    /// digits of an MD5 salt in both.
    ///
    /// ```
    /// use rowkey::field::{EncodeText, WriteField};
    /// use rowkey::format::Ordered;
    /// use rowkey::salt::Salt;
    ///
    /// let mut text = Vec::new();
    /// Salt::farmhash(16)?.bucket_field(7).encode_text(&mut text)?;
    /// assert_eq!(text, b"07");
    /// let mut bytes = Vec::new();
    /// WriteField::<Ordered>::write(&Salt::md5_hex(256)?.bucket_field(0x4c), &mut bytes)?;
    /// assert_eq!(bytes, b"4c");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn bucket_field(&self, bucket: u32) -> BucketField {
        BucketField { bucket, hex_digits: self.hex_digits(), width: self.text_width() }
    }

    /// Reads a bucket field back, exactly as [`bucket_field`](Self::bucket_field) writes it
    /// (from its unescaped bytes when `delimited` is false): the one parser of bucket fields.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] naming the bucket: not the field's form, or not one of the
    /// salt's buckets.
    ///
    /// ```
    /// use rowkey::salt::Salt;
    ///
    /// let salt = Salt::farmhash(16)?;
    /// assert_eq!(salt.read_bucket(b"07", true)?, 7);
    /// assert!(salt.read_bucket(b"7", true).is_err()); // two digits for 16 buckets
    /// assert!(salt.read_bucket(b"16", true).is_err()); // not a bucket
    /// assert_eq!(salt.read_bucket(b"\x87", false)?, 7);
    ///
    /// // An MD5 salt's bucket: exactly its lowercase hex digits, in both formats.
    /// let md5 = Salt::md5_hex(65_536)?;
    /// assert_eq!(md5.read_bucket(b"e674", true)?, 0xe674);
    /// assert_eq!(md5.read_bucket(b"e674", false)?, 0xe674);
    /// assert!(md5.read_bucket(b"E674", true).is_err()); // uppercase
    /// assert!(md5.read_bucket(b"e67", true).is_err()); // short
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn read_bucket(&self, bytes: &[u8], delimited: bool) -> Result<u32> {
        let value = match self.hex_digits() {
            0 if delimited => {
                let value = decode_decimal(bytes, self.text_width(), false, "bucket")?;
                u32::try_from(value).map_err(|_| Error::out_of_range(value, "u32"))?
            }
            0 => u32::decode_field(FieldBytes::borrowed(bytes))?,
            digits => {
                let hex = |b: &u8| match b {
                    b'0'..=b'9' => Some(u32::from(b - b'0')),
                    b'a'..=b'f' => Some(u32::from(b - b'a' + 10)),
                    _ => None,
                };
                let value = (bytes.len() == digits)
                    .then(|| bytes.iter().try_fold(0u32, |acc, b| Some(acc << 4 | hex(b)?)))
                    .flatten();
                value.ok_or_else(|| {
                    let found = String::from_utf8_lossy(bytes);
                    // Uppercase is the likeliest slip when keys come from other code.
                    let hint = if bytes.len() == digits && found.to_ascii_lowercase().bytes().all(|b| hex(&b).is_some())
                    {
                        "; write the digits in lowercase, as the salt does"
                    } else {
                        ""
                    };
                    Error::invalid(
                        "bucket",
                        format!("an MD5 salt's bucket is {digits} lowercase hex digits, found {found:?}{hint}"),
                    )
                })?
            }
        };
        self.checked_bucket(value)
    }

    /// `value mod buckets`, wrapped into `0..buckets` for negative values.
    #[must_use]
    pub fn modulo_bucket(&self, value: i128) -> u32 {
        u32::try_from(value.rem_euclid(i128::from(self.buckets))).unwrap_or(0)
    }

    fn checked_bucket(&self, bucket: u32) -> Result<u32> {
        if bucket < self.buckets {
            Ok(bucket)
        } else {
            Err(Error::invalid("bucket", format!("{bucket} is not a bucket of the salt's {} buckets", self.buckets)))
        }
    }

    /// The ordered key of `key`'s fields behind the bucket of `source`.
    ///
    /// # Errors
    ///
    /// As [`bucket`](Self::bucket), and what encoding `key` returns.
    pub fn ordered_key<'a, 'b, S: OrderedKey<'a>, K: OrderedKey<'b>>(&self, source: &S, key: &K) -> Result<Key> {
        let mut out = Key::new();
        self.encode_ordered_into(self.bucket(source)?, key, &mut out)?;
        Ok(out)
    }

    /// Writes `key` behind a bucket computed elsewhere into `out` (cleared first).
    ///
    /// # Errors
    ///
    /// A bucket not below [`buckets`](Self::buckets), and what encoding `key` returns.
    pub fn encode_ordered_into<'b, K: OrderedKey<'b>>(&self, bucket: u32, key: &K, out: &mut Key) -> Result<()> {
        let bucket = self.checked_bucket(bucket)?;
        out.rewrite(|out| {
            let mut w = OrderedWriter::new(out);
            w.named_field("bucket", &self.bucket_field(bucket))?;
            key.write_fields(&mut w)?;
            w.finish();
            Ok(())
        })
    }

    /// Reads an ordered salted key: the bucket and the key behind it.
    ///
    /// # Errors
    ///
    /// A bucket not below [`buckets`](Self::buckets), and what decoding `K` returns.
    pub fn decode_ordered<'de, K: OrderedKey<'de>>(&self, bytes: &'de [u8]) -> Result<(u32, K)> {
        let salted: Salted<Cow<'de, [u8]>, K> = decode_key(&Ordered, bytes)?;
        let bucket = self.read_bucket(&salted.bucket, false).map_err(|e| e.in_field(0, Some("bucket"), 0))?;
        Ok((bucket, salted.key))
    }

    /// The width of the bucket field in the delimited format: the digits of `buckets - 1`
    /// (hex digits for an MD5 salt).
    #[must_use]
    pub fn text_width(&self) -> usize {
        match self.hex_digits() {
            0 => (self.buckets - 1).checked_ilog10().map_or(1, |d| d as usize + 1),
            digits => digits,
        }
    }

    /// The delimited key of `key`'s fields behind the bucket of `source`.
    ///
    /// # Errors
    ///
    /// As [`bucket`](Self::bucket), and what encoding `key` in `format` returns.
    ///
    /// ```
    /// use rowkey::salt::Salt;
    /// use rowkey::format::Delimited;
    ///
    /// let salt = Salt::modulo(16)?;
    /// let key = salt.delimited_key(&Delimited::default(), &(7i64,), &("phone", 7u8))?;
    /// assert_eq!(key, "07#phone#007");
    /// assert_eq!(salt.decode_delimited::<(String, u8)>(&Delimited::default(), &key)?, (7, ("phone".into(), 7)));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn delimited_key<'a, 'b, S: OrderedKey<'a>, K: DelimitedKey<'b>>(
        &self,
        format: &Delimited,
        source: &S,
        key: &K,
    ) -> Result<Key> {
        let bucket = self.bucket_field(self.checked_bucket(self.bucket(source)?)?);
        format.to_key(&Salted { bucket, key })
    }

    /// Reads a delimited salted key: the bucket and the key behind it.
    ///
    /// # Errors
    ///
    /// A bucket field that is not `text_width` digits below the bucket count, and what
    /// decoding `K` returns.
    pub fn decode_delimited<'de, K: DelimitedKey<'de>>(
        &self,
        format: &Delimited,
        bytes: &'de [u8],
    ) -> Result<(u32, K)> {
        let Salted { bucket: text, key } = format.from_key::<Salted<&'de [u8], K>>(bytes)?;
        let bucket = self.read_bucket(text, true).map_err(|e| e.in_field(0, Some("bucket"), 0))?;
        Ok((bucket, key))
    }
}

/// A bucket field followed by a key's fields: `B` is the bucket as a number (ordered) or as
/// text (delimited); `K` is the key, or a reference to it when only writing.
struct Salted<B, K> {
    bucket: B,
    key: K,
}

impl<'de, K: OrderedKey<'de>> FormatKey<'de, Ordered> for Salted<Cow<'de, [u8]>, K> {
    const FIELDS: usize = 1 + K::FIELDS;

    fn write_fields(&self, w: &mut OrderedWriter<'_>) -> Result<()> {
        w.named_field("bucket", &*self.bucket)?;
        self.key.write_fields(w)
    }

    fn read_fields(r: &mut OrderedReader<'de>) -> Result<Self> {
        let bucket = r.named_field("bucket")?;
        Ok(Salted { bucket, key: K::read_fields(r)? })
    }
}

impl<'de, K: DelimitedKey<'de>> FormatKey<'de, Delimited> for Salted<BucketField, &K> {
    const FIELDS: usize = 1 + K::FIELDS;

    fn alphabet(index: usize) -> Option<Alphabet> {
        if index == 0 { Some(BUCKET_ALPHABET) } else { K::alphabet(index - 1) }
    }

    fn write_fields(&self, w: &mut DelimitedWriter<'_>) -> Result<()> {
        w.named_field("bucket", &self.bucket)?;
        self.key.write_fields(w)
    }

    fn read_fields(_: &mut DelimitedReader<'_, 'de>) -> Result<Self> {
        Err(Error::argument("salted key", "a borrowed key is written, not read"))
    }
}

impl<'de, K: DelimitedKey<'de>> FormatKey<'de, Delimited> for Salted<&'de [u8], K> {
    const FIELDS: usize = 1 + K::FIELDS;

    fn alphabet(index: usize) -> Option<Alphabet> {
        if index == 0 { Some(BUCKET_ALPHABET) } else { K::alphabet(index - 1) }
    }

    fn write_fields(&self, w: &mut DelimitedWriter<'_>) -> Result<()> {
        w.named_field("bucket", self.bucket)?;
        self.key.write_fields(w)
    }

    fn read_fields(r: &mut DelimitedReader<'_, 'de>) -> Result<Self> {
        let bucket = r.named_field::<&'de [u8]>("bucket")?;
        Ok(Salted { bucket, key: K::read_fields(r)? })
    }
}

// What a derived salted key calls: the bucket of its source fields, and the bucket field read
// back and checked.

/// The salt bucket of source fields that `write` appends to a scratch ordered key.
///
/// # Errors
///
/// What a source field's encoder returns; for a modulo salt, a source that is not one
/// integer field.
#[inline]
pub fn bucket(salt: &Salt, write: impl FnOnce(&mut OrderedWriter<'_>) -> Result<()>) -> Result<u32> {
    let mut source = Key::new();
    write(&mut OrderedWriter::new(&mut source))?;
    salt.bucket_of_encoded(&source)
}

/// Checks the bucket read from a key against the one its salt source fields give.
///
/// # Errors
///
/// [`Error::InvalidField`] naming the bucket field when they differ.
pub fn check_bucket(salt: &Salt, found: u32, expected: u32, index: usize, offset: usize) -> Result<()> {
    if found == expected {
        return Ok(());
    }
    // As the key shows them: an MD5 salt's buckets are hex digits in the key.
    let shown = |bucket: u32| match salt.hex_digits() {
        0 => bucket.to_string(),
        digits => format!("{bucket:0digits$x}"),
    };
    let (found, expected) = (shown(found), shown(expected));
    Err(Error::invalid(
        "bucket",
        format!(
            "the key is in bucket {found}, but its salt source fields give bucket {expected}; \
             the key was written with another salt or is corrupt"
        ),
    )
    .in_field(index, Some(BUCKET_FIELD), offset))
}

/// Writes a salted key's bucket field as the ordered and delimited formats write it
/// ([`Salt::bucket_field`]). What a derived key of those formats calls.
///
/// # Errors
///
/// What the format's writer returns for the field.
#[inline]
pub fn write_bucket_field<V: ValueFormat, W: KeyWriter<V>>(w: &mut W, salt: &Salt, bucket: u32) -> Result<()>
where
    BucketField: WriteField<V>,
{
    w.named_field(BUCKET_FIELD, &salt.bucket_field(bucket)).map(|_| ())
}

/// Reads back the bucket field [`write_bucket_field`] wrote (as text when `text`, the
/// delimited format's), checked against the salt.
///
/// # Errors
///
/// What the format's reader returns for the field, or a bucket that is not the salt's.
#[inline]
pub fn read_bucket_field<'de, V: ValueFormat, R: KeyReader<'de, V>>(r: &mut R, salt: &Salt, text: bool) -> Result<u32>
where
    Cow<'de, [u8]>: ReadField<'de, V>,
{
    let (index, at) = (r.field_index(), r.position());
    read_bucket(salt, &r.named_field::<Cow<'de, [u8]>>(BUCKET_FIELD)?, text, index, at)
}

/// Reads a salted key's bucket field as its salt writes it, naming the field on error.
#[inline]
pub fn read_bucket(salt: &Salt, bytes: &[u8], delimited: bool, index: usize, offset: usize) -> Result<u32> {
    salt.read_bucket(bytes, delimited).map_err(|e| e.in_field(index, Some(BUCKET_FIELD), offset))
}
