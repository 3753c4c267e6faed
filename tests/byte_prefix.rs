//! A byte-string prefix (`#[rowkey(prefix = b"\xbd\x89")]`) in every built-in format: keys keep
//! their order and read back, the prefix is where the format puts it, a key behind another
//! prefix is refused naming the prefix in hex, the schema path (encode, inspect, scan, the
//! schema file's `prefix_hex`) says what the type says.

mod common;

use std::collections::HashMap;

use common::schema_checks::{agrees_with_from_key, bounds, check, mutations, texts};
use common::table_ids::{DelimitedTableRow, FdbTableRow, HBaseTableRow, McTableRow, OrderedTableRow, seqs, tenants};
use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::schema::{KeyField, Schema, Value};

/// The schema's `encode` of a value's fields, by the texts `inspect` printed.
fn encode_texts(schema: &Schema, texts: &HashMap<&'static str, String>) -> rowkey::Result<rowkey::Key> {
    let pairs: Vec<(&str, &str)> = texts.iter().map(|(k, v)| (*k, v.as_str())).collect();
    schema.encode(&pairs)
}

macro_rules! byte_prefix_props {
    ($module:ident, $ty:ident, $prefix:expr, delimited = $delimited:expr, nul = $nul:expr) => {
        mod $module {
            use super::*;

            fn rows() -> impl Strategy<Value = $ty> {
                (tenants($delimited, $nul), seqs()).prop_map(|(tenant, seq)| $ty { tenant, seq })
            }

            proptest! {
                #![proptest_config(common::proptest_config(256))]

                #[test]
                fn order_and_round_trip(a in rows(), b in rows()) {
                    let (ka, kb) = (a.to_key().unwrap(), b.to_key().unwrap());
                    // After the prefix and a bucket, keys sort as their values: text bytewise, the
                    // sequence newest first where it is `desc`.
                    let seq = if $ty::SCHEMA.fields[1].descending { b.seq.cmp(&a.seq) } else { a.seq.cmp(&b.seq) };
                    let by_value = a.tenant.as_bytes().cmp(b.tenant.as_bytes()).then(seq);
                    let unsalted = |k: &rowkey::Key| $ty::SCHEMA.unsalted(k).unwrap().to_vec();
                    if $ty::SCHEMA.salt.is_none() || $ty::SCHEMA.inspect(&ka).unwrap().fields()[1].value() == $ty::SCHEMA.inspect(&kb).unwrap().fields()[1].value() {
                        prop_assert_eq!(ka.cmp(&kb), by_value, "{:?} {:?}", a, b);
                    }
                    prop_assert_eq!(unsalted(&ka).cmp(&unsalted(&kb)), by_value, "{:?} {:?}", a, b);
                    prop_assert_eq!($ty::from_key(&ka).unwrap(), a.clone());
                    prop_assert_eq!($ty::from_key(&kb).unwrap(), b);
                }

                #[test]
                fn the_schema_path_writes_and_reads_the_same_key(a in rows()) {
                    let key = a.to_key().unwrap();
                    let fields = texts(&a);
                    prop_assert_eq!(encode_texts(&$ty::SCHEMA, &fields).unwrap(), key.clone());
                    let inspection = $ty::SCHEMA.inspect(&key).unwrap();
                    let first = &inspection.fields()[0];
                    prop_assert_eq!(first.name(), "prefix");
                    prop_assert_eq!(first.value(), &Value::Bytes($prefix.to_vec()));
                    prop_assert_eq!(first.offset(), 0);
                    // Loaded from its schema file, the schema reads the same key the same way.
                    let loaded = Schema::from_json(&$ty::SCHEMA.to_json()).unwrap();
                    prop_assert_eq!(loaded.inspect(&key).unwrap().to_string(), inspection.to_string());
                    prop_assert_eq!(encode_texts(loaded, &fields).unwrap(), key);
                }

                #[test]
                fn inspect_agrees_with_from_key_near_a_key(bytes in rows().prop_flat_map(|a| mutations(a.to_key().unwrap().into_vec()))) {
                    agrees_with_from_key::<$ty>(&$ty::SCHEMA, &bytes);
                }

                #[test]
                fn scans_are_the_builders(a in rows(), b in rows(), kind in 0u8..9) {
                    let (ta, tb) = (texts(&a), texts(&b));
                    let s = &$ty::SCHEMA;
                    check(s, &ta, &[], None, $ty::scan().ranges())?;
                    check(s, &ta, &["tenant"], None, $ty::scan().tenant(&a.tenant).ranges())?;
                    let (lo, hi) = bounds(kind, a.tenant.as_str(), b.tenant.as_str());
                    check(s, &ta, &[], Some(("tenant", &tb, kind)), $ty::scan().tenant_range((lo, hi)).ranges())?;
                    let (lo, hi) = bounds(kind, a.seq, b.seq);
                    let fixed = $ty::scan().tenant(&a.tenant);
                    check(s, &ta, &["tenant"], Some(("seq", &tb, kind)), fixed.seq_range((lo, hi)).ranges())?;
                    let ranges = $ty::scan().tenant(&a.tenant).ranges().unwrap();
                    prop_assert!(ranges.contains(&a.to_key().unwrap()));
                }
            }

            #[test]
            fn the_key_starts_where_the_format_puts_the_prefix() {
                let row = $ty { tenant: "acme".into(), seq: 7 };
                let key = row.to_key().unwrap();
                let schema = $ty::SCHEMA;
                assert_eq!(schema.prefix, Some(&$prefix[..]));
                assert_eq!(schema.key_fields()[0], KeyField::Prefix($prefix));
                if schema.format.is_bigtable() {
                    // A field of its own: escaped as bytes are, then the format's separator.
                    assert!(schema.to_json().contains("\"prefix_hex\""), "{}", schema.to_json());
                } else {
                    assert!(key.as_bytes().starts_with($prefix), "{key:?}");
                }
                // Any other first byte is a key of another type, named in hex.
                let mut other = key.into_vec();
                other[0] ^= 0x40;
                let err = $ty::from_key(&other).unwrap_err();
                assert_eq!(err.location().name(), Some("prefix"), "{err}");
                assert!(err.to_string().contains("not this type's prefix"), "{err}");
                assert_eq!(schema.inspect(&other).unwrap_err().to_string(), err.to_string());
            }
        }
    };
}

byte_prefix_props!(ordered, OrderedTableRow, b"\x00\xbd\xff", delimited = false, nul = true);
byte_prefix_props!(delimited, DelimitedTableRow, b"\xbd\x89", delimited = true, nul = true);
byte_prefix_props!(fdb_tuple, FdbTableRow, b"\x15\x35\x00\xff", delimited = false, nul = true);
byte_prefix_props!(memcomparable, McTableRow, b"\xbd\x89\x00", delimited = false, nul = true);
byte_prefix_props!(hbase, HBaseTableRow, b"\x80", delimited = false, nul = false);

/// One value's key in each format, pinned: the prefix is a field of the ordered key (`00` and
/// `ff` escaped, then the separator), of the delimited key (then `#`), and raw bytes before
/// the store formats' fields.
#[test]
fn golden_keys() {
    let hex = |k: rowkey::Key| k.as_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>();
    let (tenant, seq) = (String::from("acme"), 7);
    assert_eq!(
        hex(OrderedTableRow { tenant: tenant.clone(), seq }.to_key().unwrap()),
        "00ffbdff000161636d65000178fffe"
    );
    assert_eq!(
        hex(DelimitedTableRow { tenant: tenant.clone(), seq }.to_key().unwrap()),
        "bd8923332361636d652330303030303030303030303030303030303037"
    );
    assert_eq!(hex(FdbTableRow { tenant: tenant.clone(), seq }.to_key().unwrap()), "153500ff0261636d65001507");
    assert_eq!(
        hex(McTableRow { tenant: tenant.clone(), seq }.to_key().unwrap()),
        "bd89000161636d6500000000047ffffffffffffff8"
    );
    assert_eq!(hex(HBaseTableRow { tenant, seq }.to_key().unwrap()), "802b800000033461636d65002c8000000000000007");
}

/// A schema prints and inspects a byte prefix as bytes, and `encode` takes it back in that
/// form (or leaves it out); any other prefix is refused.
#[test]
fn the_schema_shows_and_takes_a_byte_prefix() {
    let schema = DelimitedTableRow::SCHEMA;
    assert!(schema.to_string().contains(r#"prefix: b"\xbd\x89""#), "{schema}");
    let key = DelimitedTableRow { tenant: "acme".into(), seq: 7 }.to_key().unwrap();
    assert_eq!(schema.inspect(&key).unwrap().to_string(), r#"prefix=b"\xbd\x89" bucket=3 tenant=acme seq=7"#);
    let values = [("tenant", "acme"), ("seq", "7")];
    assert_eq!(schema.encode(&values).unwrap(), key);
    for given in [r#"b"\xbd\x89""#, r"\xbd\x89"] {
        assert_eq!(schema.encode(&[("prefix", given), values[0], values[1]]).unwrap(), key, "{given}");
    }
    let err = schema.encode(&[("prefix", r#"b"\xbd""#), values[0], values[1]]).unwrap_err();
    assert!(err.to_string().contains(r#"every key of DelimitedTableRow starts with b"\xbd\x89""#), "{err}");
}

/// The schema file holds text as `prefix` and other bytes as `prefix_hex`, and refuses a
/// prefix the derive would refuse, naming its place.
#[test]
fn the_schema_file_reads_prefix_hex() {
    let text = OrderedTableRow::SCHEMA.to_json();
    assert!(text.contains(r#""prefix_hex": "00bdff""#), "{text}");
    assert_eq!(*Schema::from_json(&text).unwrap(), OrderedTableRow::SCHEMA);
    let with = |prefix: &str| {
        let json = text.replace(r#""prefix_hex": "00bdff""#, prefix);
        Schema::from_json(&json).map(|s| s.prefix).map_err(|e| e.to_string())
    };
    assert_eq!(with(r#""prefix": "ab""#), Ok(Some(&b"ab"[..])));
    assert_eq!(with(r#""prefix_hex": "6162""#), Ok(Some(&b"ab"[..])));
    let refused = [
        (r#""prefix": "a", "prefix_hex": "61""#, "prefix_hex: give `prefix` (text) or `prefix_hex` (bytes), not both"),
        (r#""prefix_hex": "bd8""#, "prefix_hex: expected hex digits, two a byte"),
        (r#""prefix_hex": "zz""#, "prefix_hex: expected hex digits"),
        (r#""prefix_hex": """#, "prefix_hex: the prefix is empty"),
        (r#""prefix": """#, "prefix: the prefix is empty"),
    ];
    for (prefix, message) in refused {
        let err = with(prefix).unwrap_err();
        assert!(err.contains(message), "{prefix}: {err}");
    }
    let delimited = DelimitedTableRow::SCHEMA.to_json().replace(r#""prefix_hex": "bd89""#, r#""prefix_hex": "bd23""#);
    let err = Schema::from_json(&delimited).unwrap_err().to_string();
    assert!(
        err.contains("prefix_hex: the prefix holds a byte not above the delimiter \"#\"'s first byte 0x23"),
        "{err}"
    );
}
