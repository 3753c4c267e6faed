use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[rowkey(name = "src")]
    source: String,
    id: u64,
}

fn main() {}
