use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(dynamodb(partition = [tenant]))]
struct Order {
    #[rowkey(desc)]
    tenant: String,
    number: u32,
}

fn main() {}
