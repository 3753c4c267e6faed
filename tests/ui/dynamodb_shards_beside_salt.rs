use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(
    delimited = "#",
    salt(buckets = 4, from = [seq]),
    dynamodb(partition = [meter], shards(buckets = 4, random))
)]
struct Reading {
    meter: String,
    seq: u32,
}

fn main() {}
