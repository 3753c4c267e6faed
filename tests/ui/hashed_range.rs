use rowkey::RowKey;
use rowkey::field::{HashKey, Hashed};

#[derive(RowKey)]
struct Account {
    email: Hashed,
    since: u32,
}

fn main() {
    // A hash keeps no order of the addresses: no range of them is a range of keys.
    let key = HashKey::new(b"secret").unwrap();
    let (a, b) = (Hashed::new(&key, "a@example.com"), Hashed::new(&key, "b@example.com"));
    let _ = Account::scan().email_range(a..b);
}
