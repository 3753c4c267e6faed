//! The memcomparable format's descending shape: every field of the key descending, which the
//! memcomparable crate writes in its reverse mode (every byte of the key inverted) and rowkey
//! as a tuple of [`Desc`](rowkey::Desc) fields, to the same bytes. Its text fields cannot be
//! borrowed (their bytes are inverted in the key), so only the owned decode is measured.

use std::hint::black_box;

use rowkey::format::Memcomparable;

use crate::{Pass, Subject, each};

/// The crate's key of `value` in reverse mode.
fn crate_key<T: Subject>(value: &T) -> Vec<u8> {
    let mut serializer = memcomparable::Serializer::new(Vec::new());
    serializer.set_reverse(true);
    value.serialize(&mut serializer).unwrap();
    serializer.into_inner()
}

/// The crate's reverse-mode decode, with `from_slice`'s check that the key ends there.
fn crate_decode<T: Subject>(key: &[u8]) -> T {
    let mut deserializer = memcomparable::Deserializer::new(key);
    deserializer.set_reverse(true);
    let value = T::deserialize(&mut deserializer).unwrap();
    assert!(!deserializer.has_remaining(), "trailing bytes after a descending key");
    value
}

/// The crate's descending keys of `inputs`, and panics unless both libraries read each back
/// and rowkey writes the same bytes for what it read.
#[must_use]
pub fn keys<T: Subject>(inputs: &[T]) -> Vec<Vec<u8>> {
    inputs
        .iter()
        .map(|v| {
            let key = crate_key(v);
            assert_eq!(&crate_decode::<T>(&key), v, "the crate does not read its descending key back: {v:?}");
            let ours = Memcomparable.from_key::<T::McDesc>(&key).unwrap();
            let again = Memcomparable.to_key(&ours).unwrap();
            assert_eq!(again.as_bytes(), key, "rowkey's descending fields differ from the crate's reverse mode: {v:?}");
            key
        })
        .collect()
}

/// The owned decodes of the descending keys: the crate's, then rowkey's.
pub fn operations<'a, T: Subject>(keys: &'a [Vec<u8>], ops: &mut Vec<(&'static str, Pass<'a>)>) {
    ops.push(("memcomparable_from_slice_desc", each(keys, |k| drop(black_box(crate_decode::<T>(k))))));
    ops.push((
        "rowkey_memcomparable_from_key_desc",
        each(keys, |k| drop(black_box(Memcomparable.from_key::<T::McDesc>(k).unwrap()))),
    ));
}
