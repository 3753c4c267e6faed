//! Re-keying from one key design to another: for generated rows, the re-keyed old key is the
//! key the new design's own type writes for the same values, across formats, salts and
//! transforms; the inverse gives the old key back; a mapping that cannot work is refused with
//! every fault named.

mod common;

use common::keys::{DeviceReading, EveryField, EveryText, OrderedReading, Reading, ReadingByTime, TupleReading};
use common::strategies::{device_reading, every_field, every_text, reading};
use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::rekey::Rekey;
use rowkey::schema::{Schema, Value};

fn by_time(reading: &Reading) -> ReadingByTime {
    ReadingByTime {
        ts_millis: reading.ts_millis,
        device_type: reading.device_type.clone(),
        device_id: reading.device_id.clone(),
    }
}

proptest! {

    /// The time-first table moved to the salted design, and back.
    #[test]
    fn time_first_to_salted(reading in reading()) {
        let rekey = Rekey::between::<ReadingByTime, Reading>().build().unwrap();
        let old = by_time(&reading).to_key().unwrap();
        let new = rekey.rekey(&old).unwrap();
        prop_assert_eq!(&new, &reading.to_key().unwrap());
        prop_assert_eq!(rekey.inverse().unwrap().rekey(&new).unwrap(), old);
    }

    /// Delimited text to the ordered format: `reverse` there and `desc` here hold the same
    /// instant, since values move and not bytes.
    #[test]
    fn delimited_to_ordered(reading in device_reading()) {
        let rekey = Rekey::between::<DeviceReading, OrderedReading>().build().unwrap();
        let ordered = OrderedReading {
            device_type: reading.device_type.clone(),
            device_id: reading.device_id.clone(),
            ts_millis: reading.ts_millis,
        };
        prop_assert_eq!(rekey.rekey(&reading.to_key().unwrap()).unwrap(), ordered.to_key().unwrap());
    }

    /// A Bigtable key to a FoundationDB tuple under a directory prefix, for an export.
    #[test]
    fn salted_to_tuple(reading in reading()) {
        let rekey = Rekey::between::<Reading, TupleReading>().build().unwrap();
        let tuple = TupleReading {
            device_type: reading.device_type.clone(),
            device_id: reading.device_id.clone(),
            ts_millis: reading.ts_millis,
        };
        prop_assert_eq!(rekey.rekey(&reading.to_key().unwrap()).unwrap(), tuple.to_key().unwrap());
    }

    /// Every field type, each value through its kind's text: a design moved onto itself keeps
    /// every key, in both formats and through schema files.
    #[test]
    fn every_type_moves_unchanged(field in every_field(), text in every_text()) {
        let key = field.to_key().unwrap();
        prop_assert_eq!(Rekey::between::<EveryField, EveryField>().build().unwrap().rekey(&key).unwrap(), key);
        let key = text.to_key().unwrap();
        let file = Schema::from_json(&EveryText::SCHEMA.to_json()).unwrap();
        prop_assert_eq!(Rekey::builder(file, &EveryText::SCHEMA).build().unwrap().rekey(&key).unwrap(), key);
    }
}

#[test]
fn renames_defaults_and_computed_fields() {
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(delimited = "#")]
    struct Old {
        user: String,
        ts_millis: i64,
    }
    #[derive(RowKey, Debug, PartialEq)]
    struct New {
        region: String,
        day: i64,
        account: String,
        ts_millis: i64,
    }
    let rekey = Rekey::between::<Old, New>()
        .rename("user", "account")
        .default("region", "eu")
        .compute("day", |old| {
            let millis = old.value("ts_millis").and_then(Value::as_int).expect("an integer");
            Ok(Value::Int(millis.div_euclid(86_400_000)))
        })
        .build()
        .unwrap();
    let old = Old { user: "ann".into(), ts_millis: -1 }.to_key().unwrap();
    let new = New { region: "eu".into(), day: -1, account: "ann".into(), ts_millis: -1 };
    assert_eq!(rekey.rekey(&old).unwrap(), new.to_key().unwrap());
    let back = rekey.inverse().expect("every old field is in the new key");
    assert_eq!(back.rekey(&new.to_key().unwrap()).unwrap(), old);
}

#[test]
fn a_mapping_that_cannot_work_names_every_fault() {
    #[derive(RowKey)]
    struct Old {
        user: String,
        seq: u64,
        note: String,
    }
    #[derive(RowKey)]
    struct New {
        user: u64,
        seq: u64,
        extra: String,
    }
    let err = Rekey::between::<Old, New>().rename("nobody", "seq").default("missing", "1").build().unwrap_err();
    let text = err.to_string();
    for fault in [
        "the rename of `nobody` names no field of the old key `Old`",
        "a value is given for `missing`, which is no field of the new key `New`",
        "`user` of `Old` cannot become `user` of `New`: it holds text (String), the new field an integer (u64)",
        "the new field `extra` has no source",
        "no field of `New` takes `seq` and `note` of `Old`",
    ] {
        assert!(text.contains(fault), "missing {fault:?} in: {text}");
    }
}

#[test]
fn a_dropped_field_merges_rows_only_when_allowed() {
    #[derive(RowKey)]
    struct Old {
        user: String,
        session: u32,
    }
    #[derive(RowKey)]
    struct New {
        user: String,
    }
    let err = Rekey::between::<Old, New>().build().unwrap_err();
    assert!(err.to_string().contains("rows that differ only there would become one row"), "{err}");
    let rekey = Rekey::between::<Old, New>().merge_rows().build().unwrap();
    assert_eq!(rekey.dropped(), ["session"]);
    assert!(rekey.inverse().is_none(), "a merged row has no one old key");
    assert!(rekey.merges_rows());
    let a = rekey.rekey(&Old { user: "ann".into(), session: 1 }.to_key().unwrap()).unwrap();
    let b = rekey.rekey(&Old { user: "ann".into(), session: 2 }.to_key().unwrap()).unwrap();
    assert_eq!(a, b);
    // Declared decided by the kept fields: dropped, and no rows said to merge.
    let derived = Rekey::between::<Old, New>().drop_derived("session").build().unwrap();
    assert_eq!((derived.dropped(), derived.merges_rows()), (&["session"][..], false));
    let err = Rekey::between::<Old, New>().drop_derived("user").build().unwrap_err();
    assert!(
        err.to_string().contains("`user` is declared derived, but it is no field of `Old` that the new key drops"),
        "{err}"
    );
}

#[test]
fn a_value_that_does_not_fit_the_new_field_is_an_error_naming_it() {
    #[derive(RowKey)]
    struct Old {
        count: u64,
    }
    #[derive(RowKey)]
    struct New {
        count: u8,
    }
    let rekey = Rekey::between::<Old, New>().build().unwrap();
    assert_eq!(rekey.rekey(&Old { count: 255 }.to_key().unwrap()).unwrap(), New { count: 255 }.to_key().unwrap());
    let err = rekey.rekey(&Old { count: 256 }.to_key().unwrap()).unwrap_err();
    assert!(err.to_string().contains("`count`"), "{err}");
    let err = rekey.rekey(b"not a key of Old").unwrap_err();
    assert!(err.to_string().contains("count"), "{err}");
}

/// An optional note of `""` in the ordered design has no key in the delimited one, where the
/// empty field is `None`: re-keying refuses it, as the delimited type's `to_key` does, rather
/// than turning `Some("")` into `None`.
#[test]
fn an_empty_optional_text_into_a_delimited_key_is_refused_not_turned_into_none() {
    #[derive(RowKey, Debug, PartialEq)]
    struct Noted {
        id: u32,
        note: Option<String>,
    }
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(delimited = "#")]
    struct NotedText {
        id: u32,
        note: Option<String>,
    }
    let rekey = Rekey::between::<Noted, NotedText>().build().unwrap();
    for note in [None, Some("x".to_owned())] {
        let new = rekey.rekey(&Noted { id: 7, note: note.clone() }.to_key().unwrap()).unwrap();
        assert_eq!(NotedText::from_key(&new).unwrap(), NotedText { id: 7, note });
    }
    let empty = Noted { id: 7, note: Some(String::new()) }.to_key().unwrap();
    assert!(NotedText { id: 7, note: Some(String::new()) }.to_key().is_err());
    let err = rekey.rekey(&empty).unwrap_err();
    assert!(err.to_string().contains("read back as None"), "{err}");
}
