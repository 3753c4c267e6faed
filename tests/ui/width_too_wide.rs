use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Daily {
    site: String,
    #[rowkey(width = 12)]
    day: u32,
}

fn main() {}
