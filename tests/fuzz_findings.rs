//! What fuzzing the decoders found, each with the bytes that showed it: keys that `inspect`
//! and `from_key` judged differently, and keys that decoded to a value whose key is other
//! bytes. `fuzz/` has the targets that found them.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::keys::{EveryText, Monitor, OrderedReading, ShardText, WebPage, WebPageMicros};
use rowkey::schema::{Encoding, Schema};
use rowkey::{Error, RowKey};

#[derive(RowKey, Debug, PartialEq)]
struct Letter {
    c: char,
}

#[derive(RowKey, Debug, PartialEq)]
struct Level {
    x: f32,
}

#[derive(RowKey, Debug, PartialEq)]
struct Code {
    a: [u8; 3],
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct LetterText {
    c: Option<char>,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(max_len = 8)]
struct Short {
    name: String,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct Name {
    name: String,
}

/// Both refuse the key, naming the same field at the same byte.
fn both_refuse<T: for<'de> RowKey<'de> + std::fmt::Debug>(schema: &Schema, key: &[u8]) -> Error {
    let typed = T::from_key(key).expect_err("from_key refuses the key");
    let inspected = schema.inspect(key).expect_err("inspect refuses the key");
    assert_eq!(typed.location(), inspected.location(), "from_key: {typed}\ninspect: {inspected}");
    inspected
}

#[test]
fn a_char_field_of_two_characters_is_refused_by_inspect_too() {
    assert_eq!(Letter::SCHEMA.fields[0].encoding, Encoding::Char);
    let err = both_refuse::<Letter>(&Letter::SCHEMA, &[0x61, 0x62]);
    assert_eq!(err.location().name(), Some("c"));
    assert!(err.to_string().contains("the field holds 2 characters, not one"), "{err}");

    let err = both_refuse::<LetterText>(&LetterText::SCHEMA, b"ab");
    assert!(err.to_string().contains("the field holds 2 characters, not one"), "{err}");
    assert_eq!(LetterText::SCHEMA.inspect(b"a").unwrap().to_string(), "c=a");
}

#[test]
fn an_f64_that_is_no_f32_is_refused_by_inspect_too() {
    assert_eq!(Level::SCHEMA.fields[0].encoding, Encoding::Float32);
    // 0.1f64, the key of `(0.1f64,)`.
    let key = [0xff, 0xbf, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a];
    assert_eq!((0.1f64,).to_key().unwrap(), key);
    let err = both_refuse::<Level>(&Level::SCHEMA, &key);
    assert_eq!(err.location().name(), Some("x"));
    assert!(err.to_string().contains("is not exactly representable as f32"), "{err}");
    // 0.5 is an f32.
    let half = (0.5f64,).to_key().unwrap();
    assert_eq!(Level::from_key(&half).unwrap(), Level { x: 0.5 });
    assert_eq!(Level::SCHEMA.inspect(&half).unwrap().to_string(), "x=0.5");
}

#[test]
fn an_array_of_the_wrong_length_is_refused_by_inspect_too() {
    assert_eq!(Code::SCHEMA.fields[0].encoding, Encoding::ByteArray { len: 3 });
    let err = both_refuse::<Code>(&Code::SCHEMA, &[0x61, 0x62]);
    assert_eq!(err.location().name(), Some("a"));
    assert!(err.to_string().contains("expected exactly 3 bytes, the field has 2"), "{err}");
    assert!(Code::SCHEMA.inspect(b"abc").is_ok());
}

#[test]
fn a_wrong_bucket_and_a_trailing_byte_name_the_bucket_in_both() {
    // A descending last field ends in its own separator, so a byte after it is left for the
    // end-of-key check, which `from_key` makes after the bucket's.
    let reading = OrderedReading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 7 };
    let mut key = reading.to_key().unwrap().into_vec();
    assert_eq!(key[0], 0x81); // bucket 1
    key[0] = 0x82;
    key.push(0x78);
    let err = both_refuse::<OrderedReading>(&OrderedReading::SCHEMA, &key);
    assert_eq!(err.location().name(), Some("bucket"));
    assert!(err.to_string().contains("the key is in bucket 2, but its salt source fields give bucket 1"), "{err}");

    // One fault at a time, each named.
    key[0] = 0x81;
    let err = both_refuse::<OrderedReading>(&OrderedReading::SCHEMA, &key);
    assert!(matches!(err, Error::TrailingBytes { len: 1, .. }), "{err}");

    // A modulo salt's bucket, and a field too many: the reader meets the extra field first.
    let mut key = Monitor { time: 5, host: "h".into(), metric: "m".into() }.to_key().unwrap().into_vec();
    key[0] = 0x86;
    key.extend_from_slice(&[0x00, 0x01, 0x78]);
    let err = both_refuse::<Monitor>(&Monitor::SCHEMA, &key);
    assert!(matches!(err, Error::TrailingBytes { len: 3, .. }), "{err}");
}

#[test]
fn a_flattened_keys_prefix_is_located_where_it_is() {
    // A delimited key whose flattened part (`ShardText`, prefix "sh") has an empty prefix:
    // `from_key` located it at field 0, byte 0, where the outer key's prefix is.
    let mut key = EveryText::sample(0).to_key().unwrap().into_vec();
    let at = key.windows(4).position(|w| w == b"#sh#").unwrap() + 1;
    key.drain(at..at + 2);
    let err = both_refuse::<EveryText>(&EveryText::SCHEMA, &key);
    assert_eq!((err.location().name(), err.location().offset()), (Some("prefix"), Some(at)));
    assert_eq!(err.location().field(), Some(15));
    assert_eq!(ShardText::SCHEMA.prefix, Some(&b"sh"[..]));
}

#[test]
fn a_key_over_max_len_is_refused_on_decode() {
    // 9 bytes, one over the type's `max_len`: its value could not be written again.
    let key = b"abcdefghi";
    assert_eq!(Short { name: "abcdefghi".into() }.to_key(), Err(Error::TooLong { len: 9, max: 8 }));
    assert_eq!(Short::from_key(key), Err(Error::TooLong { len: 9, max: 8 }));
    assert_eq!(Short::SCHEMA.inspect(key), Err(Error::TooLong { len: 9, max: 8 }));
    assert_eq!(Short::from_key(b"abcdefgh").unwrap().name, "abcdefgh");
}

#[test]
fn a_set_with_a_repeated_or_unsorted_element_is_refused_by_from_key_exact() {
    let twice = [0x61, 0x00, 0xff, 0x01, 0x61, 0x00, 0xff, 0x01];
    let once = rowkey::to_key(&BTreeSet::from(["a"])).unwrap();
    assert_eq!(once, [0x61, 0x00, 0xff, 0x01]);
    // `from_key` cannot tell a set from a sequence (documented in `rowkey::serde`).
    assert_eq!(rowkey::from_key::<BTreeSet<String>>(&twice).unwrap(), BTreeSet::from(["a".to_owned()]));
    let err = rowkey::serde::from_key_exact::<BTreeSet<String>>(&twice).unwrap_err();
    assert!(matches!(err, Error::NonCanonical { .. }), "{err}");
    assert_eq!(err.location().offset(), Some(4));

    // "b" then "a": the set sorts them, so its key starts with "a".
    let unsorted = [0x62, 0x00, 0xff, 0x01, 0x61, 0x00, 0xff, 0x01];
    let err = rowkey::serde::from_key_exact::<BTreeSet<String>>(&unsorted).unwrap_err();
    assert_eq!(err.location().offset(), Some(0));
    let sorted = rowkey::to_key(&BTreeSet::from(["a", "b"])).unwrap();
    assert_eq!(rowkey::serde::from_key_exact::<BTreeSet<String>>(&sorted).unwrap().len(), 2);
}

#[test]
fn a_map_with_a_repeated_or_unsorted_key_is_refused_by_from_key() {
    // {"a": 1} with its entry twice, then {"b": 1, "a": 1}.
    let twice = [0x61, 0x00, 0xff, 0x01, 0x81, 0x00, 0xff, 0x01, 0x61, 0x00, 0xff, 0x01, 0x81, 0x00, 0xff, 0x01];
    let err = rowkey::from_key::<BTreeMap<String, u8>>(&twice).unwrap_err();
    assert!(matches!(err, Error::NonCanonical { .. }), "{err}");
    let unsorted = [0x62, 0x00, 0xff, 0x01, 0x81, 0x00, 0xff, 0x01, 0x61, 0x00, 0xff, 0x01, 0x81, 0x00, 0xff, 0x01];
    assert!(matches!(rowkey::from_key::<BTreeMap<String, u8>>(&unsorted), Err(Error::NonCanonical { .. })));
    let sorted = rowkey::to_key(&BTreeMap::from([("a", 1u8), ("b", 1)])).unwrap();
    assert_eq!(rowkey::from_key::<BTreeMap<String, u8>>(&sorted).unwrap().len(), 2);
}

#[test]
fn a_delimited_key_of_one_empty_field_is_zero_bytes_and_reads_back() {
    // The one key that is empty: its value writes no bytes and no delimiter. It decodes to
    // that value alone, so it is canonical (a store that refuses empty row keys refuses it
    // on write, as it would any empty key).
    let key = Name { name: String::new() }.to_key().unwrap();
    assert!(key.is_empty());
    assert_eq!(Name::from_key(b"").unwrap(), Name { name: String::new() });
    assert_eq!(Name::SCHEMA.inspect(b"").unwrap().to_string(), r#"name="""#);
    assert_eq!(Name::from_key(b"#"), Err(Error::TrailingBytes { offset: 0, len: 1 }));
}

#[test]
fn a_host_that_is_no_reversed_domain_is_located_in_its_field() {
    // The key `30` ("0") of a `reverse_domain` field: `from_key`'s error named no field.
    let err = both_refuse::<WebPage>(&WebPage::SCHEMA, &[0x30]);
    assert_eq!((err.location().name(), err.location().offset()), (Some("host"), Some(0)));
    assert!(err.to_string().contains("all-digit top-level label"), "{err}");
}

#[test]
fn a_reverse_domain_field_keeps_one_form_of_a_host() {
    // Host names are case-insensitive: the key holds the lowercase form, and decodes to it.
    // The value read differs from the one written, but its key is the same bytes.
    let written = WebPageMicros { host: "Maps.Google.COM".into(), path: "/".into(), crawled_micros: 1 };
    let key = written.to_key().unwrap();
    let read = WebPageMicros::from_key(&key).unwrap();
    assert_eq!(read.host, "maps.google.com");
    assert_eq!(read.to_key().unwrap(), key);
}

/// The `formats` target: an HBase key whose last field is an `Option` of bytes. The option
/// wrapped the writer's sink in its own, which did not pass on that the key ends there, so
/// `Some` bytes were written grouped (`BlobVar`) where they are read as they are (`BlobCopy`).
#[test]
fn hbase_last_optional_bytes() {
    use rowkey::Desc;
    use rowkey::format::HBase;
    let key = b"424444&4444444000w224529081342pjon\0,\x80\0\0\0\x014<5\xd4\x80\0\088\0\x05";
    let value = HBase.from_key::<(String, i64, Desc<i32>, Option<Vec<u8>>)>(key).unwrap();
    assert_eq!(value.3, Some(vec![0, 5]));
    assert_eq!(HBase.to_key(&value).unwrap().as_bytes(), key, "{value:?}");
}
