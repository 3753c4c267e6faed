//! The schema path's measured operations do what they claim: the schema writes and reads the
//! derived type's keys (checked as the inputs are built), and every operation runs on them.

use rowkey_peers::schema_path::{All, operations};

#[test]
fn every_schema_operation_runs_on_the_derived_keys() {
    let all = All::new();
    let ops = operations(&all);
    assert_eq!(ops.len(), 5 * 6 + 2, "six operations on each of five keys, and the re-key beside a derived one");
    for (_, mut pass) in ops {
        pass();
    }
}
