use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Daily {
    site: String,
    #[rowkey(width = 0)]
    day: u32,
}

fn main() {}
