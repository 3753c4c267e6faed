//! Reading what the user gives: the schema file, and keys from arguments or standard input.

use std::io::BufRead;
use std::path::Path;

use rowkey::key_text::KeyForm;
use rowkey::schema::Schema;

use crate::Failure;

/// The schema file at `path`: rowkey's own (`T::SCHEMA.to_json()`), or Bigtable's row key
/// schema (a table's `rowKeySchema`, or the whole table as `gcloud bigtable tables describe
/// --format=json` prints it).
pub fn schema(path: &Path) -> Result<&'static Schema, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot read the schema file {}: {e}", path.display())))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Failure::input(format!("{} is not a schema file: not JSON ({e})", path.display())))?;
    let bigtable =
        json.get("rowkey_schema").is_none() && (json.get("rowKeySchema").is_some() || json.get("encoding").is_some());
    let read = if bigtable { Schema::from_bigtable_json(&text) } else { Schema::from_json(&text) };
    read.map_err(|e| {
        let kind = if bigtable { "Bigtable row key schema" } else { "rowkey schema file" };
        Failure::input(format!(
            "{} is not a {kind}: {e} (a schema file is what `T::SCHEMA.to_json()` or `to_bigtable_json()` of the \
             key type writes)",
            path.display()
        ))
    })
}

/// A key as given, and its bytes or why the text is not a key in the form.
pub type GivenKey = (String, Result<rowkey::Key, rowkey::Error>);

/// The keys given as arguments, or else read from standard input: one a line, or the row
/// keys of `cbt read` output (the line after each line of dashes).
pub fn keys(args: &[String], form: KeyForm) -> Result<Vec<GivenKey>, Failure> {
    let lines: Vec<String> = if args.is_empty() {
        let stdin = std::io::stdin().lock();
        let lines = stdin
            .lines()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Failure::input(format!("cannot read keys from standard input: {e}")))?;
        rows(lines)
    } else {
        args.to_vec()
    };
    Ok(lines
        .into_iter()
        .map(|text| {
            let key = form.parse(&text);
            (text, key)
        })
        .collect())
}

/// Keys from lines: `cbt read` output when a line of dashes separates rows, else every
/// non-empty line.
fn rows(lines: Vec<String>) -> Vec<String> {
    let is_rule = |line: &str| line.len() >= 8 && line.bytes().all(|b| b == b'-');
    if lines.iter().any(|line| is_rule(line)) {
        lines.windows(2).filter(|pair| is_rule(&pair[0])).map(|pair| pair[1].clone()).collect()
    } else {
        lines.into_iter().filter(|line| !line.is_empty()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbt_read_output_gives_its_row_keys() {
        let output = "----------------------------------------\n01#phone#4c410523#9223370448563575807\n  stats:temp                               @ 2020/05/01-00:00:00.000000\n    \"21.5\"\n----------------------------------------\n02#watch#00000001#9223370448563575807\n  stats:temp                               @ 2020/05/01-00:00:00.000000\n    \"19\"\n";
        let lines = output.lines().map(str::to_owned).collect();
        assert_eq!(rows(lines), ["01#phone#4c410523#9223370448563575807", "02#watch#00000001#9223370448563575807"]);
        assert_eq!(rows(vec!["a".into(), String::new(), "b".into()]), ["a", "b"]);
    }
}
