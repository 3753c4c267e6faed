//! The FoundationDB tuple format against the `foundationdb-tuple` crate (the tuple layer of the
//! Rust bindings), both ways, on generated values: rowkey's key is the crate's `pack`, rowkey
//! reads the crate's bytes back to the value, and the crate unpacks rowkey's key to the value.
//! Case counts come from `PROPTEST_CASES`.

#[path = "common/fdb.rs"]
mod fdb;

use std::fmt::Debug;

use fdb::*;
use foundationdb_tuple::{TuplePack, TupleUnpack};
use proptest::prelude::*;
use rowkey::field::Versionstamp;
use rowkey::format::{FdbKey, FdbTuple};

/// `value` through both crates, when they hold it as the same Rust type.
fn agree<T>(value: &T) -> Result<(), TestCaseError>
where
    T: for<'de> FdbKey<'de> + TuplePack + for<'de> TupleUnpack<'de> + PartialEq + Debug,
{
    let ours = FdbTuple::default().to_key(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let theirs = foundationdb_tuple::pack(value);
    prop_assert_eq!(ours.as_bytes(), &theirs[..], "pack of {:?}", value);
    let read: T = FdbTuple::default().from_key(&theirs).map_err(|e| TestCaseError::fail(format!("{value:?}: {e}")))?;
    prop_assert_eq!(&read, value);
    let unpacked: T = foundationdb_tuple::unpack(ours.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    prop_assert_eq!(&unpacked, value);
    Ok(())
}

fn their_stamp(stamp: Versionstamp) -> foundationdb_tuple::Versionstamp {
    foundationdb_tuple::Versionstamp::complete(stamp.transaction_version(), stamp.user_version())
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn integers(value in (i64s(), u64s(), i128s(), u128s(), any::<i32>(), any::<u16>())) {
        agree(&value)?;
    }

    #[test]
    fn text_bytes_and_bools(value in (text(), bytes(), any::<bool>(), text())) {
        agree(&value)?;
    }

    #[test]
    fn options_and_nested_tuples(
        value in (
            prop::option::of(text()),
            (any::<u16>(), prop::option::of(any::<i32>()), Just(())),
            prop::option::of((i64s(), prop::option::of(bytes()))),
        )
    ) {
        agree(&value)?;
    }

    #[test]
    fn uuids_bit_for_bit(id in uuids(), n in i64s()) {
        agree(&(id, n))?;
    }

    // Floats compare by their bits: NaN is not equal to itself, and -0.0 is not 0.0 here.
    #[test]
    fn floats_bit_for_bit(a in f64s(), b in f32s()) {
        let ours = FdbTuple::default().to_key(&(a, b)).unwrap();
        let theirs = foundationdb_tuple::pack(&(a, b));
        prop_assert_eq!(ours.as_bytes(), &theirs[..]);
        let (x, y): (f64, f32) = FdbTuple::default().from_key(&theirs).unwrap();
        prop_assert_eq!((x.to_bits(), y.to_bits()), (a.to_bits(), b.to_bits()));
        let (x, y): (f64, f32) = foundationdb_tuple::unpack(ours.as_bytes()).unwrap();
        prop_assert_eq!((x.to_bits(), y.to_bits()), (a.to_bits(), b.to_bits()));
    }

    // The crate has its own versionstamp type: the two are compared through their bytes.
    #[test]
    fn versionstamps_through_their_bytes(stamp in versionstamps(), n in u64s()) {
        let ours = FdbTuple::default().to_key(&(stamp, n)).unwrap();
        let theirs = foundationdb_tuple::pack(&(their_stamp(stamp), n));
        prop_assert_eq!(ours.as_bytes(), &theirs[..]);
        prop_assert_eq!(FdbTuple::default().from_key::<(Versionstamp, u64)>(&theirs).unwrap(), (stamp, n));
        let (back, m): (foundationdb_tuple::Versionstamp, u64) = foundationdb_tuple::unpack(ours.as_bytes()).unwrap();
        prop_assert_eq!((back.as_bytes(), m), (&stamp.to_bytes(), n));
    }
}

/// Exactly ±(2^64−1): the crate writes the 8-byte codes, as the spec and the Java and Go
/// bindings do, and so does rowkey.
#[test]
fn the_crate_writes_the_spec_bytes_at_2_64_minus_1() {
    let max = i128::from(u64::MAX);
    for value in [max, -max] {
        assert_eq!(FdbTuple::default().to_key(&(value,)).unwrap().as_bytes(), &foundationdb_tuple::pack(&(value,))[..]);
    }
    assert_eq!(foundationdb_tuple::pack(&(u64::MAX,)), b"\x1c\xff\xff\xff\xff\xff\xff\xff\xff");
}
