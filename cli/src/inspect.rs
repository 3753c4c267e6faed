//! `rowkey inspect`: keys read field by field, and where those that do not match stop matching.

use std::io::{self, Write};
use std::path::PathBuf;

use rowkey::key_text::KeyForm;
use rowkey::schema::{InspectedField, Inspection, KeyField, KeyPlan, Schema, Transform, Value};
use serde::{Serialize, Serializer};

use crate::json::{self, Spacing};
use crate::{Failure, input, reveal};

/// The most keys the exit status counts: statuses above 125 mean other things to a shell.
const MAX_STATUS: usize = 125;

/// Print each key's fields; the exit status is the number of keys that do not match (at most 125).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rowkey inspect --schema reading.json '01#phone#4c410523#9223370448563575807'
  cbt read readings count=10 | rowkey inspect --schema reading.json
  rowkey inspect --schema reading.json --from hex --json 3031237068...
  rowkey inspect --schema reading.json --time-unit ms '01#phone#4c410523#9223370448563575807'")]
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
    /// Read `reverse`d integer fields (`i64::MAX - ts`) as times since the epoch in this unit,
    /// and print each as a UTC time beside its value (under "times" with `--json`). The schema
    /// holds such a field as an integer, which has no unit of its own.
    #[arg(long, value_name = "s|ms|us|ns")]
    time_unit: Option<TimeUnit>,
    /// Show the values of fields marked sensitive, and echo the keys as given; without it a
    /// sensitive field shows as `<redacted, N bytes>` and keys are echoed as their number.
    #[arg(long)]
    reveal: bool,
    /// The keys; without any, one a line from standard input, or `cbt read` output.
    keys: Vec<String>,
}

pub fn run(args: Args) -> Result<u8, Failure> {
    let schema = input::schema(&args.schema)?;
    // One buffered writer: a line-buffered `println!` is a system call a key, half the time
    // of a million keys.
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    match print_all(&args, schema, &mut out).and_then(|failed| Ok(out.flush().map(|()| failed)?)) {
        Ok(failed) => Ok(u8::try_from(failed.min(MAX_STATUS)).unwrap_or(u8::MAX)),
        // The reader went away (`| head`): nothing more to say to it.
        Err(Printing::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(0),
        Err(Printing::Write(e)) => Err(Failure::input(format!("cannot write the fields: {e}"))),
        Err(Printing::Input(failure)) => Err(failure),
    }
}

/// Why printing stopped.
enum Printing {
    Input(Failure),
    Write(io::Error),
}

impl From<io::Error> for Printing {
    fn from(e: io::Error) -> Printing {
        Printing::Write(e)
    }
}

/// Prints every key's fields to `out`; the number of keys that do not match.
fn print_all(args: &Args, schema: &Schema, out: &mut impl Write) -> Result<usize, Printing> {
    let mut failed = 0;
    let plan = KeyPlan::new(schema);
    for (i, (text, key)) in input::keys(&args.keys, args.from).map_err(Printing::Input)?.into_iter().enumerate() {
        let inspection = key.and_then(|key| plan.inspect(&key));
        let text = reveal::key_text(schema, args.reveal, i + 1, &text);
        match inspection {
            Ok(inspection) if args.json => {
                let times = args.time_unit.map(|unit| Times(&inspection, unit, args.reveal));
                let line = Line { key: &text, fields: Fields(&inspection, args.reveal), times };
                writeln!(out, "{}", json::to_text(&line, Spacing::one_line()))?;
            }
            Ok(inspection) if args.time_unit.is_some() => {
                let times: Vec<(&str, String)> = times(&inspection, args.time_unit, args.reveal).collect();
                let fields: Vec<String> = inspection
                    .fields()
                    .iter()
                    .map(|f| match times.iter().find(|(name, _)| *name == f.name()) {
                        // `name=value (reversed)` becomes `name=value (reversed, time)`.
                        Some((_, time)) => {
                            let shown = shown(f, args.reveal);
                            format!("{}, {time})", shown.strip_suffix(')').unwrap_or(&shown))
                        }
                        None => shown(f, args.reveal),
                    })
                    .collect();
                writeln!(out, "{}", fields.join(" "))?;
            }
            Ok(inspection) if args.reveal => writeln!(out, "{}", inspection.revealed())?,
            Ok(inspection) => writeln!(out, "{inspection}")?,
            Err(e) => {
                failed += 1;
                // What came before first, so that a terminal shows the error where it arose.
                out.flush()?;
                eprintln!("rowkey: key {} ({text}) does not match {}: {e}", i + 1, schema.type_name);
                if args.json {
                    let line = Mismatch { key: &text, error: e.to_string() };
                    writeln!(out, "{}", json::to_text(&line, Spacing::one_line()))?;
                }
            }
        }
    }
    Ok(failed)
}

/// A `--json` line of a key that matches.
#[derive(Serialize)]
struct Line<'a> {
    /// The key as it was given.
    key: &'a str,
    fields: Fields<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    times: Option<Times<'a>>,
}

/// A `--json` line of a key that does not match: the same words as standard error.
#[derive(Serialize)]
struct Mismatch<'a> {
    key: &'a str,
    error: String,
}

/// A key's field values as text (what `encode` reads back), by name, in key order; a
/// sensitive field's as `<redacted, N bytes>` unless revealed.
struct Fields<'a>(&'a Inspection, bool);

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = |field: &InspectedField| {
            if field.is_sensitive() && !self.1 { field.redacted().to_string() } else { field.value_text() }
        };
        serializer.collect_map(self.0.fields().iter().map(|field| (field.name(), text(field))))
    }
}

/// `name=value` as `Display` writes it, or with a sensitive field's value when revealed.
fn shown(field: &InspectedField, reveal: bool) -> String {
    if reveal && field.is_sensitive() {
        // Only the name and value: a sensitive field's notes are the same either way, and
        // `revealed` is the whole inspection's.
        let mut text = field.to_string();
        let redacted = format!("{}={}", field.name(), field.redacted());
        let value = format!("{}={}", field.name(), field.value_text());
        text.replace_range(..redacted.len(), &value);
        text
    } else {
        field.to_string()
    }
}

/// The reversed integer fields of a key as UTC times in a unit, by name, in key order; a
/// sensitive one only when revealed.
struct Times<'a>(&'a Inspection, TimeUnit, bool);

impl Serialize for Times<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(times(self.0, Some(self.1), self.2))
    }
}

/// The unit of `--time-unit`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum TimeUnit {
    S,
    Ms,
    Us,
    Ns,
}

impl TimeUnit {
    fn nanos(self) -> i128 {
        match self {
            TimeUnit::S => 1_000_000_000,
            TimeUnit::Ms => 1_000_000,
            TimeUnit::Us => 1_000,
            TimeUnit::Ns => 1,
        }
    }
}

/// The reversed integer fields of `inspection` as UTC times in `unit`, by field name. A
/// sensitive field's time is its value in another form, so it is left out unless revealed.
fn times(
    inspection: &Inspection,
    unit: Option<TimeUnit>,
    reveal: bool,
) -> impl Iterator<Item = (&'static str, String)> + '_ {
    inspection.fields().iter().filter_map(move |field| {
        let unit = unit?;
        if field.is_sensitive() && !reveal {
            return None;
        }
        let (KeyField::Value(schema), Value::Int(n)) = (field.key_field(), field.value()) else { return None };
        if !matches!(schema.transform, Transform::Reverse { .. }) {
            return None;
        }
        // RFC 3339 has years 0000 to 9999; an integer outside them was no time in this unit.
        const SECONDS: std::ops::RangeInclusive<i128> = -62_167_219_200..=253_402_300_799;
        let time = match n.checked_mul(unit.nanos()) {
            Some(nanos) if SECONDS.contains(&nanos.div_euclid(1_000_000_000)) => {
                Value::TimestampNanos(nanos).to_string()
            }
            _ => "not a time in this unit".to_owned(),
        };
        Some((field.name(), time))
    })
}
