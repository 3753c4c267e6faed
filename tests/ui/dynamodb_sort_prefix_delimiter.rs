use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#", dynamodb(partition = [tenant], sort_prefix = "ORDER#V2"))]
struct Order {
    tenant: String,
    number: u32,
}

fn main() {}
