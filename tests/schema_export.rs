//! Bigtable row key schema export: the JSON of the scenario keys is pinned by golden files,
//! and a decoder that knows only that JSON (Bigtable's struct and field encodings, written
//! here from the Admin API's documentation) reads every generated key back to the values the
//! key was written from. So the schema names exactly the encodings the keys are written with.
#![cfg(feature = "bigtable-schema")]

mod common;

use common::keys::{DeviceReading, Monitor, Reading, TenantReading, WebPage, WebPageMicros};

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::field::WriteField;
use rowkey::format::Ordered;
use rowkey::salt::Salt;
use rowkey::schema::{ExportOptions, Schema};
use rowkey::transform::{BitReversed, reverse_domain};
use rowkey::{Error, RowKey};
use serde_json::Value as Json;

/// Tablestore's monitoring key with its MD5 prefix, in the ordered format: the bucket is the
/// first 4 hex digits of MD5 of the host, text in the key and a STRING in the schema.
#[cfg(feature = "md5")]
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(salt(buckets = 65536, from = [host], hash = "md5"))]
struct HostMonitor {
    host: String,
    metric: String,
    time: i64,
}

/// The same in the delimited format.
#[cfg(feature = "md5")]
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 4096, from = [host], hash = "md5"))]
struct HostMonitorText {
    host: String,
    metric: String,
}

/// Every ordered-format encoding that has a Bigtable type, and three that need BYTES.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = "ledger", salt(buckets = 4, from = [kind]))]
struct Ledger {
    kind: String,
    note: Option<String>,
    blob: Vec<u8>,
    maybe_blob: Option<Vec<u8>>,
    seq: i64,
    #[rowkey(big_endian)]
    account: u32,
    flag: bool,
    at: SystemTime,
    #[rowkey(bit_reverse)]
    id: u64,
    score: f64,
    settled: Option<SystemTime>,
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/schema").join(format!("{name}.json"))
}

/// Compares `json` with the golden file `name`, writing the file when it does not exist yet
/// or when `ROWKEY_BLESS=1`.
fn assert_golden(name: &str, json: &str) {
    let path = golden_path(name);
    let json = format!("{json}\n");
    if !path.exists() || std::env::var_os("ROWKEY_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &json).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    if expected == json {
        return;
    }
    let line = expected
        .lines()
        .zip(json.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(json.lines().count()));
    let around = |text: &str| text.lines().skip(line.saturating_sub(2)).take(5).collect::<Vec<_>>().join("\n");
    panic!(
        "{} differs from the export at line {}:\n--- golden\n{}\n--- exported\n{}\n(set ROWKEY_BLESS=1 to rewrite it)",
        path.display(),
        line + 1,
        around(&expected),
        around(&json)
    );
}

fn text_options() -> ExportOptions {
    ExportOptions::new().text_as_string()
}

#[test]
fn golden_device_reading() {
    assert_golden("device_reading", &DeviceReading::SCHEMA.to_bigtable_json_with(&text_options()).unwrap());
}

#[test]
fn golden_quickstart_reading() {
    assert_golden("quickstart_reading", &Reading::SCHEMA.to_bigtable_json_with(&text_options()).unwrap());
}

#[test]
fn golden_tenant_reading() {
    assert_golden("tenant_reading", &TenantReading::SCHEMA.to_bigtable_json_with(&text_options()).unwrap());
}

#[test]
fn golden_web_page() {
    assert_golden("web_page", &WebPageMicros::SCHEMA.to_bigtable_json().unwrap());
}

#[test]
fn golden_salted_monitor() {
    assert_golden("salted_monitor", &Monitor::SCHEMA.to_bigtable_json().unwrap());
}

#[cfg(feature = "md5")]
#[test]
fn golden_md5_monitor() {
    assert_golden("md5_monitor", &HostMonitor::SCHEMA.to_bigtable_json().unwrap());
}

#[cfg(feature = "md5")]
#[test]
fn md5_buckets_are_strings_in_both_formats() {
    let string = serde_json::json!({ "stringType": { "encoding": { "utf8Bytes": {} } } });
    let bucket = |schema: &Json| schema["fields"][0].clone();
    let field = serde_json::json!({ "fieldName": "bucket", "type": string });
    assert_eq!(bucket(&json_of(&HostMonitor::SCHEMA, &ExportOptions::new())), field);
    assert_eq!(bucket(&json_of(&HostMonitorText::SCHEMA, &ExportOptions::new())), field);
    // Asking for the string it already is, or for its bytes, works as for other fields.
    let asked = json_of(&HostMonitor::SCHEMA, &ExportOptions::new().field_as_string("bucket"));
    assert_eq!(bucket(&asked)["type"], string);
    let bytes = json_of(&HostMonitor::SCHEMA, &ExportOptions::new().field_as_bytes("bucket"));
    assert!(bucket(&bytes)["type"].get("bytesType").is_some(), "{bytes}");
}

#[test]
fn golden_ledger() {
    let options = ExportOptions::new().bytes_for_unsupported();
    assert_golden("ledger", &Ledger::SCHEMA.to_bigtable_json_with(&options).unwrap());
}

fn schema_error(schema: &Schema, options: &ExportOptions) -> String {
    match schema.to_bigtable_value_with(options) {
        Err(Error::InvalidArgument { detail, .. }) => detail.into_owned(),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn unsupported_fields_are_named() {
    let err = schema_error(&Ledger::SCHEMA, &ExportOptions::new());
    assert!(err.starts_with("`id`: `u64` is written as orderedcode uint64"), "{err}");
    assert!(err.contains(r#"ExportOptions::field_as_bytes("id")"#), "{err}");

    let options = ExportOptions::new().field_as_bytes("id");
    let err = schema_error(&Ledger::SCHEMA, &options);
    assert!(err.starts_with("`score`: `f64` is written as an orderedcode float"), "{err}");
    let err = schema_error(&Ledger::SCHEMA, &options.field_as_bytes("score"));
    assert!(err.starts_with("`settled`: `Option<SystemTime>` writes None as an empty field"), "{err}");

    let err = schema_error(&DeviceReading::SCHEMA, &ExportOptions::new());
    assert!(err.starts_with("`ts_millis`: `i64` is written as 19 decimal digits of text"), "{err}");
    assert!(err.contains("text_as_string()"), "{err}");
    let err = schema_error(&TenantReading::SCHEMA, &ExportOptions::new().field_as_string("date"));
    assert!(err.starts_with("`device_id`: `u32` is written as hex text"), "{err}");
}

#[test]
fn per_field_choices_override_the_defaults() {
    let json = DeviceReading::SCHEMA.to_bigtable_value_with(&ExportOptions::new().field_as_bytes("ts_millis")).unwrap();
    assert_eq!(json["fields"][2]["type"], serde_json::json!({ "bytesType": { "encoding": { "raw": {} } } }));
    let json = DeviceReading::SCHEMA
        .to_bigtable_value_with(&ExportOptions::new().bytes_for_unsupported().field_as_string("ts_millis"))
        .unwrap();
    assert_eq!(json["fields"][2]["type"]["stringType"], serde_json::json!({ "encoding": { "utf8Bytes": {} } }));

    let err = schema_error(&Monitor::SCHEMA, &ExportOptions::new().field_as_string("time"));
    assert!(err.starts_with("`time`: its int64 bytes are not text"), "{err}");
    let err = schema_error(&Monitor::SCHEMA, &ExportOptions::new().field_as_bytes("tme"));
    assert_eq!(err, "`tme`: the export options name it, but `Monitor` has no such key field");
}

#[test]
fn descending_fields_cannot_be_described() {
    let err = schema_error(&WebPage::SCHEMA, &ExportOptions::new().bytes_for_unsupported());
    assert!(err.starts_with("`crawled`: it is descending (`desc`)"), "{err}");
    let err = schema_error(&WebPage::SCHEMA, &ExportOptions::new().field_as_bytes("crawled"));
    assert!(err.contains("a schema file cannot mark it DESC"), "{err}");
}

#[derive(RowKey)]
struct Reserved {
    #[rowkey(rename = "_key")]
    key: String,
}

#[derive(RowKey)]
struct ReservedTime {
    name: String,
    #[rowkey(rename = "_timestamp")]
    at: i64,
}

#[derive(RowKey)]
#[rowkey(prefix = "p")]
struct Inner {
    a: String,
}

#[derive(RowKey)]
#[rowkey(prefix = "q")]
struct Outer {
    #[rowkey(flatten)]
    inner: Inner,
}

#[test]
fn bad_names_are_refused() {
    let err = schema_error(&Reserved::SCHEMA, &ExportOptions::new());
    assert!(err.starts_with("`_key`: Bigtable reserves this name"), "{err}");
    let err = schema_error(&ReservedTime::SCHEMA, &ExportOptions::new());
    assert!(err.starts_with("`_timestamp`: Bigtable reserves this name"), "{err}");
    let err = schema_error(&Outer::SCHEMA, &ExportOptions::new());
    assert!(err.starts_with("`prefix`: two key fields have this name"), "{err}");

    // Hand-written schemas can hold what the derive never writes.
    use rowkey::schema::{Encoding, FieldSchema, Format};
    const UNNAMED: &[FieldSchema] = &[FieldSchema::new("", "String", Encoding::Utf8)];
    const NAMED: &[FieldSchema] = &[FieldSchema::new("a", "String", Encoding::Utf8)];
    let unnamed = Schema {
        type_name: "Unnamed",
        format: Format::Ordered,
        prefix: None,
        salt: None,
        max_len: Schema::DEFAULT_MAX_LEN,
        fields: UNNAMED,
        dynamodb: None,
    };
    let err = schema_error(&unnamed, &ExportOptions::new());
    assert!(err.starts_with("``: Bigtable needs every row key field to have a name"), "{err}");
    let empty = Schema { fields: &[], ..unnamed };
    assert!(matches!(empty.to_bigtable_json(), Err(Error::InvalidArgument { what: "schema", .. })));
    let long = Schema { format: Format::Delimited("0123456789012345678901234567890123456789012345678901"), ..unnamed };
    let long = Schema { fields: NAMED, ..long };
    assert!(long.to_bigtable_json().unwrap_err().to_string().contains("1 to 50 bytes, not 52"));
}

// ---- A decoder that knows only the exported JSON ----

/// A value as GoogleSQL would read it from a key field.
#[derive(Clone, Debug, PartialEq)]
enum Cell {
    Null,
    Str(String),
    Bytes(Vec<u8>),
    Int(i64),
    Timestamp(i64),
}

/// Bigtable's orderedcode signed int64, decoded from its definition: the count of leading
/// ones (after flipping a negative number's bytes) is the length, the rest the magnitude.
fn orderedcode_i64(bytes: &[u8]) -> Result<i64, String> {
    let first = *bytes.first().ok_or("empty INT64")?;
    let negative = first & 0x80 == 0;
    let flipped: Vec<u8> = bytes.iter().map(|b| if negative { !b } else { *b }).collect();
    let mut ones = flipped[0].leading_ones() as usize;
    if ones == 8 {
        ones += flipped.get(1).ok_or("short INT64")?.leading_ones() as usize;
    }
    if ones != bytes.len() {
        return Err(format!("INT64 of {} bytes with a length of {ones}", bytes.len()));
    }
    let bits = 7 * ones - 1;
    let magnitude = flipped.iter().fold(0u128, |acc, &b| acc << 8 | u128::from(b)) & ((1u128 << bits) - 1);
    let magnitude = i64::try_from(magnitude).map_err(|e| e.to_string())?;
    Ok(if negative { !magnitude } else { magnitude })
}

/// Splits an `OrderedCodeBytes` struct into its fields' unescaped bytes.
fn ordered_fields(key: &[u8], count: usize) -> Result<Vec<Vec<u8>>, String> {
    let mut fields = vec![Vec::new(); count];
    if key == [0, 0] {
        return Ok(fields);
    }
    let mut pos = 0;
    for field in &mut fields {
        if pos == key.len() {
            break; // trailing empty fields are omitted
        }
        if key[pos..].starts_with(&[0, 0]) {
            pos += 2; // an empty field, then its separator
        }
        loop {
            match (key.get(pos), key.get(pos + 1)) {
                // The key ends: the fields after this one were empty and omitted.
                (None, _) => break,
                (Some(0), Some(0xff)) => {
                    field.push(0);
                    pos += 2;
                }
                (Some(0), Some(1)) => {
                    pos += 2;
                    break;
                }
                (Some(0), _) => return Err(format!("bad escape at {pos}")),
                (Some(&b), _) => {
                    field.push(b);
                    pos += 1;
                }
            }
        }
    }
    if pos != key.len() {
        return Err("bytes after the last field".into());
    }
    Ok(fields)
}

fn decode_field(kind: &Json, bytes: Vec<u8>) -> Result<Cell, String> {
    if let Some(utf8) = kind.pointer("/stringType/encoding/utf8Bytes") {
        let text = String::from_utf8(bytes).map_err(|e| e.to_string())?;
        return Ok(match utf8.get("nullEscapeChar").and_then(Json::as_str) {
            Some(_) if text.is_empty() => Cell::Null,
            Some(escape) if text.chars().all(|c| escape.starts_with(c)) => Cell::Str(text[escape.len()..].into()),
            _ => Cell::Str(text),
        });
    }
    if let Some(raw) = kind.pointer("/bytesType/encoding/raw") {
        let escaped = raw.get("escapeNulls") == Some(&Json::Bool(true));
        return Ok(match bytes {
            _ if escaped && bytes.is_empty() => Cell::Null,
            _ if escaped && bytes.iter().all(|&b| b == 0) => Cell::Bytes(bytes[1..].to_vec()),
            _ => Cell::Bytes(bytes),
        });
    }
    if kind.pointer("/int64Type/encoding/orderedCodeBytes").is_some() {
        return orderedcode_i64(&bytes).map(Cell::Int);
    }
    if kind.pointer("/int64Type/encoding/bigEndianBytes").is_some() {
        let raw: [u8; 8] = bytes.try_into().map_err(|_| "INT64 big-endian needs 8 bytes")?;
        return Ok(Cell::Int(i64::from_be_bytes(raw)));
    }
    if kind.pointer("/timestampType/encoding/unixMicrosInt64/orderedCodeBytes").is_some() {
        return orderedcode_i64(&bytes).map(Cell::Timestamp);
    }
    Err(format!("unknown field type {kind}"))
}

/// Decodes `key` with nothing but the row key schema JSON.
fn decode_with_json(schema: &Json, key: &[u8]) -> Result<Vec<(String, Cell)>, String> {
    let fields = schema["fields"].as_array().ok_or("no fields")?;
    let raw = if schema.pointer("/encoding/orderedCodeBytes").is_some() {
        ordered_fields(key, fields.len())?
    } else {
        let delimiter =
            schema.pointer("/encoding/delimitedBytes/delimiter").and_then(Json::as_str).ok_or("encoding")?;
        let delimiter = unbase64(delimiter);
        let mut parts = Vec::new();
        let mut rest = key;
        for _ in 1..fields.len() {
            let at = rest.windows(delimiter.len()).position(|w| w == delimiter).ok_or("missing delimiter")?;
            parts.push(rest[..at].to_vec());
            rest = &rest[at + delimiter.len()..];
        }
        parts.push(rest.to_vec());
        parts
    };
    fields
        .iter()
        .zip(raw)
        .map(|(field, bytes)| {
            Ok((field["fieldName"].as_str().ok_or("name")?.to_owned(), decode_field(&field["type"], bytes)?))
        })
        .collect()
}

fn unbase64(text: &str) -> Vec<u8> {
    let value = |c: u8| "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".bytes().position(|a| a == c);
    let sextets: Vec<u8> = text.bytes().filter_map(|c| value(c).map(|v| v as u8)).collect();
    sextets
        .chunks(4)
        .flat_map(|chunk| {
            let word = chunk.iter().enumerate().fold(0u32, |acc, (i, &v)| acc | u32::from(v) << (18 - 6 * i));
            (0..chunk.len() - 1).map(move |i| (word >> (16 - 8 * i)) as u8)
        })
        .collect()
}

fn at_micros(micros: i64) -> SystemTime {
    if micros >= 0 {
        UNIX_EPOCH + Duration::from_micros(micros.unsigned_abs())
    } else {
        UNIX_EPOCH - Duration::from_micros(micros.unsigned_abs())
    }
}

fn field_bytes<T: WriteField<Ordered>>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.write(&mut out).unwrap();
    out
}

fn named(cells: Vec<(&str, Cell)>) -> Vec<(String, Cell)> {
    cells.into_iter().map(|(name, cell)| (name.to_owned(), cell)).collect()
}

fn json_of(schema: &Schema, options: &ExportOptions) -> Json {
    schema.to_bigtable_value_with(options).unwrap()
}

fn ledgers() -> impl Strategy<Value = Ledger> {
    (
        (any::<String>(), proptest::option::of("[\\x00a]{0,3}"), proptest::collection::vec(any::<u8>(), 0..4)),
        (proptest::option::of(proptest::collection::vec(prop_oneof![Just(0u8), any::<u8>()], 0..3)), any::<i64>()),
        (any::<u32>(), any::<bool>(), -(1i64 << 60)..(1i64 << 60), any::<u64>(), any::<f64>()),
        proptest::option::of(-(1i64 << 60)..(1i64 << 60)),
    )
        .prop_map(|((kind, note, blob), (maybe_blob, seq), (account, flag, at, id, score), settled)| Ledger {
            kind,
            note,
            blob,
            maybe_blob,
            seq,
            account,
            flag,
            at: at_micros(at),
            id,
            score,
            settled: settled.map(at_micros),
        })
}

fn micros(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_micros()).unwrap(),
        Err(before) => -i64::try_from(before.duration().as_micros()).unwrap(),
    }
}

proptest! {
    #[test]
    fn device_readings_decode_by_the_schema(
        device_type in "[a-z]{0,8}", device_id in "[0-9a-f]{0,10}", ts_millis in 0..=i64::MAX,
    ) {
        let key = DeviceReading { device_type: device_type.clone(), device_id: device_id.clone(), ts_millis }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&DeviceReading::SCHEMA, &text_options()), &key).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("device_type", Cell::Str(device_type)),
            ("device_id", Cell::Str(device_id)),
            ("ts_millis", Cell::Str(format!("{:019}", i64::MAX - ts_millis))),
        ]));
    }

    #[test]
    fn quickstart_readings_decode_by_the_schema(
        device_type in "[a-z]{1,8}", device_id in "[0-9a-f]{0,10}", ts_millis in 0..=i64::MAX,
    ) {
        let key = Reading { device_type: device_type.clone(), device_id: device_id.clone(), ts_millis }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&Reading::SCHEMA, &text_options()), &key).unwrap();
        let bucket = Salt::farmhash(16).unwrap().bucket(&(device_id.as_str(),)).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("bucket", Cell::Str(format!("{bucket:02}"))),
            ("device_type", Cell::Str(device_type)),
            ("device_id", Cell::Str(device_id)),
            ("ts_millis", Cell::Str(format!("{:019}", i64::MAX - ts_millis))),
        ]));
    }

    #[test]
    fn tenant_readings_decode_by_the_schema(
        tenant in "[a-z0-9-]{0,6}", device_type in "[a-z]{1,5}", device_id: u32, date in 0u32..100_000_000,
    ) {
        let key = TenantReading { tenant: tenant.clone(), device_type: device_type.clone(), device_id, date }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&TenantReading::SCHEMA, &text_options()), &key).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("tenant", Cell::Str(tenant)),
            ("device_type", Cell::Str(device_type)),
            ("device_id", Cell::Str(format!("{device_id:08x}"))),
            ("date", Cell::Str(format!("{date:08}"))),
        ]));
    }

    #[test]
    fn web_pages_decode_by_the_schema(
        host in "[a-z]{1,8}(\\.[a-z]{1,8}){0,3}", path: String, crawled_micros in 0..=i64::MAX,
    ) {
        let key = WebPageMicros { host: host.clone(), path: path.clone(), crawled_micros }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&WebPageMicros::SCHEMA, &ExportOptions::new()), &key).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("host", Cell::Str(reverse_domain(&host).unwrap())),
            ("path", Cell::Str(path)),
            ("crawled_micros", Cell::Int(i64::MAX - crawled_micros)),
        ]));
    }

    #[test]
    fn monitors_decode_by_the_schema(time: i64, host: String, metric in "[a-z\\x00]{0,4}") {
        let key = Monitor { time, host: host.clone(), metric: metric.clone() }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&Monitor::SCHEMA, &ExportOptions::new()), &key).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("bucket", Cell::Int(time.rem_euclid(16))),
            ("time", Cell::Int(time)),
            ("host", Cell::Str(host)),
            ("metric", Cell::Str(metric)),
        ]));
    }

    #[cfg(feature = "md5")]
    #[test]
    fn md5_monitors_decode_by_the_schema(host: String, metric in "[a-z\\x00]{0,4}", time: i64) {
        let key = HostMonitor { host: host.clone(), metric: metric.clone(), time }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&HostMonitor::SCHEMA, &ExportOptions::new()), &key).unwrap();
        let bucket = Salt::md5_hex(65_536).unwrap().bucket(&(host.as_str(),)).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("bucket", Cell::Str(format!("{bucket:04x}"))),
            ("host", Cell::Str(host)),
            ("metric", Cell::Str(metric)),
            ("time", Cell::Int(time)),
        ]));
    }

    #[cfg(feature = "md5")]
    #[test]
    fn delimited_md5_monitors_decode_by_the_schema(host in "[a-z0-9.]{0,12}", metric in "[a-z]{0,4}") {
        let key = HostMonitorText { host: host.clone(), metric: metric.clone() }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&HostMonitorText::SCHEMA, &ExportOptions::new()), &key).unwrap();
        let bucket = Salt::md5_hex(4096).unwrap().bucket(&(host.as_str(),)).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("bucket", Cell::Str(format!("{bucket:03x}"))),
            ("host", Cell::Str(host)),
            ("metric", Cell::Str(metric)),
        ]));
    }

    #[test]
    fn ledgers_decode_by_the_schema(ledger in ledgers()) {
        let key = ledger.to_key().unwrap();
        let schema = json_of(&Ledger::SCHEMA, &ExportOptions::new().bytes_for_unsupported());
        let decoded = decode_with_json(&schema, &key).unwrap();
        let bucket = Salt::farmhash(4).unwrap().bucket(&(ledger.kind.as_str(),)).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("prefix", Cell::Str("ledger".into())),
            ("bucket", Cell::Int(bucket.into())),
            ("kind", Cell::Str(ledger.kind.clone())),
            ("note", ledger.note.clone().map_or(Cell::Null, Cell::Str)),
            ("blob", Cell::Bytes(ledger.blob.clone())),
            ("maybe_blob", ledger.maybe_blob.clone().map_or(Cell::Null, Cell::Bytes)),
            ("seq", Cell::Int(ledger.seq)),
            ("account", Cell::Int(ledger.account.into())),
            ("flag", Cell::Int(ledger.flag.into())),
            ("at", Cell::Timestamp(micros(ledger.at))),
            // The BYTES fallbacks read as the field encoding's bytes.
            ("id", Cell::Bytes(field_bytes(&BitReversed(ledger.id)))),
            ("score", Cell::Bytes(field_bytes(&ledger.score))),
            ("settled", ledger.settled.map_or(Cell::Null, |t| Cell::Bytes(field_bytes(&t)))),
        ]));
    }
}

/// The date-time, id and address types in an ordered key Bigtable can describe.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Access {
    user: uuid::Uuid,
    at: chrono::DateTime<chrono::Utc>,
    ip: std::net::IpAddr,
    id: ulid::Ulid,
    #[rowkey(reverse)]
    newest: jiff::Timestamp,
}

#[test]
fn golden_access() {
    assert_golden("access", &Access::SCHEMA.to_bigtable_json().unwrap());
}

#[test]
fn dates_and_nanoseconds_have_no_bigtable_type() {
    #[derive(RowKey)]
    struct Expiry {
        shard: u32,
        day: chrono::NaiveDate,
        #[rowkey(nanos)]
        exact: jiff::Timestamp,
    }
    let err = schema_error(&Expiry::SCHEMA, &ExportOptions::new());
    assert!(err.contains("`day`") && err.contains("no DATE"), "{err}");
    let err = schema_error(&Expiry::SCHEMA, &ExportOptions::new().field_as_bytes("day"));
    assert!(err.contains("`exact`") && err.contains("nanoseconds"), "{err}");
    let json = json_of(&Expiry::SCHEMA, &ExportOptions::new().bytes_for_unsupported());
    assert!(json.pointer("/fields/1/type/bytesType").is_some(), "{json}");
}

#[test]
fn readable_types_are_strings_when_delimited() {
    #[derive(RowKey)]
    #[rowkey(delimited = "#")]
    struct Visit {
        user: uuid::Uuid,
        ip: std::net::Ipv4Addr,
        at: chrono::DateTime<chrono::Utc>,
    }
    let err = schema_error(&Visit::SCHEMA, &ExportOptions::new());
    assert!(err.contains("`at`") && err.contains("RFC 3339"), "{err}");
    let json = json_of(&Visit::SCHEMA, &text_options());
    for i in 0..3 {
        assert!(json.pointer(&format!("/fields/{i}/type/stringType")).is_some(), "{json}");
    }
}

proptest! {
    #[test]
    fn access_keys_decode_by_the_schema(
        user in rowkey::testing::uuids(), at in rowkey::testing::timestamps::<chrono::DateTime<chrono::Utc>>(),
        ip in rowkey::testing::ip_addrs(), id in rowkey::testing::ulids(),
        newest in rowkey::testing::timestamps::<jiff::Timestamp>().prop_filter("from 1970", |t| t.as_nanosecond() >= 0),
    ) {
        let key = Access { user, at, ip, id, newest }.to_key().unwrap();
        let decoded = decode_with_json(&json_of(&Access::SCHEMA, &ExportOptions::new()), &key).unwrap();
        let micros = |nanos: i128| i64::try_from(nanos.div_euclid(1000)).unwrap();
        prop_assert_eq!(decoded, named(vec![
            ("user", Cell::Bytes(user.as_bytes().to_vec())),
            ("at", Cell::Timestamp(at.timestamp_micros())),
            ("ip", Cell::Bytes(field_bytes(&ip))),
            ("id", Cell::Bytes(id.to_bytes().to_vec())),
            ("newest", Cell::Int(i64::MAX - micros(newest.as_nanosecond()))),
        ]));
    }
}
