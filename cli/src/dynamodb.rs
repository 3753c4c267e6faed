//! `rowkey scan --dynamodb`: a scan's DynamoDB queries, one a line, as the JSON the AWS CLI
//! takes (`aws dynamodb query --cli-input-json "$line"`), from the schema file's `dynamodb`
//! design and the crate's exact conditions.

use rowkey::dynamodb::{AttributeType, DynamoKeys, KeyQuery};
use rowkey::key::Key;
use rowkey::key_text::KeyForm;
use rowkey::range::KeyRanges;
use rowkey::schema::Schema;
use serde_json::{Map, Value, json};

use crate::Failure;

/// Where the queries go and how they read.
pub struct Target<'a> {
    pub table: &'a str,
    pub partition_key: &'a str,
    pub sort_key: &'a str,
    /// `ScanIndexForward`.
    pub forward: bool,
}

/// The queries of `ranges` as lines of JSON, and a note for each query that reads one item
/// past its range (the item to drop, which the JSON cannot say).
pub fn queries(
    schema: &'static Schema,
    ranges: &KeyRanges,
    target: &Target<'_>,
) -> Result<(String, Vec<String>), Failure> {
    let keys = DynamoKeys::of(schema).map_err(|e| Failure::input(e.to_string()))?;
    let queries = keys.queries(ranges).map_err(|e| Failure::input(e.to_string()))?;
    let ty = keys.attribute_type();
    let mut text = String::new();
    let mut notes = Vec::new();
    for (index, query) in queries.iter().enumerate() {
        text.push_str(&line(query, ty, target).to_string());
        text.push('\n');
        if let Some(drop) = &query.drop {
            notes.push(format!(
                "query {} of {}: BETWEEN reads the item whose {} is {}, past the range; drop it from what the query returns",
                index + 1,
                queries.len(),
                target.sort_key,
                value(drop, ty)
            ));
        }
    }
    Ok((text, notes))
}

/// An attribute value in DynamoDB's JSON: `{"S": text}` or `{"B": base64}`.
fn value(bytes: &Key, ty: AttributeType) -> Value {
    match ty {
        AttributeType::String => json!({ "S": String::from_utf8_lossy(bytes.as_bytes()) }),
        AttributeType::Binary => json!({ "B": KeyForm::Base64.format(bytes.as_bytes()) }),
    }
}

fn line(query: &KeyQuery, ty: AttributeType, target: &Target<'_>) -> Value {
    let (expression, placed) = query.key_condition();
    let mut names = Map::new();
    names.insert("#pk".into(), target.partition_key.into());
    if query.sort.is_some() {
        names.insert("#sk".into(), target.sort_key.into());
    }
    let values: Map<String, Value> = placed.into_iter().map(|(at, v)| (at.to_owned(), value(v, ty))).collect();
    json!({
        "TableName": target.table,
        "KeyConditionExpression": expression,
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values,
        "ScanIndexForward": target.forward,
    })
}
