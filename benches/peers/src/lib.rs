//! The keys, inputs, hand-written baselines and measured operations that the peer bench
//! (`benches/peers.rs`), the profiling example (`examples/profile.rs`) and the allocation test
//! (`tests/alloc_free.rs`) share, so a profile is of exactly what the bench timed.
//!
//! Each key is one struct that derives every library's traits, so all of them encode exactly
//! the same values: rowkey through `#[derive(RowKey)]`, storekey through its own derives,
//! memcomparable and ordcode through serde. rowkey's store formats (memcomparable,
//! FoundationDB's tuple layer, HBase's OrderedBytes) take the same values as tuples of fields,
//! and the `foundationdb-tuple` crate packs those tuples itself.

pub mod descending;
pub mod event;
pub mod hand_written;
pub mod nested;
pub mod schema_path;
pub mod targets;

use std::borrow::Cow;
use std::fmt::Debug;
use std::hint::black_box;

use foundationdb_tuple::{TuplePack, TupleUnpack};
use ordcode::Order;
use rowkey::format::{FdbKey, FdbTuple, HBase, HBaseKey, Memcomparable, MemcomparableKey};
use rowkey::{Desc, Key, KeyRanges, RowKey, RowKeyOwned};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// How many keys each bench iteration encodes or decodes.
pub const INPUTS: usize = 10_000;

/// Bigtable's device key: device type, 8-hex device id, milliseconds since the epoch.
#[derive(RowKey, Serialize, Deserialize, storekey::Encode, storekey::Decode, Clone, Debug, PartialEq)]
pub struct Device {
    /// `phone`, `tablet`, ...: 5 or 6 ASCII letters.
    pub kind: String,
    /// 8 lowercase hex digits.
    pub id: String,
    /// Milliseconds since the epoch, around 1.7e12.
    pub millis: i64,
}

/// [`Device`] decoded without copying its strings.
#[derive(RowKey, Serialize, Deserialize, Debug, PartialEq)]
pub struct DeviceRef<'a> {
    /// As [`Device::kind`].
    pub kind: &'a str,
    /// As [`Device::id`].
    pub id: &'a str,
    /// As [`Device::millis`].
    pub millis: i64,
}

/// [`Device`] as storekey decodes it without copying: it has no `&str` decode, only `Cow`.
#[derive(storekey::BorrowDecode, Debug, PartialEq)]
pub struct DeviceCow<'a> {
    /// As [`Device::kind`].
    pub kind: Cow<'a, str>,
    /// As [`Device::id`].
    pub id: Cow<'a, str>,
    /// As [`Device::millis`].
    pub millis: i64,
}

/// A wider key with one field of each common kind, 16 random bytes last.
#[derive(RowKey, Serialize, Deserialize, storekey::Encode, storekey::Decode, Clone, Debug, PartialEq)]
pub struct Wide {
    /// About 12 ASCII characters.
    pub name: String,
    /// Any `u32`.
    pub count: u32,
    /// Any `i64`, negatives included.
    pub seq: i64,
    /// A reading between -1000 and 1000.
    pub value: f64,
    /// Either.
    pub flag: bool,
    /// Random bytes, `00` among them now and then (about one key in 16).
    pub tag: [u8; 16],
}

/// [`Wide`] decoded without copying its string.
#[derive(RowKey, Serialize, Deserialize, Debug, PartialEq)]
pub struct WideRef<'a> {
    /// As [`Wide::name`].
    pub name: &'a str,
    /// As [`Wide::count`].
    pub count: u32,
    /// As [`Wide::seq`].
    pub seq: i64,
    /// As [`Wide::value`].
    pub value: f64,
    /// As [`Wide::flag`].
    pub flag: bool,
    /// As [`Wide::tag`].
    pub tag: [u8; 16],
}

/// [`Wide`] as storekey decodes it without copying.
#[derive(storekey::BorrowDecode, Debug, PartialEq)]
pub struct WideCow<'a> {
    /// As [`Wide::name`].
    pub name: Cow<'a, str>,
    /// As [`Wide::count`].
    pub count: u32,
    /// As [`Wide::seq`].
    pub seq: i64,
    /// As [`Wide::value`].
    pub value: f64,
    /// As [`Wide::flag`].
    pub flag: bool,
    /// As [`Wide::tag`].
    pub tag: [u8; 16],
}

/// A fixed 64-bit linear congruential sequence (Knuth's MMIX constants): the same inputs on
/// every run and every machine, with no dependency for it.
pub(crate) struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        // The low bits of a power-of-two LCG cycle quickly; the high half is the usable part.
        self.0 ^ (self.0 >> 29)
    }

    fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 32) % n
    }
}

const KINDS: [&str; 6] = ["phone", "tablet", "watch", "laptop", "router", "camera"];

/// [`INPUTS`] device keys.
#[must_use]
pub fn devices() -> Vec<Device> {
    let mut rng = Lcg(0x2545_f491_4f6c_dd1d);
    (0..INPUTS)
        .map(|_| Device {
            kind: KINDS[rng.below(KINDS.len() as u64) as usize].to_owned(),
            id: format!("{:08x}", rng.next() >> 32),
            millis: 1_700_000_000_000 + rng.below(100_000_000_000) as i64,
        })
        .collect()
}

/// [`INPUTS`] wide keys.
#[must_use]
pub fn wides() -> Vec<Wide> {
    let mut rng = Lcg(0x9e37_79b9_7f4a_7c15);
    (0..INPUTS)
        .map(|_| {
            let name_len = 10 + rng.below(5) as usize;
            let name = (0..name_len).map(|_| char::from(b'a' + rng.below(26) as u8)).collect();
            let mut tag = [0u8; 16];
            tag[..8].copy_from_slice(&rng.next().to_le_bytes());
            tag[8..].copy_from_slice(&rng.next().to_le_bytes());
            Wide {
                name,
                count: (rng.next() >> 32) as u32,
                seq: rng.next().cast_signed(),
                value: (rng.below(2_000_000_001) as f64 - 1e9) / 1e6,
                flag: rng.below(2) == 1,
                tag,
            }
        })
        .collect()
}

/// What the bench needs of a key type: one struct that every library encodes, plus the
/// borrowing and tuple forms of the same key.
pub trait Subject:
    for<'de> RowKey<'de> + Serialize + DeserializeOwned + storekey::Encode + storekey::Decode + Debug + PartialEq
{
    /// The criterion group, and the key's name in the table.
    const GROUP: &'static str;
    /// Whether `rowkey::to_key` (serde) writes the derived key's bytes. Not for [`Wide`]:
    /// serde sees its `[u8; 16]` as a tuple, which rowkey's serializer flattens into 16
    /// integer fields.
    const SERDE_IS_DERIVE: bool;
    /// rowkey's derived form with `&str` fields.
    type Borrowed<'a>: RowKey<'a> + Deserialize<'a>;
    /// storekey's borrowing form (`Cow<str>`: it has no `&str` decode).
    type StorekeyCow<'a>: storekey::BorrowDecode<'a>;
    /// The same fields as a tuple of references, for rowkey's tuple encode and its HBase
    /// format.
    type Fields<'a>: RowKey<'a> + HBaseKey<'a>
    where
        Self: 'a;
    /// The tuple that owned values decode into, from rowkey's keys and from HBase keys.
    type Tuple: RowKeyOwned + for<'de> HBaseKey<'de>;
    /// The tuple with `&str` fields.
    type TupleRef<'a>: RowKey<'a>;
    /// The fields as rowkey's memcomparable format takes them, whose key is the memcomparable
    /// crate's bytes of this struct (serde hands the crate a `[u8; 16]` as 16 `u8`s: the
    /// big-endian bytes of a `u128`).
    type McFields<'a>: MemcomparableKey<'a>
    where
        Self: 'a;
    /// The tuple that owned values decode into from those bytes.
    type McTuple: for<'de> MemcomparableKey<'de>;
    /// The tuple that borrows what it can from them: `&str` for text of one 8-byte group,
    /// `Cow<str>` for longer text (whose groups are cut by marker bytes).
    type McBorrowed<'a>: MemcomparableKey<'a>;
    /// The tuple of every field descending, whose key is the crate's bytes of this struct in
    /// reverse mode.
    type McDesc: for<'de> MemcomparableKey<'de>;
    /// The fields as both rowkey's FoundationDB tuple format and the `foundationdb-tuple`
    /// crate pack them, to the same bytes.
    type FdbFields<'a>: FdbKey<'a> + TuplePack
    where
        Self: 'a;
    /// The tuple that both unpack owned values into.
    type FdbTuple: for<'de> FdbKey<'de> + for<'de> TupleUnpack<'de> + TuplePack + Debug + PartialEq;
    /// The tuple rowkey's FoundationDB format reads borrowing what it can.
    type FdbBorrowed<'a>: FdbKey<'a>;
    /// The tuple rowkey's HBase format reads borrowing what it can.
    type HBaseBorrowed<'a>: HBaseKey<'a>;

    /// [`INPUTS`] values.
    fn inputs() -> Vec<Self>;
    /// The fields as rowkey's tuple encode takes them.
    fn fields(&self) -> Self::Fields<'_>;
    /// The fields as rowkey's memcomparable format takes them.
    fn mc_fields(&self) -> Self::McFields<'_>;
    /// The fields as rowkey's FoundationDB format and the `foundationdb-tuple` crate take them.
    fn fdb_fields(&self) -> Self::FdbFields<'_>;
    /// The baseline encoder.
    fn hand_written(&self, out: &mut Vec<u8>);
    /// The baseline decoder: one pass over the same bytes, into the owned type.
    fn hand_written_decode(key: &[u8]) -> Option<Self>;
    /// The scan ranges of the keys that share this value's first two fields.
    fn prefix_ranges(&self) -> KeyRanges;
}

impl Subject for Device {
    const GROUP: &'static str = "device";
    const SERDE_IS_DERIVE: bool = true;
    type Borrowed<'a> = DeviceRef<'a>;
    type StorekeyCow<'a> = DeviceCow<'a>;
    type Fields<'a> = (&'a str, &'a str, i64);
    type Tuple = (String, String, i64);
    type TupleRef<'a> = (&'a str, &'a str, i64);
    type McFields<'a> = (&'a str, &'a str, i64);
    type McTuple = (String, String, i64);
    type McBorrowed<'a> = (&'a str, &'a str, i64);
    type McDesc = (Desc<String>, Desc<String>, Desc<i64>);
    type FdbFields<'a> = (&'a str, &'a str, i64);
    type FdbTuple = (String, String, i64);
    type FdbBorrowed<'a> = (&'a str, &'a str, i64);
    type HBaseBorrowed<'a> = (&'a str, &'a str, i64);

    fn inputs() -> Vec<Self> {
        devices()
    }

    fn fields(&self) -> Self::Fields<'_> {
        (&self.kind, &self.id, self.millis)
    }

    fn mc_fields(&self) -> Self::McFields<'_> {
        (&self.kind, &self.id, self.millis)
    }

    fn fdb_fields(&self) -> Self::FdbFields<'_> {
        (&self.kind, &self.id, self.millis)
    }

    fn hand_written(&self, out: &mut Vec<u8>) {
        hand_written::device(self, out);
    }

    fn hand_written_decode(key: &[u8]) -> Option<Self> {
        hand_written::device_decode(key)
    }

    fn prefix_ranges(&self) -> KeyRanges {
        Device::scan().kind(&self.kind).id(&self.id).ranges().unwrap()
    }
}

impl Subject for Wide {
    const GROUP: &'static str = "wide";
    const SERDE_IS_DERIVE: bool = false;
    type Borrowed<'a> = WideRef<'a>;
    type StorekeyCow<'a> = WideCow<'a>;
    type Fields<'a> = (&'a str, u32, i64, f64, bool, [u8; 16]);
    type Tuple = (String, u32, i64, f64, bool, [u8; 16]);
    type TupleRef<'a> = (&'a str, u32, i64, f64, bool, [u8; 16]);
    type McFields<'a> = (&'a str, u32, i64, f64, bool, u128);
    type McTuple = (String, u32, i64, f64, bool, u128);
    type McBorrowed<'a> = (Cow<'a, str>, u32, i64, f64, bool, u128);
    type McDesc = (Desc<String>, Desc<u32>, Desc<i64>, Desc<f64>, Desc<bool>, Desc<u128>);
    /// The tag as a byte slice: the crate has no `[u8; N]`, and both write a byte slice as
    /// rowkey writes `[u8; 16]` (type code `01`, each `00` as `00 ff`, a `00` end).
    type FdbFields<'a> = (&'a str, u32, i64, f64, bool, &'a [u8]);
    /// The tag as a `Vec<u8>`, the crate's owned byte string, on both sides.
    type FdbTuple = (String, u32, i64, f64, bool, Vec<u8>);
    /// The tag as a `Cow<[u8]>`: a tag holding a `00` (about one key in 16) is escaped in the
    /// key, so only a tag without one can be borrowed.
    type FdbBorrowed<'a> = (&'a str, u32, i64, f64, bool, Cow<'a, [u8]>);
    /// The tag is HBase's last field, which is written as it is, so it always borrows.
    type HBaseBorrowed<'a> = (&'a str, u32, i64, f64, bool, &'a [u8]);

    fn inputs() -> Vec<Self> {
        wides()
    }

    fn fields(&self) -> Self::Fields<'_> {
        (&self.name, self.count, self.seq, self.value, self.flag, self.tag)
    }

    fn mc_fields(&self) -> Self::McFields<'_> {
        (&self.name, self.count, self.seq, self.value, self.flag, u128::from_be_bytes(self.tag))
    }

    fn fdb_fields(&self) -> Self::FdbFields<'_> {
        (&self.name, self.count, self.seq, self.value, self.flag, &self.tag[..])
    }

    fn hand_written(&self, out: &mut Vec<u8>) {
        hand_written::wide(self, out);
    }

    fn hand_written_decode(key: &[u8]) -> Option<Self> {
        hand_written::wide_decode(key)
    }

    fn prefix_ranges(&self) -> KeyRanges {
        Wide::scan().name(&self.name).count(self.count).ranges().unwrap()
    }
}

/// Room for any key here: ordcode writes into a fixed slice, lengths from its far end.
const ORDCODE_BUF: usize = 128;

fn storekey_reuse<T: Subject>(value: &T, buf: &mut Vec<u8>) {
    buf.clear();
    storekey::encode(&mut *buf, value).unwrap();
}

fn memcomparable_reuse<T: Subject>(value: &T, buf: &mut Vec<u8>) {
    buf.clear();
    value.serialize(&mut memcomparable::Serializer::new(&mut *buf)).unwrap();
}

/// `foundationdb_tuple::pack_into` appends, so the reused vector is cleared first.
fn fdb_pack_into<T: Subject>(value: &T, buf: &mut Vec<u8>) {
    buf.clear();
    foundationdb_tuple::pack_into(&value.fdb_fields(), buf);
}

/// Every library's keys for the same inputs, each checked to decode back to its input.
pub struct Encoded {
    /// rowkey's keys (and so the hand-written ones).
    pub rowkey: Vec<Key>,
    /// storekey's.
    pub storekey: Vec<Vec<u8>>,
    /// memcomparable's.
    pub memcomparable: Vec<Vec<u8>>,
    /// memcomparable's in its reverse mode (every field descending).
    pub memcomparable_desc: Vec<Vec<u8>>,
    /// ordcode's.
    pub ordcode: Vec<Vec<u8>>,
    /// rowkey's through serde: the derived keys' bytes when [`Subject::SERDE_IS_DERIVE`].
    pub rowkey_serde: Vec<Key>,
    /// foundationdb-tuple's, which rowkey's FoundationDB tuple format writes too.
    pub fdb: Vec<Vec<u8>>,
    /// rowkey's HBase format's (no Rust peer writes HBase's bytes).
    pub hbase: Vec<Key>,
}

impl Encoded {
    /// Encodes `inputs` with every library, and panics unless every API measured gives the
    /// same bytes as its library's plain one, the baseline gives rowkey's bytes, and every
    /// key decodes back.
    #[must_use]
    pub fn new<T: Subject>(inputs: &[T]) -> Self {
        let rowkey: Vec<Key> = inputs.iter().map(|v| v.to_key().unwrap()).collect();
        let storekey: Vec<_> = inputs.iter().map(|v| storekey::encode_vec(v).unwrap()).collect();
        let memcomparable: Vec<_> = inputs.iter().map(|v| memcomparable::to_vec(v).unwrap()).collect();
        let memcomparable_desc = descending::keys(inputs);
        let ordcode: Vec<_> =
            inputs.iter().map(|v| ordcode::ser_to_vec_ordered(v, Order::Ascending).unwrap()).collect();
        let rowkey_serde: Vec<Key> = inputs.iter().map(|v| rowkey::to_key(v).unwrap()).collect();
        let fdb: Vec<_> = inputs.iter().map(|v| foundationdb_tuple::pack(&v.fdb_fields())).collect();
        let hbase: Vec<Key> = inputs.iter().map(|v| HBase.to_key(&v.fields()).unwrap()).collect();

        let (mut buf, mut key) = (Vec::with_capacity(64), Key::new());
        let mut fixed = [0u8; ORDCODE_BUF];
        for (i, v) in inputs.iter().enumerate() {
            // The baseline is only a limit if it writes exactly rowkey's bytes.
            v.hand_written(&mut buf);
            assert_eq!(buf, rowkey[i].as_bytes(), "hand-written bytes differ from rowkey's: {v:?}");
            assert_eq!(T::hand_written_decode(&rowkey[i]).as_ref(), Some(v), "the hand-written decoder: {v:?}");
            assert!(v.prefix_ranges().contains(&rowkey[i]));
            assert_eq!(v.fields().to_key().unwrap(), rowkey[i], "the tuple and the derive disagree: {v:?}");
            v.encode_into(&mut key).unwrap();
            assert_eq!(key, rowkey[i]);
            assert_eq!(&T::from_key(&rowkey[i]).unwrap(), v);
            assert!(<T::Borrowed<'_>>::from_key(&rowkey[i]).is_ok());
            assert!(<T::Tuple>::from_key(&rowkey[i]).is_ok());
            assert!(<T::TupleRef<'_>>::from_key(&rowkey[i]).is_ok());
            if T::SERDE_IS_DERIVE {
                assert_eq!(rowkey_serde[i], rowkey[i], "serde and the derive disagree: {v:?}");
            }
            rowkey::to_key_into(v, &mut key).unwrap();
            assert_eq!(key, rowkey_serde[i]);
            assert_eq!(&rowkey::from_key::<T>(&rowkey_serde[i]).unwrap(), v);
            assert!(rowkey::from_key::<T::Borrowed<'_>>(&rowkey_serde[i]).is_ok());

            storekey_reuse(v, &mut buf);
            assert_eq!(buf, storekey[i]);
            assert_eq!(&storekey::decode::<_, T>(&storekey[i][..]).unwrap(), v);
            assert!(storekey::decode_borrow::<T::StorekeyCow<'_>>(&storekey[i]).is_ok());
            memcomparable_reuse(v, &mut buf);
            assert_eq!(buf, memcomparable[i]);
            assert_eq!(&memcomparable::from_slice::<T>(&memcomparable[i]).unwrap(), v);
            Memcomparable.encode_into(&v.mc_fields(), &mut key).unwrap();
            assert_eq!(key.as_bytes(), memcomparable[i], "rowkey's memcomparable format differs from the crate: {v:?}");
            let owned = Memcomparable.from_key::<T::McTuple>(&memcomparable[i]).unwrap();
            assert_eq!(Memcomparable.to_key(&owned).unwrap(), key);
            assert!(Memcomparable.from_key::<T::McBorrowed<'_>>(&memcomparable[i]).is_ok());
            let n = ordcode::ser_to_buf_ordered(&mut fixed, v, Order::Ascending).unwrap();
            assert_eq!(fixed[..n], ordcode[i]);
            assert_eq!(&ordcode::de_from_bytes_asc::<_, T>(&ordcode[i]).unwrap(), v);

            fdb_pack_into(v, &mut buf);
            assert_eq!(buf, fdb[i]);
            let theirs = foundationdb_tuple::unpack::<T::FdbTuple>(&fdb[i]).unwrap();
            assert_eq!(foundationdb_tuple::pack(&theirs), fdb[i], "foundationdb-tuple does not read back: {v:?}");
            FdbTuple::default().encode_into(&v.fdb_fields(), &mut key).unwrap();
            assert_eq!(key.as_bytes(), fdb[i], "rowkey's FoundationDB format differs from the crate: {v:?}");
            assert_eq!(FdbTuple::default().to_key(&v.fdb_fields()).unwrap(), key);
            let ours = FdbTuple::default().from_key::<T::FdbTuple>(&fdb[i]).unwrap();
            assert_eq!(ours, theirs, "rowkey and foundationdb-tuple read different values: {v:?}");
            let borrowed = FdbTuple::default().from_key::<T::FdbBorrowed<'_>>(&fdb[i]).unwrap();
            assert_eq!(FdbTuple::default().to_key(&borrowed).unwrap(), key);

            HBase.encode_into(&v.fields(), &mut key).unwrap();
            assert_eq!(key, hbase[i]);
            let owned = HBase.from_key::<T::Tuple>(&hbase[i]).unwrap();
            assert_eq!(HBase.to_key(&owned).unwrap(), key, "the HBase format does not round trip: {v:?}");
            let borrowed = HBase.from_key::<T::HBaseBorrowed<'_>>(&hbase[i]).unwrap();
            assert_eq!(HBase.to_key(&borrowed).unwrap(), key, "the HBase format does not round trip: {v:?}");
        }
        Encoded { rowkey, storekey, memcomparable, memcomparable_desc, ordcode, rowkey_serde, fdb, hbase }
    }

    /// Mean key size of each library, in bytes.
    #[must_use]
    pub fn mean_sizes(&self) -> [(&'static str, f64); 6] {
        fn mean(lens: impl ExactSizeIterator<Item = usize>) -> f64 {
            let n = lens.len();
            lens.sum::<usize>() as f64 / n as f64
        }
        [
            ("rowkey", mean(self.rowkey.iter().map(|k| k.len()))),
            ("storekey", mean(self.storekey.iter().map(Vec::len))),
            ("memcomparable", mean(self.memcomparable.iter().map(Vec::len))),
            ("ordcode", mean(self.ordcode.iter().map(Vec::len))),
            ("FoundationDB tuple", mean(self.fdb.iter().map(Vec::len))),
            ("HBase", mean(self.hbase.iter().map(|k| k.len()))),
        ]
    }
}

/// One pass of a measured operation over every input (or every key).
pub type Pass<'a> = Box<dyn FnMut() + 'a>;

/// Runs `per_item` on each item: one pass.
pub(crate) fn each<'a, I>(items: &'a [I], mut per_item: impl FnMut(&'a I) + 'a) -> Pass<'a> {
    Box::new(move || items.iter().for_each(&mut per_item))
}

/// Every measured operation on one key type, by bench id, in table order. Each pass
/// processes all [`INPUTS`]; only the pass is a dynamic call, the work per key is inlined.
#[must_use]
pub fn operations<'a, T: Subject>(inputs: &'a [T], keys: &'a Encoded) -> Vec<(&'static str, Pass<'a>)> {
    let mut ops: Vec<(&'static str, Pass<'a>)> = Vec::new();
    let vec = || Vec::with_capacity(64);

    // Encode, into a reused buffer.
    let mut out = vec();
    ops.push(("hand_written", each(inputs, move |v| v.hand_written(black_box(&mut out)))));
    let mut key = Key::new();
    ops.push(("rowkey_encode_into", each(inputs, move |v| v.encode_into(black_box(&mut key)).unwrap())));
    let mut key = Key::new();
    ops.push(("rowkey_tuple_encode_into", each(inputs, move |v| v.fields().encode_into(black_box(&mut key)).unwrap())));
    let mut key = Key::new();
    ops.push(("rowkey_serde_to_key_into", each(inputs, move |v| rowkey::to_key_into(v, black_box(&mut key)).unwrap())));
    let mut out = vec();
    ops.push(("storekey_encode_reuse", each(inputs, move |v| storekey_reuse(v, black_box(&mut out)))));
    let mut out = vec();
    ops.push(("memcomparable_serializer_reuse", each(inputs, move |v| memcomparable_reuse(v, black_box(&mut out)))));
    let mut fixed = [0u8; ORDCODE_BUF];
    ops.push((
        "ordcode_ser_to_buf",
        each(inputs, move |v| {
            let n = ordcode::ser_to_buf_ordered(black_box(&mut fixed), v, Order::Ascending).unwrap();
            black_box(n);
        }),
    ));

    // Encode, a new key each time.
    ops.push(("rowkey_to_key", each(inputs, |v| drop(black_box(v.to_key().unwrap())))));
    ops.push(("rowkey_tuple_to_key", each(inputs, |v| drop(black_box(v.fields().to_key().unwrap())))));
    ops.push(("rowkey_serde_to_key", each(inputs, |v| drop(black_box(rowkey::to_key(v).unwrap())))));
    ops.push(("storekey_encode_vec", each(inputs, |v| drop(black_box(storekey::encode_vec(v).unwrap())))));
    ops.push(("memcomparable_to_vec", each(inputs, |v| drop(black_box(memcomparable::to_vec(v).unwrap())))));
    ops.push((
        "ordcode_ser_to_vec",
        each(inputs, |v| drop(black_box(ordcode::ser_to_vec_ordered(v, Order::Ascending).unwrap()))),
    ));

    // Scan bounds: the range of a 2-field prefix.
    ops.push(("rowkey_prefix_range", each(inputs, |v| drop(black_box(v.prefix_ranges())))));

    // Decode, each library from its own keys.
    let rk = &keys.rowkey;
    ops.push(("hand_written_decode", each(rk, |k| drop(black_box(T::hand_written_decode(k).unwrap())))));
    ops.push(("rowkey_from_key", each(rk, |k| drop(black_box(T::from_key(k).unwrap())))));
    ops.push(("rowkey_tuple_from_key", each(rk, |k| drop(black_box(<T::Tuple>::from_key(k).unwrap())))));
    let rs = &keys.rowkey_serde;
    ops.push(("rowkey_serde_from_key", each(rs, |k| drop(black_box(rowkey::from_key::<T>(k).unwrap())))));
    ops.push(("rowkey_from_key_borrowed", each(rk, |k| drop(black_box(<T::Borrowed<'_>>::from_key(k).unwrap())))));
    ops.push((
        "rowkey_tuple_from_key_borrowed",
        each(rk, |k| drop(black_box(<T::TupleRef<'_>>::from_key(k).unwrap()))),
    ));
    ops.push((
        "rowkey_serde_from_key_borrowed",
        each(rs, |k| drop(black_box(rowkey::from_key::<T::Borrowed<'_>>(k).unwrap()))),
    ));
    ops.push(("storekey_decode", each(&keys.storekey, |k| drop(black_box(storekey::decode::<_, T>(&k[..]).unwrap())))));
    ops.push((
        "storekey_decode_borrow",
        each(&keys.storekey, |k| drop(black_box(storekey::decode_borrow::<T::StorekeyCow<'_>>(k).unwrap()))),
    ));
    ops.push((
        "memcomparable_from_slice",
        each(&keys.memcomparable, |k| drop(black_box(memcomparable::from_slice::<T>(k).unwrap()))),
    ));
    ops.push((
        "ordcode_de_from_bytes",
        each(&keys.ordcode, |k| drop(black_box(ordcode::de_from_bytes_asc::<_, T>(k).unwrap()))),
    ));

    // rowkey's memcomparable format, on the memcomparable crate's bytes.
    let mut key = Key::new();
    ops.push((
        "rowkey_memcomparable_encode_into",
        each(inputs, move |v| Memcomparable.encode_into(&v.mc_fields(), black_box(&mut key)).unwrap()),
    ));
    ops.push((
        "rowkey_memcomparable_to_key",
        each(inputs, |v| drop(black_box(Memcomparable.to_key(&v.mc_fields()).unwrap()))),
    ));
    let mc = &keys.memcomparable;
    ops.push((
        "rowkey_memcomparable_from_key",
        each(mc, |k| drop(black_box(Memcomparable.from_key::<T::McTuple>(k).unwrap()))),
    ));
    ops.push((
        "rowkey_memcomparable_from_key_borrowed",
        each(mc, |k| drop(black_box(Memcomparable.from_key::<T::McBorrowed<'_>>(k).unwrap()))),
    ));
    descending::operations::<T>(&keys.memcomparable_desc, &mut ops);

    // FoundationDB's tuple layer: the foundationdb-tuple crate, then rowkey's format, each on
    // the same fields and the same bytes.
    let mut out = vec();
    ops.push(("foundationdb_tuple_pack_into", each(inputs, move |v| fdb_pack_into(v, black_box(&mut out)))));
    ops.push(("foundationdb_tuple_pack", each(inputs, |v| drop(black_box(foundationdb_tuple::pack(&v.fdb_fields()))))));
    let fdb = &keys.fdb;
    ops.push((
        "foundationdb_tuple_unpack",
        each(fdb, |k| drop(black_box(foundationdb_tuple::unpack::<T::FdbTuple>(k).unwrap()))),
    ));
    // The format value is built once, as a caller would hold it.
    let (mut key, format) = (Key::new(), FdbTuple::default());
    ops.push((
        "rowkey_fdb_encode_into",
        each(inputs, move |v| format.encode_into(&v.fdb_fields(), black_box(&mut key)).unwrap()),
    ));
    let format = FdbTuple::default();
    ops.push(("rowkey_fdb_to_key", each(inputs, move |v| drop(black_box(format.to_key(&v.fdb_fields()).unwrap())))));
    let format = FdbTuple::default();
    ops.push(("rowkey_fdb_from_key", each(fdb, move |k| drop(black_box(format.from_key::<T::FdbTuple>(k).unwrap())))));
    let format = FdbTuple::default();
    ops.push((
        "rowkey_fdb_from_key_borrowed",
        each(fdb, move |k| drop(black_box(format.from_key::<T::FdbBorrowed<'_>>(k).unwrap()))),
    ));

    // HBase's OrderedBytes, on rowkey's own keys: no Rust peer writes these bytes.
    let mut key = Key::new();
    ops.push((
        "rowkey_hbase_encode_into",
        each(inputs, move |v| HBase.encode_into(&v.fields(), black_box(&mut key)).unwrap()),
    ));
    ops.push(("rowkey_hbase_to_key", each(inputs, |v| drop(black_box(HBase.to_key(&v.fields()).unwrap())))));
    let hb = &keys.hbase;
    ops.push(("rowkey_hbase_from_key", each(hb, |k| drop(black_box(HBase.from_key::<T::Tuple>(k).unwrap())))));
    ops.push((
        "rowkey_hbase_from_key_borrowed",
        each(hb, |k| drop(black_box(HBase.from_key::<T::HBaseBorrowed<'_>>(k).unwrap()))),
    ));
    ops
}
