use rowkey::RowKey;

// '-' is the lowest byte of a signed integer's text (negatives are written "-99998"), so it
// cannot separate fields that hold one.
#[derive(RowKey)]
#[rowkey(delimited = "-")]
struct Offset {
    zone: String,
    minutes: i32,
}

fn main() {}
