use rowkey::RowKey;

// The bucket's hex digits start at '0': a delimiter above it would sort inside them.
#[derive(RowKey)]
#[rowkey(delimited = "|", salt(buckets = 65536, from = [ip], hash = "md5"))]
struct Monitor {
    ip: String,
    at: String,
}

fn main() {}
