//! Derived keys of both formats, every field type and attribute: any bytes that decode
//! re-encode to exactly themselves. Input: a selector byte (the key type), then the key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowkey_fuzz::checks::Canonical;
use rowkey_fuzz::derived::with_derived;

fuzz_target!(|data: &[u8]| {
    if let Some((&selector, key)) = data.split_first() {
        with_derived(selector, key, &Canonical);
    }
});
