//! Order, round trip and the sorted-mode rule of the delimited format.

use std::fmt::Debug;

use proptest::prelude::*;
use rowkey::Error;
use rowkey::field::{Hex, Padded, Reversed};
use rowkey::format::{Delimited, DelimitedKey};

/// Strings of bytes above `#`, weighted to the bytes just above it and to prefixes.
fn text_above_hash() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        Just('$'),
        Just('%'),
        Just('a'),
        Just('b'),
        Just('~'),
        Just('\u{7f}'),
        Just('é'),
        Just('\u{10ffff}')
    ];
    prop::collection::vec(ch, 0..6).prop_map(|c| c.into_iter().collect())
}

fn edgy_i64() -> impl Strategy<Value = i64> {
    prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0), Just(-1), Just(1), -1000i64..1000, any::<i64>()]
}

fn check<T>(format: &Delimited, a: &T, b: &T) -> Result<(), TestCaseError>
where
    T: for<'de> DelimitedKey<'de> + Ord + Debug,
{
    let (ka, kb) = (format.to_key(a).unwrap(), format.to_key(b).unwrap());
    prop_assert_eq!(ka.cmp(&kb), a.cmp(b), "values {:?} / {:?}\nkeys {} / {}", a, b, ka, kb);
    prop_assert_eq!(&format.from_key::<T>(&ka).unwrap(), a, "key {}", ka);
    prop_assert_eq!(&format.from_key::<T>(&kb).unwrap(), b, "key {}", kb);
    Ok(())
}

proptest! {
    #[test]
    fn strings(a in (text_above_hash(), text_above_hash(), text_above_hash()), b in (text_above_hash(), text_above_hash(), text_above_hash())) {
        let hash = Delimited::default();
        check(&hash, &a, &b)?;
        // The prefix case: b extends a's first field.
        let longer = (format!("{}{}", a.0, b.0), a.1.clone(), b.2.clone());
        check(&hash, &a, &longer)?;
        let colons = Delimited::new(b"$$").unwrap();
        let no_dollar = |t: &(String, String, String)| (t.0.replace('$', "%"), t.1.replace('$', "%"), t.2.replace('$', "%"));
        check(&colons, &no_dollar(&a), &no_dollar(&b))?;
    }

    #[test]
    fn integers_at_default_widths(a in edgy_i64(), b in edgy_i64(), c in any::<u64>(), d in any::<u64>()) {
        let hash = Delimited::default();
        check(&hash, &(a, c), &(b, d))?;
        check(&hash, &(c, a), &(c, b))?;
        #[allow(clippy::cast_possible_truncation)]
        let narrow = |x: i64, y: u64| (x as i8, x as i16, x as i32, y as u8, y as u16, y as u32);
        check(&hash, &narrow(a, c), &narrow(b, d))?;
    }

    #[test]
    fn integers_at_chosen_widths(a in -99_999i32..=99_999, b in -99_999i32..=99_999, c in 0u32..100_000_000, d in 0u32..100_000_000) {
        let hash = Delimited::default();
        check(&hash, &(Padded::<i32, 5>(a), Padded::<u32, 8>(c)), &(Padded::<i32, 5>(b), Padded::<u32, 8>(d)))?;
        check(&hash, &(Padded::<i64, 19>(i64::from(a) * 1_000_003),), &(Padded::<i64, 19>(i64::from(b) * 1_000_003),))?;
    }

    #[test]
    fn too_wide_is_refused(v in 100_000u32..) {
        let err = Delimited::default().to_key(&("x", Padded::<u32, 5>(v))).unwrap_err();
        prop_assert!(matches!(err, Error::Unencodable { .. }), "{}", err);
        prop_assert!(err.to_string().contains("width of 5"), "{}", err);
        prop_assert_eq!(err.location().field(), Some(1));
    }

    #[test]
    fn hex_and_reversed(a in any::<(u32, Vec<u8>, [u8; 3])>(), b in any::<(u32, Vec<u8>, [u8; 3])>(), t in 0i64.., u in 0i64..) {
        let hash = Delimited::default();
        let hexed = |x: &(u32, Vec<u8>, [u8; 3])| (Hex(x.0), Hex(x.2), Hex(x.1.clone()));
        check(&hash, &hexed(&a), &hexed(&b))?;
        check(&hash, &(Reversed(t), 'z'), &(Reversed(u), 'z'))?;
        check(&hash, &(Reversed(a.0), Reversed(u64::from(b.0))), &(Reversed(b.0), Reversed(u64::from(a.0))))?;
        prop_assert_eq!(hash.to_key(&(Reversed(t),)).unwrap().cmp(&hash.to_key(&(Reversed(u),)).unwrap()), u.cmp(&t));
    }

    #[test]
    fn options_and_bools(a in any::<(Option<u16>, bool, Option<i8>)>(), b in any::<(Option<u16>, bool, Option<i8>)>()) {
        check(&Delimited::default(), &a, &b)?;
    }

    #[test]
    fn bytes_at_or_below_the_delimiter_are_refused(prefix in text_above_hash(), bad in 0u8..=b'#', suffix in text_above_hash()) {
        let value = [prefix.as_bytes(), &[bad], suffix.as_bytes()].concat();
        let err = Delimited::default().to_key(&("tenant", value.as_slice(), "x")).unwrap_err();
        prop_assert_eq!(&err, &Error::Delimiter {
            at: err.location(),
            byte: bad,
            delimiter: b'#',
        });
        prop_assert_eq!(err.location().field(), Some(1));
        prop_assert_eq!(err.location().offset(), Some(7 + prefix.len()));
    }

    #[test]
    fn tenants_are_isolated(a in "[!-%a-c]{0,4}", b in "[!-%a-c]{0,4}", rest in text_above_hash(), n in any::<u32>()) {
        let hash = Delimited::default();
        let (Ok(key_a), Ok(prefix_b)) = (hash.to_key(&(a.as_str(), rest.as_str(), n)), hash.to_key(&(b.as_str(), ""))) else {
            // One of them holds a byte at or below '#': refused, which is the point.
            prop_assert!(a.bytes().chain(b.bytes()).any(|c| c <= b'#'));
            return Ok(());
        };
        // prefix_b is `b#`: the prefix of every key of tenant b.
        if a != b {
            prop_assert!(!key_a.starts_with(&prefix_b), "tenant {:?}'s key {} is inside tenant {:?}'s range", a, key_a, b);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(prop_oneof![Just(b'#'), Just(b'-'), Just(b'0'), Just(b'9'), Just(b'a'), any::<u8>()], 0..24)) {
        let hash = Delimited::default();
        fn total<T: for<'de> DelimitedKey<'de> + Debug>(format: &Delimited, bytes: &[u8]) -> Result<(), TestCaseError> {
            if let Ok(value) = format.from_key::<T>(bytes) {
                let again = format.to_key(&value).unwrap();
                prop_assert_eq!(again.as_bytes(), bytes, "{:?}", value);
            }
            Ok(())
        }
        total::<()>(&hash, &bytes)?;
        total::<(String,)>(&hash, &bytes)?;
        total::<(String, i16)>(&hash, &bytes)?;
        total::<(Option<u8>, bool, Hex<u16>)>(&hash, &bytes)?;
        total::<(Reversed<i64>, Padded<i32, 3>, Vec<u8>)>(&hash, &bytes)?;
        total::<(Hex<Vec<u8>>, char)>(&hash, &bytes)?;
        total::<(String, String)>(&Delimited::new("#-").unwrap(), &bytes)?;
    }
}

#[test]
fn a_delimiter_inside_a_fields_alphabet_is_refused_up_front() {
    // Signed decimals start at '-' (0x2d), unsigned ones at '0' (0x30).
    for (delimiter, signed_ok, unsigned_ok) in
        [("#", true, true), ("-", false, true), ("/", false, true), ("0", false, false)]
    {
        let signed = Delimited::for_key::<(String, i64)>(delimiter);
        assert_eq!(signed.is_ok(), signed_ok, "{delimiter}: {signed:?}");
        let unsigned = Delimited::for_key::<(String, u64)>(delimiter);
        assert_eq!(unsigned.is_ok(), unsigned_ok, "{delimiter}: {unsigned:?}");
    }
    let err = Delimited::for_key::<(String, Hex<u32>)>("a").unwrap_err();
    assert!(err.to_string().contains("field 1") && err.to_string().contains("hex"), "{err}");
    // Encoding checks it too, before writing the field.
    assert!(matches!(Delimited::new("5").unwrap().to_key(&(7u8,)), Err(Error::InvalidArgument { .. })));
}

#[test]
fn the_reader_rejects_keys_of_the_wrong_shape() {
    let hash = Delimited::default();
    assert!(matches!(hash.from_key::<(String, String)>(b"a#b#c"), Err(Error::TrailingBytes { offset: 3, len: 2 })));
    assert!(matches!(hash.from_key::<(String, String, String)>(b"a#b"), Err(Error::Truncated { .. })));
    assert!(matches!(hash.from_key::<(String, String)>(b"a\x01#b"), Err(Error::Delimiter { byte: 1, .. })));
    assert!(matches!(hash.from_key::<(String, u8)>(b"a#7"), Err(Error::InvalidField { .. })));
    assert!(hash.from_key::<()>(b"##").is_err());
    let colons = Delimited::new("::").unwrap();
    assert!(matches!(colons.from_key::<(String, String)>(b"a:b::c"), Err(Error::Delimiter { byte: b':', .. })));
}
