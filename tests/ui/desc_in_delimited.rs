use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Post {
    author: String,
    #[rowkey(desc)]
    title: String,
}

fn main() {}
