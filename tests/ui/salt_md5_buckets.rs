use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 100, from = [ip], hash = "md5"))]
struct Monitor {
    ip: std::net::Ipv4Addr,
    at: i64,
}

fn main() {}
