use rowkey::RowKey;

const TABLE: &[u8] = b"\xbd\x89";

#[derive(RowKey)]
#[rowkey(prefix = TABLE)]
struct Row {
    id: u64,
}

fn main() {}
