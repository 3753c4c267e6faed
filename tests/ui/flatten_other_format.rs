use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Device {
    kind: String,
    id: String,
}

#[derive(RowKey)]
struct Reading {
    #[rowkey(flatten)]
    device: Device,
    ts_millis: i64,
}

fn main() {}
