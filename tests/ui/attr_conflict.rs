use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Device {
    kind: String,
    #[rowkey(hex, width = 8)]
    id: u32,
}

fn main() {}
