use rowkey::RowKey;

#[derive(RowKey)]
enum Kind {
    Phone,
    Tablet,
}

fn main() {}
