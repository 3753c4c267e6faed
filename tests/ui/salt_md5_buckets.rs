use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 100, from = [ip], hash = "md5"))]
struct Monitor {
    ip: std::net::Ipv4Addr,
    at: i64,
}

// Outside 1 to 65536 as well: one error, with the MD5 counts.
#[derive(RowKey)]
#[rowkey(salt(hash = "md5", buckets = 0, from = [ip]))]
struct Empty {
    ip: std::net::Ipv4Addr,
}

fn main() {}
