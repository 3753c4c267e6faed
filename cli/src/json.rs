//! The command's JSON output. serde_json writes every string, so the escaping is its own;
//! this file only joins members in the order they are given: serde_json's `Map` sorts its
//! keys (without its `preserve_order` feature), and a key's fields read best in key order,
//! a `RowRange`'s start before its end.

/// `text` as a JSON string, escaped by serde_json.
pub fn string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// A JSON object on one line, its members in the order given, each value JSON already:
/// `{"key": "a", "fields": {...}}`.
pub fn object<'a>(members: impl IntoIterator<Item = (&'a str, String)>) -> String {
    let members: Vec<String> = members.into_iter().map(|(name, value)| format!("{}: {value}", string(name))).collect();
    format!("{{{}}}", members.join(", "))
}

/// A JSON array on one line of items that are JSON already.
pub fn array(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_members_keep_their_order() {
        let text = "a\"b\\c\n\u{1}\u{ff}";
        let line = object([("z", string(text)), ("a", array([string(""), object([])]))]);
        assert_eq!(line, r#"{"z": "a\"b\\c\n\u0001ÿ", "a": ["", {}]}"#);
        let read: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(read["z"], text);
    }
}
