//! Datastore's expiring entities: a generation number, a shard, then the expiry time, so that
//! a sweeper finds what has expired with one range per shard, and a finished generation is
//! dropped as one range.
//!
//! `cargo run --example expiring`
//!
//! Keys that led with the expiry time would send every write to one tablet (the derive
//! refuses them unless told otherwise). A small shard number in front of the time spreads the
//! writes over as many ranges as there are shards; the generation in front of that lets a
//! whole epoch of entities (a cache generation, a retention period) go at once.

mod tempdb;

use chrono::{DateTime, Duration, Utc};
use redb::{ReadableTable, ReadableTableMetadata, TableDefinition};
use rowkey::RowKey;

#[derive(RowKey, Clone, Debug, PartialEq)]
struct Expiring {
    generation: u32,
    shard: u8,
    expires: DateTime<Utc>,
    id: uuid::Uuid,
}

const SHARDS: u8 = 8;
const ENTITIES: TableDefinition<&[u8], &str> = TableDefinition::new("entities");

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("expiring")?;
    let db = &temp.db;
    let now = DateTime::from_timestamp(1_588_291_200, 0).ok_or("out of range")?; // 2020-05-01T00:00:00Z

    // Two generations of 4,000 sessions each, expiring over the next two hours.
    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(ENTITIES)?;
        for generation in [7, 8] {
            for n in 0..4_000u32 {
                let id = uuid::Uuid::from_u128(u128::from(generation) << 64 | u128::from(n));
                let entity = Expiring {
                    generation,
                    shard: (n % u32::from(SHARDS)) as u8,
                    expires: now + Duration::seconds(i64::from(n) * 7200 / 4000),
                    id,
                };
                table.insert(entity.to_key()?.as_bytes(), "session")?;
            }
        }
    }
    tx.commit()?;

    // The sweeper at 00:30: in generation 8, everything that expired by now, shard by shard.
    let at = now + Duration::minutes(30);
    let read = db.begin_read()?;
    let table = read.open_table(ENTITIES)?;
    let mut expired = 0;
    for shard in 0..SHARDS {
        let ranges = Expiring::scan().generation(8).shard(shard).expires_range(..at).ranges()?;
        for range in &ranges {
            expired += table.range::<&[u8]>(range.bounds())?.count();
        }
    }
    println!("{} entities; {expired} of generation 8 expired by {at}, read as {SHARDS} ranges", table.len()?);
    assert_eq!(expired, 1_000);
    drop(table);
    drop(read);

    // Generation 7 is finished: one range holds all of it, whatever its shards and times.
    let ranges = Expiring::scan().generation(7).ranges()?;
    assert_eq!(ranges.len(), 1);
    let tx = db.begin_write()?;
    let mut dropped = 0;
    {
        let mut table = tx.open_table(ENTITIES)?;
        for range in &ranges {
            let keys: Vec<Vec<u8>> = table
                .range::<&[u8]>(range.bounds())?
                .map(|row| row.map(|(k, _)| k.value().to_vec()))
                .collect::<Result<_, _>>()?;
            for key in keys {
                table.remove(key.as_slice())?;
                dropped += 1;
            }
        }
        println!("dropped generation 7: {dropped} entities in the range {ranges}, {} left", table.len()?);
        assert_eq!(table.len()?, 4_000);
    }
    tx.commit()?;
    Ok(())
}
