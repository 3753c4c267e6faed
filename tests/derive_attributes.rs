//! `#[derive(RowKey)]`'s attributes (prefix, `max_len`, `rename`, `skip`, the field
//! encodings), flattening, generic keys and `SCHEMA`, each against the runtime wrappers and
//! keys built by hand.

mod common;

use common::keys::{Reading, WebPage};

use proptest::prelude::*;
use rowkey::field::{Hex, Padded, Reversed};
use rowkey::format::{Delimited, FormatKey, Ordered};
use rowkey::salt::SaltHash;
use rowkey::schema::{Encoding, Format, KeyField, Transform};
use rowkey::transform::{BitReversed, ReversedDomain};
use rowkey::{BigEndian, Desc, Error, Key, RowKey};

/// A key with a constant prefix, and one with another prefix and the same fields.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix = "user")]
struct UserKey {
    id: u64,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix = "item")]
struct ItemKey {
    id: u64,
}

#[test]
fn prefix_is_a_constant_first_field() {
    let key = UserKey { id: 7 }.to_key().unwrap();
    assert_eq!(key, ("user", 7u64).to_key().unwrap());
    assert_eq!(UserKey::from_key(&key).unwrap(), UserKey { id: 7 });
    let err = ItemKey::from_key(&key).unwrap_err();
    assert_eq!((err.location().field(), err.location().name()), (Some(0), Some("prefix")));
    assert!(err.to_string().contains(r#"starts with "user", not this type's prefix "item""#), "{err}");
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(delimited = "/", prefix = "tenant", max_len = 24)]
struct Path {
    #[rowkey(rename = "tenant_name")]
    name: String,
    #[rowkey(skip)]
    cached_len: usize,
}

#[test]
fn max_len_rename_and_skip() {
    let path = Path { name: "acme".into(), cached_len: 4 };
    let key = path.to_key().unwrap();
    assert_eq!(key, "tenant/acme");
    // A skipped field is not in the key and decodes to its default.
    assert_eq!(Path::from_key(&key).unwrap(), Path { name: "acme".into(), cached_len: 0 });

    let mut buf = Key::from("leftover");
    let long = Path { name: "a_tenant_with_a_long_name".into(), cached_len: 0 };
    assert_eq!(long.encode_into(&mut buf), Err(Error::TooLong { len: 32, max: 24 }));
    assert!(buf.is_empty());

    let err = Path { name: "a/b".into(), cached_len: 0 }.to_key().unwrap_err();
    assert_eq!(err.location().name(), Some("tenant_name"), "{err}");
}

/// Every field attribute of the ordered format against the tuple of wrappers it stands for.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Wrapped {
    kind: String,
    #[rowkey(bit_reverse)]
    seq: i64,
    #[rowkey(bit_reverse)]
    id: u64,
    #[rowkey(big_endian)]
    account: u32,
    #[rowkey(desc, big_endian)]
    balance: Option<i64>,
    #[rowkey(reverse)]
    version: u64,
    #[rowkey(desc)]
    tags: Vec<u8>,
}

#[test]
fn ordered_attributes_are_the_runtime_wrappers() {
    let row = Wrapped {
        kind: "acct".into(),
        seq: 12,
        id: 1,
        account: 42,
        balance: Some(1_000),
        version: 3,
        tags: vec![0, 1, 0xff],
    };
    let key = row.to_key().unwrap();
    let by_hand = (
        "acct",
        BitReversed(12i64),
        BitReversed(1u64),
        BigEndian(42u32),
        Desc(Some(BigEndian(1_000i64))),
        Reversed(3u64),
        Desc(vec![0u8, 1, 0xff]),
    )
        .to_key()
        .unwrap();
    assert_eq!(key, by_hand);
    assert_eq!(Wrapped::from_key(&key).unwrap(), row);
    assert_eq!(<Wrapped as FormatKey<Ordered>>::FIELDS, 7);

    let err = Wrapped { balance: Some(-1), ..row }.to_key().unwrap_err();
    assert_eq!(err.location().name(), Some("balance"), "{err}");
}

/// The delimited format's attributes, optional fields included.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct TextFields {
    #[rowkey(reverse_domain)]
    host: Option<String>,
    #[rowkey(hex)]
    digest: Vec<u8>,
    #[rowkey(hex)]
    short: Option<[u8; 2]>,
    #[rowkey(width = 8)]
    day: Option<u32>,
    #[rowkey(bit_reverse)]
    seq: u64,
    delta: i16,
    flag: bool,
}

#[test]
fn delimited_attributes_are_the_runtime_wrappers() {
    let row = TextFields {
        host: Some("maps.google.com".into()),
        digest: vec![0xab, 0x01],
        short: Some([0, 0xff]),
        day: Some(20200501),
        seq: 1,
        delta: -1,
        flag: true,
    };
    let key = row.to_key().unwrap();
    assert_eq!(key, "com.google.maps#ab01#00ff#20200501#09223372036854775808#-99998#true");
    let by_hand = Delimited::default()
        .to_key(&(
            Some(ReversedDomain("maps.google.com")),
            Hex(vec![0xabu8, 0x01]),
            Some(Hex([0u8, 0xff])),
            Some(Padded::<u32, 8>(20200501)),
            BitReversed(1u64),
            -1i16,
            true,
        ))
        .unwrap();
    assert_eq!(key, by_hand);
    assert_eq!(TextFields::from_key(&key).unwrap(), row);

    let empty = TextFields { host: None, short: None, day: None, ..row };
    let key = empty.to_key().unwrap();
    assert_eq!(key, "#ab01###09223372036854775808#-99998#true");
    assert_eq!(TextFields::from_key(&key).unwrap(), empty);
}

/// Flattening inlines another derived key's fields.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Device {
    kind: String,
    id: u32,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
struct Sample {
    #[rowkey(flatten)]
    device: Device,
    #[rowkey(desc)]
    ts: i64,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct DeviceText {
    kind: String,
    #[rowkey(hex)]
    id: u32,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = "s")]
struct SampleText {
    #[rowkey(flatten)]
    device: DeviceText,
    #[rowkey(reverse)]
    ts: i64,
}

/// A borrowed key flattened into a borrowed key: both decode without copying.
#[derive(RowKey, Debug, PartialEq)]
struct DeviceRef<'a> {
    kind: &'a str,
    id: &'a [u8],
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix = "r")]
struct SampleRef<'a> {
    #[rowkey(flatten)]
    device: DeviceRef<'a>,
    label: Option<&'a str>,
}

#[test]
fn flatten_inlines_the_fields() {
    let borrowed = SampleRef { device: DeviceRef { kind: "phone", id: b"\x01\x02" }, label: Some("x") };
    let key = borrowed.to_key().unwrap();
    assert_eq!(key, ("r", "phone", &b"\x01\x02"[..], Some("x")).to_key().unwrap());
    assert_eq!(SampleRef::from_key(&key).unwrap(), borrowed);
    assert_eq!(SampleRef::SCHEMA.field_count(), 4);

    let sample = Sample { device: Device { kind: "phone".into(), id: 7 }, ts: 99 };
    let key = sample.to_key().unwrap();
    assert_eq!(key, ("phone", 7u32, Desc(99i64)).to_key().unwrap());
    assert_eq!(Sample::from_key(&key).unwrap(), sample);
    assert_eq!(<Sample as FormatKey<Ordered>>::FIELDS, 3);
    assert_eq!(Sample::SCHEMA.field_count(), 3);

    let text = SampleText { device: DeviceText { kind: "phone".into(), id: 0x4c41_0523 }, ts: 5 };
    let key = text.to_key().unwrap();
    assert_eq!(key, "s#phone#4c410523#9223372036854775802");
    assert_eq!(SampleText::from_key(&key).unwrap(), text);
    assert_eq!(<SampleText as FormatKey<Delimited>>::FIELDS, 4);
    // The delimiter check sees the flattened fields' alphabets: '0' is a hex digit.
    assert!(Delimited::for_key::<SampleText>("#").is_ok());
    assert!(Delimited::for_key::<SampleText>("0").unwrap_err().to_string().contains("field 2"));
}

#[test]
fn schema_describes_the_key() {
    let schema = Reading::SCHEMA;
    assert_eq!(schema.type_name, "Reading");
    assert_eq!(schema.format, Format::Delimited("#"));
    let salt = schema.salt.unwrap();
    assert_eq!((salt.buckets, salt.hash, salt.from), (16, SaltHash::FarmHash, &["device_id"][..]));
    assert_eq!(schema.field_count(), <Reading as FormatKey<Delimited>>::FIELDS);
    let ts = schema.field("ts_millis").unwrap();
    assert_eq!(ts.encoding, Encoding::Decimal { width: 19, signed: false });
    assert_eq!(ts.transform, Transform::Reverse { max: i64::MAX.unsigned_abs() });
    assert_eq!(ts.rust_type, "i64");

    let wrapped = Wrapped::SCHEMA;
    let encodings: Vec<_> = wrapped.fields.iter().map(|f| (f.name, f.encoding, f.descending)).collect();
    assert_eq!(
        encodings,
        [
            ("kind", Encoding::Utf8, false),
            ("seq", Encoding::Int64, false),
            ("id", Encoding::Uint64, false),
            ("account", Encoding::BigEndianInt64, false),
            ("balance", Encoding::BigEndianInt64, true),
            ("version", Encoding::Uint64, false),
            ("tags", Encoding::Bytes, true),
        ]
    );
    assert_eq!(wrapped.field("seq").unwrap().transform, Transform::BitReverse { keep_sign: true });
    assert!(wrapped.field("balance").unwrap().optional);

    assert_eq!(WebPage::SCHEMA.field("crawled").unwrap().encoding, Encoding::TimestampMicros);
    assert_eq!(WebPage::SCHEMA.field("host").unwrap().transform, Transform::ReverseDomain);
    assert_eq!(Path::SCHEMA.max_len, 24);
    assert_eq!(Path::SCHEMA.fields.len(), 1, "skipped fields are not part of the key");
    assert_eq!(Path::SCHEMA.key_fields()[0], KeyField::Prefix(b"tenant"));

    let sample = Sample::SCHEMA;
    assert_eq!(sample.fields[0].encoding, Encoding::Flattened(&Device::SCHEMA));
    let names: Vec<_> = sample.key_fields().iter().map(KeyField::name).collect();
    assert_eq!(names, ["kind", "id", "ts"]);
}

/// An ordered key with descending and optional fields, for the property tests.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Event {
    kind: String,
    #[rowkey(desc)]
    at: i64,
    tag: Option<u32>,
    #[rowkey(desc)]
    note: Option<String>,
}

impl Event {
    /// The order the key must have: field by field, the `desc` ones reversed.
    fn order(&self) -> impl Ord + '_ {
        (&self.kind, std::cmp::Reverse(self.at), self.tag, std::cmp::Reverse(&self.note))
    }
}

fn events() -> impl Strategy<Value = Event> {
    let text = prop_oneof![Just(String::new()), "[a\\x00\\xff]{0,3}", any::<String>()];
    (text.clone(), any::<i64>(), any::<Option<u32>>(), proptest::option::of(text))
        .prop_map(|(kind, at, tag, note)| Event { kind, at, tag, note })
}

proptest! {
    #[test]
    fn event_keys_round_trip_and_match_the_tuple(event in events()) {
        let key = event.to_key().unwrap();
        prop_assert_eq!(Event::from_key(&key).unwrap(), event.clone());
        let tuple = (event.kind.as_str(), Desc(event.at), event.tag, Desc(event.note.as_deref())).to_key().unwrap();
        prop_assert_eq!(key, tuple);
    }

    #[test]
    fn event_keys_sort_like_the_events(a in events(), b in events()) {
        let (ka, kb) = (a.to_key().unwrap(), b.to_key().unwrap());
        prop_assert_eq!(ka.cmp(&kb), a.order().cmp(&b.order()), "{:?} vs {:?}", a, b);
    }

}

/// Generic keys: the type parameters get the bounds their fields need.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
struct Pair<T> {
    first: T,
    #[rowkey(desc)]
    second: T,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
struct Tagged<T> {
    tag: String,
    #[rowkey(flatten)]
    pair: Pair<T>,
}

#[test]
fn generic_keys_and_generic_flatten() {
    let tagged = Tagged { tag: "t".into(), pair: Pair { first: 5u32, second: 6u32 } };
    let key = tagged.to_key().unwrap();
    assert_eq!(key, ("t", 5u32, Desc(6u32)).to_key().unwrap());
    assert_eq!(Tagged::<u32>::from_key(&key).unwrap(), tagged);
    let names: Vec<_> = Tagged::<u32>::SCHEMA.key_fields().iter().map(KeyField::name).collect();
    assert_eq!(names, ["tag", "first", "second"]);
    assert_eq!(Pair::<String>::SCHEMA.fields[0].encoding, Encoding::Custom);
}

/// Every key type this file defines, through `rowkey::testing`: arbitrary bytes never make a
/// decoder panic, and the ones with a natural order keep it in their bytes.
#[test]
fn every_key_type_here_passes_the_testing_helpers() {
    use rowkey::testing::{assert_decode_total, assert_order_preserving_with};

    assert_decode_total::<UserKey>();
    assert_decode_total::<ItemKey>();
    assert_decode_total::<Path>();
    assert_decode_total::<Wrapped>();
    assert_decode_total::<TextFields>();
    assert_decode_total::<Sample>();
    assert_decode_total::<SampleText>();
    assert_decode_total::<Event>();
    assert_decode_total::<Tagged<u16>>();

    // Events: kind, time newest first, tag, note descending.
    let by_event_order = |a: &Event, b: &Event| {
        (&a.kind, Desc(a.at), a.tag, Desc(&a.note)).cmp(&(&b.kind, Desc(b.at), b.tag, Desc(&b.note)))
    };
    assert_order_preserving_with((events(), events()), by_event_order);
}
