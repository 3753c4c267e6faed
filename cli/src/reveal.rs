//! `--reveal`: what the command shows of fields marked `sensitive`.
//!
//! Without it, nothing the command prints holds such a field's value: `inspect` shows its
//! length in its place and does not echo the keys it was given, and a subcommand whose output
//! is a key or a range holding the value (`encode`, `scan` with the field given, `splits
//! --sample`, `migrate plan --source`'s split points and a sensitive field's `--default`)
//! prints nothing of it and says why. The terminal, the shell's history of outputs and a
//! CI log are all places the value would otherwise land. A key whose sensitive fields are all
//! absent (an `Option`'s `None`) holds none of their values, and `encode` prints it.

use rowkey::schema::{KeyField, Schema};

use crate::Failure;

/// The key names of the schema's sensitive fields, in key order.
pub fn sensitive_fields(schema: &Schema) -> Vec<&'static str> {
    schema
        .key_fields()
        .into_iter()
        .filter_map(|field| match field {
            KeyField::Value(field) if field.sensitive => Some(field.name),
            _ => None,
        })
        .collect()
}

/// The refusal to print `what`, which would hold the values of `fields`.
pub fn withheld(what: &str, fields: &[&str]) -> Failure {
    let names: Vec<String> = fields.iter().map(|name| format!("`{name}`")).collect();
    let fields = if fields.len() == 1 { "value of the sensitive field" } else { "values of the sensitive fields" };
    Failure::input(format!(
        "{what} would show the {fields} {}, so nothing is printed; give --reveal to print it",
        names.join(", ")
    ))
}

/// A key as given on the command line or read from standard input, as the command echoes it:
/// as it was written, or, when the schema has sensitive fields and `--reveal` is not given,
/// its number and length only.
pub fn key_text(schema: &Schema, reveal: bool, number: usize, text: &str) -> String {
    if reveal || !schema.has_sensitive_fields() {
        text.to_owned()
    } else {
        format!("<key {number}: redacted, {} characters>", text.chars().count())
    }
}
