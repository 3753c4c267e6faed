//! The scan builders against brute force: a generated row's key is in the built ranges
//! exactly when its value satisfies the query.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rowkey_fuzz::scan::run(data));
