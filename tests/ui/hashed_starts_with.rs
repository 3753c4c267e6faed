use rowkey::RowKey;
use rowkey::field::Hashed;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Account {
    email: Hashed<8>,
    since: u32,
}

fn main() {
    // The hash of "alice" is no prefix of the hash of "alice@example.com".
    let _ = Account::scan().email_starts_with("alice");
}
