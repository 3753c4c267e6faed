//! How a key is labelled in a report and on its heatmap: by its fields, never showing a
//! sensitive one.

use crate::key::Key;
use crate::schema::Schema;
use crate::splits::point_label;

/// Key labels longer than this are cut, so that they fit the left margin.
pub(super) const LABEL_CHARS: usize = 32;

/// A key as a label shows it: its fields when it is a key of the schema, a sensitive field
/// redacted; a key of no schema as its escaped bytes.
pub(super) fn key_label(schema: Option<&Schema>, key: &Key) -> String {
    match schema.map(|schema| schema.inspect(key)) {
        Some(Ok(inspection)) => {
            // Whole fields that fit, leading ones first: they place the key; a field cut
            // in the middle would read as another value.
            let mut label = String::new();
            for field in inspection.fields() {
                let part = if field.is_sensitive() {
                    format!("{}={}", field.name(), field.redacted())
                } else {
                    format!("{}={}", field.name(), field.value_text())
                };
                if !label.is_empty() && label.chars().count() + 1 + part.chars().count() > LABEL_CHARS - 2 {
                    label.push_str(" …");
                    break;
                }
                if !label.is_empty() {
                    label.push(' ');
                }
                label.push_str(&part);
            }
            label
        }
        // A key that is not one of the schema's could still hold a sensitive field's bytes.
        _ => match schema.and_then(|schema| point_label(schema, key)) {
            Some(label) => label,
            None if schema.is_some_and(Schema::has_sensitive_fields) => {
                format!("<key redacted, {} bytes>", key.len())
            }
            None => key.to_string(),
        },
    }
}
