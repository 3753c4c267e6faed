use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 4, from = [host]))]
struct Request {
    host: String,
    #[rowkey(rename = "host")]
    origin: String,
    bucket: u32,
}

fn main() {}
