use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = "large")]
struct Event {
    source: String,
    id: u64,
}

fn main() {}
