use rowkey::RowKey;

#[derive(RowKey)]
struct Order {
    #[rowkey(monotonic)]
    order_id: u64,
    customer: String,
}

fn main() {}
