//! Tuple keys of every field type and wrapper, in both formats: any bytes that decode
//! re-encode to exactly themselves. Input: a selector byte (the tuple type), then the key.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&selector, key)) = data.split_first() {
        rowkey_fuzz::tuples::check(selector, key);
    }
});
