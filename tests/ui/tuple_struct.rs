use rowkey::RowKey;

#[derive(RowKey)]
struct Reading(String, i64);

fn main() {}
