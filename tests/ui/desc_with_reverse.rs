use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: String,
    #[rowkey(desc, reverse)]
    ts_millis: i64,
}

fn main() {}
