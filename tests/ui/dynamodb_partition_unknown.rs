use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#", dynamodb(partition = [customer]))]
struct Order {
    tenant: String,
    number: u32,
}

fn main() {}
