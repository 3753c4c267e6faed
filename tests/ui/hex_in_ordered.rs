use rowkey::RowKey;

#[derive(RowKey)]
struct Device {
    kind: String,
    #[rowkey(hex)]
    id: u32,
}

fn main() {}
