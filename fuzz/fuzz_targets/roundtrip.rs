//! Values built with `arbitrary`: decode(encode(a)) == a, and encode(a) compares with
//! encode(b) as a with b, for derived, tuple and serde keys.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rowkey_fuzz::roundtrip::run(data));
