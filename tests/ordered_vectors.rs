//! The ordered format against the reference vectors: every `OrderedCodeBytes` row of
//! `bigtable_struct_encodings.tsv` and every int64, uint64 and float64 row of
//! `orderedcode_go.tsv`, encoded byte for byte and decoded back.

mod common;

use std::time::{Duration, UNIX_EPOCH};

use common::{Value, data, hex, parse_struct, rows, to_hex};
use rowkey::field::{FieldBytes, ReadField, WriteField};
use rowkey::format::{Ordered, OrderedReader, OrderedWriter};
use rowkey::{BigEndian, Desc, Key, RowKey};

fn micros(us: i64) -> std::time::SystemTime {
    UNIX_EPOCH + Duration::from_micros(us.try_into().unwrap())
}

fn encode(fields: &[(Value, bool)]) -> rowkey::Result<Key> {
    let mut key = Key::new();
    let mut w = OrderedWriter::new(&mut key);
    for (value, desc) in fields {
        macro_rules! put {
            ($v:expr) => {
                if *desc { w.field(&Desc($v))? } else { w.field(&$v)? }
            };
        }
        match value {
            Value::String(s) => put!(s.as_str()),
            Value::Bytes(b) => put!(b.as_slice()),
            Value::Int64(n) => put!(*n),
            Value::BigEndian(n) => put!(BigEndian(*n)),
            Value::TimestampMicros(us) => put!(micros(*us)),
            Value::NullableBytes(b) => put!(b.clone()),
        };
    }
    w.finish();
    Ok(key)
}

fn decode(key: &[u8], shape: &[(Value, bool)]) -> rowkey::Result<Vec<(Value, bool)>> {
    let mut r = OrderedReader::new(key, shape.len());
    let mut out = Vec::new();
    for (value, desc) in shape {
        macro_rules! get {
            ($t:ty) => {
                if *desc { r.field::<Desc<$t>>()?.0 } else { r.field::<$t>()? }
            };
        }
        let decoded = match value {
            Value::String(_) => Value::String(get!(String)),
            Value::Bytes(_) => Value::Bytes(get!(Vec<u8>)),
            Value::Int64(_) => Value::Int64(get!(i64)),
            Value::BigEndian(_) => Value::BigEndian(get!(BigEndian<i64>).0),
            Value::TimestampMicros(_) => {
                let t = get!(std::time::SystemTime);
                Value::TimestampMicros(t.duration_since(UNIX_EPOCH).unwrap().as_micros().try_into().unwrap())
            }
            Value::NullableBytes(_) => Value::NullableBytes(get!(Option<Vec<u8>>)),
        };
        out.push((decoded, *desc));
    }
    r.finish()?;
    Ok(out)
}

#[test]
fn bigtable_ordered_code_bytes_rows() {
    let mut checked = 0;
    let all = rows(&data("bigtable_struct_encodings.tsv"));
    for (line, cols) in all.iter().filter(|(_, c)| c[0] == "OrderedCodeBytes") {
        let fields = parse_struct(&cols[1]);
        let want = hex(&cols[2]);
        let got = encode(&fields).unwrap_or_else(|e| panic!("row {line}: encode failed: {e}"));
        assert_eq!(to_hex(&got), to_hex(&want), "row {line}: encoded bytes differ");
        let back = decode(&want, &fields).unwrap_or_else(|e| panic!("row {line}: decode failed: {e}"));
        assert_eq!(back, fields, "row {line}: decoded value differs");
        checked += 1;
    }
    let expected = all.iter().filter(|(_, c)| c[0] == "OrderedCodeBytes").count();
    assert_eq!(checked, expected);
    assert!(checked >= 45, "only {checked} rows found: is tests/data/bigtable_struct_encodings.tsv complete?");
}

/// Bitwise NOT, orderedcode's decreasing form.
fn negate(bytes: &[u8]) -> Vec<u8> {
    bytes.iter().map(|b| !b).collect()
}

/// Checks one number against its increasing and decreasing hex.
fn check_number<T>(line: &str, value: T, increasing: &[u8], decreasing: &[u8])
where
    T: WriteField<Ordered> + for<'de> ReadField<'de, Ordered> + PartialEq + std::fmt::Debug + Copy,
{
    let mut field = Vec::new();
    value.write(&mut field).unwrap_or_else(|e| panic!("row {line}: {e}"));
    assert_eq!(to_hex(&field), to_hex(increasing), "row {line}: field bytes differ");
    assert_eq!(negate(increasing), decreasing, "row {line}: the decreasing column is not the complement");
    let back = T::read(FieldBytes::borrowed(increasing)).unwrap_or_else(|e| panic!("row {line}: {e}"));
    assert_eq!(back, value, "row {line}: decoded value differs");

    // As a descending key field: Bigtable escapes 00 bytes, adds the separator, then negates.
    let key = (Desc(value),).to_key().unwrap_or_else(|e| panic!("row {line}: {e}"));
    let mut framed: Vec<u8> = increasing.iter().flat_map(|&b| if b == 0 { vec![0, 0xff] } else { vec![b] }).collect();
    framed.extend_from_slice(&[0, 1]);
    assert_eq!(to_hex(&key), to_hex(&negate(&framed)), "row {line}: descending key differs");
    if !increasing.contains(&0) {
        assert!(key.starts_with(decreasing), "row {line}: descending key does not start with Go's Decr bytes");
    }
    let (Desc(back),) = <(Desc<T>,)>::from_key(&key).unwrap_or_else(|e| panic!("row {line}: {e}"));
    assert_eq!(back, value, "row {line}: descending round trip differs");
}

#[test]
fn orderedcode_go_number_rows() {
    let mut checked = 0;
    let all = rows(&data("orderedcode_go.tsv"));
    for (line, cols) in &all {
        let numbers = || (hex(&cols[2]), hex(&cols[3]));
        match cols[0].as_str() {
            "int64" => {
                let (inc, dec) = numbers();
                check_number(line, cols[1].parse::<i64>().expect(line), &inc, &dec);
            }
            "uint64" => {
                let (inc, dec) = numbers();
                check_number(line, cols[1].parse::<u64>().expect(line), &inc, &dec);
            }
            "float64" => {
                let x = match cols[1].as_str() {
                    "-Inf" => f64::NEG_INFINITY,
                    "+Inf" => f64::INFINITY,
                    text => text.parse::<f64>().expect(line),
                };
                let (inc, dec) = numbers();
                check_number(line, x, &inc, &dec);
            }
            _ => continue,
        }
        checked += 1;
    }
    let expected = all.iter().filter(|(_, c)| matches!(c[0].as_str(), "int64" | "uint64" | "float64")).count();
    assert_eq!(checked, expected);
    assert!(checked >= 90, "only {checked} rows found: is tests/data/orderedcode_go.tsv complete?");
}
