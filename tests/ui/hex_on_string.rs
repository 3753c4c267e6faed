use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Device {
    kind: String,
    #[rowkey(hex)]
    id: String,
}

fn main() {}
