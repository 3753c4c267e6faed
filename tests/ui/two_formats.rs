use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(ordered, delimited = "#")]
struct Device {
    kind: String,
    id: String,
}

fn main() {}
