use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16, from = [device]))]
struct Reading {
    device_id: String,
    ts_millis: i64,
}

fn main() {}
