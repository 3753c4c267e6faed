use rowkey::RowKey;

#[derive(RowKey)]
struct Expiry {
    shard: u32,
    #[rowkey(nanos)]
    day: chrono::NaiveDate,
}

fn main() {}
