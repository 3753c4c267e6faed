// The lint is a warning; denied here so that its message is pinned.
#![deny(deprecated)]

use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Login {
    tenant: String,
    user_email: String,
    at: u32,
}

// A bare `name` is a person's name only in a key of people.
#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct VipCustomer {
    region: String,
    name: String,
}

fn main() {}
