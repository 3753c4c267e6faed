//! Keys of the FoundationDB tuple, HBase and memcomparable formats: any bytes that decode re-encode to exactly
//! themselves. Input: a selector byte (the format and tuple type), then the key.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&selector, key)) = data.split_first() {
        rowkey_fuzz::formats::check(selector, key);
    }
});
