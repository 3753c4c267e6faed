use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(from = [host]))]
struct Metric {
    host: String,
    ts: i64,
}

fn main() {}
