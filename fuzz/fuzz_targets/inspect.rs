//! `T::SCHEMA.inspect(bytes)` against `T::from_key(bytes)` for the derived key types: both
//! accept, or both refuse naming the same field at the same byte. Input: a selector byte (the
//! key type), then the key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowkey_fuzz::checks::Agreement;
use rowkey_fuzz::derived::with_derived;

fuzz_target!(|data: &[u8]| {
    if let Some((&selector, key)) = data.split_first() {
        with_derived(selector, key, &Agreement);
    }
});
