use std::borrow::Cow;

use super::*;
use crate::field::{ByteStrings, Floats, Ints, Strings, Versionstamp};

fn key<'de, T: FdbKey<'de>>(value: &T) -> Vec<u8> {
    FdbTuple::default().to_key(value).unwrap().into_vec()
}

fn err<'de, T: FdbKey<'de> + std::fmt::Debug>(bytes: &'de [u8]) -> String {
    FdbTuple::default().from_key::<T>(bytes).unwrap_err().to_string()
}

#[test]
fn integers_take_the_code_of_their_length() {
    assert_eq!(key(&(0u8,)), [0x14]);
    assert_eq!(key(&(-1i8,)), [0x13, 0xfe]);
    assert_eq!(key(&(u64::MAX,)), [0x1c, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    assert_eq!(key(&(i64::MIN,)), [0x0c, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    assert_eq!(FdbTuple::default().from_key::<(i64,)>(&key(&(i64::MIN,))).unwrap(), (i64::MIN,));
    assert_eq!(FdbTuple::default().from_key::<(u64,)>(&key(&(u64::MAX,))).unwrap(), (u64::MAX,));
}

#[test]
fn big_integer_codes_are_read_into_wide_types_only() {
    // 2^64 = 1d 09 01 00.., beyond u64.
    let big = b"\x1d\x09\x01\x00\x00\x00\x00\x00\x00\x00\x00";
    let msg = err::<(u64,)>(big);
    assert!(msg.contains("18446744073709551616") && msg.contains("u64"), "{msg}");
    // -2^64 = 0b f6 fe ff.. .
    let msg = err::<(i64,)>(b"\x0b\xf6\xfe\xff\xff\xff\xff\xff\xff\xff\xff");
    assert!(msg.contains("-18446744073709551616"), "{msg}");
}

#[test]
fn non_canonical_integers_are_refused() {
    // 1 with a leading zero byte.
    let msg = err::<(u8,)>(b"\x16\x00\x01");
    assert!(msg.contains("leading zero"), "{msg}");
    // -1 written over two bytes.
    assert!(FdbTuple::default().from_key::<(i8,)>(b"\x12\xff\xfe").is_err());
    // Python's form of 2^64-1 names the canonical one.
    let msg = err::<(u64,)>(b"\x1d\x08\xff\xff\xff\xff\xff\xff\xff\xff");
    assert!(msg.contains("1c ff ff ff ff ff ff ff ff") && msg.contains("Python"), "{msg}");
    let msg = err::<(i64,)>(b"\x0b\xf7\x00\x00\x00\x00\x00\x00\x00\x00");
    assert!(msg.contains("0c 00 00 00 00 00 00 00 00"), "{msg}");
    // Any short value under a big code.
    let msg = err::<(u64,)>(b"\x1d\x01\x05");
    assert!(msg.contains("canonical form"), "{msg}");
    // The same refusals after a longer field, and an integer cut short.
    let msg = err::<(&str, i64)>(b"\x02long text\x00\x11\xff\x12\x34");
    assert!(msg.contains("leading zero"), "{msg}");
    let msg = err::<(&str, u32)>(b"\x02long text\x00\x18\x01\x02");
    assert!(msg.contains("needs 4"), "{msg}");
}

#[test]
fn out_of_range_integers_are_errors_never_wraps() {
    let err = FdbTuple::default().from_key::<(u8,)>(&key(&(256u16,))).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { value: 256, ty: "u8", .. }), "{err}");
    let err = FdbTuple::default().from_key::<(u32,)>(&key(&(-1i32,))).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { value: -1, ty: "u32", .. }), "{err}");
}

#[test]
fn wrong_type_codes_name_what_was_expected() {
    let msg = err::<(bool,)>(b"\x15\x01");
    assert!(msg.contains("found an integer (type code 15)") && msg.contains("a bool"), "{msg}");
    let msg = <FdbTuple as Floats<f32>>::read_float(&mut TupleReader::new(b"\x21\x80\x00\x00\x00\x00\x00\x00\x00"))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("a double") && msg.contains("a float (type code 20)"), "{msg}");
}

#[test]
fn floats_sort_by_total_order() {
    let values = [f64::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-300, 1.0, f64::INFINITY, f64::NAN];
    let keys: Vec<_> = values
        .iter()
        .map(|v| {
            let mut out = Vec::new();
            <FdbTuple as Floats<f64>>::write_float(*v, &mut out).unwrap();
            out
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    for (v, k) in values.iter().zip(&keys) {
        let back = <FdbTuple as Floats<f64>>::read_float(&mut TupleReader::new(k)).unwrap();
        assert_eq!(back.to_bits(), v.to_bits());
    }
    let mut out = Vec::new();
    <FdbTuple as Floats<f32>>::write_float(-0.0, &mut out).unwrap();
    assert_eq!(out, [0x20, 0x7f, 0xff, 0xff, 0xff]);
}

#[test]
fn strings_and_bytes_escape_nul() {
    let mut out = Vec::new();
    FdbTuple::write_str("a\0b", &mut out).unwrap();
    assert_eq!(out, b"\x02a\x00\xffb\x00");
    let text = FdbTuple::read_str(&mut TupleReader::new(&out), "String").unwrap();
    assert_eq!(text, "a\0b");

    let mut out = Vec::new();
    FdbTuple::write_bytes(b"\x00\xff", &mut out).unwrap();
    assert_eq!(out, b"\x01\x00\xff\xff\x00");
    let mut reader = TupleReader::new(&out);
    assert_eq!(&*FdbTuple::read_bytes(&mut reader, "Vec<u8>").unwrap(), b"\x00\xff");
    reader.finish().unwrap();

    // Unterminated, and not UTF-8.
    assert!(FdbTuple::read_str(&mut TupleReader::new(b"\x02ab"), "String").unwrap_err().to_string().contains("00 end"));
    assert!(FdbTuple::read_str(&mut TupleReader::new(b"\x02\xff\x00"), "String").is_err());
    // A string is not a byte string.
    assert!(FdbTuple::read_bytes(&mut TupleReader::new(b"\x02\x00"), "Vec<u8>").is_err());
    // Escapes next to each other and at both ends, and an escaped value with no end.
    let mut reader = TupleReader::new(b"\x01\x00\xff\x00\xffa\x00\xff\x00\x14");
    assert_eq!(FdbTuple::read_bytes(&mut reader, "Vec<u8>").unwrap(), Cow::<[u8]>::Owned(b"\x00\x00a\x00".to_vec()));
    assert_eq!(reader.position(), 9);
    let msg = FdbTuple::read_bytes(&mut TupleReader::new(b"\x01a\x00\xffb"), "Vec<u8>").unwrap_err().to_string();
    assert!(msg.contains("00 end"), "{msg}");
}

#[test]
fn unescaped_text_is_borrowed() {
    let bytes = b"\x02abc\x00";
    assert!(matches!(FdbTuple::read_str(&mut TupleReader::new(bytes), "String").unwrap(), Cow::Borrowed("abc")));
}

#[test]
fn nested_tuples_write_null_as_00_ff_only_inside() {
    assert_eq!(key(&((),)), [0x05, 0x00]);
    assert_eq!(key(&((1u8, (2u8,)), 3u8)), [0x05, 0x15, 0x01, 0x05, 0x15, 0x02, 0x00, 0x00, 0x15, 0x03]);
    let back: ((u8, (u8,)), u8) = FdbTuple::default().from_key(&key(&((1u8, (2u8,)), 3u8))).unwrap();
    assert_eq!(back, ((1, (2,)), 3));
    // Too few and too many elements.
    let msg = err::<((u8, u8),)>(b"\x05\x15\x01\x00");
    assert!(msg.contains("fewer elements"), "{msg}");
    let msg = err::<((u8,),)>(b"\x05\x15\x01\x15\x02\x00");
    assert!(msg.contains("more elements"), "{msg}");
    // Unterminated.
    assert!(FdbTuple::default().from_key::<((u8,),)>(b"\x05\x15\x01").is_err());
}

#[test]
fn versionstamps_are_33_and_twelve_bytes() {
    let stamp = Versionstamp::new([0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0, 1, 2, 3], 0);
    assert_eq!(key(&(stamp,)), b"\x33\xaa\xbb\xcc\xdd\xee\xff\x00\x01\x02\x03\x00\x00");
    assert!(FdbTuple::default().from_key::<(Versionstamp,)>(b"\x33\x01").is_err());
    assert_eq!(format!("{stamp:?}"), "Versionstamp(aabbccddeeff00010203, user 0)");
}

#[test]
fn prefixes_are_checked_and_stripped() {
    let dir = FdbTuple::with_prefix(b"\xfe\x01");
    let key = dir.to_key(&(5u8,)).unwrap();
    assert_eq!(key.as_bytes(), b"\xfe\x01\x15\x05");
    assert_eq!(dir.from_key::<(u8,)>(&key).unwrap(), (5,));
    let msg = FdbTuple::with_prefix(b"\xfe\x02").from_key::<(u8,)>(&key).unwrap_err().to_string();
    assert!(msg.contains("fe 01") && msg.contains("fe 02") && msg.contains("prefix"), "{msg}");
    // Offsets are in the whole key.
    let err = dir.from_key::<(u8, u8)>(&key).unwrap_err();
    assert_eq!(err.location().offset(), Some(4));
}

#[test]
fn trailing_bytes_and_missing_fields_are_errors() {
    let err = FdbTuple::default().from_key::<(u8,)>(b"\x14\x14").unwrap_err();
    assert!(matches!(err, Error::TrailingBytes { offset: 1, len: 1 }), "{err}");
    let err = FdbTuple::default().from_key::<(u8, u8)>(b"\x14").unwrap_err();
    assert_eq!(err.location().field(), Some(1));
}

#[test]
fn integer_widths_meet_at_the_type_boundaries() {
    for v in [0i128, 1, -1, 255, -255, 256, -256, i64::MAX.into(), i64::MIN.into(), u64::MAX.into()] {
        let mut out = Vec::new();
        values_write(v, &mut out);
        let back = <FdbTuple as Ints<i64>>::read_int(&mut TupleReader::new(&out));
        assert_eq!(back.ok().map(i128::from), i64::try_from(v).ok().map(i128::from), "{v}");
    }
}

fn values_write(v: i128, out: &mut Vec<u8>) {
    match i64::try_from(v) {
        Ok(small) => <FdbTuple as Ints<i64>>::write_int(small, out).unwrap(),
        Err(_) => <FdbTuple as Ints<u64>>::write_int(u64::try_from(v).unwrap(), out).unwrap(),
    }
}

#[test]
fn the_zero_search_finds_the_first_zero() {
    for len in 0..40 {
        for at in 0..=len {
            let mut bytes = vec![0x80u8; len];
            // Bytes around the zero that a carry could be mistaken for: 01 and 80 and ff.
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = [0x01, 0x80, 0xff, 0x7f][i % 4];
            }
            if at < len {
                bytes[at] = 0;
                if at + 1 < len {
                    bytes[at + 1] = 0;
                }
            }
            let expected = bytes.iter().position(|&b| b == 0);
            assert_eq!(crate::key_buf::find_byte(&bytes, 0), expected, "{bytes:02x?}");
        }
    }
}

#[test]
fn some_none_is_refused_as_the_tuple_layer_has_one_null() {
    let fdb = FdbTuple::default();
    let err = fdb.to_key(&(Some(None::<i32>),)).unwrap_err();
    assert!(err.to_string().contains("Some(None)"), "{err}");
    // Inside a nested tuple too, where null is 00 ff.
    assert!(fdb.to_key(&((1u8, Some(None::<i32>)),)).is_err());
    assert_eq!(fdb.to_key(&(Some(Some(1i32)),)).unwrap().as_bytes(), [0x15, 0x01]);
}

/// An integer's bytes as the tuple spec states them: the code `14 ± n` for `n` bytes of
/// magnitude, then the magnitude, or for a negative its ones' complement over those bytes.
fn spec_integer(v: i128) -> Vec<u8> {
    let magnitude = v.unsigned_abs();
    let n = (0..=8).find(|&n| magnitude < 1u128 << (8 * n)).unwrap();
    let body = if v < 0 { (1u128 << (8 * n)) - 1 - magnitude } else { magnitude };
    let mut out = vec![if v < 0 { 0x14 - n as u8 } else { 0x14 + n as u8 }];
    out.extend_from_slice(&body.to_be_bytes()[16 - n..]);
    out
}

#[test]
fn integers_match_the_spec_at_every_length_boundary() {
    let mut values = vec![i128::from(u64::MAX), i128::from(i64::MIN)];
    for n in 0..8 {
        let edge = 1i128 << (8 * n);
        values.extend([edge - 1, edge, edge + 1, -edge + 1, -edge, -edge - 1]);
    }
    for v in values {
        let expected = spec_integer(v);
        if let Ok(x) = i64::try_from(v) {
            assert_eq!(key(&(x,)), expected, "i64 {v}");
            assert_eq!(FdbTuple::default().from_key::<(i64,)>(&expected).unwrap(), (x,));
            // After 8 bytes or more, where the reader loads the word that ends the integer.
            let after = [&b"\x02eight by\x00"[..], &expected].concat();
            assert_eq!(FdbTuple::default().from_key::<(&str, i64)>(&after).unwrap(), ("eight by", x));
            assert_eq!(FdbTuple::default().from_key::<(&str, i128)>(&after).unwrap(), ("eight by", v));
        }
        if let Ok(x) = u64::try_from(v) {
            assert_eq!(key(&(x,)), expected, "u64 {v}");
            assert_eq!(FdbTuple::default().from_key::<(u64,)>(&expected).unwrap(), (x,));
        }
        if let Ok(x) = i16::try_from(v) {
            assert_eq!(key(&(x,)), expected, "i16 {v}");
        }
        if let Ok(x) = u8::try_from(v) {
            assert_eq!(key(&(x,)), expected, "u8 {v}");
        }
        assert_eq!(key(&(v,)), expected, "i128 {v}");
    }
    // Past 8 bytes, the arbitrary-precision codes.
    assert_eq!(key(&(u128::from(u64::MAX) + 1,)), b"\x1d\x09\x01\x00\x00\x00\x00\x00\x00\x00\x00");
    assert_eq!(key(&(-i128::from(u64::MAX) - 1,)), b"\x0b\xf6\xfe\xff\xff\xff\xff\xff\xff\xff\xff");
}

/// A byte string's bytes as the tuple spec states them.
fn spec_escaped(code: u8, bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![code];
    for &b in bytes {
        out.extend_from_slice(if b == 0 { &[0x00, 0xff] } else { std::slice::from_ref(&b) });
    }
    out.push(0x00);
    out
}

#[test]
fn escapes_match_the_spec_wherever_the_zeros_are() {
    let fdb = FdbTuple::default();
    for len in 0..40usize {
        let last = len.saturating_sub(1);
        for zeros in [vec![], vec![0], vec![last], vec![1, 2], vec![0, len / 2, last]] {
            let mut bytes: Vec<u8> = (0..len).map(|i| 0x41 + (i % 26) as u8).collect();
            for &at in zeros.iter().filter(|&&at| at < len) {
                bytes[at] = 0;
            }
            let text = String::from_utf8(bytes.clone()).unwrap();
            let expected = [spec_escaped(0x02, &bytes), spec_escaped(0x01, &bytes)].concat();
            assert_eq!(key(&(text.as_str(), &bytes[..])), expected, "{bytes:02x?}");
            let back: (String, Vec<u8>) = fdb.from_key(&expected).unwrap();
            assert_eq!(back, (text.clone(), bytes.clone()));
            // As elements of a nested tuple, and after 70 bytes, where the key moves to the heap.
            let nested = [&[0x05][..], &expected, &[0x00]].concat();
            assert_eq!(key(&((text.as_str(), &bytes[..]),)), nested, "{bytes:02x?}");
            let long = "x".repeat(70);
            let mut reused = fdb.to_key(&(long.as_str(), text.as_str(), &bytes[..])).unwrap();
            assert_eq!(reused.as_bytes(), [&spec_escaped(0x02, long.as_bytes())[..], &expected].concat());
            fdb.encode_into(&(text.as_str(), &bytes[..]), &mut reused).unwrap();
            assert_eq!(reused.as_bytes(), expected, "a spilled key, reused");
        }
    }
}
