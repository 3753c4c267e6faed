use rowkey::RowKey;

#[derive(RowKey)]
struct Visit {
    user: String,
    #[rowkey(reverse)]
    page: String,
}

fn main() {}
