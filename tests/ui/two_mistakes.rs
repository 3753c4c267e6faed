use rowkey::RowKey;

// Both mistakes are reported by one compile, and the uses of the type below add no
// "trait not implemented" errors.
#[derive(RowKey)]
#[rowkey(delimited = "#", salt(buckets = 16, from = [device]))]
struct Reading {
    #[rowkey(hex)]
    device_id: String,
    #[rowkey(reverse)]
    ts_millis: i64,
}

fn main() {
    let reading = Reading { device_id: String::new(), ts_millis: 0 };
    let _ = reading.to_key();
    let _ = Reading::SCHEMA;
}
