use rowkey::RowKey;

struct Device {
    kind: String,
    id: u32,
}

#[derive(RowKey)]
struct Reading {
    #[rowkey(flatten)]
    device: Device,
    ts_millis: i64,
}

fn main() {}
