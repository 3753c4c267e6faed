//! Fields marked `sensitive`: a marker value put in one appears in no output of the library,
//! not in `Schema::inspect` and its `Display` and `Debug`, not in the errors about the field
//! (decoding, encoding, inspecting, building keys and scans from text), not in the schema's
//! own description, and not in the hotspot heatmap's labels. The command's outputs are checked
//! in `cli/tests/sensitive.rs`.

mod common;

use common::pii::{
    CardOrdered, Login, LoginByEmail, LoginText, MARKER, MeterMemcomparable, NUMBER_MARKER, Pinned, SsnHBase, SsnTuple,
};
use rowkey::hotspot::{Heatmap, Simulator, Windows};
use rowkey::schema::ScanNext;
use rowkey::{Key, RowKey};

/// Fails naming the output that holds the marker.
fn clean(what: &str, text: &str) {
    assert!(!text.contains(MARKER), "{what} shows the sensitive value: {text}");
    assert!(!text.contains(&MARKER.to_lowercase()), "{what} shows the sensitive value: {text}");
}

fn login(email: &str) -> Login {
    Login { tenant: "acme".into(), email: email.into(), at: 7 }
}

fn login_text(email: &str) -> LoginText {
    LoginText { tenant: 3, email: email.into(), at: 7, pin: 1234 }
}

#[test]
fn the_schema_records_the_marker() {
    let email = Login::SCHEMA.field("email").unwrap();
    assert!(email.sensitive && !Login::SCHEMA.field("tenant").unwrap().sensitive);
    assert_eq!(email.to_string(), "email: String [utf8, sensitive]");
    assert!(Login::SCHEMA.has_sensitive_fields() && LoginText::SCHEMA.has_sensitive_fields());
    // The schema file keeps it.
    let back = rowkey::schema::Schema::from_json(&Login::SCHEMA.to_json()).unwrap();
    assert!(back.field("email").unwrap().sensitive);
    assert!(!back.field("at").unwrap().sensitive);
}

#[test]
fn inspect_shows_the_length_in_place_of_the_value() {
    let email = format!("{MARKER}@example.com");
    for (key, schema) in
        [(login(&email).to_key().unwrap(), &Login::SCHEMA), (login_text(&email).to_key().unwrap(), &LoginText::SCHEMA)]
    {
        let inspection = schema.inspect(&key).unwrap();
        let shown = inspection.to_string();
        clean("Inspection's Display", &shown);
        clean("Inspection's Debug", &format!("{inspection:?}"));
        assert!(shown.contains("email=<redacted, 23 bytes>"), "{shown}");
        for field in inspection.fields() {
            clean("InspectedField's Display", &field.to_string());
            clean("InspectedField's Debug", &format!("{field:?}"));
        }
        // Asked for, it is there.
        assert!(inspection.revealed().to_string().contains(&email));
        assert_eq!(inspection.value("email").and_then(|v| v.as_str()), Some(email.as_str()));
    }
}

/// Every error about the field, as the type and the schema report it: it names the field and
/// its offset, and quotes nothing of it.
#[test]
fn errors_name_the_field_and_quote_none_of_it() {
    let mut errors = Vec::new();
    // Not UTF-8 inside the address: ordered and delimited.
    let mut bad = login(MARKER).to_key().unwrap().into_vec();
    let at = bad.windows(MARKER.len()).position(|w| w == MARKER.as_bytes()).unwrap();
    bad[at + 7] = 0xc3;
    errors.push(Login::from_key(&bad).unwrap_err());
    errors.push(Login::SCHEMA.inspect(&bad).unwrap_err());
    let mut bad = login_text(MARKER).to_key().unwrap().into_vec();
    let at = bad.windows(MARKER.len()).position(|w| w == MARKER.as_bytes()).unwrap();
    bad[at + 7] = 0xc3;
    errors.push(LoginText::from_key(&bad).unwrap_err());
    errors.push(LoginText::SCHEMA.inspect(&bad).unwrap_err());
    // A byte at or below the delimiter inside the address.
    errors.push(login_text(&format!("{MARKER}#x")).to_key().unwrap_err());
    let values = |email: &str, pin: &str| {
        LoginText::SCHEMA.encode(&[("tenant", "3"), ("email", email), ("at", "7"), ("pin", pin)]).unwrap_err()
    };
    errors.push(values(&format!("{MARKER}#x"), "1234"));
    // A value out of its type's range: `from_key` and `inspect` would quote the number.
    let good = String::from_utf8(login_text(MARKER).to_key().unwrap().into_vec()).unwrap();
    let out_of_range = good.replace("#01234", "#65543");
    assert_ne!(out_of_range, good);
    let err = LoginText::from_key(out_of_range.as_bytes()).unwrap_err();
    assert!(!err.to_string().contains("65543"), "{err}");
    errors.push(err);
    errors.push(LoginText::SCHEMA.inspect(out_of_range.as_bytes()).unwrap_err());
    // A value that does not parse as the field's text, and a scan over it.
    errors.push(values("a@example.com", MARKER));
    errors.push(
        LoginText::SCHEMA
            .scan_query(&[("tenant", "3")], Some(("email", ScanNext::StartsWith(&format!("{MARKER}#")))))
            .unwrap_err(),
    );
    for err in &errors {
        clean("an error", &err.to_string());
        clean("an error's Debug", &format!("{err:?}"));
    }
    // The type's errors and the schema's name the field and where it starts.
    for err in &errors[..7] {
        assert!(matches!(err.location().name(), Some("email" | "pin")), "{err}");
        assert!(err.location().offset().is_some(), "{err}");
        assert!(err.to_string().contains("sensitive"), "{err}");
    }
}

/// Fails naming the output that holds any six digits in a row of the number marker.
fn clean_of_number(what: &str, text: &str) {
    for piece in NUMBER_MARKER.as_bytes().windows(6) {
        let piece = std::str::from_utf8(piece).unwrap();
        assert!(!text.contains(piece), "{what} shows a piece ({piece}) of the sensitive value: {text}");
    }
}

/// Values that parse as the field's text but do not fit its type or width: the schema's
/// encode and scan quoted them, since such an error came with no field's name to redact by.
#[test]
fn schema_errors_about_values_that_do_not_fit_quote_none_of_them() {
    let big = NUMBER_MARKER.repeat(2);
    let negative = format!("-{NUMBER_MARKER}");
    let fraction = format!("0.{NUMBER_MARKER}");
    type Case<'a> = (&'a rowkey::schema::Schema, &'a str, &'a str, Vec<(&'a str, &'a str)>);
    let cases: Vec<Case<'_>> = vec![
        (&SsnTuple::SCHEMA, "ssn", &big, vec![("tenant", "t")]),
        (&SsnHBase::SCHEMA, "ssn", &big, vec![("tenant", "t")]),
        (&MeterMemcomparable::SCHEMA, "account", &negative, vec![("tenant", "t"), ("reading", "1.5")]),
        (&MeterMemcomparable::SCHEMA, "reading", &fraction, vec![("tenant", "t"), ("account", "1")]),
        (&CardOrdered::SCHEMA, "card", &negative, vec![("tenant", "t")]),
        (&Pinned::SCHEMA, "pin", NUMBER_MARKER, vec![("user", "u"), ("code", "1"), ("email", "e")]),
        (&Pinned::SCHEMA, "code", NUMBER_MARKER, vec![("user", "u"), ("pin", "1"), ("email", "e")]),
    ];
    for (schema, field, value, others) in cases {
        let mut values = others.clone();
        values.push((field, value));
        let err = schema.encode(&values).expect_err(&format!("{} {field}={value} encoded", schema.type_name));
        clean_of_number("Schema::encode's error", &err.to_string());
        clean_of_number("Schema::encode's error's Debug", &format!("{err:?}"));
        assert!(err.to_string().contains(&format!("`{field}`")), "{err}");
        // A scan fixing the fields before it and this one, and one bounding it.
        let position = schema.fields.iter().position(|f| f.name == field).unwrap();
        let before: Vec<(&str, &str)> = schema.fields[..position]
            .iter()
            .map(|f| *values.iter().find(|(name, _)| *name == f.name).unwrap())
            .collect();
        let mut fixed = before.clone();
        fixed.push((field, value));
        let err = schema.scan_query(&fixed, None).expect_err(&format!("{} scan {field}={value}", schema.type_name));
        clean_of_number("Schema::scan_query's error", &format!("{err} {err:?}"));
        let range = rowkey::schema::ScanNext::Range(std::ops::Bound::Included(value), std::ops::Bound::Unbounded);
        if let Err(err) = schema.scan_query(&before, Some((field, range))) {
            clean_of_number("Schema::scan_query's error of a range", &format!("{err} {err:?}"));
        }
    }
}

/// The derived scan builder encodes what `to_key` does, and says as little of it.
#[test]
fn scan_builder_errors_quote_none_of_the_value() {
    let pin: u32 = 4_193_571_234;
    let too_wide = Pinned { user: "u".into(), pin, code: 1, email: "e".into() };
    let errors = [
        too_wide.to_key().unwrap_err(),
        Pinned::scan().user("u").pin(pin).ranges().unwrap_err(),
        Pinned::scan().user("u").pin_range(pin..).ranges().unwrap_err(),
        Pinned::scan().user("u").pin(1).code(7).email(&format!("{MARKER}#")).ranges().unwrap_err(),
    ];
    for err in &errors {
        let shown = format!("{err} {err:?}");
        assert!(!shown.contains("4193571234"), "the scan builder quotes the sensitive value: {shown}");
        clean("the scan builder's error", &shown);
        assert!(matches!(err.location().name(), Some("pin" | "code" | "email")), "{err}");
        assert!(shown.contains("sensitive"), "{shown}");
    }
}

/// The same errors about a field that is not sensitive still quote what they quoted: the
/// redaction is the marker's doing, not a loss for every key.
#[test]
fn other_fields_keep_their_detail() {
    let err = <(String, u8)>::from_key(b"a\x00\x01\xc1\x2c").unwrap_err();
    assert!(err.to_string().contains("300"), "{err}");
}

#[test]
fn heatmap_labels_redact_the_field() {
    let mut sim = Simulator::dynamic(50).unwrap();
    let mut keys: Vec<Key> = Vec::new();
    for second in 0..300u64 {
        for user in 0..8u32 {
            let key = LoginByEmail { email: format!("{MARKER}-{user}"), at: second as u32 }.to_key().unwrap();
            keys.push(key.clone());
            sim.record_at(key, second);
        }
    }
    let report = sim.report(Windows::Length(60));
    let svg = Heatmap::new(&report).schema(&LoginByEmail::SCHEMA).to_svg();
    clean("the heatmap", &svg);
    assert!(svg.contains("email=&lt;redacted"), "the labels name the field: {svg}");
    let text = Heatmap::new(&report).schema(&LoginText::SCHEMA).to_svg();
    clean("the heatmap of keys of another schema", &text);
    // One user writing in time order: one tablet takes the writes, and the verdict names it.
    let mut hot = Simulator::dynamic(1_000).unwrap();
    for second in 0..12_000u32 {
        hot.record_at(LoginByEmail { email: MARKER.into(), at: second }.to_key().unwrap(), u64::from(second));
    }
    let verdict = hot.report(Windows::Count(24)).verdict(0.5);
    assert!(matches!(verdict, rowkey::hotspot::Verdict::Hot { .. }), "{verdict}");
    assert!(verdict.to_string().contains(MARKER), "the plain verdict prints the bytes: {verdict}");
    let labelled = verdict.labelled(&LoginByEmail::SCHEMA).to_string();
    clean("the verdict", &labelled);
    assert!(labelled.contains("email=<redacted"), "{labelled}");
}

#[test]
fn split_planner_labels_redact_the_field() {
    let splits = LoginText::SCHEMA.split_planner().per_bucket(3).plan().unwrap();
    // The points are the planner's own, from the key space, not data; their labels, drawn in
    // the heatmap, still show no digits of the sensitive field.
    let mut sim = Simulator::dynamic(10).unwrap();
    for (i, point) in splits.points().iter().enumerate() {
        sim.record_at(point.clone(), i as u64);
    }
    let svg = Heatmap::new(&sim.report(Windows::Length(60))).schema(&LoginText::SCHEMA).to_svg();
    clean("the split labels", &svg);
}
