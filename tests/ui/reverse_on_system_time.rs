use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    source: String,
    #[rowkey(reverse)]
    at: std::time::SystemTime,
}

fn main() {}
