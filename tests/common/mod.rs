//! What the test binaries share: reading the vector files in `tests/data/`, and key structs.
#![allow(dead_code)] // each test binary uses its own subset

pub mod dynamo;
pub mod edges;
pub mod faults;
pub mod hcl;
pub mod keys;
pub mod pii;
pub mod planned;
pub mod schema_checks;
pub mod server;
pub mod stores;
pub mod strategies;
pub mod table_ids;
pub mod typed;

/// Data rows (not `#` comments, not blank) with their tab-separated fields.
pub fn rows(path: &str) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields = line.split('\t').map(str::to_owned).collect();
            (line.to_owned(), fields)
        })
        .collect()
}

pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd-length hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|e| panic!("hex {s:?}: {e}")))
        .collect()
}

fn push_char(out: &mut Vec<u8>, code: u32) {
    let c = char::from_u32(code).unwrap_or_else(|| panic!("bad code point {code:#x}"));
    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

/// Undoes Go `%q` / Java string-literal escaping. `\x` and octal escapes give
/// raw bytes; `\u` escapes (with Java surrogate pairs joined) give UTF-8.
pub fn unescape(body: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut chars = body.chars();
    let take = |chars: &mut std::str::Chars, n: usize, radix: u32| -> u32 {
        let digits: String = chars.by_ref().take(n).collect();
        assert_eq!(digits.len(), n, "short escape in {body:?}");
        u32::from_str_radix(&digits, radix).unwrap_or_else(|e| panic!("escape in {body:?}: {e}"))
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            push_char(&mut out, u32::from(c));
            continue;
        }
        let e = chars.next().unwrap_or_else(|| panic!("trailing \\ in {body:?}"));
        match e {
            '\\' | '"' | '\'' => out.push(e as u8),
            'a' => out.push(0x07),
            'b' => out.push(0x08),
            'f' => out.push(0x0c),
            'n' => out.push(b'\n'),
            'r' => out.push(b'\r'),
            't' => out.push(b'\t'),
            'v' => out.push(0x0b),
            'x' => out.push(take(&mut chars, 2, 16) as u8),
            '0'..='7' => {
                let rest = take(&mut chars, 2, 8);
                out.push((e.to_digit(8).unwrap() * 64 + rest) as u8);
            }
            'U' => {
                let code = take(&mut chars, 8, 16);
                push_char(&mut out, code);
            }
            'u' => {
                let mut code = take(&mut chars, 4, 16);
                if (0xd800..0xdc00).contains(&code) {
                    assert_eq!(chars.next(), Some('\\'), "lone surrogate in {body:?}");
                    assert_eq!(chars.next(), Some('u'), "lone surrogate in {body:?}");
                    let low = take(&mut chars, 4, 16);
                    code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                }
                push_char(&mut out, code);
            }
            _ => panic!("unknown escape \\{e} in {body:?}"),
        }
    }
    out
}

/// The path of a file in `tests/data/`.
pub fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Lowercase hex, for readable failure messages.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One field of a vector row, typed as the row's Bigtable type says.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    String(String),
    Bytes(Vec<u8>),
    Int64(i64),
    BigEndian(i64),
    TimestampMicros(i64),
    NullableBytes(Option<Vec<u8>>),
}

/// Parses `STRUCT(STRING("A"), INT64_OC(1) DESC, BYTES_EN(NULL))`.
pub fn parse_struct(input: &str) -> Vec<(Value, bool)> {
    let body = input.strip_prefix("STRUCT(").and_then(|s| s.strip_suffix(')')).expect(input);
    let mut fields = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let open = rest.find('(').expect(input);
        let kind = &rest[..open];
        rest = &rest[open + 1..];
        let (arg, after) = if let Some(quoted) = rest.strip_prefix('"') {
            let mut end = 0;
            let bytes = quoted.as_bytes();
            while bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            (Some(unescape(&quoted[..end])), quoted[end + 1..].strip_prefix(')').expect(input))
        } else {
            let close = rest.find(')').expect(input);
            let arg = &rest[..close];
            (if arg == "NULL" { None } else { Some(arg.as_bytes().to_vec()) }, &rest[close + 1..])
        };
        let (desc, after) = match after.strip_prefix(" DESC") {
            Some(a) => (true, a),
            None => (false, after),
        };
        rest = after.strip_prefix(", ").unwrap_or(after);
        let number = || String::from_utf8(arg.clone().unwrap()).unwrap().parse::<i64>().expect(input);
        let value = match kind {
            "STRING" => Value::String(String::from_utf8(arg.clone().unwrap()).expect(input)),
            "BYTES" => Value::Bytes(arg.clone().unwrap()),
            "INT64_OC" => Value::Int64(number()),
            "INT64_BE" => Value::BigEndian(number()),
            "TIMESTAMP_MICROS_OC" => Value::TimestampMicros(number()),
            "BYTES_EN" => Value::NullableBytes(arg.clone()),
            other => panic!("unknown field type {other} in {input}"),
        };
        fields.push((value, desc));
    }
    fields
}

// MD5 hex-prefix salts (feature `md5`, which the crate's tests always have), one for each
// digit count and format pairing the vector and property tests need.

/// A key of one string behind the first 4 hex characters of its MD5, delimited by `!`, below
/// every byte of the vector inputs (which hold `#`): the key of input `row1` is `e674!row1`.
#[derive(rowkey::RowKey, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(delimited = "!", salt(buckets = 65536, from = [name], hash = "md5"))]
pub struct Md5Name {
    pub name: String,
}

/// [`Md5Name`] in the ordered format.
#[derive(rowkey::RowKey, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(salt(buckets = 65536, from = [name], hash = "md5"))]
pub struct Md5NameOrdered {
    pub name: String,
}

/// One hex digit of MD5 of the sequence number, which comes after the device: a read of one
/// device fans out over the 16 buckets.
#[derive(rowkey::RowKey, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(salt(buckets = 16, from = [seq], hash = "md5"))]
pub struct DeviceEvent {
    pub device: String,
    pub seq: u64,
}

/// [`DeviceEvent`] with three hex digits, in the delimited format.
#[derive(rowkey::RowKey, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(delimited = "#", salt(buckets = 4096, from = [seq], hash = "md5"))]
pub struct DeviceEventText {
    pub device: String,
    pub seq: u64,
}

/// A property's cases: `PROPTEST_CASES` when set, else `cases`.
pub fn proptest_config(cases: u32) -> proptest::prelude::ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    proptest::prelude::ProptestConfig { cases, ..proptest::prelude::ProptestConfig::default() }
}
