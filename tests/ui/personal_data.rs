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

fn main() {}
