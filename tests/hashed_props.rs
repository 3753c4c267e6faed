//! `Hashed` fields: keys sort as the hashes' bytes and read back as the same hash in every
//! format, decoding is canonical (a key that decodes is the key of what it decodes to), and a
//! scan fixed to a value's hash returns exactly that value's rows.
#![cfg(feature = "hashed")]

mod common;

use std::fmt::Debug;

use common::pii::{AccountKey, AccountKeyText, WideHash, account, account_text, wide};
use common::strategies::near_keys;
use proptest::prelude::*;
use rowkey::field::{HashKey, Hashed};
use rowkey::format::{FdbTuple, HBase, Memcomparable};
use rowkey::testing::{assert_order_preserving_with, assert_scan_exact, hashes};
use rowkey::{RowKey, RowKeyOwned};

/// Keys that fail to decode, or decode to a value whose key they are.
fn canonical<T: RowKeyOwned + Debug>(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(value) = T::from_key(bytes) {
        let again = value.to_key().map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again.as_bytes(), bytes, "{:?}", value);
    }
    Ok(())
}

#[test]
fn ordered_keys_sort_as_the_hashes_and_round_trip() {
    assert_order_preserving_with((account(), account()), AccountKey::cmp);
    assert_order_preserving_with((wide(), wide()), WideHash::cmp);
}

#[test]
fn delimited_keys_sort_as_the_hashes_and_round_trip() {
    assert_order_preserving_with((account_text(), account_text()), AccountKeyText::cmp);
}

#[test]
fn a_lookup_by_value_finds_exactly_that_values_rows() {
    let key = HashKey::new(b"the tests' secret").unwrap();
    let emails = || prop::sample::select(vec!["alice@example.com", "bob@example.com", "", "alice@example.co"]);
    let rows = {
        let key = key.clone();
        prop::collection::vec(
            (emails(), any::<u32>())
                .prop_map(move |(email, since)| AccountKey { email: Hashed::new(&key, email), since }),
            0..40,
        )
    };
    assert_scan_exact(
        rows,
        emails(),
        |email: &&str| AccountKey::scan().email(Hashed::new(&key, email)).ranges(),
        |email: &&str, row: &AccountKey| row.email == Hashed::new(&key, email),
    );
}

proptest! {
    #[test]
    fn ordered_decoding_is_canonical(bytes in near_keys(account().prop_map(|a| a.to_key().unwrap().into_vec()))) {
        canonical::<AccountKey>(&bytes)?;
        canonical::<(Hashed<8>,)>(&bytes)?;
    }

    #[test]
    fn delimited_decoding_is_canonical(bytes in near_keys(account_text().prop_map(|a| a.to_key().unwrap().into_vec()))) {
        canonical::<AccountKeyText>(&bytes)?;
    }

    #[test]
    fn optional_wide_decoding_is_canonical(bytes in near_keys(wide().prop_map(|a| a.to_key().unwrap().into_vec()))) {
        canonical::<WideHash>(&bytes)?;
    }

    /// The other formats hold the hash through their byte strings: it reads back, sorts as its
    /// bytes, and a key that decodes is the key of what it decodes to.
    #[test]
    fn other_formats_hold_the_hash(a in hashes::<8>(), b in hashes::<8>(), n in any::<u8>(), noise in prop::collection::vec(any::<u8>(), 0..24)) {
        let (ma, mb) = (Memcomparable.to_key(&(a, n)).unwrap(), Memcomparable.to_key(&(b, n)).unwrap());
        prop_assert_eq!(Memcomparable.from_key::<(Hashed<8>, u8)>(&ma).unwrap(), (a, n));
        prop_assert_eq!(ma.cmp(&mb), a.cmp(&b));
        let fdb = FdbTuple::default();
        let (fa, fb) = (fdb.to_key(&(a, n)).unwrap(), fdb.to_key(&(b, n)).unwrap());
        prop_assert_eq!(fdb.from_key::<(Hashed<8>, u8)>(&fa).unwrap(), (a, n));
        prop_assert_eq!(fa.cmp(&fb), a.cmp(&b));
        let (ha, hb) = (HBase.to_key(&(n, a)).unwrap(), HBase.to_key(&(n, b)).unwrap());
        prop_assert_eq!(HBase.from_key::<(u8, Hashed<8>)>(&ha).unwrap(), (n, a));
        prop_assert_eq!(ha.cmp(&hb), a.cmp(&b));
        if let Ok(value) = Memcomparable.from_key::<(Hashed<8>, u8)>(&noise) {
            let again = Memcomparable.to_key(&value).unwrap();
            prop_assert_eq!(again.as_bytes(), &noise[..]);
        }
        if let Ok(value) = fdb.from_key::<(Hashed<8>, u8)>(&noise) {
            let again = fdb.to_key(&value).unwrap();
            prop_assert_eq!(again.as_bytes(), &noise[..]);
        }
        if let Ok(value) = HBase.from_key::<(u8, Hashed<8>)>(&noise) {
            let again = HBase.to_key(&value).unwrap();
            prop_assert_eq!(again.as_bytes(), &noise[..]);
        }
    }
}

proptest! {
    /// The schema describes a hash as the fixed-width bytes it is (hex text in the delimited
    /// format), so inspecting a key shows the hash `from_key` reads, never a value.
    #[test]
    fn inspect_shows_the_hash(a in account(), t in account_text()) {
        use rowkey::schema::{Encoding, Value};
        prop_assert_eq!(AccountKey::SCHEMA.field("email").unwrap().encoding, Encoding::ByteArray { len: 16 });
        let inspected = AccountKey::SCHEMA.inspect(&a.to_key().unwrap()).unwrap();
        prop_assert_eq!(inspected.value("email"), Some(&Value::Bytes(a.email.as_bytes().to_vec())));
        prop_assert_eq!(AccountKeyText::SCHEMA.field("email").unwrap().encoding, Encoding::Hex { digits: Some(16) });
        let inspected = AccountKeyText::SCHEMA.inspect(&t.to_key().unwrap()).unwrap();
        prop_assert_eq!(inspected.value("email"), Some(&Value::Bytes(t.email.as_bytes().to_vec())));
    }
}
