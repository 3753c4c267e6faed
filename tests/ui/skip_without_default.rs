use rowkey::RowKey;

struct Cache;

#[derive(RowKey)]
struct Entry {
    key: String,
    #[rowkey(skip)]
    cache: Cache,
}

fn main() {}
