//! Accounts found by email address, with no address in any key: each row is keyed by the
//! HMAC of the address under the application's secret (`rowkey::field::Hashed`), so a lookup
//! by address finds the account while the keys, and whatever logs or monitors them, hold
//! only hashes. The account's display name rides along in the key marked `sensitive`, and
//! inspecting a key shows its length, not the name.
//!
//! `cargo run --example accounts --features hashed`

mod tempdb;

use redb::TableDefinition;
use rowkey::RowKey;
use rowkey::field::{HashKey, Hashed};

/// An account's row key: the hashed address, then the account's region, then its display
/// name, which only the application shows.
#[derive(RowKey, Clone, Debug, PartialEq)]
struct Account {
    email: Hashed,
    region: String,
    #[rowkey(sensitive)]
    display_name: String,
}

/// Key bytes to the account's plan.
const ACCOUNTS: TableDefinition<&[u8], &str> = TableDefinition::new("accounts");

const ADDRESSES: [(&str, &str, &str, &str); 5] = [
    ("alice@example.com", "eu", "Alice Liddell", "pro"),
    ("bob@example.org", "us", "Bob Stone", "free"),
    ("carol@example.net", "eu", "Carol Reyes", "team"),
    ("dave@example.com", "ap", "Dave Okafor", "free"),
    ("erin@example.org", "us", "Erin Walsh", "pro"),
];

type Error = Box<dyn std::error::Error>;

/// The form every address is hashed in: two spellings of one mailbox must give one key.
fn normalised(address: &str) -> String {
    address.trim().to_lowercase()
}

fn main() -> Result<(), Error> {
    // In production the secret comes from a secret manager; a rotation means new keys for
    // every row, written by re-keying the table.
    let secret = HashKey::new(b"example secret: load 32 random bytes from your secret store")?;
    let temp = tempdb::TempDb::create("accounts")?;
    let db = &temp.db;

    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(ACCOUNTS)?;
        for (address, region, name, plan) in ADDRESSES {
            let key = Account {
                email: Hashed::new(&secret, normalised(address)),
                region: region.to_owned(),
                display_name: name.to_owned(),
            }
            .to_key()?;
            table.insert(key.as_bytes(), plan)?;
        }
    }
    tx.commit()?;

    let read = db.begin_read()?;
    let table = read.open_table(ACCOUNTS)?;
    // A sign-in types the address in its own way: normalised, it hashes to the same key.
    let typed = "  Carol@Example.NET ";
    let ranges = Account::scan().email(Hashed::new(&secret, normalised(typed))).ranges()?;
    let mut found = Vec::new();
    for range in ranges.iter() {
        for row in table.range::<&[u8]>(range.bounds())? {
            let (key, plan) = row?;
            found.push((Account::from_key(key.value())?, plan.value().to_owned()));
        }
    }
    let [(account, plan)] = found.as_slice() else {
        return Err(format!("{} accounts for one address", found.len()).into());
    };
    println!("{typed:?} finds the {} account in region {} on the {plan} plan", account.email, account.region);
    assert_eq!((account.display_name.as_str(), plan.as_str()), ("Carol Reyes", "team"));

    // What a log line or the `rowkey inspect` command shows of the key: the hash, and the
    // display name's length.
    let key = account.to_key()?;
    let inspected = Account::SCHEMA.inspect(&key)?.to_string();
    println!("inspected: {inspected}");
    assert!(inspected.contains("display_name=<redacted, 11 bytes>"));
    for (address, _, name, _) in ADDRESSES {
        assert!(!inspected.contains(address) && !inspected.contains(name));
        let bytes = key.as_bytes();
        assert!(!bytes.windows(address.len()).any(|w| w == address.as_bytes()), "a key holds an address");
    }

    // An address with no account finds nothing; no range of addresses exists to scan.
    let ranges = Account::scan().email(Hashed::new(&secret, normalised("mallory@example.com"))).ranges()?;
    let none = ranges
        .iter()
        .map(|range| table.range::<&[u8]>(range.bounds()).map(Iterator::count))
        .sum::<Result<usize, _>>()?;
    println!("mallory@example.com: {none} accounts");
    assert_eq!(none, 0);
    Ok(())
}
