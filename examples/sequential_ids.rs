//! Sequential order ids stored bit-reversed, so that new orders spread over the whole key
//! space instead of piling onto its end.
//!
//! `cargo run --example sequential_ids`
//!
//! This follows Spanner's guidance on primary keys: a key that grows monotonically (an
//! auto-increment id, a timestamp) sends every insert to the split that holds the largest
//! keys, so one server takes all the writes. Spanner's bit-reversed sequences
//! (`bit_reversed_positive`, `BIT_REVERSE(id, true)`) keep ids short and unique but reverse
//! their bits before they become keys. Consecutive ids then differ in their first bits.
//! What is given up: a range of ids is no longer a range of keys, so there is no scan over
//! "orders 100 to 200" (the scan builder offers no range on a `bit_reverse` field).
//!
//! A plain-id table is filled alongside for comparison. Both tables are then cut into 16
//! equal splits, as a store would after growing, to see where the latest inserts went.

mod tempdb;

use redb::{ReadableTable, TableDefinition};
use rowkey::{Key, RowKey};

/// The id as Spanner's bit-reversed positive sequence stores it: bit 63 (the sign) kept,
/// bits 0 to 62 reversed.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Order {
    #[rowkey(bit_reverse)]
    order_id: i64,
}

/// An order's lines, keyed by the order first: one order's lines are one range, wherever
/// the reversal put the order. (Spanner interleaves child rows with the same idea.)
#[derive(RowKey, Clone, Debug, PartialEq)]
struct OrderLine {
    #[rowkey(bit_reverse)]
    order_id: i64,
    line: u32,
}

/// The same id, not reversed: the design to avoid. Marked `monotonic`, the derive refuses it
/// as a hotspot unless told otherwise, as it is here for the comparison.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
struct PlainOrder {
    #[rowkey(monotonic)]
    order_id: i64,
}

const ORDERS: TableDefinition<&[u8], u64> = TableDefinition::new("orders");
const LINES: TableDefinition<&[u8], u64> = TableDefinition::new("order_lines");
const PLAIN: TableDefinition<&[u8], u64> = TableDefinition::new("plain_orders");

const ORDER_COUNT: i64 = 10_000;
const LATEST: i64 = 500;
const SPLITS: usize = 16;

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("sequential-ids")?;
    let db = &temp.db;

    let tx = db.begin_write()?;
    {
        let (mut orders, mut lines, mut plain) = (tx.open_table(ORDERS)?, tx.open_table(LINES)?, tx.open_table(PLAIN)?);
        for id in 1..=ORDER_COUNT {
            let cents = (id * 37 % 10_000) as u64;
            orders.insert(Order { order_id: id }.to_key()?.as_bytes(), cents)?;
            plain.insert(PlainOrder { order_id: id }.to_key()?.as_bytes(), cents)?;
            for line in 0..(id % 3) as u32 + 1 {
                lines.insert(OrderLine { order_id: id, line }.to_key()?.as_bytes(), u64::from(line) * 100)?;
            }
        }
    }
    tx.commit()?;
    let read = db.begin_read()?;

    println!("orders 1 to 4 and their keys:");
    for id in 1..=4 {
        let key = Order { order_id: id }.to_key()?;
        let fields = Order::SCHEMA.inspect(&key)?;
        println!("  {id}  stored as {:>20}  key {key}  ({fields})", rowkey::transform::bit_reverse(id, true));
    }

    // Where did the latest 1,000 orders go? Split each table at every 1/16 of its keys.
    println!("\nthe latest {LATEST} of {ORDER_COUNT} orders, by split (16 equal splits of the table):");
    let latest = (ORDER_COUNT - LATEST + 1)..=ORDER_COUNT;
    let reversed = per_split(&read.open_table(ORDERS)?, latest.clone().map(|id| Order { order_id: id }.to_key()))?;
    let plain = per_split(&read.open_table(PLAIN)?, latest.map(|id| PlainOrder { order_id: id }.to_key()))?;
    println!("  bit-reversed: {reversed:?}");
    println!("  plain:        {plain:?}");
    assert!(reversed.iter().all(|&n| n > 0), "every split takes some of the new orders");
    assert_eq!(plain[SPLITS - 1], LATEST as usize, "the last split takes them all");

    // One order's lines: one range, though the order's key is nowhere near its neighbours'.
    let lines = read.open_table(LINES)?;
    let ranges = OrderLine::scan().order_id(7_001).ranges()?;
    print!("\norder 7001's lines, from {ranges}:");
    for range in &ranges {
        for row in lines.range::<&[u8]>(range.bounds())? {
            let line = OrderLine::from_key(row?.0.value())?;
            print!(" {}/{}", line.order_id, line.line);
        }
    }
    println!();
    Ok(())
}

/// How many of `keys` fall into each of the table's splits, when the table is cut into
/// `SPLITS` splits of equal row counts.
fn per_split(
    table: &impl ReadableTable<&'static [u8], u64>,
    keys: impl Iterator<Item = rowkey::Result<Key>>,
) -> Result<Vec<usize>, Error> {
    let rows = table.len()? as usize;
    let mut splits = Vec::new();
    for (i, row) in table.iter()?.enumerate() {
        let (key, _) = row?;
        if i > 0 && i % (rows / SPLITS) == 0 && splits.len() < SPLITS - 1 {
            splits.push(Key::from(key.value()));
        }
    }
    let mut counts = vec![0; SPLITS];
    for key in keys {
        let key = key?;
        counts[splits.partition_point(|split| *split <= key)] += 1;
    }
    Ok(counts)
}
