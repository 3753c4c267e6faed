use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimited = "#")]
struct Measurement {
    sensor: String,
    value: f64,
}

fn main() {}
