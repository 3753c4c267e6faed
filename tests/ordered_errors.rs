//! What the ordered reader says about bytes that are not a key of the expected type: the
//! variant, the field and the offset.

use rowkey::{Desc, Error, RowKey};

fn err<T: for<'a> RowKey<'a> + std::fmt::Debug>(bytes: &[u8]) -> Error {
    T::from_key(bytes).expect_err("these bytes must not decode")
}

#[test]
fn bad_escape_names_the_byte_and_its_offset() {
    let e = err::<(String, String)>(b"ab\x00\x07cd");
    assert!(matches!(e, Error::BadEscape { byte: 0x07, .. }), "{e}");
    assert_eq!((e.location().field(), e.location().offset()), (Some(0), Some(2)));
    assert!(e.to_string().contains("00 ff"), "the message lists the valid escapes: {e}");
}

#[test]
fn more_fields_than_the_type_are_trailing_bytes() {
    let key = ("a", "b", "c").to_key().unwrap();
    let e = err::<(String, String)>(&key);
    assert_eq!(e, Error::TrailingBytes { offset: 4, len: 3 });
    let e = err::<(Desc<String>,)>(&(Desc("a"), "b").to_key().unwrap());
    assert!(matches!(e, Error::TrailingBytes { offset: 3, len: 1 }), "{e}");
}

#[test]
fn a_cut_key_is_truncated() {
    let key = (Desc("abc"), 5u8).to_key().unwrap();
    let e = err::<(Desc<String>, u8)>(&key[..3]);
    assert!(matches!(e, Error::Truncated { .. }), "{e}");
    assert_eq!(e.location().field(), Some(0));
    let e = err::<(String,)>(b"ab\x00");
    assert!(matches!(e, Error::Truncated { .. }), "{e}");
    let e = err::<(String,)>(b"");
    assert!(matches!(e, Error::Truncated { .. }), "{e}");
}

#[test]
fn bytes_the_writer_never_produces_are_refused() {
    // ("a", "") is written `a`; a separator with nothing after it is not a key.
    assert!(matches!(err::<(String, String)>(b"a\x00\x01"), Error::NonCanonical { .. }));
    // An empty last field is dropped, never written as 00 00.
    assert!(matches!(err::<(String, String)>(b"a\x00\x01\x00\x00"), Error::NonCanonical { .. }));
    // An empty field is 00 00 before its separator, not a bare separator.
    assert!(matches!(err::<(String, String)>(b"\x00\x01b"), Error::NonCanonical { .. }));
    // 5 in two bytes instead of one.
    assert!(matches!(err::<(i64,)>(b"\xc0\x05"), Error::NonCanonical { .. }));
}

#[test]
fn a_field_that_is_not_its_type_is_invalid_and_located() {
    let e = err::<(String, String)>(b"ok\x00\x01\xff\xfe");
    assert!(matches!(e, Error::InvalidField { ty: "String", .. }), "{e}");
    assert_eq!((e.location().field(), e.location().offset()), (Some(1), Some(4)));
    let e = err::<(i64,)>(b"\xc0");
    assert!(matches!(e, Error::InvalidField { .. }), "{e}");
}

#[test]
fn narrowing_is_out_of_range_not_a_wrap() {
    let key = (300i64,).to_key().unwrap();
    assert_eq!(
        err::<(i8,)>(&key).to_string(),
        "in field 0 at byte 0: value 300 does not fit in i8; decode into a wider type (the key was written from one)"
    );
    assert!(matches!(err::<(u8,)>(&(-1i64,).to_key().unwrap()), Error::OutOfRange { value: -1, .. }));
    assert!(matches!(err::<(bool,)>(&(2i64,).to_key().unwrap()), Error::OutOfRange { value: 2, .. }));
    assert!(matches!(err::<(f32,)>(&(0.1f64,).to_key().unwrap()), Error::InvalidField { ty: "f32", .. }));
}

#[test]
fn borrowing_a_field_that_needed_unescaping_says_what_to_use() {
    let key = ("a\0b",).to_key().unwrap();
    let e = <(&str,)>::from_key(&key).unwrap_err();
    assert!(e.to_string().contains("decode into an owned type"), "{e}");
    assert_eq!(<(std::borrow::Cow<str>,)>::from_key(&key).unwrap().0, "a\0b");
    assert_eq!(<(&str,)>::from_key(&("ab",).to_key().unwrap()).unwrap().0, "ab");
}

#[test]
fn encode_errors_name_the_field_and_leave_the_buffer_empty() {
    let mut buf = rowkey::Key::from("stale");
    let e = ("a", rowkey::BigEndian(-1i64)).encode_into(&mut buf).unwrap_err();
    assert!(matches!(e, Error::Unencodable { .. }), "{e}");
    assert_eq!(e.location().field(), Some(1));
    assert!(buf.is_empty());
}
