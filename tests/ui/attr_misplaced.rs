use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[rowkey(prefix = "ev")]
    source: String,
    id: u64,
}

fn main() {}
