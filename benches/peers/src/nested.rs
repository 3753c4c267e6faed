//! The FoundationDB tuple format's own shape, wider than the shared keys: the type codes those
//! never reach (a nested tuple, a UUID), a byte string that always holds `00` (so is escaped
//! in every key and never borrowed), a negative integer and a float. Only rowkey's format and
//! the `foundationdb-tuple` crate write these bytes, so only they are measured on it.

use std::borrow::Cow;
use std::hint::black_box;

use rowkey::Key;
use rowkey::format::FdbTuple;
use uuid::Uuid;

use crate::{INPUTS, Lcg, Pass, each};

/// The criterion group, and the key's name in the tables.
pub const GROUP: &str = "nested";

/// A reading of one sensor: where it is, which it is, what it sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// A site name, 6 to 10 ASCII letters.
    pub site: String,
    /// The rack (below 1000) and its shelf, `shelf-` and two digits: a nested tuple.
    pub rack: (u16, String),
    /// The sensor, a random (version 4) UUID.
    pub sensor: Uuid,
    /// 12 to 20 random bytes with one to three `00` among them.
    pub payload: Vec<u8>,
    /// A negative correction, down to -10^9 (one to four bytes).
    pub offset: i64,
    /// A reading between -1000 and 1000.
    pub value: f64,
}

/// The fields as both rowkey's format and the crate pack them.
pub type Fields<'a> = (&'a str, (u16, &'a str), Uuid, &'a [u8], i64, f64);
/// The owned tuple both unpack into.
pub type Owned = (String, (u16, String), Uuid, Vec<u8>, i64, f64);
/// What rowkey's format reads borrowing what it can (every payload is escaped, so owned).
pub type Borrowed<'a> = (&'a str, (u16, &'a str), Uuid, Cow<'a, [u8]>, i64, f64);

impl Reading {
    fn fields(&self) -> Fields<'_> {
        (&self.site, (self.rack.0, &self.rack.1), self.sensor, &self.payload, self.offset, self.value)
    }
}

/// [`INPUTS`] readings.
#[must_use]
pub fn readings() -> Vec<Reading> {
    let mut rng = Lcg(0xd1b5_4a32_d192_ed03);
    (0..INPUTS)
        .map(|_| {
            let site_len = 6 + rng.below(5) as usize;
            let site = (0..site_len).map(|_| char::from(b'a' + rng.below(26) as u8)).collect();
            let payload_len = 12 + rng.below(9) as usize;
            let mut payload: Vec<u8> = (0..payload_len).map(|_| 1 + rng.below(255) as u8).collect();
            for _ in 0..=rng.below(3) {
                payload[rng.below(payload_len as u64) as usize] = 0;
            }
            Reading {
                site,
                rack: (rng.below(1000) as u16, format!("shelf-{:02}", rng.below(100))),
                sensor: Uuid::from_u64_pair(rng.next(), rng.next()),
                payload,
                offset: -1 - rng.below(1_000_000_000).cast_signed(),
                value: (rng.below(2_000_000_001) as f64 - 1e9) / 1e6,
            }
        })
        .collect()
}

/// The readings and the crate's keys of them.
pub struct Inputs {
    /// The values.
    pub readings: Vec<Reading>,
    /// `foundationdb_tuple::pack` of each.
    pub keys: Vec<Vec<u8>>,
}

impl Inputs {
    /// Builds them, and panics unless rowkey writes the crate's bytes and both read back the
    /// same values.
    #[must_use]
    pub fn new() -> Self {
        let readings = readings();
        let keys: Vec<_> = readings.iter().map(|r| foundationdb_tuple::pack(&r.fields())).collect();
        let format = FdbTuple::default();
        for (r, key) in readings.iter().zip(&keys) {
            assert_eq!(format.to_key(&r.fields()).unwrap().as_bytes(), key, "rowkey differs from the crate: {r:?}");
            let theirs = foundationdb_tuple::unpack::<Owned>(key).unwrap();
            let ours = format.from_key::<Owned>(key).unwrap();
            assert_eq!(ours, theirs, "rowkey and foundationdb-tuple read different values: {r:?}");
            assert_eq!(ours.1, r.rack);
            let borrowed = format.from_key::<Borrowed<'_>>(key).unwrap();
            assert_eq!(format.to_key(&borrowed).unwrap().as_bytes(), key);
        }
        Inputs { readings, keys }
    }

    /// Mean key size in bytes.
    #[must_use]
    pub fn mean_size(&self) -> f64 {
        self.keys.iter().map(Vec::len).sum::<usize>() as f64 / self.keys.len() as f64
    }
}

impl Default for Inputs {
    fn default() -> Self {
        Self::new()
    }
}

/// The FoundationDB operations of the other keys, under the same ids, so the same targets
/// apply.
#[must_use]
pub fn operations(inputs: &Inputs) -> Vec<(&'static str, Pass<'_>)> {
    let (readings, keys) = (&inputs.readings, &inputs.keys);
    let mut ops: Vec<(&'static str, Pass<'_>)> = Vec::new();
    let mut out = Vec::with_capacity(64);
    ops.push((
        "foundationdb_tuple_pack_into",
        each(readings, move |r| {
            let out = black_box(&mut out);
            out.clear();
            foundationdb_tuple::pack_into(&r.fields(), out);
        }),
    ));
    ops.push(("foundationdb_tuple_pack", each(readings, |r| drop(black_box(foundationdb_tuple::pack(&r.fields()))))));
    ops.push((
        "foundationdb_tuple_unpack",
        each(keys, |k| drop(black_box(foundationdb_tuple::unpack::<Owned>(k).unwrap()))),
    ));
    let (mut key, format) = (Key::new(), FdbTuple::default());
    ops.push((
        "rowkey_fdb_encode_into",
        each(readings, move |r| format.encode_into(&r.fields(), black_box(&mut key)).unwrap()),
    ));
    let format = FdbTuple::default();
    ops.push(("rowkey_fdb_to_key", each(readings, move |r| drop(black_box(format.to_key(&r.fields()).unwrap())))));
    let format = FdbTuple::default();
    ops.push(("rowkey_fdb_from_key", each(keys, move |k| drop(black_box(format.from_key::<Owned>(k).unwrap())))));
    let format = FdbTuple::default();
    ops.push((
        "rowkey_fdb_from_key_borrowed",
        each(keys, move |k| drop(black_box(format.from_key::<Borrowed<'_>>(k).unwrap()))),
    ));
    ops
}
