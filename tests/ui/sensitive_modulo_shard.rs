// The lint is a warning; denied here so that its message is pinned.
#![deny(deprecated)]

use rowkey::RowKey;

// A shard modulo 8 of the account number: part of the sensitive number, in the partition key.
#[derive(RowKey)]
#[rowkey(dynamodb(partition = [month], shards(buckets = 8, from = [account], hash = "modulo")))]
struct Statement {
    month: u32,
    #[rowkey(sensitive)]
    account: u64,
}

fn main() {}
