//! `rowkey encode`: the key of given field values, for shell scripts and other languages' tests;
//! without values, the keys of value sets read a line each from standard input ([`batch`]).

mod batch;

use std::path::PathBuf;

use rowkey::key_text::KeyForm;
use rowkey::schema::KeyPlan;

use crate::{Failure, input, reveal};

/// Print the key of the given field values (the prefix and salt bucket are computed); without
/// values, the key of each line of standard input, a JSON object of field names to values.
#[derive(clap::Args)]
#[command(after_help = "Values are written as `rowkey inspect` prints them: text as is or quoted, `null` for None,
integers in decimal (hex fields in hex), instants in RFC 3339 UTC, bytes as b\"\\x00...\".

Without values, each line of standard input is a JSON object of field names to values, the
values strings as `rowkey inspect --json` prints them (integers, true, false and null as JSON
too), and each key is printed on a line of its own. A line that fails is named by its number
on standard error and the rest go on (--fail-fast stops there); blank lines are skipped. The
exit status is the number of lines that failed (at most 125).

Examples:
  rowkey encode --schema reading.json device_type=phone device_id=4c410523 ts_millis=1588291200000
  rowkey encode --schema reading.json --to base64 device_type=phone device_id=4c410523 ts_millis=0
  printf '{\"device_type\": \"phone\", \"device_id\": \"4c410523\", \"ts_millis\": 0}\\n' | rowkey encode --schema reading.json
  rowkey inspect --json --schema reading.json < keys.txt | jq -c .fields | rowkey encode --schema reading.json")]
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
    /// Without values: stop at the first line that fails.
    #[arg(long, conflicts_with = "values")]
    fail_fast: bool,
    /// Every field as `name=value`; without any, one JSON object a line from standard input.
    values: Vec<String>,
}

pub fn run(args: Args) -> Result<u8, Failure> {
    let schema = input::schema(&args.schema)?;
    if args.values.is_empty() {
        let options = batch::Options { to: args.to, reveal: args.reveal, fail_fast: args.fail_fast };
        return batch::run(schema, &options, std::io::stdin().lock(), std::io::stdout().lock());
    }
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
    let plan = KeyPlan::new(schema);
    let key = plan.encode(&pairs)?;
    if !args.reveal {
        let shown = batch::shown_sensitive_fields(&plan, &key)?;
        if !shown.is_empty() {
            return Err(reveal::withheld("the key", &shown));
        }
    }
    println!("{}", args.to.format(&key));
    Ok(0)
}
