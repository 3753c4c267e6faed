//! `rowkey scan`: the key ranges a query reads, from the schema file alone, as the arguments
//! of `cbt read` (or hex, or a Bigtable `RowSet` as JSON).

use std::io::Write;
use std::ops::Bound;
use std::path::PathBuf;

use rowkey::KeyRange;
use rowkey::key_text::KeyForm;
use rowkey::range::key_after;
use rowkey::schema::ScanNext;
use serde::Serialize;

use crate::json::{self, Spacing};
use crate::splits::shell_word;
use crate::{Failure, dynamodb, input, reveal};

/// Print the key ranges of a query: leading fields fixed, optionally a range, a text prefix or
/// a host and its sub-domains on the next one; for a salted key whose bucket is not fixed by
/// its fields, one range in each bucket.
#[derive(clap::Args)]
#[command(after_help = "Values are written as `rowkey encode` takes them. The last argument may be a range of the
field after the fixed ones: lo..hi (hi excluded), lo..=hi, lo.. or ..hi, in the field's value
order (a reversed time's later bound is the start of its keys; rowkey turns them round);
or name^=text for the values that start with the text (a String field), or name~=host for a
host and its sub-domains (a reverse_domain field: google.com finds maps.google.com).

Each range prints as a `cbt read` command when its bounds are printable, else as
`hex start=... end=...` (start included, end excluded; no bound when the range has none).
With --dynamodb, each DynamoDB query prints as one line of JSON for `aws dynamodb query
--cli-input-json`; a query whose BETWEEN reads one item past a half-open range says on
standard error which item to drop.

Exit status: 0 when the ranges are printed; 2 for a query that is not one (an unknown field,
a value that does not parse); 3 when no key can match the query (an empty range such as
`ts_millis=5..5`): it is said on standard error, naming the field, and nothing is printed,
since an empty RowSet reads every row of a table.

Examples:
  rowkey scan --schema reading.json --table readings device_type=phone device_id=4c410523
  rowkey scan --schema reading.json device_type=phone device_id=4c410523 ts_millis=1588291200000..1588377600000
  rowkey scan --schema reading.json --json device_type=phone
  rowkey scan --schema reading.json device_type^=ph
  rowkey scan --schema page.json host~=google.com
  rowkey scan --schema order.json --dynamodb --table app tenant=acme day=20240501..20240601")]
pub struct Args {
    /// The schema file: rowkey's (`T::SCHEMA.to_json()`) or a Bigtable row key schema (a
    /// table's `rowKeySchema`, or the table as `gcloud bigtable tables describe --format=json`
    /// prints it).
    #[arg(long)]
    schema: PathBuf,
    /// The table name in the cbt commands.
    #[arg(long, default_value = "TABLE")]
    table: String,
    /// Print a Bigtable RowSet in proto3 JSON (`{"rowRanges": [...]}`, keys in base64).
    #[arg(long)]
    json: bool,
    /// Print the DynamoDB queries instead, one a line, as `aws dynamodb query --cli-input-json`
    /// takes them (the schema's `dynamodb` design; `--table` names the table).
    #[arg(long)]
    dynamodb: bool,
    /// The partition key attribute's name, with `--dynamodb`.
    #[arg(long, default_value = "pk", requires = "dynamodb")]
    partition_key: String,
    /// The sort key attribute's name, with `--dynamodb`.
    #[arg(long, default_value = "sk", requires = "dynamodb")]
    sort_key: String,
    /// With `--dynamodb`, read each partition from its greatest sort key down (`ScanIndexForward: false`).
    #[arg(long, requires = "dynamodb")]
    reverse: bool,
    /// Print the ranges even when a field marked sensitive is given (its value is in them).
    #[arg(long)]
    reveal: bool,
    /// The fixed fields as `name=value`, in key order from the first; the last may be
    /// `name=lo..hi`, `name^=prefix` or `name~=host`.
    values: Vec<String>,
}

/// A `name=value` argument, split.
fn pair(arg: &str) -> Result<(&str, &str), Failure> {
    arg.split_once('=').ok_or_else(|| Failure::input(format!("{arg:?} is not a field value: write it as name=value")))
}

/// `lo..hi`, `lo..=hi`, `lo..`, `..hi` as bounds; `None` for a single value (quoted text
/// is always a single value, so text holding `..` can be fixed).
fn range_of(text: &str) -> Option<(Bound<&str>, Bound<&str>)> {
    if text.starts_with('"') {
        return None;
    }
    let (lo, hi) = text.split_once("..")?;
    let start = if lo.is_empty() { Bound::Unbounded } else { Bound::Included(lo) };
    let end = match hi.strip_prefix('=') {
        Some(hi) => Bound::Included(hi),
        None if hi.is_empty() => Bound::Unbounded,
        None => Bound::Excluded(hi),
    };
    Some((start, end))
}

/// The query on the field after the fixed ones, if `arg` is one: `name^=prefix`,
/// `name~=host` or `name=lo..hi`.
fn next_of(arg: &str) -> Result<Option<(&str, ScanNext<'_>)>, Failure> {
    let (name, text) = pair(arg)?;
    Ok(if let Some(name) = name.strip_suffix('^') {
        Some((name, ScanNext::StartsWith(text)))
    } else if let Some(name) = name.strip_suffix('~') {
        Some((name, ScanNext::HostAndSubdomains(text)))
    } else {
        range_of(text).map(|(lo, hi)| (name, ScanNext::Range(lo, hi)))
    })
}

pub fn run(args: Args) -> Result<u8, Failure> {
    let schema = input::schema(&args.schema)?;
    let (last, fixed) = match args.values.split_last() {
        Some((last, fixed)) => match next_of(last)? {
            Some(next) => (Some(next), fixed),
            None => (None, &args.values[..]),
        },
        None => (None, &args.values[..]),
    };
    let mut pairs = Vec::with_capacity(fixed.len());
    for arg in fixed {
        if let Some((name, _)) = next_of(arg)? {
            return Err(Failure::input(format!(
                "`{name}`: only the last argument can be a range, a prefix (^=) or a host (~=); quote a text value \
                 holding `..`"
            )));
        }
        pairs.push(pair(arg)?);
    }
    let given: Vec<&str> = pairs.iter().map(|(name, _)| *name).chain(last.as_ref().map(|(name, _)| *name)).collect();
    let sensitive: Vec<&str> =
        reveal::sensitive_fields(schema).into_iter().filter(|name| given.contains(name)).collect();
    if !args.reveal && !sensitive.is_empty() {
        return Err(reveal::withheld("the ranges", &sensitive));
    }
    let all = schema.scan_query(&pairs, last)?;
    let ranges: Vec<&KeyRange> = all.iter().filter(|r| !r.is_empty()).collect();
    if ranges.is_empty() {
        // Printed, no ranges would read as the whole table: a RowSet without ranges is every row.
        let why = schema.empty_scan(&pairs, last)?.map_or_else(|| "its ranges are empty".to_owned(), |e| e.to_string());
        return Err(Failure::no_match(format!(
            "no key can match: {why} (bounds go from low to high in the field's value order); nothing is printed, \
             as a store reads no ranges as every row"
        )));
    }
    let text = if args.dynamodb {
        let target = dynamodb::Target {
            table: &args.table,
            partition_key: &args.partition_key,
            sort_key: &args.sort_key,
            forward: !args.reverse,
        };
        let (text, notes) = dynamodb::queries(schema, &all, &target)?;
        for note in notes {
            eprintln!("{note}");
        }
        text
    } else if args.json {
        let row_set = RowSet { row_ranges: ranges.iter().map(|range| RowRange::of(range)).collect() };
        json::to_text(&row_set, Spacing::one_line()) + "\n"
    } else {
        ranges.iter().map(|range| cbt_line(range, &args.table) + "\n").collect()
    };
    // A reader that stops early (`| head`) is not an error: the ranges it took are printed.
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::input(format!("cannot write the ranges: {e}")))
        }
        _ => Ok(0),
    }
}

/// The range as `[start, end)`: what `cbt read` takes (its start is included, its end not).
fn half_open(range: &KeyRange) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let start = match range.start() {
        Bound::Included(k) => Some(k.to_vec()),
        Bound::Excluded(k) => Some(key_after(k).to_vec()),
        Bound::Unbounded => None,
    };
    let end = match range.end() {
        Bound::Excluded(k) => Some(k.to_vec()),
        Bound::Included(k) => Some(key_after(k).to_vec()),
        Bound::Unbounded => None,
    };
    (start, end)
}

fn cbt_line(range: &KeyRange, table: &str) -> String {
    let (start, end) = half_open(range);
    // cbt takes its arguments' bytes as they are, without escapes: a bound of other bytes
    // cannot be typed, so the line gives hex to pass on some other way.
    let printable = |key: &Option<Vec<u8>>| key.as_ref().is_none_or(|k| k.iter().all(|b| (0x21..0x7f).contains(b)));
    let mut words = Vec::new();
    if printable(&start) && printable(&end) {
        words.extend(["cbt".to_owned(), "read".to_owned(), shell_word(table)]);
        let text = |k: &[u8]| String::from_utf8_lossy(k).into_owned();
        words.extend(start.map(|k| shell_word(&format!("start={}", text(&k)))));
        words.extend(end.map(|k| shell_word(&format!("end={}", text(&k)))));
    } else {
        words.push("hex".to_owned());
        words.extend(start.map(|k| format!("start={}", KeyForm::Hex.format(&k))));
        words.extend(end.map(|k| format!("end={}", KeyForm::Hex.format(&k))));
    }
    words.join(" ")
}

/// A `RowSet` of Bigtable's v2 API in proto3 JSON.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RowSet {
    row_ranges: Vec<RowRange>,
}

/// One `RowRange` of Bigtable's v2 API in proto3 JSON: bytes in base64, at most one start and
/// one end (none for an unbounded side), the start first.
#[derive(Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct RowRange {
    #[serde(skip_serializing_if = "Option::is_none")]
    start_key_closed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_key_open: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_key_open: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_key_closed: Option<String>,
}

impl RowRange {
    fn of(range: &KeyRange) -> RowRange {
        let b64 = |k: &[u8]| Some(KeyForm::Base64.format(k));
        let mut row_range = RowRange::default();
        match range.start() {
            Bound::Included(k) => row_range.start_key_closed = b64(k),
            Bound::Excluded(k) => row_range.start_key_open = b64(k),
            Bound::Unbounded => {}
        }
        match range.end() {
            Bound::Excluded(k) => row_range.end_key_open = b64(k),
            Bound::Included(k) => row_range.end_key_closed = b64(k),
            Bound::Unbounded => {}
        }
        row_range
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_from_the_last_argument() {
        assert_eq!(range_of("1..5"), Some((Bound::Included("1"), Bound::Excluded("5"))));
        assert_eq!(range_of("1..=5"), Some((Bound::Included("1"), Bound::Included("5"))));
        assert_eq!(range_of("..5"), Some((Bound::Unbounded, Bound::Excluded("5"))));
        assert_eq!(range_of("a.."), Some((Bound::Included("a"), Bound::Unbounded)));
        assert_eq!(range_of("\"a..b\""), None);
        assert_eq!(range_of("phone"), None);
    }
}
