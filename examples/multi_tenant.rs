//! Many tenants in one table, each behind its own key prefix, and one tenant deleted by
//! deleting its prefix range.
//!
//! `cargo run --example multi_tenant`
//!
//! This follows Bigtable's guidance on multi-tenancy: rather than a table per customer, put
//! every customer in one table with the tenant id first in the row key. A tenant's rows are
//! then one contiguous key range: reads stay inside it, and deleting the tenant is one range
//! delete (Bigtable's `DropRowRange` with a row key prefix; here redb's `retain_in`).
//!
//! The trap is the prefix itself. `acme` is a byte prefix of `acme2` and `acme-eu`, so a
//! naive prefix scan or delete for `acme` takes their rows too. The key type's scan ends the
//! prefix at the field's delimiter, `acme#`, which no other tenant's key starts with.

mod tempdb;

use std::collections::BTreeMap;

use redb::{ReadOnlyTable, ReadableTable, ReadableTableMetadata, TableDefinition};
use rowkey::{KeyRange, RowKey};

/// `tenant#device_type#device_id#date`, readable in `cbt` and Key Visualizer, where each
/// tenant shows up as its own band.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
struct TenantReading {
    tenant: String,
    device_type: String,
    #[rowkey(hex)]
    device_id: u32,
    /// `YYYYMMDD`, eight digits so that dates sort as numbers.
    #[rowkey(width = 8)]
    date: u32,
}

/// Key bytes to the number of events that device sent that day.
const EVENTS: TableDefinition<&[u8], u64> = TableDefinition::new("events");

const TENANTS: [&str; 5] = ["acme", "acme-eu", "acme2", "globex", "initech"];

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let temp = tempdb::TempDb::create("multi-tenant")?;
    let db = &temp.db;

    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(EVENTS)?;
        for (t, tenant) in TENANTS.iter().enumerate() {
            for device_type in ["meter", "valve"] {
                for device in 0..20u32 {
                    for day in 1..=30 {
                        let row = TenantReading {
                            tenant: (*tenant).into(),
                            device_type: device_type.into(),
                            device_id: 0x4c41_0500 + device,
                            date: 20200500 + day,
                        };
                        table.insert(row.to_key()?.as_bytes(), u64::from(day * 10 + device) + t as u64)?;
                    }
                }
            }
        }
    }
    tx.commit()?;

    let read = db.begin_read()?;
    let table = read.open_table(EVENTS)?;
    println!("{} rows, {} tenants\n", table.len()?, TENANTS.len());

    // One tenant: one range that ends at the delimiter, so `acme2` and `acme-eu` stay out.
    let acme = TenantReading::scan().tenant("acme").ranges()?;
    let naive = KeyRange::prefix(b"acme");
    println!("tenant acme:        {acme} holds {} rows", count(&table, &acme)?);
    println!("naive byte prefix:  {naive} holds {} rows: three tenants\n", count(&table, [&naive])?);

    // Inside a tenant, further fields narrow the range: one device, ten days of May.
    let ranges = TenantReading::scan()
        .tenant("acme")
        .device_type("meter")
        .device_id(0x4c41_0507)
        .date_range(20200510..20200520)
        .ranges()?;
    let mut days = Vec::new();
    for range in &ranges {
        for row in table.range::<&[u8]>(range.bounds())? {
            let (key, events) = row?;
            let reading = TenantReading::from_key(key.value())?;
            days.push(format!("{} May {}", reading.date % 100, events.value()));
        }
    }
    println!("acme's meter 4c410507, 10 to 19 May: {ranges}");
    println!("  events: {}\n", days.join(", "));
    drop(table);
    drop(read);

    // Offboarding acme: delete its range and nothing else.
    let before = rows_per_tenant(db)?;
    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(EVENTS)?;
        for range in &acme {
            // Keep nothing in the range. redb deletes the range's entries in one pass.
            table.retain_in::<&[u8], _>(range.bounds(), |_, _| false)?;
        }
    }
    tx.commit()?;
    let after = rows_per_tenant(db)?;

    println!("{:<10} {:>7} {:>7}", "tenant", "before", "after");
    for tenant in TENANTS {
        let count = |m: &BTreeMap<String, usize>| m.get(tenant).copied().unwrap_or(0);
        println!("{tenant:<10} {:>7} {:>7}", count(&before), count(&after));
    }
    assert_eq!(after.get("acme"), None, "acme's rows are gone");
    assert!(TENANTS[1..].iter().all(|t| before[*t] == after[*t]), "every other tenant is untouched");
    Ok(())
}

fn count<'r>(
    table: &ReadOnlyTable<&[u8], u64>,
    ranges: impl IntoIterator<Item = &'r KeyRange>,
) -> Result<usize, Error> {
    let mut rows = 0;
    for range in ranges {
        rows += table.range::<&[u8]>(range.bounds())?.count();
    }
    Ok(rows)
}

/// Counts rows by decoding every key: a full scan, fine for a check, never for serving.
fn rows_per_tenant(db: &redb::Database) -> Result<BTreeMap<String, usize>, Error> {
    let read = db.begin_read()?;
    let table = read.open_table(EVENTS)?;
    let mut counts = BTreeMap::new();
    for row in table.iter()? {
        let tenant = TenantReading::from_key(row?.0.value())?.tenant;
        *counts.entry(tenant).or_default() += 1;
    }
    Ok(counts)
}
