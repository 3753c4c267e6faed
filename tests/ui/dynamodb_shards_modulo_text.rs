use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(dynamodb(partition = [day], shards(buckets = 8, from = [customer], hash = "modulo")))]
struct Line {
    day: u32,
    customer: String,
}

fn main() {}
