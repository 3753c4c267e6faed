use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#", dynamodb(partition = [number]))]
struct Order {
    tenant: String,
    number: u32,
}

fn main() {}
