//! `rowkey encode`: the key of given field values, for shell scripts and other languages' tests.

use std::path::PathBuf;

use rowkey::key_text::KeyForm;

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
    let sensitive = reveal::sensitive_fields(schema);
    if !args.reveal && !sensitive.is_empty() {
        return Err(reveal::withheld("the key", &sensitive));
    }
    let pairs = args
        .values
        .iter()
        .map(|pair| {
            pair.split_once('=')
                .ok_or_else(|| Failure::input(format!("{pair:?} is not a field value: write it as name=value")))
        })
        .collect::<Result<Vec<(&str, &str)>, Failure>>()?;
    let key = schema.encode(&pairs)?;
    println!("{}", args.to.format(&key));
    Ok(0)
}
