//! Spanner's access log: rows keyed by a version 4 UUID, as its schema guide recommends for a
//! first key column, stored as 16 bytes (`BYTES(16)`) or as its 36-character text
//! (`STRING(36)`); looked up by id, and spread evenly over the key space.
//!
//! `cargo run --example access_log`

mod tempdb;

use chrono::{DateTime, Duration, Utc};
use redb::TableDefinition;
use rowkey::RowKey;
use uuid::Uuid;

/// The 16 bytes of the id first (the ordered format).
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Entry {
    id: Uuid,
    at: DateTime<Utc>,
}

/// The id as text, the `STRING(36)` form, readable in the key.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct TextEntry {
    id: Uuid,
    at: DateTime<Utc>,
}

const LOG: TableDefinition<&[u8], &str> = TableDefinition::new("log");
const ENTRIES: u32 = 20_000;

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("access-log")?;
    let db = &temp.db;
    let start = DateTime::from_timestamp(1_588_291_200, 0).ok_or("out of range")?; // 2020-05-01T00:00:00Z

    // Random ids from a fixed generator (xorshift), so every run writes the same table.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = || {
        let mut word = [0u8; 16];
        for half in word.chunks_mut(8) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            half.copy_from_slice(&state.to_be_bytes());
        }
        uuid::Builder::from_random_bytes(word).into_uuid()
    };
    let entries: Vec<Entry> =
        (0..ENTRIES).map(|n| Entry { id: random(), at: start + Duration::milliseconds(i64::from(n) * 50) }).collect();
    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(LOG)?;
        for entry in &entries {
            table.insert(entry.to_key()?.as_bytes(), "GET /index.html 200")?;
        }
    }
    tx.commit()?;
    let read = db.begin_read()?;
    let table = read.open_table(LOG)?;

    // One entry by id: the id fixed, one range.
    let wanted = &entries[12_345];
    let ranges = Entry::scan().id(wanted.id).ranges()?;
    let found: Vec<Entry> = ranges
        .iter()
        .flat_map(|range| table.range::<&[u8]>(range.bounds()).into_iter().flatten())
        .map(|row| Ok(Entry::from_key(row?.0.value())?))
        .collect::<Result<_, Error>>()?;
    println!("entry {}: {}", wanted.id, Entry::SCHEMA.inspect(&wanted.to_key()?)?);
    assert_eq!(found, std::slice::from_ref(wanted));

    // Writes in time order land all over the key space, in 16 even slices of it: no tablet
    // takes more than its share.
    let mut slices = [0u32; 16];
    for entry in &entries {
        slices[usize::from(entry.id.as_bytes()[0] >> 4)] += 1;
    }
    println!("entries per sixteenth of the key space: {slices:?}");
    assert!(slices.iter().all(|&n| n > ENTRIES / 16 * 8 / 10));

    // The same entry as text: 36 characters, then the time, both readable.
    let text = TextEntry { id: wanted.id, at: wanted.at }.to_key()?;
    println!("as STRING(36): {text}");
    assert_eq!(&text.as_bytes()[..36], wanted.id.hyphenated().to_string().as_bytes());
    Ok(())
}
