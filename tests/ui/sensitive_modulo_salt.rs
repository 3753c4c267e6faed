// The lint is a warning; denied here so that its message is pinned.
#![deny(deprecated)]

use rowkey::RowKey;

// The bucket of a modulo salt is the value modulo 1000: part of the sensitive number.
#[derive(RowKey)]
#[rowkey(delimited = "#", salt(buckets = 1000, from = [account], hash = "modulo"))]
struct Statement {
    #[rowkey(sensitive)]
    account: u64,
    month: u32,
}

fn main() {}
