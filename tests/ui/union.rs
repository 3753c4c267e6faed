use rowkey::RowKey;

#[derive(RowKey)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
