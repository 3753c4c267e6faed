// The tuple layer has no descending order: a `Desc` field of an `FdbTuple` key is a compile
// error that says so and points at storing the value reversed.
use rowkey::Desc;
use rowkey::format::FdbTuple;

fn main() {
    let _ = FdbTuple::default().to_key(&("events", Desc(20200501i64)));
}
