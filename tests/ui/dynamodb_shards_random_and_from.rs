use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(dynamodb(partition = [day], shards(buckets = 8, random, from = [order])))]
struct Line {
    day: u32,
    order: u64,
}

fn main() {}
