//! Integers: orderedcode signed int64 and uint64, and [`BigEndian`].

use crate::error::{Error, Location, Result};
use crate::field::alphabet::Alphabet;
use crate::field::{Bools, ByteStrings, FieldType, Ints, ReadField, Sink, WriteField};

/// The longest orderedcode int64: a 10-bit length tag and 63 payload bits.
pub(crate) const MAX_INT64_LEN: usize = 10;

/// Encodes `x` as an orderedcode signed int64: the encoding is `buf[start..]`.
///
/// A non-negative value takes `n` bytes whose top `n` bits are ones, then a zero, then the
/// value in the remaining `7n - 1` bits; `n` is the smallest that fits. A negative value is
/// the bitwise complement of the encoding of `!x`, so that it sorts below every non-negative
/// one and a larger magnitude sorts lower. The bytes are built in one `u128` and written
/// from its big-endian form, with no staging copy.
#[inline]
pub(crate) fn encode_i64(x: i64) -> ([u8; 16], usize) {
    let negative = x < 0;
    let magnitude = if negative { !x } else { x }.cast_unsigned();
    let bits = u64::BITS - magnitude.leading_zeros();
    // The smallest n with 7n - 1 payload bits >= bits.
    let n = ((bits + 7) / 7) as usize;
    let mut buf = [0u8; 16];
    if n <= 8 {
        // Up to 55 payload bits: the common case (timestamps, counters) fits one u64.
        let tag = ((1u64 << n) - 1) << (7 * n);
        let mut encoded = magnitude | tag;
        if negative {
            encoded = !encoded;
        }
        buf[8..].copy_from_slice(&encoded.to_be_bytes());
        return (buf, 16 - n);
    }
    let tag = ((1u128 << n) - 1) << (7 * n);
    let mut encoded = u128::from(magnitude) | tag;
    if negative {
        encoded = !encoded;
    }
    buf = encoded.to_be_bytes();
    (buf, 16 - n)
}

/// Decodes an orderedcode signed int64 that must span all of `bytes`.
///
/// A value below 2^55 in magnitude (counters, timestamps) takes 1 to 8 bytes, which one `u64`
/// holds; a larger one (every float's bits) takes 9 or 10, whose last eight bytes one `u64`
/// holds. Either way the length tag, the canonical-length check and the payload come out of a
/// few shifts and masks. Anything else, errors included, goes to [`decode_i64_general`], so
/// both accept exactly the same bytes and say the same about the rest.
#[inline(always)]
pub(crate) fn decode_i64(bytes: &[u8]) -> Result<i64> {
    let n = bytes.len();
    if (1..=8).contains(&n) {
        let flip = if bytes[0] & 0x80 == 0 { u64::MAX } else { 0 };
        let encoded = (load_be(bytes) ^ flip) & (u64::MAX >> (64 - 8 * n));
        let payload_bits = 7 * n - 1;
        // n one bits, then a zero: the tag of an n-byte integer.
        let tag_ok = encoded >> payload_bits == (1 << (n + 1)) - 2;
        let payload = encoded & ((1 << payload_bits) - 1);
        // A shorter encoding holds 7 bits fewer: a payload that fits there is not canonical.
        let shortest = n == 1 || payload >> (payload_bits - 7) != 0;
        if tag_ok && shortest {
            // payload < 2^55, so the cast keeps it.
            let magnitude = payload.cast_signed();
            return Ok(if flip == 0 { magnitude } else { !magnitude });
        }
    } else if n == 9 || n == 10 {
        let flip = if bytes[0] & 0x80 == 0 { u64::MAX } else { 0 };
        let tail: [u8; 8] = bytes[n - 8..].try_into().unwrap_or_default();
        let low = u64::from_be_bytes(tail) ^ flip;
        // The tag's first eight ones fill the first byte and go on into the next one.
        let head_ok = bytes[0] ^ flip as u8 == 0xff;
        let (ok, magnitude) = if n == 9 {
            // Tag `10` in the top bits of the last eight bytes, 62 payload bits, at least 56 used.
            (head_ok && low >> 62 == 0b10 && (low >> 55) & 0x7f != 0, low & ((1 << 62) - 1))
        } else {
            // Tag `110` and five payload bits in the second byte, which must be zero for the
            // value to fit 63 bits; then at least 63 bits used: the top one of `low` is `01`.
            (head_ok && bytes[1] ^ flip as u8 == 0xc0 && low >> 62 == 0b01, low)
        };
        if ok {
            let magnitude = magnitude.cast_signed();
            return Ok(if flip == 0 { magnitude } else { !magnitude });
        }
    }
    decode_i64_general(bytes)
}

/// `bytes` (1 to 8 of them) as a big-endian number, with fixed-size loads only.
#[inline(always)]
fn load_be(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n >= 4 {
        let high = u64::from(u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        let low = u64::from(u32::from_be_bytes([bytes[n - 4], bytes[n - 3], bytes[n - 2], bytes[n - 1]]));
        let overlap = 8 * (n - 4);
        high << overlap | low & ((1u64 << overlap) - 1)
    } else {
        // One to three bytes: the first, middle and last cover them all.
        let spread = u64::from(bytes[0]) << 16 | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]);
        spread >> (8 * (3 - n))
    }
}

/// [`decode_i64`] for 9- and 10-byte integers and for every error.
#[cold]
#[inline(never)]
fn decode_i64_general(bytes: &[u8]) -> Result<i64> {
    let Some(&first) = bytes.first() else {
        return Err(Error::invalid("integer", "the field is empty"));
    };
    let flip = if first & 0x80 == 0 { 0xff } else { 0 };
    let lead = first ^ flip;
    let n = if lead == 0xff {
        let second = bytes.get(1).map_or(0, |b| b ^ flip);
        8 + second.leading_ones() as usize
    } else {
        lead.leading_ones() as usize
    };
    if n > MAX_INT64_LEN {
        return Err(Error::invalid("integer", "its length tag says more than 10 bytes"));
    }
    if bytes.len() != n {
        return Err(Error::invalid(
            "integer",
            format!("its length tag says {n} bytes but the field has {}", bytes.len()),
        ));
    }
    let payload_bits = 7 * n - 1;
    let flips = u64::from_ne_bytes([flip; 8]);
    let magnitude = if n <= 8 {
        // Up to 55 payload bits: one u64, from two overlapping 4-byte reads when there are 4
        // or more bytes (a variable-length copy into a padded word would call `memcpy`).
        let encoded = if n >= 4 {
            let high = u64::from(u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
            let low = u64::from(u32::from_be_bytes([bytes[n - 4], bytes[n - 3], bytes[n - 2], bytes[n - 1]]));
            let overlap = 8 * (n - 4);
            high << overlap | low & ((1u64 << overlap) - 1)
        } else {
            bytes.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b))
        } ^ flips;
        u128::from(encoded & ((1u64 << payload_bits) - 1))
    } else {
        // Nine or ten bytes: the last eight as one u64, the one or two before as its top.
        let (head, tail) = bytes.split_at(n - 8);
        let low = u64::from_be_bytes(tail.try_into().unwrap_or_default()) ^ flips;
        let high = head.iter().fold(0u128, |acc, &b| acc << 8 | u128::from(b ^ flip));
        (high << 64 | u128::from(low)) & ((1u128 << payload_bits) - 1)
    };
    if n > 1 && magnitude < 1u128 << (payload_bits - 7) {
        return Err(Error::NonCanonical {
            at: Location::default(),
            detail: "the integer uses more bytes than its value needs",
        });
    }
    let Ok(magnitude) = i64::try_from(magnitude) else {
        return Err(Error::invalid("integer", "the value is beyond the 64-bit range"));
    };
    Ok(if flip == 0 { magnitude } else { !magnitude })
}

/// Encodes `x` as an orderedcode uint64: a byte holding the length, then the value's
/// big-endian bytes without leading zeros (`0` is the single byte `00`).
#[inline]
pub(crate) fn encode_u64(x: u64) -> ([u8; 9], usize) {
    let n = (u64::BITS - x.leading_zeros()).div_ceil(8) as usize;
    let mut buf = [0u8; 9];
    buf[0] = n as u8;
    buf[1..=n].copy_from_slice(&x.to_be_bytes()[8 - n..]);
    (buf, n + 1)
}

/// Decodes an orderedcode uint64 that must span all of `bytes`.
pub(crate) fn decode_u64(bytes: &[u8]) -> Result<u64> {
    let Some((&n, digits)) = bytes.split_first() else {
        return Err(Error::invalid("u64", "the field is empty"));
    };
    if n > 8 || digits.len() != usize::from(n) {
        return Err(Error::invalid("u64", format!("its length byte says {n} bytes but {} follow", digits.len())));
    }
    if digits.first() == Some(&0) {
        return Err(Error::NonCanonical { at: Location::default(), detail: "the u64 has a leading zero byte" });
    }
    Ok(digits.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b)))
}

// Integers and bool are written once against the model: every format with the capability
// holds them, and the bytes are the format's (for the ordered format, `Ordered`'s `Ints` and
// `Bools` impls). Their `ENCODING` stays `Custom`: the derive knows them by name.
macro_rules! int_fields {
    ($($ty:ty),*) => {$(
        impl FieldType for $ty {}

        impl<F: Ints<$ty>> WriteField<F> for $ty {
            const ALPHABET: Option<Alphabet> = <F as Ints<$ty>>::ALPHABET;

            #[inline(always)]
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                F::write_int(*self, out)
            }
        }

        impl<'de, F: Ints<$ty>> ReadField<'de, F> for $ty {
            #[inline(always)]
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                F::read_int(input)
            }
        }
    )*};
}

int_fields!(i8, i16, i32, i64, isize, i128, u8, u16, u32, u64, usize, u128);

impl FieldType for bool {}

impl<F: Bools> WriteField<F> for bool {
    const ALPHABET: Option<Alphabet> = F::ALPHABET;

    #[inline(always)]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_bool(*self, out)
    }
}

impl<'de, F: Bools> ReadField<'de, F> for bool {
    #[inline(always)]
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_bool(input)
    }
}

/// An integer field as 8 big-endian bytes: Bigtable's `Int64.BigEndianBytes`, HBase's
/// `Bytes.toBytes(long)`.
///
/// Fixed width, so it reads well in hex dumps and matches keys that Java code wrote with
/// `Bytes.toBytes`. Two's complement puts negative values after positive ones, so a
/// negative value is an [`Error::Unencodable`] rather than a mis-sorted key; use the default
/// encoding (or [`Desc`](crate::Desc)) for signed data. Any integer type of up to 64 bits fits.
///
/// ```
/// use rowkey::{BigEndian, RowKey};
///
/// let key = ("user1", BigEndian(1i64)).to_key()?;
/// assert_eq!(key.as_bytes(), b"user1\x00\x01\x00\xff\x00\xff\x00\xff\x00\xff\x00\xff\x00\xff\x00\xff\x01");
/// assert!(("user1", BigEndian(-1i64)).to_key().is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BigEndian<T>(pub T);

macro_rules! big_endian {
    ($($ty:ty),*) => {$(
        impl BigEndian<$ty> {
            /// The 8 bytes, or an error for a value that would not sort as it should.
            pub(crate) fn to_bytes(self) -> Result<[u8; 8]> {
                match i64::try_from(self.0) {
                    Ok(v) if v >= 0 => Ok(v.to_be_bytes()),
                    Ok(_) => Err(Error::unencodable(
                        concat!("BigEndian<", stringify!($ty), ">"),
                        "a negative value sorts after the positive ones in two's complement; \
                         use the default integer encoding, which orders negatives first",
                    )),
                    Err(_) => Err(Error::unencodable(
                        concat!("BigEndian<", stringify!($ty), ">"),
                        "the value is above i64::MAX, the largest 8-byte big-endian field",
                    )),
                }
            }

            /// The value of the bytes [`to_bytes`](Self::to_bytes) writes.
            pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Self> {
                let Ok(raw) = <[u8; 8]>::try_from(bytes) else {
                    return Err(Error::invalid(
                        concat!("BigEndian<", stringify!($ty), ">"),
                        format!("it needs exactly 8 bytes, the field has {}", bytes.len()),
                    ));
                };
                let wide = i64::from_be_bytes(raw);
                if wide < 0 {
                    return Err(Error::invalid(
                        concat!("BigEndian<", stringify!($ty), ">"),
                        "the value is negative, which this encoding never writes because it would sort last",
                    ));
                }
                <$ty>::try_from(wide)
                    .map(BigEndian)
                    .map_err(|_| Error::out_of_range(i128::from(wide), stringify!($ty)))
            }
        }

        impl FieldType for BigEndian<$ty> {}

        // A byte string of the 8 bytes.
        impl<F: ByteStrings> WriteField<F> for BigEndian<$ty> {
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                F::write_bytes(&self.to_bytes()?, out)
            }
        }

        impl<'de, F: ByteStrings> ReadField<'de, F> for BigEndian<$ty> {
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                Self::from_bytes(&F::read_bytes(input, concat!("BigEndian<", stringify!($ty), ">"))?)
            }
        }
    )*};
}

big_endian!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(x: i64) -> Vec<u8> {
        let (buf, start) = encode_i64(x);
        buf[start..].to_vec()
    }

    #[test]
    fn length_classes_meet_at_their_boundaries() {
        // For each byte count n, the largest value is 2^(7n-1) - 1.
        for n in 1..=9u32 {
            let max = (1i64 << (7 * n - 1)) - 1;
            assert_eq!(enc(max).len(), n as usize, "{max}");
            assert_eq!(enc(max + 1).len(), n as usize + 1, "{}", max + 1);
            assert_eq!(enc(-max - 1).len(), n as usize, "{}", -max - 1);
            assert_eq!(enc(-max - 2).len(), n as usize + 1, "{}", -max - 2);
            for v in [max, max + 1, -max - 1, -max - 2] {
                assert_eq!(decode_i64(&enc(v)).unwrap(), v);
            }
        }
        assert_eq!(enc(i64::MAX).len(), 10);
        assert_eq!(enc(i64::MIN).len(), 10);
    }

    #[test]
    fn rejects_redundant_lengths() {
        // 5 written in two bytes (c0 05) instead of one (85).
        assert!(matches!(decode_i64(&[0xc0, 0x05]), Err(Error::NonCanonical { .. })));
        assert!(matches!(decode_u64(&[0x02, 0x00, 0x05]), Err(Error::NonCanonical { .. })));
    }

    #[test]
    fn rejects_tags_beyond_ten_bytes_and_wrong_lengths() {
        assert!(decode_i64(&[0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_i64(&[0xc0]).is_err());
        assert!(decode_i64(&[0x80, 0x80]).is_err());
        assert!(decode_i64(&[]).is_err());
        // A 10-byte tag whose payload is above i64::MAX.
        assert!(decode_i64(&[0xff, 0xc0, 0x80, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_u64(&[0x09, 1, 2, 3, 4, 5, 6, 7, 8, 9]).is_err());
    }

    /// The fast paths of `decode_i64` answer exactly as the general decoder: the same value
    /// or the same error, for every encoding and near-encoding of every length.
    #[test]
    fn fast_paths_agree_with_the_general_decoder() {
        let same = |bytes: &[u8]| {
            let fast = format!("{:?}", decode_i64(bytes));
            assert_eq!(fast, format!("{:?}", decode_i64_general(bytes)), "{bytes:02x?}");
        };
        let mut values = vec![0, 1, -1, i64::MIN, i64::MAX, i64::MIN + 1, i64::MAX - 1];
        for shift in 0..63 {
            for base in [1i64 << shift, (1i64 << shift) - 1, (1i64 << shift) + 1] {
                values.extend([base, -base, !base]);
            }
        }
        for v in values {
            let good = enc(v);
            same(&good);
            // Every single-bit flip of a valid encoding, and every shortening and lengthening.
            for i in 0..good.len() {
                for bit in 0..8 {
                    let mut bad = good.clone();
                    bad[i] ^= 1 << bit;
                    same(&bad);
                }
                same(&good[..i]);
            }
            let mut longer = good.clone();
            longer.push(0x00);
            same(&longer);
        }
        // All one- and two-byte inputs.
        for a in 0..=255u8 {
            same(&[a]);
            for b in 0..=255u8 {
                same(&[a, b]);
            }
        }
    }
}
