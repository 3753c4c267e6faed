// `desc` on a field of a derived FoundationDB tuple key: the tuple layer has no descending
// order, and the error says to store the value reversed.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(fdb_tuple)]
struct Event {
    kind: String,
    #[rowkey(desc)]
    at: i64,
}

fn main() {}
