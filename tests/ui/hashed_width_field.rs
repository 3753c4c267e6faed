use rowkey::RowKey;
use rowkey::field::Hashed;

// 33 bytes: more than HMAC-SHA-256 gives.
#[derive(RowKey)]
struct Account {
    email: Hashed<33>,
    since: u32,
}

fn main() {}
