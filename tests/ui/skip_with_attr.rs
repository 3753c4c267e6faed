use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: String,
    ts_millis: i64,
    #[rowkey(skip, desc)]
    note: String,
}

fn main() {}
