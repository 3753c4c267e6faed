use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#", dynamodb(sort_key = "ORDER"))]
struct Order {
    tenant: String,
    number: u32,
}

fn main() {}
