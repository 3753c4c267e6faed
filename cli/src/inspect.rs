//! `rowkey inspect`: keys read field by field, and where those that do not match stop matching.

use std::path::PathBuf;

use rowkey::key_text::KeyForm;

use crate::{Failure, input};

/// The most keys the exit status counts: statuses above 125 mean other things to a shell.
const MAX_STATUS: usize = 125;

/// Print each key's fields; the exit status is the number of keys that do not match (at most 125).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rowkey inspect --schema reading.json '01#phone#4c410523#9223370448563575807'
  cbt read readings count=10 | rowkey inspect --schema reading.json
  rowkey inspect --schema reading.json --from hex --json 3031237068...")]
pub struct Args {
    /// The schema file: rowkey's (`T::SCHEMA.to_json()`) or a Bigtable row key schema (a
    /// table's `rowKeySchema`, or the table as `gcloud bigtable tables describe --format=json`
    /// prints it).
    #[arg(long)]
    schema: PathBuf,
    /// How the keys are written: as cbt prints them (`\x00` escapes), hex or base64.
    #[arg(long, default_value = "cbt")]
    from: KeyForm,
    /// One JSON object a line: the key and its fields as text.
    #[arg(long)]
    json: bool,
    /// The keys; without any, one a line from standard input, or `cbt read` output.
    keys: Vec<String>,
}

pub fn run(args: Args) -> Result<u8, Failure> {
    let schema = input::schema(&args.schema)?;
    let mut failed = 0;
    for (i, (text, key)) in input::keys(&args.keys, args.from)?.into_iter().enumerate() {
        let inspection = key.and_then(|key| schema.inspect(&key));
        match inspection {
            Ok(inspection) if args.json => {
                let fields: Vec<String> = inspection
                    .fields()
                    .iter()
                    .map(|f| format!("{}: {}", json_string(f.name()), json_string(&f.value_text())))
                    .collect();
                println!("{{\"key\": {}, \"fields\": {{{}}}}}", json_string(&text), fields.join(", "));
            }
            Ok(inspection) => println!("{inspection}"),
            Err(e) => {
                failed += 1;
                eprintln!("rowkey: key {} ({text}) does not match {}: {e}", i + 1, schema.type_name);
                if args.json {
                    println!("{{\"key\": {}, \"error\": {}}}", json_string(&text), json_string(&e.to_string()));
                }
            }
        }
    }
    Ok(u8::try_from(failed.min(MAX_STATUS)).unwrap_or(u8::MAX))
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
