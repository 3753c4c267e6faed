use rowkey::RowKey;

#[derive(RowKey)]
struct Order {
    #[rowkey(bit_reverse)]
    id: i32,
}

fn main() {}
