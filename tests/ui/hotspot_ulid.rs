use rowkey::RowKey;

#[derive(RowKey)]
struct Order {
    id: ulid::Ulid,
    item: String,
}

fn main() {}
