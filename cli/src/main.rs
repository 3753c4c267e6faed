//! `rowkey`: read, build, split and scan row keys from a key design's schema file, from a shell.
//!
//! The schema file is what `T::SCHEMA.to_json()` writes for a `#[derive(RowKey)]` key
//! (feature `schema-json` of rowkey), or a table's Bigtable row key schema. Every subcommand
//! takes it with `--schema FILE`.

mod dynamodb;
mod encode;
mod input;
mod inspect;
mod json;
mod migrate;
mod reveal;
mod scan;
mod splits;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "rowkey", version, about = "Read, build and split row keys from a key design's schema file")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Inspect(inspect::Args),
    Encode(encode::Args),
    Splits(splits::Args),
    Scan(scan::Args),
    Migrate(migrate::Args),
}

/// What a subcommand failed on: one line for the user, and the exit status.
pub struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    /// Bad input: a file, a key or a value the user must fix.
    pub fn input(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), status: 2 }
    }

    /// A query no key can match: not a failure to print its ranges, so a status of its own.
    pub fn no_match(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), status: 3 }
    }
}

impl From<rowkey::Error> for Failure {
    fn from(e: rowkey::Error) -> Failure {
        Failure::input(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Inspect(args) => inspect::run(args),
        Command::Encode(args) => encode::run(args),
        Command::Splits(args) => splits::run(args),
        Command::Scan(args) => scan::run(args),
        Command::Migrate(args) => migrate::run(args),
    };
    match result {
        Ok(status) => ExitCode::from(status),
        Err(failure) => {
            eprintln!("rowkey: {}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}
