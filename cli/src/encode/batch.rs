//! `rowkey encode` without values: one value set a line from standard input, as JSON, and one
//! key a line out, streamed (a line is read, encoded and written before the next is read).

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, Write};

use rowkey::key_text::KeyForm;
use rowkey::schema::{InspectedField, KeyPlan, Schema, Value};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::{Failure, reveal};

/// The most lines the exit status counts: statuses above 125 mean other things to a shell.
const MAX_STATUS: usize = 125;

/// How the keys are printed and what stops the run.
pub struct Options {
    pub to: KeyForm,
    pub reveal: bool,
    pub fail_fast: bool,
}

/// Encode each line of `input` (a JSON object of field name to value) into a key written to
/// `output`, a line each. A line that fails is named by its number on standard error, without
/// its text, and the run goes on (or stops, with `fail_fast`); blank lines are skipped and
/// counted. The status is the number of lines that failed, at most 125.
pub fn run(schema: &Schema, options: &Options, mut input: impl BufRead, output: impl Write) -> Result<u8, Failure> {
    // Compiled once: every line's key is written through it.
    let plan = KeyPlan::new(schema);
    let mut output = io::BufWriter::with_capacity(64 * 1024, output);
    let mut line = Vec::with_capacity(256);
    let (mut number, mut failed) = (0usize, 0usize);
    loop {
        line.clear();
        let read = input
            .read_until(b'\n', &mut line)
            .map_err(|e| Failure::input(format!("cannot read line {} of standard input: {e}", number + 1)))?;
        if read == 0 {
            break;
        }
        number += 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match key_of(&plan, &line, options.reveal) {
            Ok(key) => {
                let text = options.to.format(&key);
                if !(write(&mut output, text.as_bytes())? && write(&mut output, b"\n")?) {
                    return Ok(status(failed));
                }
            }
            Err(message) => {
                failed += 1;
                // The keys before the bad line reach standard output before its error.
                if options.fail_fast && !flush(&mut output)? {
                    return Ok(status(failed));
                }
                eprintln!("rowkey: line {number}: {message}");
                if options.fail_fast {
                    eprintln!("rowkey: stopped at line {number} (--fail-fast)");
                    break;
                }
            }
        }
    }
    flush(&mut output)?;
    Ok(status(failed))
}

fn status(failed: usize) -> u8 {
    u8::try_from(failed.min(MAX_STATUS)).unwrap_or(u8::MAX)
}

/// Writes `bytes`; false when the reader has gone (`| head`): the run ends quietly.
fn write(output: &mut impl Write, bytes: &[u8]) -> Result<bool, Failure> {
    match output.write_all(bytes) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Failure::input(format!("cannot write the keys: {e}"))),
    }
}

fn flush(output: &mut impl Write) -> Result<bool, Failure> {
    match output.flush() {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Failure::input(format!("cannot write the keys: {e}"))),
    }
}

/// The key of one line, or what is wrong with it, in words that hold no sensitive value and
/// none of the line's text.
fn key_of(plan: &KeyPlan, line: &[u8], reveal: bool) -> Result<rowkey::Key, String> {
    let schema = plan.schema();
    let pairs = fields(schema, line)?;
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(name, value)| (&**name, &**value)).collect();
    // `encode` keeps sensitive values out of its errors.
    let key = plan.encode(&pairs).map_err(|e| e.to_string())?;
    if !reveal && schema.has_sensitive_fields() {
        let shown = shown_sensitive_fields(plan, &key).map_err(|failure| failure.message)?;
        if !shown.is_empty() {
            return Err(reveal::withheld("its key", &shown).message);
        }
    }
    Ok(key)
}

/// The sensitive fields whose value the key holds. An absent one (the `None` of an optional
/// field) writes no value, so a key whose sensitive fields are all absent is printed as is.
pub fn shown_sensitive_fields(plan: &KeyPlan, key: &[u8]) -> Result<Vec<&'static str>, Failure> {
    let inspection = plan.inspect(key)?;
    Ok(inspection
        .fields()
        .iter()
        .filter(|field| field.is_sensitive() && *field.value() != Value::Null)
        .map(InspectedField::name)
        .collect())
}

/// A field's name and its value as the text `Schema::encode` reads.
type Pair<'a> = (Cow<'a, str>, Cow<'a, str>);

/// The `name=value` pairs of a line: a JSON object whose values are strings (the text
/// `rowkey inspect --json` prints), integers, booleans (their JSON text) or null (the `None`
/// of an optional field).
fn fields<'a>(schema: &Schema, line: &'a [u8]) -> Result<Vec<Pair<'a>>, String> {
    let mut problem = None;
    let mut json = serde_json::Deserializer::from_slice(line);
    let read = Object { schema, problem: &mut problem }.deserialize(&mut json).and_then(|pairs| {
        json.end()?;
        Ok(pairs)
    });
    read.map_err(|e| match problem {
        Some(problem) => problem,
        None => not_json(&e),
    })
}

/// What serde_json found wrong, without its position on "line 1" (the line is the input's),
/// and without anything of the text: serde_json's words for a type it did not expect quote
/// the value, which may be a sensitive one.
fn not_json(e: &serde_json::Error) -> String {
    match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            let words = e.to_string();
            let words = words.strip_suffix(&format!(" at line {} column {}", e.line(), e.column())).unwrap_or(&words);
            format!("not JSON: {words} at column {}", e.column())
        }
        _ => "not a JSON object of field names to values".to_owned(),
    }
}

/// The line's object, read into pairs; what is wrong with a member is left in `problem`.
struct Object<'s> {
    schema: &'s Schema,
    problem: &'s mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for Object<'_> {
    type Value = Vec<Pair<'de>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Object<'_> {
    type Value = Vec<Pair<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of field names to values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut pairs = Vec::with_capacity(8);
        while let Some(Text(name)) = map.next_key()? {
            let text = match map.next_value()? {
                Member::Text(text) => text,
                Member::Int(n) => Cow::Owned(n),
                Member::Bool(b) => Cow::Borrowed(if b { "true" } else { "false" }),
                Member::Null => match self.schema.field(&name) {
                    Some(field) if !field.optional => {
                        *self.problem = Some(format!("`{name}` is null, and only an optional field takes null"));
                        return Err(de::Error::custom("null"));
                    }
                    // An unknown name is the encoder's to report, a computed field's its to check.
                    _ => Cow::Borrowed("null"),
                },
                Member::Float => {
                    *self.problem = Some(format!(
                        "`{name}` is a JSON number with a fraction or an exponent, or an integer beyond 64 bits: give \
                         it as a string, as `rowkey inspect --json` prints it (\"21.5\", \"NaN\", \"-inf\"), so that \
                         its digits reach the key unrounded"
                    ));
                    return Err(de::Error::custom("float"));
                }
                Member::Nested(kind) => {
                    *self.problem = Some(format!(
                        "`{name}` is a JSON {kind}: a field's value is a string as `rowkey inspect --json` prints \
                         it, an integer, true, false or null"
                    ));
                    return Err(de::Error::custom("nested"));
                }
            };
            pairs.push((name, text));
        }
        Ok(pairs)
    }
}

/// A string, borrowed from the line where it has no escapes.
struct Text<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Read;
        impl<'de> Visitor<'de> for Read {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(text)))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text.to_owned())))
            }
            fn visit_string<E: de::Error>(self, text: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text)))
            }
        }
        deserializer.deserialize_str(Read)
    }
}

/// A member's value, as JSON has it.
enum Member<'de> {
    Text(Cow<'de, str>),
    /// An integer serde_json holds exactly, in decimal.
    Int(String),
    Bool(bool),
    Null,
    /// A number serde_json read as an `f64`: its digits may be rounded.
    Float,
    /// An array or an object, skipped: no field's value is one.
    Nested(&'static str),
}

impl<'de> de::Deserialize<'de> for Member<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Read;
        impl<'de> Visitor<'de> for Read {
            type Value = Member<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field's value")
            }
            fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Member<'de>, E> {
                Ok(Member::Text(Cow::Borrowed(text)))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Member<'de>, E> {
                Ok(Member::Text(Cow::Owned(text.to_owned())))
            }
            fn visit_string<E: de::Error>(self, text: String) -> Result<Member<'de>, E> {
                Ok(Member::Text(Cow::Owned(text)))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Member<'de>, E> {
                Ok(Member::Int(n.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Member<'de>, E> {
                Ok(Member::Int(n.to_string()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Member<'de>, E> {
                // serde_json reads `-0` as a float, to keep its sign: for an integer field it
                // is 0, for a float field -0.0, as the text `-0` is.
                if n == 0.0 && n.is_sign_negative() {
                    return Ok(Member::Int("-0".to_owned()));
                }
                Ok(Member::Float)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Member<'de>, E> {
                Ok(Member::Bool(b))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Member<'de>, E> {
                Ok(Member::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Member<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Member::Nested("array"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Member<'de>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Member::Nested("object"))
            }
        }
        deserializer.deserialize_any(Read)
    }
}
