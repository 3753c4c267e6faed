use rowkey::RowKey;

// Reversing a timestamp does not spread writes: they still move together, toward the start.
#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Reading {
    #[rowkey(reverse)]
    ts_millis: i64,
    device_id: String,
}

fn main() {}
