use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Measurement {
    sensor: String,
    #[rowkey(width = 6)]
    value: f64,
}

fn main() {}
