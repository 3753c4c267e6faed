//! UTF-8 validation of text fields, with a branch-light path for short ASCII.
//!
//! Key fields are short (a type name, an id, a host) and nearly always ASCII. The standard
//! validator walks such a field a byte at a time with its alignment bookkeeping, which made
//! it a third of a borrowed decode of the bench's device key (about 100 instructions for
//! 6 to 8 letters). Two overlapping word loads answer "is it ASCII" for up to 16 bytes in a
//! handful of instructions; anything else goes to the standard validator, so the accepted
//! set is exactly `std::str::from_utf8`'s.
//!
//! This is the one module of the crate that uses `unsafe`: turning bytes that were just
//! checked to be ASCII into a `&str` without checking them a second time. `simdutf8` was the
//! safe alternative, but below 64 bytes it hands the input to the standard validator.
#![allow(unsafe_code)]

use std::str::Utf8Error;

use crate::key_buf::{half, word};

/// Whether every byte is below `0x80`. Fixed-size loads for up to 16 bytes, the standard
/// word loop beyond.
#[inline(always)]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH_HALF: u32 = 0x8080_8080;
    const HIGH_WORD: u64 = 0x8080_8080_8080_8080;
    let n = bytes.len();
    match n {
        0 => true,
        1..=3 => (bytes[0] | bytes[n / 2] | bytes[n - 1]) < 0x80,
        4..=7 => (half(bytes) | half(&bytes[n - 4..])) & HIGH_HALF == 0,
        8..=16 => (word(bytes) | word(&bytes[n - 8..])) & HIGH_WORD == 0,
        _ => bytes.is_ascii(),
    }
}

/// `bytes` as text: exactly what [`std::str::from_utf8`] returns, sooner for ASCII.
#[inline(always)]
pub(crate) fn to_str(bytes: &[u8]) -> Result<&str, Utf8Error> {
    if is_ascii(bytes) {
        // SAFETY: `is_ascii` checked every byte of `bytes` (three bytes cover all of a slice
        // of one to three; two overlapping loads cover all of one of 4 to 16), and a sequence
        // of bytes below 0x80 is valid UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes)
}

/// `bytes` as a `String`, reusing the vector: exactly what [`String::from_utf8`] returns.
#[inline]
pub(crate) fn into_string(bytes: Vec<u8>) -> Result<String, Utf8Error> {
    if is_ascii(&bytes) {
        // SAFETY: as in `to_str`: every byte was checked to be ASCII, which is valid UTF-8.
        return Ok(unsafe { String::from_utf8_unchecked(bytes) });
    }
    String::from_utf8(bytes).map_err(|e| e.utf8_error())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both unsafe blocks, for every length around the load widths and a non-ASCII byte at
    /// every position: the answer is always the standard validator's.
    #[test]
    fn agrees_with_the_standard_validator() {
        for n in 0..40 {
            let ascii: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(to_str(&ascii), std::str::from_utf8(&ascii), "{n}");
            assert_eq!(into_string(ascii.clone()).unwrap().as_bytes(), &ascii[..], "{n}");
            for at in 0..n {
                for high in [0x80_u8, 0xc3, 0xff] {
                    let mut bad = ascii.clone();
                    bad[at] = high;
                    assert!(!is_ascii(&bad), "{n} {at} {high:x}");
                    assert_eq!(to_str(&bad), std::str::from_utf8(&bad), "{n} {at} {high:x}");
                    assert_eq!(into_string(bad.clone()), String::from_utf8(bad).map_err(|e| e.utf8_error()));
                }
            }
        }
        // Valid multi-byte text takes the standard path and comes back whole.
        assert_eq!(to_str("héllo wörld".as_bytes()), Ok("héllo wörld"));
    }
}
