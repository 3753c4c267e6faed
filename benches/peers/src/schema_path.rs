//! The schema path beside the derived type: the same keys written and read by a `Schema` (what
//! the Python package, the command, `Rekey` and Beam run on) and by the type's own generated
//! code. The README's `Reading` key, and one key of each other built-in format.

use std::hint::black_box;

use rowkey::rekey::Rekey;
use rowkey::schema::{KeyPlan, KeySchema, Schema, Value};
use rowkey::{RowKey, RowKeyOwned};
use uuid::Uuid;

use crate::{INPUTS, Lcg, Pass, each};

/// The group in the tables.
pub const GROUP: &str = "schema";

/// The README's key: a salted, delimited reading, newest first per device.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
pub struct Reading {
    /// A device kind.
    pub device_type: String,
    /// A device id, eight hex digits.
    pub device_id: String,
    /// Milliseconds since the epoch, newest first.
    #[rowkey(reverse)]
    pub ts_millis: i64,
}

/// The reading with its device id first and no salt: what a re-key moves `Reading` to.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct ByDevice {
    /// As [`Reading::device_id`].
    pub device_id: String,
    /// As [`Reading::device_type`].
    pub device_type: String,
    /// As [`Reading::ts_millis`].
    #[rowkey(reverse)]
    pub ts_millis: i64,
}

/// The ordered (Bigtable `orderedCodeBytes`) format: text, an unsigned id, a newest-first time.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct OrderedEvent {
    /// A kind.
    pub kind: String,
    /// An id.
    pub id: u64,
    /// Newest first.
    #[rowkey(desc)]
    pub at: i64,
}

/// FoundationDB tuples in a subspace: text, integers and a UUID.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(fdb_tuple, prefix = b"\x15\x02")]
pub struct FdbEvent {
    /// A site.
    pub site: String,
    /// A sequence number.
    pub seq: i64,
    /// A sensor.
    pub sensor: Uuid,
}

/// memcomparable (TiKV, RisingWave) behind a table prefix.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable, prefix = "t7_")]
pub struct McEvent {
    /// A tenant.
    pub tenant: String,
    /// Newest first.
    #[rowkey(desc)]
    pub at: i64,
    /// A score.
    pub score: f64,
}

/// HBase `OrderedBytes`, salted.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase, salt(buckets = 8, from = [host]))]
pub struct HBaseEvent {
    /// A host.
    pub host: String,
    /// A sequence number.
    pub seq: i64,
}

const KINDS: [&str; 6] = ["phone", "tablet", "watch", "laptop", "router", "camera"];

/// One key type's inputs: the values, their keys, and the values as the schema takes them.
pub struct Inputs<T> {
    values: Vec<T>,
    keys: Vec<rowkey::Key>,
    fields: Vec<Vec<Value>>,
}

impl<T: RowKeyOwned + KeySchema + PartialEq + std::fmt::Debug> Inputs<T> {
    /// Checks that the schema writes and reads what the type does.
    fn new(values: Vec<T>) -> Self {
        let keys: Vec<_> = values.iter().map(|v| v.to_key().unwrap()).collect();
        let fields: Vec<Vec<Value>> = keys
            .iter()
            .map(|k| {
                let inspection = T::SCHEMA.inspect(k).unwrap();
                assert_eq!(KeyPlan::new(&T::SCHEMA).inspect(k).unwrap(), inspection);
                let skip = usize::from(T::SCHEMA.prefix.is_some()) + usize::from(T::SCHEMA.salt.is_some());
                inspection.fields()[skip..].iter().map(|f| f.value().clone()).collect()
            })
            .collect();
        for (key, fields) in keys.iter().zip(&fields) {
            assert_eq!(&T::SCHEMA.encode_values(fields).unwrap(), key);
            assert_eq!(&KeyPlan::new(&T::SCHEMA).encode_values(fields).unwrap(), key);
        }
        Inputs { values, keys, fields }
    }
}

/// Every key type's inputs.
pub struct All {
    reading: Inputs<Reading>,
    ordered: Inputs<OrderedEvent>,
    fdb: Inputs<FdbEvent>,
    mc: Inputs<McEvent>,
    hbase: Inputs<HBaseEvent>,
    rekey: Rekey,
}

impl All {
    /// [`INPUTS`] values of each key.
    #[must_use]
    pub fn new() -> Self {
        let mut rng = Lcg(0x5eed_0f5c_4e3a_0001);
        let word = |rng: &mut Lcg| KINDS[rng.below(6) as usize].to_owned();
        let mut readings = Vec::with_capacity(INPUTS);
        let (mut ordered, mut fdb, mut mc, mut hbase) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..INPUTS {
            let id = format!("{:08x}", rng.next() as u32);
            let ts = 1_577_836_800_000 + rng.below(157_766_400_000).cast_signed();
            readings.push(Reading { device_type: word(&mut rng), device_id: id.clone(), ts_millis: ts });
            ordered.push(OrderedEvent { kind: word(&mut rng), id: rng.next(), at: ts });
            fdb.push(FdbEvent { site: word(&mut rng), seq: ts, sensor: Uuid::from_u64_pair(rng.next(), rng.next()) });
            mc.push(McEvent { tenant: word(&mut rng), at: ts, score: (rng.below(2_000_001) as f64 - 1e6) / 1e3 });
            hbase.push(HBaseEvent { host: format!("{}.example.com", word(&mut rng)), seq: ts });
        }
        let rekey = Rekey::between::<Reading, ByDevice>().build().unwrap();
        for r in &readings {
            let moved =
                ByDevice { device_id: r.device_id.clone(), device_type: r.device_type.clone(), ts_millis: r.ts_millis };
            assert_eq!(rekey.rekey(&r.to_key().unwrap()).unwrap(), moved.to_key().unwrap());
        }
        All {
            reading: Inputs::new(readings),
            ordered: Inputs::new(ordered),
            fdb: Inputs::new(fdb),
            mc: Inputs::new(mc),
            hbase: Inputs::new(hbase),
            rekey,
        }
    }
}

impl Default for All {
    fn default() -> Self {
        Self::new()
    }
}

/// The operations of one key type: the derived `to_key` and `from_key`, the schema's
/// `encode_values` (interpreted and through its compiled plan) and `inspect`.
fn both_paths<'a, T: RowKeyOwned + KeySchema>(
    name: &'static str,
    inputs: &'a Inputs<T>,
    ops: &mut Vec<(String, Pass<'a>)>,
) {
    let schema: &'static Schema = &T::SCHEMA;
    ops.push((format!("{name}_derived_to_key"), each(&inputs.values, |v| drop(black_box(v.to_key().unwrap())))));
    ops.push((
        format!("{name}_schema_encode_values"),
        each(&inputs.fields, move |f| drop(black_box(schema.encode_values(f).unwrap()))),
    ));
    let plan = std::rc::Rc::new(KeyPlan::new(schema));
    let read = plan.clone();
    ops.push((
        format!("{name}_plan_encode_values"),
        each(&inputs.fields, move |f| drop(black_box(plan.encode_values(f).unwrap()))),
    ));
    ops.push((format!("{name}_derived_from_key"), each(&inputs.keys, |k| drop(black_box(T::from_key(k).unwrap())))));
    ops.push((
        format!("{name}_schema_inspect"),
        each(&inputs.keys, move |k| drop(black_box(schema.inspect(k).unwrap()))),
    ));
    ops.push((format!("{name}_plan_inspect"), each(&inputs.keys, move |k| drop(black_box(read.inspect(k).unwrap())))));
}

/// Every operation, by id.
#[must_use]
pub fn operations(all: &All) -> Vec<(String, Pass<'_>)> {
    let mut ops = Vec::new();
    both_paths("reading", &all.reading, &mut ops);
    both_paths("ordered", &all.ordered, &mut ops);
    both_paths("fdb", &all.fdb, &mut ops);
    both_paths("mc", &all.mc, &mut ops);
    both_paths("hbase", &all.hbase, &mut ops);
    let rekey = &all.rekey;
    ops.push(("reading_rekey".to_owned(), each(&all.reading.keys, move |k| drop(black_box(rekey.rekey(k).unwrap())))));
    ops.push((
        "reading_derived_decode_encode".to_owned(),
        each(&all.reading.keys, |k| {
            let r = Reading::from_key(k).unwrap();
            let moved = ByDevice { device_id: r.device_id, device_type: r.device_type, ts_millis: r.ts_millis };
            drop(black_box(moved.to_key().unwrap()));
        }),
    ));
    ops
}
