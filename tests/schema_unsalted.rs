//! `Schema::unsalted`: a salted key without its prefix and bucket is byte for byte the key of
//! the same fields unsalted, so merging fan-out reads by it gives the unsalted order.

use proptest::prelude::*;
use rowkey::RowKey;

#[derive(RowKey, Clone, Debug)]
#[rowkey(prefix = "p", salt(buckets = 8, from = [device]))]
struct SaltedOrdered {
    device: String,
    #[rowkey(desc)]
    at: i64,
    tag: Vec<u8>,
}

#[derive(RowKey, Clone, Debug)]
struct PlainOrdered {
    device: String,
    #[rowkey(desc)]
    at: i64,
    tag: Vec<u8>,
}

#[derive(RowKey, Clone, Debug)]
#[rowkey(delimited = "##", salt(buckets = 100, from = [device]))]
struct SaltedDelimited {
    device: String,
    #[rowkey(reverse)]
    at: i64,
}

#[derive(RowKey, Clone, Debug)]
#[rowkey(delimited = "##")]
struct PlainDelimited {
    device: String,
    #[rowkey(reverse)]
    at: i64,
}

proptest! {
    #[test]
    fn an_ordered_key_without_prefix_and_bucket_is_the_unsalted_key(
        device in "[a-z\\x00\\xff]{0,6}", at: i64, tag in proptest::collection::vec(any::<u8>(), 0..6),
    ) {
        let salted = SaltedOrdered { device: device.clone(), at, tag: tag.clone() }.to_key().unwrap();
        let plain = PlainOrdered { device, at, tag }.to_key().unwrap();
        prop_assert_eq!(SaltedOrdered::SCHEMA.unsalted(&salted).unwrap(), plain.as_bytes());
        // A schema without a salt leaves the key whole.
        prop_assert_eq!(PlainOrdered::SCHEMA.unsalted(&plain).unwrap(), plain.as_bytes());
    }

    #[test]
    fn a_delimited_key_without_its_bucket_is_the_unsalted_key(device in "[a-z$%]{0,6}", at in 0..=i64::MAX) {
        let salted = SaltedDelimited { device: device.clone(), at }.to_key().unwrap();
        let plain = PlainDelimited { device, at }.to_key().unwrap();
        prop_assert_eq!(SaltedDelimited::SCHEMA.unsalted(&salted).unwrap(), plain.as_bytes());
    }

    #[test]
    fn any_bytes_give_a_slice_of_themselves_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..24)) {
        for schema in [SaltedOrdered::SCHEMA, SaltedDelimited::SCHEMA] {
            if let Ok(rest) = schema.unsalted(&bytes) {
                prop_assert!(bytes.ends_with(rest));
            }
        }
    }
}

#[test]
fn a_key_that_does_not_start_like_the_type_is_refused_at_its_field() {
    let err = SaltedDelimited::SCHEMA.unsalted(b"07").unwrap_err();
    assert_eq!(err.location().name(), Some("bucket"), "{err}");
    let err = SaltedDelimited::SCHEMA.unsalted(b"7x##a##1").unwrap_err();
    assert_eq!(err.location().name(), Some("bucket"), "{err}");
    // 100 buckets are written with two digits: `100` and `7` are no bucket of the salt.
    for key in [&b"100##a##1"[..], b"7##a##1"] {
        let err = SaltedDelimited::SCHEMA.unsalted(key).unwrap_err();
        assert_eq!((err.location().name(), err.location().offset()), (Some("bucket"), Some(0)), "{err}");
    }
    // Bucket 8 of an 8-bucket salt, in an ordered key.
    let err = SaltedOrdered::SCHEMA.unsalted(b"p\x00\x01\x88\x00\x01a").unwrap_err();
    assert!(err.to_string().contains("8 is not a bucket of the salt's 8 buckets"), "{err}");
    let err = SaltedOrdered::SCHEMA.unsalted(b"p\x00\x01").unwrap_err();
    assert_eq!(err.location().name(), Some("bucket"), "{err}");
    let err = SaltedOrdered::SCHEMA.unsalted(b"q\x00\x01\x81\x00\x01a").unwrap_err();
    assert_eq!(err.location().name(), Some("prefix"), "{err}");
    assert!(err.to_string().contains("not this type's prefix"), "{err}");
}
