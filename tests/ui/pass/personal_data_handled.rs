// Denied, so that a warning on any of these fields would fail the test: each is handled.
#![deny(deprecated)]

use rowkey::RowKey;
use rowkey::field::Hashed;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Login {
    #[rowkey(sensitive)]
    email: String,
    #[rowkey(allow_personal_data)]
    full_name: String,
    phone: Hashed,
    host_name: String,
    name: String,
    at: u32,
}

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Customer {
    region: String,
    #[rowkey(allow_personal_data)]
    name: String,
}

fn main() {
    let _ = Login::SCHEMA;
    let _ = Customer::SCHEMA;
}
