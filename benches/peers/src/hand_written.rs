//! The practical limit: the same bytes as rowkey's ordered format, written straight into a
//! reused vector with no framing state, no error paths and no checks beyond `Vec`'s own.

use crate::{Device, Wide};

/// Appends a field's bytes with each `00` escaped as `00 ff`.
#[inline]
fn escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        out.push(b);
        if b == 0 {
            out.push(0xff);
        }
    }
}

/// Ends a field that another field follows.
#[inline]
fn separator(out: &mut Vec<u8>) {
    out.extend_from_slice(&[0x00, 0x01]);
}

/// An orderedcode signed int64, escaped: `n` one bits, a zero, then the magnitude in the
/// remaining `7n - 1` bits; a negative value is the complement of `!x`'s encoding.
#[inline]
fn int64(out: &mut Vec<u8>, x: i64) {
    let negative = x < 0;
    let magnitude = if negative { !x } else { x }.cast_unsigned();
    let n = (u64::BITS - magnitude.leading_zeros() + 7) / 7;
    if n <= 8 {
        let tagged = magnitude | (((1u64 << n) - 1) << (7 * n));
        let tagged = if negative { !tagged } else { tagged };
        escaped(out, &tagged.to_be_bytes()[8 - n as usize..]);
    } else {
        // Nine or ten bytes: the length tag runs into the second byte.
        let tagged = u128::from(magnitude) | (((1u128 << n) - 1) << (7 * n));
        let tagged = if negative { !tagged } else { tagged };
        escaped(out, &tagged.to_be_bytes()[16 - n as usize..]);
    }
}

/// A float as the `i64` that orders like `total_cmp`: negative floats reflected below zero.
#[inline]
fn float(out: &mut Vec<u8>, x: f64) {
    let bits = x.to_bits().cast_signed();
    int64(out, if bits < 0 { i64::MIN.wrapping_sub(bits) } else { bits });
}

/// Writes a device key into `out`. Its strings are never empty, so no field is dropped.
pub fn device(d: &Device, out: &mut Vec<u8>) {
    out.clear();
    escaped(out, d.kind.as_bytes());
    separator(out);
    escaped(out, d.id.as_bytes());
    separator(out);
    int64(out, d.millis);
}

/// The next field of a key that more fields follow: its bytes up to the `00 01` that
/// ends it, unescaped into `buf` (`00 ff` is a `00`). `None` for anything else.
#[inline]
fn terminated<'k, 'b>(key: &'k [u8], buf: &'b mut [u8; 24]) -> Option<(&'b [u8], &'k [u8])> {
    let mut len = 0;
    let mut i = 0;
    loop {
        let b = *key.get(i)?;
        if b == 0 {
            match *key.get(i + 1)? {
                0x01 => return Some((&buf[..len], &key[i + 2..])),
                0xff => i += 1,
                _ => return None,
            }
        }
        *buf.get_mut(len)? = b;
        len += 1;
        i += 1;
    }
}

/// A text field with no `00` in it, which every text field of these keys is: borrowed
/// from the key, so the floor pays no copy that rowkey's borrowed path would not.
#[inline]
fn text(key: &[u8]) -> Option<(&str, &[u8])> {
    let end = key.iter().position(|&b| b == 0)?;
    (key.get(end + 1) == Some(&0x01)).then_some(())?;
    Some((std::str::from_utf8(&key[..end]).ok()?, &key[end + 2..]))
}

/// The last field: everything left, unescaped.
#[inline]
fn last<const N: usize>(key: &[u8]) -> Option<([u8; N], usize)> {
    let mut buf = [0u8; N];
    let (mut len, mut i) = (0, 0);
    while let Some(&b) = key.get(i) {
        if b == 0 {
            (key.get(i + 1) == Some(&0xff)).then_some(())?;
            i += 1;
        }
        *buf.get_mut(len)? = b;
        len += 1;
        i += 1;
    }
    Some((buf, len))
}

/// An orderedcode int64 spanning `bytes`: the length tag, then the payload.
#[inline]
fn read_int64(bytes: &[u8]) -> Option<i64> {
    let negative = *bytes.first()? & 0x80 == 0;
    let flip = if negative { 0xff } else { 0 };
    let encoded = bytes.iter().fold(0u128, |acc, &b| acc << 8 | u128::from(b ^ flip));
    let n = bytes.len() as u32;
    // n one bits and a zero, then 7n - 1 payload bits; the tag must match the length.
    (encoded >> (7 * n - 1) == (1 << (n + 1)) - 2).then_some(())?;
    let magnitude = i64::try_from(encoded & ((1 << (7 * n - 1)) - 1)).ok()?;
    Some(if negative { !magnitude } else { magnitude })
}

/// Reads a device key in one pass; `None` for bytes that are not one.
#[must_use]
pub fn device_decode(key: &[u8]) -> Option<Device> {
    let (kind, rest) = text(key)?;
    let (id, rest) = text(rest)?;
    let (millis, len) = last::<10>(rest)?;
    Some(Device { kind: kind.to_owned(), id: id.to_owned(), millis: read_int64(&millis[..len])? })
}

/// Reads a wide key in one pass; `None` for bytes that are not one.
#[must_use]
pub fn wide_decode(key: &[u8]) -> Option<Wide> {
    let (name, rest) = text(key)?;
    let mut buf = [0u8; 24];
    let (count, rest) = terminated(rest, &mut buf)?;
    let count = u32::try_from(read_int64(count)?).ok()?;
    let (seq, rest) = terminated(rest, &mut buf)?;
    let seq = read_int64(seq)?;
    let (value, rest) = terminated(rest, &mut buf)?;
    let ordered = read_int64(value)?;
    let bits = if ordered < 0 { i64::MIN.wrapping_sub(ordered) } else { ordered };
    let (flag, rest) = terminated(rest, &mut buf)?;
    let flag = match flag {
        [0x80] => false,
        [0x81] => true,
        _ => return None,
    };
    let (tag, len) = last::<16>(rest)?;
    (len == 16).then_some(())?;
    Some(Wide { name: name.to_owned(), count, seq, value: f64::from_bits(bits.cast_unsigned()), flag, tag })
}

/// Writes a wide key into `out`.
pub fn wide(w: &Wide, out: &mut Vec<u8>) {
    out.clear();
    escaped(out, w.name.as_bytes());
    separator(out);
    int64(out, i64::from(w.count));
    separator(out);
    int64(out, w.seq);
    separator(out);
    float(out, w.value);
    separator(out);
    // orderedcode's bool is the int64 0 or 1.
    out.push(if w.flag { 0x81 } else { 0x80 });
    separator(out);
    escaped(out, &w.tag);
}
