//! `rowkey encode`: the key of given field values, for shell scripts and other languages' tests.

use std::path::PathBuf;

use rowkey::key_text::KeyForm;
use rowkey::schema::{InspectedField, Schema, Value};

use crate::{Failure, input, reveal};

/// Print the key of the given field values (the prefix and salt bucket are computed).
#[derive(clap::Args)]
#[command(after_help = "Values are written as `rowkey inspect` prints them: text as is or quoted, `null` for None,
integers in decimal (hex fields in hex), instants in RFC 3339 UTC, bytes as b\"\\x00...\".

Examples:
  rowkey encode --schema reading.json device_type=phone device_id=4c410523 ts_millis=1588291200000
  rowkey encode --schema reading.json --to base64 device_type=phone device_id=4c410523 ts_millis=0")]
pub struct Args {
    /// The schema file: rowkey's (`T::SCHEMA.to_json()`) or a Bigtable row key schema (a
    /// table's `rowKeySchema`, or the table as `gcloud bigtable tables describe --format=json`
    /// prints it).
    #[arg(long)]
    schema: PathBuf,
    /// How to print the key: as cbt prints keys, hex or base64.
    #[arg(long, default_value = "cbt")]
    to: KeyForm,
    /// Print the key even when it holds a field marked sensitive.
    #[arg(long)]
    reveal: bool,
    /// Every field as `name=value`.
    #[arg(required = true)]
    values: Vec<String>,
}

pub fn run(args: Args) -> Result<u8, Failure> {
    let schema = input::schema(&args.schema)?;
    let pairs = args
        .values
        .iter()
        .enumerate()
        .map(|(index, pair)| {
            // The argument may be a sensitive field's value with its `name=` forgotten: it is
            // named by its position, not echoed.
            pair.split_once('=')
                .ok_or_else(|| Failure::input(format!("value {} has no `=`: write it as name=value", index + 1)))
        })
        .collect::<Result<Vec<(&str, &str)>, Failure>>()?;
    // A value that does not fit is reported as itself first (`encode` keeps sensitive values
    // out of its errors), whether or not the key could be printed.
    let key = schema.encode(&pairs)?;
    if !args.reveal {
        let shown = shown_sensitive_fields(schema, &key)?;
        if !shown.is_empty() {
            return Err(reveal::withheld("the key", &shown));
        }
    }
    println!("{}", args.to.format(&key));
    Ok(0)
}

/// The sensitive fields whose value the key holds. An absent one (the `None` of an optional
/// field) writes no value, so a key whose sensitive fields are all absent is printed as is.
fn shown_sensitive_fields(schema: &Schema, key: &[u8]) -> Result<Vec<&'static str>, Failure> {
    let inspection = schema.inspect(key)?;
    Ok(inspection
        .fields()
        .iter()
        .filter(|field| field.is_sensitive() && *field.value() != Value::Null)
        .map(InspectedField::name)
        .collect())
}
