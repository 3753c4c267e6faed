//! What a re-key reports when the new key cannot be written. `Schema::encode` finds an integer
//! beyond its field's type only by reading the key back, or in a format's writer, so its
//! message speaks of digits or of decoding into a wider type: a re-key says what happened
//! instead, that an old value does not fit the new field's type, and what to change. And the
//! new design redacts only its own sensitive fields: a value moved from an old field marked
//! sensitive into a new field that is not is taken out here.

use super::{Rekey, Source, value_fields};
use crate::error::{Error, Location};
// The schema's words for a withheld value, so that its redaction keeps a message made here.
use crate::schema::{FieldSchema, Inspection, Value, WITHHELD, bare_type, int_range};

impl Rekey {
    /// `fault`, the encoder's, as a re-key reports it: see the module's text.
    pub(super) fn encode_fault(&self, old: &Inspection, computed: &[Value], fault: Error) -> Error {
        let fault = self.beyond_type(old, computed, fault);
        self.redact_moved(fault)
    }

    /// `fault`, or, when it is about a value moved into a field whose integer type cannot
    /// hold it, an error that says so. `computed` holds the computed fields' values in order.
    fn beyond_type(&self, old: &Inspection, computed: &[Value], fault: Error) -> Error {
        let mut computed = computed.iter();
        let at = fault.location().name();
        for (i, (field, source)) in self.targets.iter().enumerate() {
            let found = match source {
                Source::Field(name) => {
                    let from = value_fields(self.from).into_iter().find(|f| f.name == *name);
                    old.value(name).and_then(|value| beyond_type(field, from, value))
                }
                Source::Fixed(_) => None,
                Source::Computed(_) => computed.next().and_then(|value| beyond_type(field, None, value)),
            };
            if let Some(found) = found {
                // The first fault in key order is the one reported: the encoder's, when it is
                // about a field before this one.
                let before = self.targets[..i].iter().any(|(earlier, _)| at == Some(earlier.name));
                if before {
                    return fault;
                }
                // At the field and byte the encoder found it, when it found it at this field.
                let place = fault.location();
                return match (place.name() == Some(field.name), place.field(), place.offset()) {
                    (true, Some(index), Some(offset)) => found.in_field(index, Some(field.name), offset),
                    _ => found,
                };
            }
        }
        fault
    }

    /// `fault` without the value it quotes when that value came from an old field marked
    /// sensitive into a new field that is not; a fault that names no field is taken to be
    /// about such a value whenever the mapping moves one.
    fn redact_moved(&self, mut fault: Error) -> Error {
        let moved: Vec<(&FieldSchema, &FieldSchema)> = self
            .targets
            .iter()
            .filter_map(|(field, source)| match source {
                Source::Field(name) if !field.sensitive => {
                    self.from.field(name).filter(|old| old.sensitive).map(|old| (*field, old))
                }
                _ => None,
            })
            .collect();
        if moved.is_empty() {
            return fault;
        }
        match fault.location().name() {
            Some(name) => {
                let Some((field, old)) = moved.iter().find(|(field, _)| field.name == name) else { return fault };
                // The old design redacts what it knows by its own field's name.
                rename(&mut fault, old.name);
                let mut redacted = self.from.redact_error(fault);
                rename(&mut redacted, field.name);
                redacted
            }
            None => match fault {
                Error::InvalidArgument { what, .. } => {
                    let names: Vec<&str> = moved.iter().map(|(field, _)| field.name).collect();
                    Error::argument(
                        what,
                        format!(
                            "a value moved into {} is not one the new design can write {WITHHELD}; check the old \
                             values against the new fields' types and attributes",
                            super::list(&names)
                        ),
                    )
                }
                other => self.from.redact_error(other),
            },
        }
    }
}

/// `err` about the field `name`, at the same field and byte.
fn rename(err: &mut Error, name: &'static str) {
    if let Some(at) = err.location_mut() {
        let renamed = Location::UNKNOWN.with_name(name);
        *at = match (at.field(), at.offset()) {
            (Some(field), Some(offset)) => renamed.fill(field, None, offset),
            _ => renamed,
        };
    }
}

/// The fault, when `value` is an integer beyond the type of the new field `to`. `from` is the
/// old field the value comes from, `None` for a computed value. The value is shown unless
/// either field is marked sensitive.
fn beyond_type(to: &'static FieldSchema, from: Option<&FieldSchema>, value: &Value) -> Option<Error> {
    let &Value::Int(v) = value else { return None };
    let ty = bare_type(to.rust_type);
    let (min, max) = int_range(ty)?;
    if (min..=max).contains(&v) {
        return None;
    }
    let shown = if to.sensitive || from.is_some_and(|f| f.sensitive) { WITHHELD.to_owned() } else { v.to_string() };
    let (what, fix) = match from {
        Some(old) => (
            format!("the old field `{}` ({}) holds {shown}, which", old.name, old.rust_type),
            format!("give `{}` a type that holds the old field's values (such as {})", to.name, old.rust_type),
        ),
        None => (
            format!("the computed value {shown}"),
            format!("compute values of {ty}, or give `{}` a wider type", to.name),
        ),
    };
    Some(
        Error::unencodable(
            to.rust_type,
            format!("{what} does not fit the new field's type {ty} ({min} to {max}); {fix}"),
        )
        .with_name(to.name),
    )
}

// The designs are schema files' text.
#[cfg(all(test, feature = "schema-json"))]
mod tests {
    use crate::rekey::Rekey;
    use crate::schema::{Schema, Value};

    /// A design of an `id` and a count `n` of type `ty` in `format`.
    fn design(format: &str, ty: &str, encoding: &str, sensitive: bool) -> &'static Schema {
        let delimiter = if format == "delimited" { r##", "delimiter": "#""## } else { "" };
        let width = if encoding == "decimal" { r#", "width": 10, "signed": true"# } else { "" };
        let narrow = if encoding == "decimal" && ty == "u16" { r#", "width": 5"# } else { width };
        Schema::from_json(&format!(
            r#"{{ "rowkey_schema": 1, "type": "T", "format": "{format}"{delimiter},
                 "fields": [{{ "name": "id", "type": "String", "encoding": "utf8" }},
                            {{ "name": "n", "type": "{ty}", "encoding": "{encoding}"{narrow},
                               "sensitive": {sensitive} }}] }}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_value_beyond_the_new_fields_type_is_named_as_such() {
        for (format, encoding) in [("delimited", "decimal"), ("ordered", "int64")] {
            let (old, new) = (design(format, "i32", encoding, false), design(format, "u16", encoding, false));
            let rekey = Rekey::builder(old, new).build().unwrap();
            for v in [-3, 70_000] {
                let key = old.encode(&[("id", "a"), ("n", &v.to_string())]).unwrap();
                let err = rekey.rekey(&key).unwrap_err().to_string();
                assert!(
                    err.contains(&format!(
                        "the old field `n` (i32) holds {v}, which does not fit the new field's type u16 (0 to 65535); \
                         give `n` a type that holds the old field's values (such as i32)"
                    )),
                    "{format} {v}: {err}"
                );
                assert!(!err.contains("decode") && !err.contains("digits"), "{format} {v}: {err}");
            }
            let key = old.encode(&[("id", "a"), ("n", "65535")]).unwrap();
            assert_eq!(rekey.rekey(&key).unwrap(), new.encode(&[("id", "a"), ("n", "65535")]).unwrap());
        }
    }

    #[test]
    fn a_sensitive_value_beyond_the_type_is_not_shown() {
        for (old_sensitive, new_sensitive) in [(true, false), (false, true), (true, true)] {
            let old = design("delimited", "i32", "decimal", old_sensitive);
            let new = design("delimited", "u16", "decimal", new_sensitive);
            let rekey = Rekey::builder(old, new).build().unwrap();
            let err = rekey.rekey(&old.encode(&[("id", "a"), ("n", "70123")]).unwrap()).unwrap_err().to_string();
            assert!(err.contains("does not fit the new field's type u16"), "{err}");
            assert!(err.contains("its value is not shown") && !err.contains("70123"), "{err}");
        }
    }

    /// A key of `id` and a field `name` (`i64`, of `encoding` with `extra` attributes).
    fn numbered(format: &str, name: &str, encoding: &str, extra: &str) -> &'static Schema {
        let delimiter = if format == "delimited" { r##", "delimiter": "#""## } else { "" };
        Schema::from_json(&format!(
            r#"{{ "rowkey_schema": 1, "type": "T", "format": "{format}"{delimiter},
                 "fields": [{{ "name": "id", "type": "String", "encoding": "utf8" }},
                            {{ "name": "{name}", "type": "i64", "encoding": "{encoding}"{extra} }}] }}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_value_moved_from_a_sensitive_field_into_one_that_is_not_is_not_shown() {
        let old = numbered("ordered", "secret", "int64", r#", "sensitive": true"#);
        let narrow = numbered("delimited", "n", "decimal", r#", "width": 5, "signed": true"#);
        let delimited_int64 = numbered("delimited", "n", "int64", "");
        for new in [narrow, delimited_int64] {
            let rekey = Rekey::builder(old, new).rename("secret", "n").build().unwrap();
            let key = old.encode(&[("id", "a"), ("secret", "9876543")]).unwrap();
            let err = rekey.rekey(&key).unwrap_err().to_string();
            assert!(err.contains("its value is not shown") && err.contains("`n`"), "{err}");
            assert!(!err.contains("9876543"), "{err}");
        }
    }

    #[test]
    fn a_computed_value_beyond_the_type_is_named_as_such() {
        let old = design("ordered", "i32", "int64", false);
        let to = Schema::from_json(
            r#"{ "rowkey_schema": 1, "type": "C", "format": "ordered",
                 "fields": [{ "name": "id", "type": "String", "encoding": "utf8" },
                            { "name": "n", "type": "i32", "encoding": "int64" },
                            { "name": "small", "type": "u8", "encoding": "int64" }] }"#,
        )
        .unwrap();
        let rekey = Rekey::builder(old, to).compute("small", |_| Ok(Value::Int(300))).build().unwrap();
        let err = rekey.rekey(&old.encode(&[("id", "a"), ("n", "1")]).unwrap()).unwrap_err().to_string();
        assert!(
            err.contains(
                "the computed value 300 does not fit the new field's type u8 (0 to 255); compute values of u8"
            ),
            "{err}"
        );
    }
}
