// A key derived in the ordered format flattened into a memcomparable one.
use rowkey::RowKey;

#[derive(RowKey)]
struct Device {
    kind: String,
}

#[derive(RowKey)]
#[rowkey(memcomparable)]
struct Reading {
    #[rowkey(flatten)]
    device: Device,
    ts_millis: i64,
}

fn main() {}
