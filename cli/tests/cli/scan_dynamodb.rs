//! `rowkey scan --dynamodb` prints the crate's DynamoDB queries of a scan, one line of AWS CLI
//! JSON each, says which item a half-open range's `BETWEEN` reads too many, and refuses a scan
//! that leaves a partition field open or a schema without a design.

use rowkey::dynamodb::{DynamoKeys, KeyQuery};
use rowkey::key_text::KeyForm;
use rowkey::schema::KeySchema;
use serde_json::{Value, json};

use crate::common::dynamo::{BlobVersion, MeterReading, OrderLine, SensorEvent, TenantOrder};
use crate::common::keys::Reading;
use crate::{rowkey, schema_file};

/// The lines `rowkey scan --dynamodb` prints for `args`, parsed, and its standard error.
fn queries<T: KeySchema>(args: &[&str]) -> (Vec<Value>, String) {
    let out = rowkey()
        .args(["scan", "--schema"])
        .arg(schema_file::<T>())
        .args(["--dynamodb", "--table", "t"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (lines, String::from_utf8(out.stderr).unwrap())
}

/// What the crate's query says, in the printed form: `{"S": text}` or `{"B": base64}` values.
fn printed(query: &KeyQuery, binary: bool, forward: bool) -> Value {
    let value = |k: &rowkey::key::Key| {
        if binary { json!({ "B": KeyForm::Base64.format(k.as_bytes()) }) } else { json!({ "S": k.to_readable() }) }
    };
    let mut names = json!({ "#pk": "pk" });
    if query.sort.is_some() {
        names["#sk"] = json!("sk");
    }
    let (expression, placed) = query.key_condition();
    let values: serde_json::Map<String, Value> = placed.into_iter().map(|(at, v)| (at.to_owned(), value(v))).collect();
    json!({
        "TableName": "t", "KeyConditionExpression": expression, "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values, "ScanIndexForward": forward,
    })
}

#[test]
fn the_queries_are_the_crates_one_a_line() {
    let keys = DynamoKeys::of(&MeterReading::SCHEMA).unwrap();
    let want = keys.queries(&MeterReading::scan().meter("ab").day(20240501).at_range(3..9).ranges().unwrap()).unwrap();
    let (got, _) = queries::<MeterReading>(&["meter=ab", "day=20240501", "at=3..9"]);
    assert_eq!(got.len(), 4, "one a shard");
    assert_eq!(got, want.iter().map(|q| printed(q, false, true)).collect::<Vec<_>>());

    let keys = DynamoKeys::of(&BlobVersion::SCHEMA).unwrap();
    let want = keys.queries(&BlobVersion::scan().owner("o").ranges().unwrap()).unwrap();
    let (got, _) = queries::<BlobVersion>(&["owner=o", "--reverse"]);
    assert_eq!(got, want.iter().map(|q| printed(q, true, false)).collect::<Vec<_>>());

    // Shards at the partition key's end, random or computed: one query a shard as well.
    let keys = DynamoKeys::of(&SensorEvent::SCHEMA).unwrap();
    let want = keys.queries(&SensorEvent::scan().sensor("s").day(20240501).ranges().unwrap()).unwrap();
    let (got, _) = queries::<SensorEvent>(&["sensor=s", "day=20240501"]);
    assert_eq!(got.len(), 4, "one a shard");
    assert_eq!(got, want.iter().map(|q| printed(q, false, true)).collect::<Vec<_>>());
    let keys = DynamoKeys::of(&OrderLine::SCHEMA).unwrap();
    let want = keys.queries(&OrderLine::scan().day(2).order_range(5..).ranges().unwrap()).unwrap();
    let (got, _) = queries::<OrderLine>(&["day=2", "order=5.."]);
    assert_eq!(got.len(), 3, "one a shard");
    assert_eq!(got, want.iter().map(|q| printed(q, true, true)).collect::<Vec<_>>());
}

#[test]
fn a_half_open_range_says_which_item_to_drop() {
    let (got, notes) = queries::<TenantOrder>(&["tenant=acme", "day=1", "number=1..3"]);
    assert_eq!(got[0]["KeyConditionExpression"], "#pk = :pk AND #sk BETWEEN :lo AND :hi");
    assert!(
        notes.contains("query 1 of 1: BETWEEN reads the item whose sk is {\"S\":\"ORDER#0000000001#3\"}"),
        "{notes}"
    );
}

#[test]
fn a_scan_with_a_partition_field_open_or_a_schema_without_a_design_is_refused() {
    let out = rowkey()
        .args(["scan", "--schema"])
        .arg(schema_file::<MeterReading>())
        .args(["--dynamodb", "meter^=a"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("must fix every partition field (`meter`)"));
    let out = rowkey()
        .args(["scan", "--schema"])
        .arg(schema_file::<Reading>())
        .args(["--dynamodb", "device_type=phone"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("declares no DynamoDB keys"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
