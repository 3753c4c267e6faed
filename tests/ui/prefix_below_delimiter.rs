use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#", prefix = "t#1")]
struct Tenant {
    name: String,
}

fn main() {}
