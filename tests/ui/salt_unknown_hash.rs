use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16, from = [host], hash = "crc32"))]
struct Metric {
    host: String,
    ts: i64,
}

fn main() {}
