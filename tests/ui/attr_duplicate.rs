use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    source: String,
    #[rowkey(desc)]
    #[rowkey(desc)]
    id: u64,
}

fn main() {}
