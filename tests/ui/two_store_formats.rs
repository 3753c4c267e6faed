// Two store formats on one key.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(fdb_tuple, hbase)]
struct Device {
    kind: String,
}

fn main() {}
