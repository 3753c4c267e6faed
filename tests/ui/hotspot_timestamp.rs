use rowkey::RowKey;
use std::time::SystemTime;

#[derive(RowKey)]
struct Event {
    at: SystemTime,
    source: String,
}

fn main() {}
