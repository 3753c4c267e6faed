use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device_type: String,
    device_id: String,
    ts: u32,
}

fn main() {
    // The device id is the second field: it cannot be fixed before the first.
    let _ = Reading::scan().device_id("4c410523");
}
