use rowkey::RowKey;

// DynamoDB compares keys as bytes: a FoundationDB tuple's bytes would do, but its keys are
// not text, so only the two Bigtable formats map to a key type.
#[derive(RowKey)]
#[rowkey(fdb_tuple, dynamodb(partition = [tenant]))]
struct Order {
    tenant: String,
    number: u32,
}

fn main() {}
