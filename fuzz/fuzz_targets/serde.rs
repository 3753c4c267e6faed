//! `rowkey::from_key` of serde types (structs, nested sequences, maps, sets, enums): any
//! bytes that decode re-encode to exactly themselves, or for sets `from_key_exact` refuses
//! them. Input: a selector byte (the type), then the key.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&selector, key)) = data.split_first() {
        rowkey_fuzz::serde_types::check(selector, key);
    }
});
