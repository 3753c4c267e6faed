//! `rowkey splits`: a table's initial split points, in the form the store's tool takes.

use std::path::PathBuf;

use clap::ValueEnum;
use rowkey::key_text::KeyForm;
use rowkey::splits::Splits;
use serde::Serialize;

use crate::json::{self, Spacing};
use crate::{Failure, input, reveal};

/// Print initial split points: at the salt's bucket boundaries, inside buckets, or at the
/// quantiles of a sample of keys.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rowkey splits --schema reading.json --for cbt --table readings
  rowkey splits --schema reading.json --per-bucket 3 --for bigtable > splits.json
  rowkey splits --schema reading.json --sample keys.txt --tablets 32 --for hbase")]
pub struct Args {
    /// The schema file: rowkey's (`T::SCHEMA.to_json()`) or a Bigtable row key schema (a
    /// table's `rowKeySchema`, or the table as `gcloud bigtable tables describe --format=json`
    /// prints it).
    #[arg(long)]
    schema: PathBuf,
    /// More splits inside each bucket, along the field after it (hex, zero-padded decimal,
    /// fixed-width bytes or UUID).
    #[arg(long, default_value_t = 0)]
    per_bucket: u32,
    /// Group the buckets into this many tablets; with --sample, the tablets to cut the sample into.
    #[arg(long)]
    tablets: Option<u32>,
    /// A file of real keys, one a line (in the --from form): split at their quantiles.
    #[arg(long)]
    sample: Option<PathBuf>,
    /// How the sample's keys are written.
    #[arg(long, default_value = "cbt")]
    from: KeyForm,
    /// The store's form: the Admin API's JSON, the cbt command, HBase shell SPLITS, Terraform split_keys.
    #[arg(long = "for")]
    target: Target,
    /// Print the split points of --sample even when the key has fields marked sensitive (the
    /// points are keys of the sample, so they hold those fields' values).
    #[arg(long)]
    reveal: bool,
    /// The table name in the cbt command.
    #[arg(long, default_value = "TABLE")]
    table: String,
}

#[derive(Clone, Copy, ValueEnum)]
enum Target {
    Bigtable,
    Cbt,
    Hbase,
    Terraform,
}

pub fn run(args: Args) -> Result<u8, Failure> {
    let schema = input::schema(&args.schema)?;
    let splits = match &args.sample {
        Some(path) => {
            let sensitive = reveal::sensitive_fields(schema);
            if !args.reveal && !sensitive.is_empty() {
                return Err(reveal::withheld("a split point from the sample", &sensitive));
            }
            let tablets = args
                .tablets
                .ok_or_else(|| Failure::input("--sample needs --tablets N: how many tablets to cut it into"))?;
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::input(format!("cannot read the sample {}: {e}", path.display())))?;
            let keys = text
                .lines()
                .filter(|line| !line.is_empty())
                .enumerate()
                .map(|(i, line)| {
                    args.from.parse(line).map_err(|e| Failure::input(format!("{} line {}: {e}", path.display(), i + 1)))
                })
                .collect::<Result<Vec<_>, Failure>>()?;
            Splits::from_sample(&keys, tablets as usize)
        }
        // The library's refusal names its own calls; on the command line the fix is an option.
        None if schema.salt.is_none() && args.per_bucket == 0 => {
            return Err(Failure::input(format!(
                "`{}` has no salt, so it has no bucket boundaries (a Bigtable row key schema never has one: \
                 rowkey's schema file of the key does): split it with --per-bucket K along a hex, zero-padded \
                 or fixed-width first field, or at the quantiles of --sample FILE --tablets N",
                schema.type_name
            )));
        }
        None => {
            let mut planner = schema.split_planner().per_bucket(args.per_bucket);
            if let Some(tablets) = args.tablets {
                planner = planner.tablets(tablets);
            }
            planner.plan()?
        }
    };
    match args.target {
        Target::Bigtable => println!("{}", bigtable_json(&splits)),
        Target::Cbt => println!("cbt createtable {} {}", shell_word(&args.table), shell_word(&splits.to_cbt_arg()?)),
        Target::Hbase => println!("{}", splits.to_hbase()),
        Target::Terraform => println!("{}", splits.to_terraform()?),
    }
    Ok(0)
}

/// The Admin API's `initialSplits`, keys in base64.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitialSplits {
    initial_splits: Vec<Split>,
}

#[derive(Serialize)]
struct Split {
    key: String,
}

/// The Admin API's `initialSplits`, laid out as `Splits::to_bigtable_json` lays them out: one
/// split a line.
fn bigtable_json(splits: &Splits) -> String {
    let points = splits.points().iter().map(|point| Split { key: KeyForm::Base64.format(point) });
    // The object is depth 1, its array 2: each split, at depth 3, on one line.
    json::to_text(&InitialSplits { initial_splits: points.collect() }, Spacing::lined_to(2))
}

/// `word` as one shell word: as is when no character of it means anything to the shell,
/// else single-quoted.
pub fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"#%+,-./:=@_".contains(&b)) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bigtable_json_is_the_admin_apis_initial_splits() {
        for points in [vec![], vec![vec![0u8, 0xff, b'"']], vec![b"01#".to_vec(), b"02#".to_vec(), vec![0x80; 7]]] {
            let splits = Splits::new(points.clone());
            let text = bigtable_json(&splits);
            assert_eq!(text, splits.to_bigtable_json());
            let read: serde_json::Value = serde_json::from_str(&text).unwrap();
            let keys: Vec<Vec<u8>> = read["initialSplits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| KeyForm::Base64.parse(p["key"].as_str().unwrap()).unwrap().to_vec())
                .collect();
            assert_eq!(keys, points);
        }
    }
}
