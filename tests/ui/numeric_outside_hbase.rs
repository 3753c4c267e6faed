// `numeric` is HBase's `OrderedNumeric`: in another format, and on a field that is not a
// number, it is an error naming the fix.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(memcomparable)]
struct Order {
    #[rowkey(numeric)]
    amount: i64,
}

#[derive(RowKey)]
#[rowkey(hbase)]
struct Named {
    #[rowkey(numeric)]
    name: String,
}

fn main() {}
