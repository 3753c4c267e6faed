//! Salt and bucket functions of existing HBase-era systems, reproduced bit for
//! bit so that a table migrated to this crate keeps its rows in the buckets
//! they already occupy.
//!
//! Each function mirrors one Java expression, including Java's wrapping `int`
//! arithmetic, signed `byte`s and truncating `%`. Invalid parameters give
//! `None` where the Java would throw or where the system refuses the setting.
//!
//! MD5-based prefixes (the first hex characters of a digest) are a salt of their
//! own, [`SaltHash::Md5Hex`](crate::salt::SaltHash::Md5Hex) behind the `md5`
//! feature, rather than a function here.

/// Java `Arrays.hashCode(byte[])`: `h = 31 * h + b` over the bytes read as
/// signed, starting from 1, wrapping on overflow.
///
/// Apache Phoenix's salting hash and OpenTSDB's salt both use this exact sum.
///
/// ```
/// use rowkey::salt::compat::java_bytes_hash;
///
/// assert_eq!(java_bytes_hash(b""), 1);
/// assert_eq!(java_bytes_hash(b"row1"), 4430104);
/// // 0xff is the Java byte -1.
/// assert_eq!(java_bytes_hash(&[0xff]), 30);
/// ```
pub fn java_bytes_hash(bytes: &[u8]) -> i32 {
    continue_bytes_hash(1, bytes)
}

/// Extends an `Arrays.hashCode` sum, so a hash over concatenated slices needs
/// no concatenated copy.
fn continue_bytes_hash(hash: i32, bytes: &[u8]) -> i32 {
    bytes.iter().fold(hash, |h, &b| h.wrapping_mul(31).wrapping_add(i32::from(b.cast_signed())))
}

/// Java `String.hashCode()`: `h = 31 * h + c` over the UTF-16 code units of
/// `s`, starting from 0, wrapping on overflow.
///
/// Characters outside the Basic Multilingual Plane count as two code units,
/// as in Java.
///
/// ```
/// use rowkey::salt::compat::java_string_hash;
///
/// assert_eq!(java_string_hash(""), 0);
/// assert_eq!(java_string_hash("row1"), 3506583);
/// assert_eq!(java_string_hash("com.google.maps"), -2012160961);
/// ```
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0, |h: i32, unit| h.wrapping_mul(31).wrapping_add(i32::from(unit)))
}

/// Java `Math.abs(hash % buckets)`: the bucket idiom of hand-salted HBase
/// schemas (usually over `key.hashCode()`) and of Phoenix.
///
/// Java's `%` keeps the sign of `hash`, so the absolute value is taken after
/// the remainder; the result is in `0..buckets`. Taking it before the
/// remainder instead (`Math.abs(hash) % buckets`) gives the same bucket for
/// every hash except `i32::MIN`.
///
/// Returns `None` when `buckets` is 0 or does not fit a Java `int`.
///
/// ```
/// use rowkey::salt::compat::{java_hash_bucket, java_string_hash};
///
/// let hash = java_string_hash("com.google.maps"); // -2012160961
/// assert_eq!(java_hash_bucket(hash, 16), Some(1)); // not 15: sign dropped after %
/// assert_eq!(java_hash_bucket(hash, 0), None);
/// ```
pub fn java_hash_bucket(hash: i32, buckets: u32) -> Option<u32> {
    let n = i32::try_from(buckets).ok().filter(|&n| n > 0)?;
    Some((hash % n).unsigned_abs())
}

/// Apache Phoenix's salt byte for a table created with `SALT_BUCKETS = buckets`:
/// `(byte) Math.abs(hash % buckets)`, where `hash` is [`java_bytes_hash`] of
/// the row key.
///
/// `key` is the row key without its salt byte (the bytes Phoenix writes after
/// it). The result is the first byte of the stored row key; for 129 or more
/// buckets it can exceed 127, where Java shows a negative `byte`.
///
/// Returns `None` unless `buckets` is in Phoenix's range `1..=256`.
///
/// ```
/// use rowkey::salt::compat::phoenix_salt_byte;
///
/// assert_eq!(phoenix_salt_byte(b"row1", 16), Some(0x08));
/// assert_eq!(phoenix_salt_byte(b"a", 256), Some(0x80));
/// assert_eq!(phoenix_salt_byte(b"row1", 0), None);
/// assert_eq!(phoenix_salt_byte(b"row1", 257), None);
/// ```
pub fn phoenix_salt_byte(key: &[u8], buckets: u16) -> Option<u8> {
    if !(1..=256).contains(&buckets) {
        return None;
    }
    java_hash_bucket(java_bytes_hash(key), u32::from(buckets)).and_then(|b| u8::try_from(b).ok())
}

/// OpenTSDB's salt bucket (`RowKey.prefixKeyWithSalt`, OpenTSDB 2.2 and later)
/// for `tsd.storage.salt.buckets = buckets`.
///
/// The hash is [`java_bytes_hash`] over the metric UID followed by the tag
/// UIDs, leaving out the salt and the 4-byte base time that sit between them
/// in the row key, so every hour of a series lands in the same bucket. `tags`
/// is the row key's tag section as OpenTSDB writes it: each tag key UID
/// followed by its tag value UID, pairs sorted by tag key UID bytes.
///
/// A negative remainder is negated, which equals [`java_hash_bucket`]. A metric
/// UID of all zero bytes is OpenTSDB's global annotation row, which it never
/// salts, so it gets bucket 0.
///
/// Returns `None` when `buckets` is 0 or does not fit a Java `int`.
///
/// ```
/// use rowkey::salt::compat::opentsdb_salt_bucket;
///
/// // Metric UID 1 with one tag pair (tagk 1, tagv 1), 3-byte UIDs.
/// let metric = [0, 0, 1];
/// let tags = [0, 0, 1, 0, 0, 1];
/// assert_eq!(opentsdb_salt_bucket(&metric, &tags, 20), Some(8));
/// assert_eq!(opentsdb_salt_bucket(&[0, 0, 0], &tags, 20), Some(0));
/// ```
pub fn opentsdb_salt_bucket(metric_uid: &[u8], tags: &[u8], buckets: u32) -> Option<u32> {
    let hash = continue_bytes_hash(java_bytes_hash(metric_uid), tags);
    let bucket = java_hash_bucket(hash, buckets)?;
    if metric_uid.iter().all(|&b| b == 0) {
        return Some(0);
    }
    Some(bucket)
}

/// The `width` salt bytes OpenTSDB writes for `bucket` (`RowKey.getSaltBytes`):
/// the bucket big-endian, truncated to its low `width` bytes.
///
/// For widths above 4 this keeps a Java quirk: an `int` shift by 32 or more
/// wraps, so the bucket's four bytes repeat instead of being zero-padded.
/// OpenTSDB allows widths up to 8; width 0 means salting is off.
///
/// ```
/// use rowkey::salt::compat::opentsdb_salt_bytes;
///
/// assert_eq!(opentsdb_salt_bytes(8, 1), [0x08]);
/// assert_eq!(opentsdb_salt_bytes(300, 2), [0x01, 0x2c]);
/// assert_eq!(opentsdb_salt_bytes(8, 5), [0x08, 0, 0, 0, 0x08]);
/// ```
pub fn opentsdb_salt_bytes(bucket: u32, width: u8) -> Vec<u8> {
    let le = bucket.to_le_bytes();
    (0..usize::from(width)).rev().map(|from_low_end| le[from_low_end % 4]).collect()
}

/// The base time OpenTSDB stores in a row key for a data point at
/// `timestamp`: the start of its hour, in seconds.
///
/// As in OpenTSDB, a timestamp with any of its upper 32 bits set is taken to
/// be in milliseconds. Returns `None` when the base time does not fit the
/// 4-byte field (OpenTSDB rejects such timestamps).
///
/// ```
/// use rowkey::salt::compat::opentsdb_base_time;
///
/// assert_eq!(opentsdb_base_time(1_600_000_000), Some(1_599_998_400));
/// assert_eq!(opentsdb_base_time(1_600_000_000_123), Some(1_599_998_400));
/// ```
pub fn opentsdb_base_time(timestamp: u64) -> Option<u32> {
    const SECOND_MASK: u64 = 0xffff_ffff_0000_0000;
    const MAX_TIMESPAN: u64 = 3600;
    let secs = if timestamp & SECOND_MASK != 0 { timestamp / 1000 } else { timestamp };
    u32::try_from(secs - secs % MAX_TIMESPAN).ok()
}

/// A complete OpenTSDB data row key: salt, metric UID, base time (4 bytes
/// big-endian), tag UIDs.
///
/// `tags` is laid out as for [`opentsdb_salt_bucket`]; `timestamp` as for
/// [`opentsdb_base_time`]. With `salt_width` 0 the key is unsalted and
/// `buckets` is ignored, as OpenTSDB ignores `tsd.storage.salt.buckets` then.
///
/// Returns `None` when `salt_width` exceeds OpenTSDB's maximum of 8, when the
/// key is salted and `buckets` is invalid (see [`opentsdb_salt_bucket`]), or
/// when the timestamp has no 4-byte base time.
///
/// ```
/// use rowkey::salt::compat::opentsdb_row_key;
///
/// let key = opentsdb_row_key(&[0, 0, 1], 1_600_000_000, &[0, 0, 1, 0, 0, 1], 1, 20);
/// assert_eq!(
///     key.as_deref(),
///     Some(&[0x08, 0, 0, 1, 0x5f, 0x5e, 0x09, 0xc0, 0, 0, 1, 0, 0, 1][..])
/// );
/// ```
pub fn opentsdb_row_key(
    metric_uid: &[u8],
    timestamp: u64,
    tags: &[u8],
    salt_width: u8,
    buckets: u32,
) -> Option<Vec<u8>> {
    if salt_width > 8 {
        return None;
    }
    let base_time = opentsdb_base_time(timestamp)?;
    let mut key = Vec::with_capacity(usize::from(salt_width) + metric_uid.len() + 4 + tags.len());
    if salt_width > 0 {
        let bucket = opentsdb_salt_bucket(metric_uid, tags, buckets)?;
        key.extend_from_slice(&opentsdb_salt_bytes(bucket, salt_width));
    }
    key.extend_from_slice(metric_uid);
    key.extend_from_slice(&base_time.to_be_bytes());
    key.extend_from_slice(tags);
    Some(key)
}

/// `value mod buckets` of an integer field, such as Tablestore's `time % 16`
/// buckets over a millisecond timestamp.
///
/// The result is always in `0..buckets`: for negative values this is the
/// Euclidean remainder, where Java's `%` would give a negative bucket. For
/// the non-negative timestamps these schemes use, the two agree.
///
/// Returns `None` when `buckets` is 0.
///
/// ```
/// use rowkey::salt::compat::modulo_bucket;
///
/// assert_eq!(modulo_bucket(1_588_291_200_015, 16), Some(15));
/// assert_eq!(modulo_bucket(-1, 16), Some(15));
/// assert_eq!(modulo_bucket(7, 0), None);
/// ```
pub fn modulo_bucket(value: i64, buckets: u32) -> Option<u32> {
    let n = i64::from(buckets);
    if n == 0 {
        return None;
    }
    u32::try_from(value.rem_euclid(n)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_of_i32_min_stays_in_range() {
        // Math.abs(i32::MIN) is negative in Java; the remainder comes first so
        // this cannot happen here.
        assert_eq!(java_hash_bucket(i32::MIN, 16), Some(0));
        assert_eq!(java_hash_bucket(i32::MIN, 7), Some(2));
        assert_eq!(java_hash_bucket(i32::MIN, i32::MAX as u32), Some(1));
        assert_eq!(java_hash_bucket(1, u32::MAX), None);
    }

    #[test]
    fn surrogate_pairs_hash_as_two_units() {
        // U+1F600 is the pair D83D DE00 in Java.
        assert_eq!(java_string_hash("\u{1f600}"), 0xd83d * 31 + 0xde00);
    }

    #[test]
    fn phoenix_single_bucket() {
        assert_eq!(phoenix_salt_byte(b"anything", 1), Some(0));
    }

    #[test]
    fn opentsdb_unsalted_and_invalid() {
        let key = opentsdb_row_key(&[0, 0, 1], 3600, &[], 0, 0).unwrap();
        assert_eq!(key, [0, 0, 1, 0, 0, 0x0e, 0x10]);
        assert_eq!(opentsdb_row_key(&[0, 0, 1], 3600, &[], 9, 20), None);
        assert_eq!(opentsdb_row_key(&[0, 0, 1], 3600, &[], 1, 0), None);
        assert_eq!(opentsdb_base_time(u64::MAX), None);
        assert_eq!(opentsdb_salt_bytes(7, 0), Vec::<u8>::new());
    }
}
