use rowkey::RowKey;

#[derive(RowKey)]
struct Page<'a> {
    #[rowkey(reverse_domain)]
    host: &'a str,
    path: &'a str,
}

fn main() {}
