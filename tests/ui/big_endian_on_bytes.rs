use rowkey::RowKey;

#[derive(RowKey)]
struct Blob {
    owner: String,
    #[rowkey(big_endian)]
    digest: Vec<u8>,
}

fn main() {}
