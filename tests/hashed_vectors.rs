//! RFC 4231's HMAC-SHA-256 test vectors through the `Hashed` field: the hash a key holds in
//! the ordered and delimited formats is the RFC's, truncated as the width says, and reads back
//! as itself. The rows are in `tests/data/rfc4231.tsv`.
#![cfg(feature = "hashed")]

mod common;

use common::{hex, rows};
use rowkey::RowKey;
use rowkey::field::{HashKey, HashWidth, Hashed};
use rowkey::format::Delimited;

/// The hash of `data` under `key` as a key field of width `N`: its bytes from the ordered
/// key and from the delimited key's text, each checked to read back.
fn through_the_field<const N: usize>(key: &HashKey, data: &[u8], line: &str) -> Vec<u8>
where
    Hashed<N>: HashWidth,
{
    let hash: Hashed<N> = Hashed::new(key, data);
    let ordered = (hash, 7u8).to_key().unwrap_or_else(|e| panic!("row {line}: {e}"));
    let (back, _): (Hashed<N>, u8) = RowKey::from_key(&ordered).unwrap_or_else(|e| panic!("row {line}: {e}"));
    assert_eq!(back, hash, "row {line}: the ordered key reads back another hash");
    let text = Delimited::default().to_key(&(hash,)).unwrap_or_else(|e| panic!("row {line}: {e}"));
    let (from_text,): (Hashed<N>,) = Delimited::default().from_key(&text).unwrap_or_else(|e| panic!("row {line}: {e}"));
    assert_eq!(from_text, hash, "row {line}: the delimited key reads back another hash");
    let digits = std::str::from_utf8(text.as_bytes()).unwrap_or_else(|e| panic!("row {line}: {e}"));
    assert_eq!(hex(digits), hash.as_bytes(), "row {line}: the delimited text is not the hash in hex");
    hash.as_bytes().to_vec()
}

#[test]
fn rfc_4231_vectors_pass_through_the_field() {
    let rows = rows(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rfc4231.tsv"));
    assert_eq!(rows.len(), 7, "RFC 4231 has seven HMAC-SHA-256 test cases");
    for (line, fields) in rows {
        let [_case, secret, data, width, want] = &fields[..] else { panic!("row {line}: not 5 columns") };
        let key = HashKey::new(hex(secret)).unwrap_or_else(|e| panic!("row {line}: {e}"));
        let got = match width.as_str() {
            "16" => through_the_field::<16>(&key, &hex(data), &line),
            "32" => through_the_field::<32>(&key, &hex(data), &line),
            other => panic!("row {line}: no test for width {other}"),
        };
        assert_eq!(got, hex(want), "row {line}");
        // Narrower hashes are the first bytes of the same HMAC.
        let short: Hashed<8> = Hashed::new(&key, hex(data));
        assert_eq!(short.as_bytes()[..], hex(want)[..8], "row {line}: 8-byte hash");
    }
}
