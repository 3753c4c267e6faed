//! Keys of only the field types a schema's compiled plan reads as themselves (text, integers
//! of every width, `f64`, `bool` and UUIDs in the binary formats, a delimited `reverse`
//! integer of every width), so that `KeyPlan::inspect` reads them itself rather than leave
//! them to the interpreter: one per built-in format, salted or behind a prefix of `ff` bytes,
//! descending where the format has a descending order.

use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::testing::{edge_i64, edge_strings};

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = b"\xff\xff", salt(buckets = 8, from = [kind, left]))]
pub struct Countdown {
    pub kind: String,
    #[rowkey(reverse)]
    pub left: u32,
    #[rowkey(reverse)]
    pub step: i16,
    #[rowkey(reverse)]
    pub tick: u8,
    #[rowkey(reverse)]
    pub at: u64,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = b"\xff\xff\xff", salt(buckets = 4, from = [kind]))]
pub struct OrderedGauge {
    pub kind: String,
    #[rowkey(desc)]
    pub small: i8,
    pub wide: u64,
    #[rowkey(desc)]
    pub level: f64,
    pub on: bool,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(fdb_tuple, prefix = b"\xff")]
pub struct FdbGauge {
    pub kind: String,
    pub small: i16,
    pub wide: u64,
    pub level: f64,
    pub on: bool,
    pub sensor: uuid::Uuid,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable, prefix = b"\xff\xff")]
pub struct McGauge {
    pub kind: String,
    #[rowkey(desc)]
    pub small: i32,
    pub wide: u16,
    #[rowkey(desc)]
    pub level: f64,
    pub sensor: uuid::Uuid,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase, salt(buckets = 16, from = [kind]))]
pub struct HBaseGauge {
    pub kind: String,
    #[rowkey(desc)]
    pub small: u8,
    pub wide: i64,
    pub level: f64,
    #[rowkey(desc)]
    pub on: bool,
}

/// A type's edges (its least, its greatest, zero and one) and any value between.
fn int<T: Arbitrary + Copy + std::fmt::Debug + From<u8> + Bounded + 'static>() -> impl Strategy<Value = T> {
    prop_oneof![Just(T::LEAST), Just(T::GREATEST), Just(T::from(0)), Just(T::from(1)), any::<T>()]
}

/// The least and greatest value of an integer type.
trait Bounded {
    const LEAST: Self;
    const GREATEST: Self;
}

macro_rules! bounded {
    ($($ty:ty),*) => {$(
        impl Bounded for $ty {
            const LEAST: Self = <$ty>::MIN;
            const GREATEST: Self = <$ty>::MAX;
        }
    )*};
}

bounded!(i16, i32, i64, u8, u16, u32, u64);

/// An `i8` (which `From<u8>` does not reach) at its edges and between.
fn int8() -> impl Strategy<Value = i8> {
    prop_oneof![Just(i8::MIN), Just(i8::MAX), Just(0), Just(-1), any::<i8>()]
}

fn float() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(-0.0), Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY), any::<f64>()]
}

fn id() -> impl Strategy<Value = uuid::Uuid> {
    prop_oneof![Just(uuid::Uuid::nil()), Just(uuid::Uuid::max()), any::<u128>().prop_map(uuid::Uuid::from_u128)]
}

/// Text without the delimiter.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z\\xff]{0,6}".prop_map(String::from)]
}

/// A reversed signed field holds values of at least zero.
pub fn countdown() -> impl Strategy<Value = Countdown> {
    let step = prop_oneof![Just(0), Just(i16::MAX), 0..=i16::MAX];
    (word(), int(), step, int(), int()).prop_map(|(kind, left, step, tick, at)| Countdown {
        kind,
        left,
        step,
        tick,
        at,
    })
}

pub fn ordered_gauge() -> impl Strategy<Value = OrderedGauge> {
    (edge_strings(), int8(), any::<u64>(), float(), any::<bool>())
        .prop_map(|(kind, small, wide, level, on)| OrderedGauge { kind, small, wide, level, on })
}

pub fn fdb_gauge() -> impl Strategy<Value = FdbGauge> {
    (edge_strings(), int(), any::<u64>(), float(), any::<bool>(), id())
        .prop_map(|(kind, small, wide, level, on, sensor)| FdbGauge { kind, small, wide, level, on, sensor })
}

pub fn mc_gauge() -> impl Strategy<Value = McGauge> {
    (edge_strings(), int(), int(), float(), id()).prop_map(|(kind, small, wide, level, sensor)| McGauge {
        kind,
        small,
        wide,
        level,
        sensor,
    })
}

/// HBase text ends at `\0`: none in it.
pub fn hbase_gauge() -> impl Strategy<Value = HBaseGauge> {
    (
        edge_strings().prop_map(|s| s.replace('\0', "")),
        int(),
        prop_oneof![edge_i64(), any::<i64>()],
        float(),
        any::<bool>(),
    )
        .prop_map(|(kind, small, wide, level, on)| HBaseGauge { kind, small, wide, level, on })
}
