//! The FoundationDB tuple format against `tests/data/fdb_tuple.tsv`: every row's value, built
//! through the public API, encodes to the row's bytes, and the row's bytes decode to the value
//! (and re-encode to themselves). The Python binding's forms of ±(2^64−1) are refused with a
//! message naming the canonical form.

// The rows hold 3.14 and 2.71828 as written, not π and e.
#![allow(clippy::approx_constant)]

mod common;

use std::fmt::Debug;

use rowkey::field::Versionstamp;
use rowkey::format::{FdbKey, FdbTuple};
use uuid::Uuid;

type Check = Box<dyn Fn(&[u8]) -> Result<(), String>>;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Encodes `value`, compares with `expected`, decodes `expected` and compares with `value`.
fn same<T>(value: T, expected: &[u8]) -> Result<(), String>
where
    T: for<'de> FdbKey<'de> + PartialEq + Debug,
{
    let tuples = FdbTuple::default();
    let key = tuples.to_key(&value).map_err(|e| format!("encoding {value:?}: {e}"))?;
    if key.as_bytes() != expected {
        return Err(format!("{value:?} encodes to {}, the row says {}", hex(&key), hex(expected)));
    }
    let back: T = tuples.from_key(expected).map_err(|e| format!("decoding {}: {e}", hex(expected)))?;
    if back != value {
        return Err(format!("{} decodes to {back:?}, not {value:?}", hex(expected)));
    }
    // Floats compare -0.0 equal to 0.0: the bytes of the decoded value tell them apart.
    let again = tuples.to_key(&back).map_err(|e| e.to_string())?;
    if again.as_bytes() != expected {
        return Err(format!("{back:?} (decoded) re-encodes to {}", hex(&again)));
    }
    Ok(())
}

/// The row's bytes must be refused, with a message that gives `canonical` (the bytes the
/// spec writes for the same value).
fn refused<T>(canonical: &'static str) -> Check
where
    T: for<'de> FdbKey<'de> + Debug,
{
    Box::new(move |bytes| match FdbTuple::default().from_key::<T>(bytes) {
        Ok(value) => Err(format!("{} was accepted as {value:?}", hex(bytes))),
        Err(e) if e.to_string().contains(canonical) && e.to_string().contains("canonical") => Ok(()),
        Err(e) => Err(format!("refused, but the message does not name the canonical form {canonical}: {e}")),
    })
}

macro_rules! table {
    ($($input:literal => $value:expr,)*) => {
        vec![$(($input, Box::new(|bytes: &[u8]| same($value, bytes)) as Check),)*]
    };
}

fn bytes(b: &[u8]) -> Vec<u8> {
    b.to_vec()
}

fn s(text: &str) -> String {
    text.to_owned()
}

fn uuid(text: &str) -> Uuid {
    Uuid::parse_str(text).expect("a UUID literal")
}

fn stamp(version: [u8; 10], user: u16) -> Versionstamp {
    Versionstamp::new(version, user)
}

fn range_bound(end: bool) -> Check {
    Box::new(move |expected| {
        let (start, stop) = FdbTuple::default().range(&("users",)).map_err(|e| e.to_string())?;
        let got = if end { stop } else { start };
        if got.as_bytes() == expected {
            Ok(())
        } else {
            Err(format!("range bound is {}, the row says {}", hex(&got), hex(expected)))
        }
    })
}

fn table() -> Vec<(&'static str, Check)> {
    let mut rows = table! {
        "()" => (),
        "(None,)" => (None::<u8>,),
        "(b'',)" => (bytes(b""),),
        r"(b'foo\x00bar',)" => (bytes(b"foo\x00bar"),),
        r"(b'\x00\xff',)" => (bytes(b"\x00\xff"),),
        r"(b'\x01\x02\x03',)" => (bytes(b"\x01\x02\x03"),),
        r"(b'\x00\x00\x00\x04',)" => (bytes(b"\x00\x00\x00\x04"),),
        "('',)" => (s(""),),
        "('hello',)" => (s("hello"),),
        r"('F\u00d4O\u0000bar',)" => (s("F\u{d4}O\u{0}bar"),),
        r"('\u4e2d\u6587',)" => (s("\u{4e2d}\u{6587}"),),
        r"('\U0001F525',)" => (s("\u{1f525}"),),
        "(0,)" => (0u8,),
        "(1,)" => (1i8,),
        "(-1,)" => (-1i8,),
        "(2,)" => (2u16,),
        "(-2,)" => (-2i16,),
        "(127,)" => (127i8,),
        "(128,)" => (128u8,),
        "(255,)" => (255u8,),
        "(-255,)" => (-255i16,),
        "(256,)" => (256u16,),
        "(-256,)" => (-256i16,),
        "(257,)" => (257i32,),
        "(-257,)" => (-257i32,),
        "(1066,)" => (1066u64,),
        "(-1066,)" => (-1066i64,),
        "(65535,)" => (65535u16,),
        "(65536,)" => (65536u32,),
        "(-65536,)" => (-65536i32,),
        "(-5551212,)" => (-5551212i32,),
        "(2147483647,)" => (i32::MAX,),
        "(-2147483648,)" => (i32::MIN,),
        "(4294967295,)" => (u32::MAX,),
        "(-4294967295,)" => (-4294967295i64,),
        "(4294967296,)" => (4294967296u64,),
        "(9223372036854775807,)" => (i64::MAX,),
        "(-9223372036854775808,)" => (i64::MIN,),
        "(-9223372036854775807,)" => (-9223372036854775807i64,),
        "(-9223372036854775806,)" => (-9223372036854775806i64,),
        "(9223372036854775808,)" => (9223372036854775808u64,),
        "(18446744073709551615,)" => (u64::MAX,),
        "(-18446744073709551615,)" => (-18446744073709551615i128,),
        "(18446744073709551616,)" => (18446744073709551616u128,),
        "(-18446744073709551616,)" => (-18446744073709551616i128,),
        "(18446744073709551617,)" => (18446744073709551617i128,),
        "(double 0.0,)" => (0.0f64,),
        "(double -0.0,)" => (-0.0f64,),
        "(double 1.0,)" => (1.0f64,),
        "(double -1.0,)" => (-1.0f64,),
        "(double 3.14,)" => (3.14f64,),
        "(double -3.14,)" => (-3.14f64,),
        "(double 2.71828,)" => (2.71828f64,),
        "(double inf,)" => (f64::INFINITY,),
        "(double -inf,)" => (f64::NEG_INFINITY,),
        "(double 1e-300,)" => (1e-300f64,),
        "(double -1e-300,)" => (-1e-300f64,),
        "(float32 0.0,)" => (0.0f32,),
        "(float32 -0.0,)" => (-0.0f32,),
        "(float32 3.14,)" => (3.14f32,),
        "(float32 -3.14,)" => (-3.14f32,),
        "(float32 -42.0,)" => (-42.0f32,),
        "(float32 inf,)" => (f32::INFINITY,),
        "(float32 -inf,)" => (f32::NEG_INFINITY,),
        "(False,)" => (false,),
        "(True,)" => (true,),
        "(UUID 00000000-ba5e-ba11-0000-00005ca1ab1e,)" => (uuid("00000000-ba5e-ba11-0000-00005ca1ab1e"),),
        "(UUID 1100aabb-ccdd-eeff-1100-aabbccddeeff,)" => (uuid("1100aabb-ccdd-eeff-1100-aabbccddeeff"),),
        "(Versionstamp(aabbccddeeff00010203, user=0),)" =>
            (stamp([0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x01, 0x02, 0x03], 0),),
        "(Versionstamp(0102030405060708090a, user=657),)" => (stamp([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 657),),
        "((),)" => ((),),
        "((None,),)" => ((None::<String>,),),
        r"((b'foo\x00bar', None, ()),)" => ((bytes(b"foo\x00bar"), None::<u8>, ()),),
        "((None, 'hello'),)" => ((None::<u8>, s("hello")),),
        r"((None, 'hell\x00'),)" => ((None::<u8>, s("hell\0")),),
        r"((None,), 'hello', b'\x01\x00', b'')" => ((None::<bool>,), s("hello"), bytes(b"\x01\x00"), bytes(b"")),
        "('phone', '4c410523', 20200501)" => (s("phone"), s("4c410523"), 20200501u32),
        "('prefix', None)" => (s("prefix"), None::<String>),
        "(1, 'a', b'b', None, True, 2.5)" => (1u8, s("a"), bytes(b"b"), None::<u8>, true, 2.5f64),
    };
    rows.push(("(18446744073709551615,) [Python binding]", refused::<(u64,)>("1c ff ff ff ff ff ff ff ff")));
    rows.push(("(-18446744073709551615,) [Python binding]", refused::<(i128,)>("0c 00 00 00 00 00 00 00 00")));
    rows.push(("range(('users',)).start", range_bound(false)));
    rows.push(("range(('users',)).stop", range_bound(true)));
    rows
}

#[test]
fn every_row_of_fdb_tuple_tsv() {
    let table = table();
    let rows = common::rows("tests/data/fdb_tuple.tsv");
    assert_eq!(rows.len(), table.len(), "the file and the table list different rows");
    for (line, fields) in rows {
        let [input, packed] = &fields[..] else { panic!("row {line:?}: expected two tab-separated columns") };
        let Some((_, check)) = table.iter().find(|(name, _)| name == input) else {
            panic!("row {line:?}: no value for this input in the test's table");
        };
        if let Err(why) = check(&common::hex(packed)) {
            panic!("row {line:?}: {why}");
        }
    }
}
