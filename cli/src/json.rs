//! The command's JSON output. Each subcommand describes its output as `Serialize` types, and
//! serde_json writes them: the escaping and the structure are its own. This file only sets the
//! spacing, through serde_json's `Formatter`, so that the output reads as a person would write
//! it: `{"key": "a", "fields": {...}}` on one line, and the Admin API's splits one a line.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

/// serde_json's spacing for the command: `", "` between members and items, `": "` after a
/// member's name, and in the outer containers (to a depth) each member on a line of its own,
/// indented two spaces a level.
pub struct Spacing {
    /// Containers this deep or less (the outermost is 1) put each member on its own line.
    lined_depth: usize,
    /// The depth of the container being written; 0 outside any.
    depth: usize,
    /// Whether the container being written has had a member yet: an empty one closes on the
    /// line it opened on (`[]`).
    has_member: bool,
}

impl Spacing {
    /// Everything on one line.
    pub fn one_line() -> Spacing {
        Spacing::lined_to(0)
    }

    /// The members of containers down to `depth` one a line, deeper ones on one line.
    pub fn lined_to(depth: usize) -> Spacing {
        Spacing { lined_depth: depth, depth: 0, has_member: false }
    }

    fn lined(&self) -> bool {
        self.depth <= self.lined_depth
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_member = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        if self.lined() && self.has_member {
            writer.write_all(b"\n")?;
            indent(writer, self.depth - 1)?;
        }
        self.depth -= 1;
        writer.write_all(bracket)
    }

    /// What goes before a member or an item.
    fn separate<W: ?Sized + Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        if self.lined() {
            writer.write_all(if first { b"\n" } else { b",\n" })?;
            indent(writer, self.depth)
        } else if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }
}

fn indent<W: ?Sized + Write>(writer: &mut W, level: usize) -> io::Result<()> {
    (0..level).try_for_each(|_| writer.write_all(b"  "))
}

impl Formatter for Spacing {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.separate(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_member = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.separate(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_member = true;
        Ok(())
    }
}

/// `value` as JSON text, spaced by `spacing`.
pub fn to_text<T: Serialize + ?Sized>(value: &T, spacing: Spacing) -> String {
    let mut text = Vec::new();
    // serde_json fails only on a write error (a Vec has none), a map key that is not a string
    // or a `Serialize` impl's own error: the output types name their members with strings
    // and have no error of their own.
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut text, spacing)).expect("JSON of the output");
    String::from_utf8(text).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
    use serde::ser::Serializer;

    use super::*;

    /// An object's members in the order given, as the subcommands' maps of fields are.
    struct InOrder<'a>(&'a [(&'a str, serde_json::Value)]);

    impl Serialize for InOrder<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.0.iter().map(|(name, value)| (name, value)))
        }
    }

    /// An object read back with its members in the order the text has them (serde_json's
    /// `Map` sorts them).
    #[derive(Debug, PartialEq)]
    struct Members(Vec<(String, serde_json::Value)>);

    impl<'de> Deserialize<'de> for Members {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Members, D::Error> {
            struct Read;
            impl<'de> Visitor<'de> for Read {
                type Value = Members;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                    let mut members = Vec::new();
                    while let Some(member) = map.next_entry()? {
                        members.push(member);
                    }
                    Ok(Members(members))
                }
            }
            deserializer.deserialize_map(Read)
        }
    }

    #[test]
    fn spaced_output_parses_back_with_its_members_in_order() {
        let members = [
            ("z", serde_json::json!("last in the alphabet, first here")),
            ("a", serde_json::json!([1, "two", {}, [], [{"x": null}], {"y": [true, false]}])),
            ("m", serde_json::json!({"only": 1.5})),
        ];
        let line = to_text(&InOrder(&members), Spacing::one_line());
        assert_eq!(
            line,
            r#"{"z": "last in the alphabet, first here", "a": [1, "two", {}, [], [{"x": null}], {"y": [true, false]}], "m": {"only": 1.5}}"#
        );
        let lined = to_text(&InOrder(&members), Spacing::lined_to(2));
        assert_eq!(
            lined,
            "{\n  \"z\": \"last in the alphabet, first here\",\n  \"a\": [\n    1,\n    \"two\",\n    {},\n    [],\n    \
             [{\"x\": null}],\n    {\"y\": [true, false]}\n  ],\n  \"m\": {\n    \"only\": 1.5\n  }\n}"
        );
        let want = Members(members.iter().map(|(name, value)| (name.to_string(), value.clone())).collect());
        for text in [&line, &lined] {
            let read: Members = serde_json::from_str(text).unwrap();
            // Members in the order given, arrays' items in theirs, every value as it was.
            assert_eq!(read, want, "{text}");
        }
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let text = "say \"hi\" \\ back\\slash\n\t\r\u{0}\u{1}\u{1f}\u{7f} é ÿ 日本 \u{1F600} \u{2028}";
        let escaped = serde_json::to_string(text).unwrap();
        assert_eq!(
            escaped,
            "\"say \\\"hi\\\" \\\\ back\\\\slash\\n\\t\\r\\u0000\\u0001\\u001f\u{7f} é ÿ 日本 \u{1F600} \u{2028}\""
        );
        assert_eq!(to_text(text, Spacing::one_line()), escaped);
        // As a member's name and as its value, in either spacing.
        let members = [(text, serde_json::Value::from(text))];
        assert_eq!(to_text(&InOrder(&members), Spacing::one_line()), format!("{{{escaped}: {escaped}}}"));
        assert_eq!(to_text(&InOrder(&members), Spacing::lined_to(1)), format!("{{\n  {escaped}: {escaped}\n}}"));
        let read: Members = serde_json::from_str(&to_text(&InOrder(&members), Spacing::one_line())).unwrap();
        assert_eq!(read, Members(vec![(text.to_owned(), text.into())]));
    }
}
