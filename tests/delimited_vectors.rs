//! The delimited format against the reference vectors: the `DelimitedBytes` rows of
//! `bigtable_struct_encodings.tsv`, the zero-padding and reversed-timestamp rows of
//! `rowkey_idioms.tsv`, and the example keys of Bigtable's schema guide.

mod common;

use common::{Value, data, hex, parse_struct, rows, to_hex};
use rowkey::field::{Hex, Padded, Reversed};
use rowkey::format::delimited::DelimitedWriter;
use rowkey::format::{Delimited, DelimitedReader, FormatKey};
use rowkey::{BigEndian, Error, Key};

/// A vector row's fields as a delimited key type decided at run time.
struct Row(Vec<Value>);

impl<'de> FormatKey<'de, Delimited> for Row {
    // Only written, never read: the count matters to the reader alone.
    const FIELDS: usize = 0;

    fn alphabet(_: usize) -> Option<rowkey::field::Alphabet> {
        None
    }

    fn write_fields(&self, w: &mut DelimitedWriter<'_>) -> rowkey::Result<()> {
        for value in &self.0 {
            match value {
                Value::String(s) => w.field(s.as_str())?,
                Value::Bytes(b) => w.field(b.as_slice())?,
                Value::BigEndian(n) => w.field(&BigEndian(*n))?,
                other => panic!("no delimited vector uses {other:?}"),
            };
        }
        Ok(())
    }

    fn read_fields(_: &mut DelimitedReader<'_, 'de>) -> rowkey::Result<Self> {
        unreachable!("rows are decoded through typed tuples")
    }
}

fn encode(format: &Delimited, fields: &[Value]) -> rowkey::Result<Key> {
    format.to_key(&Row(fields.to_vec()))
}

#[test]
fn bigtable_delimited_bytes_rows() {
    let all = rows(&data("bigtable_struct_encodings.tsv"));
    let mut checked = 0;
    for (line, cols) in all.iter().filter(|(_, c)| c[0].starts_with("DelimitedBytes(")) {
        let delimiter = cols[0].strip_prefix("DelimitedBytes(\"").and_then(|d| d.strip_suffix("\")")).expect(line);
        let format = Delimited::new(delimiter).unwrap();
        let fields: Vec<Value> = parse_struct(&cols[1]).into_iter().map(|(v, _)| v).collect();
        let want = hex(&cols[2]);
        if fields.iter().any(|f| matches!(f, Value::BigEndian(_))) {
            // Raw big-endian bytes hold bytes below '#': the sorted mode must refuse them,
            // and only the explicit unchecked mode reproduces the row's bytes.
            let err = encode(&format, &fields).expect_err(line);
            assert!(matches!(err, Error::Delimiter { .. }), "row {line}: {err}");
            let got = encode(&format.clone().unchecked(), &fields).unwrap_or_else(|e| panic!("row {line}: {e}"));
            assert_eq!(to_hex(&got), to_hex(&want), "row {line}: unchecked bytes differ");
        } else {
            let got = encode(&format, &fields).unwrap_or_else(|e| panic!("row {line}: {e}"));
            assert_eq!(to_hex(&got), to_hex(&want), "row {line}: encoded bytes differ");
            // Decode back through the tuple of the row's shape.
            let back: Vec<Value> = match fields.len() {
                0 => format.from_key::<()>(&want).map(|()| vec![]),
                2 => format.from_key::<(String, String)>(&want).map(|(a, b)| vec![Value::String(a), Value::String(b)]),
                3 => format
                    .from_key::<(String, String, String)>(&want)
                    .map(|(a, b, c)| vec![Value::String(a), Value::String(b), Value::String(c)]),
                4 => format
                    .from_key::<(String, String, String, Vec<u8>)>(&want)
                    .map(|(a, b, c, d)| vec![Value::String(a), Value::String(b), Value::String(c), Value::Bytes(d)]),
                n => panic!("row {line}: no decode shape for {n} fields"),
            }
            .unwrap_or_else(|e| panic!("row {line}: decode failed: {e}"));
            assert_eq!(back, fields, "row {line}: decoded value differs");
        }
        checked += 1;
    }
    assert_eq!(checked, 6, "tests/data/bigtable_struct_encodings.tsv should have 6 DelimitedBytes rows");
}

#[test]
fn idiom_rows() {
    let hash = Delimited::default();
    let mut checked = 0;
    for (line, cols) in rows(&data("rowkey_idioms.tsv")) {
        match cols[0].as_str() {
            "zero_pad_decimal" => {
                let parts = cols[1].strip_suffix(" joined by #").expect(&line);
                let fields: Vec<&str> = parts.split(',').collect();
                let [kind, id, day] = fields[..] else { panic!("row {line}") };
                let id = u32::from_str_radix(id, 16).unwrap();
                let day: u32 = day.parse().unwrap();
                let key = hash.to_key(&(kind, Hex(id), Padded::<u32, 8>(day))).unwrap();
                assert_eq!(key, cols[2].as_str(), "row {line}");
                let back: (&str, Hex<u32>, Padded<u32, 8>) = hash.from_key(&key).unwrap();
                assert_eq!(back, (kind, Hex(id), Padded(day)), "row {line}");
            }
            "zero_pad_decimal_width10" => {
                let n: u32 = cols[1].parse().unwrap();
                // u32's default width is its maximum's 10 digits.
                let key = hash.to_key(&(n,)).unwrap();
                assert_eq!(key, cols[2].as_str(), "row {line}");
                assert_eq!(hash.from_key::<(u32,)>(&key).unwrap().0, n, "row {line}");
                assert_eq!(hash.to_key(&(Padded::<u64, 10>(n.into()),)).unwrap(), key, "row {line}");
            }
            "reverse_ts_decimal19" => {
                let ts: i64 = cols[1].strip_prefix("Long.MAX_VALUE-").expect(&line).parse().unwrap();
                let key = hash.to_key(&(Reversed(ts),)).unwrap();
                assert_eq!(key, cols[2].as_str(), "row {line}");
                assert_eq!(hash.from_key::<(Reversed<i64>,)>(&key).unwrap().0, Reversed(ts), "row {line}");
            }
            _ => continue,
        }
        checked += 1;
    }
    assert_eq!(checked, 9, "rowkey_idioms.tsv: 1 zero_pad_decimal, 3 width10 and 5 decimal19 rows");
}

#[test]
fn schema_guide_example_keys() {
    let hash = Delimited::default();
    assert_eq!(
        hash.to_key(&("phone", Hex(0x4c41_0523u32), Padded::<u32, 8>(20_200_501))).unwrap(),
        "phone#4c410523#20200501"
    );
    assert_eq!(hash.to_key(&("asia", "india", "mumbai")).unwrap(), "asia#india#mumbai");
    assert_eq!(
        hash.to_key(&(Hex(0x4c41_0523u32), "memusage", Padded::<u64, 13>(1_423_523_569_918))).unwrap(),
        "4c410523#memusage#1423523569918"
    );
    assert_eq!(
        hash.to_key(&("altostrat", "phone", Hex(0x4c41_0523u32), Padded::<u32, 8>(20_190_501))).unwrap(),
        "altostrat#phone#4c410523#20190501"
    );
}
