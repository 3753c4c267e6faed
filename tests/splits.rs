//! The split planner: a salted key's points fall exactly at its bucket boundaries in every
//! salt and format, points inside buckets cut generated keys into even tablets, and each
//! store's form of a list reads back as the same bytes.

mod common;

use common::hcl::hcl_strings;
use common::keys::{EventById, EveryField, EveryText, HexReading, Monitor, OrderedReading, Reading, TenantReading};
use common::stores::{FdbReading, HBaseSeq, HBaseVisit, McOrder};
use common::{DeviceEvent, DeviceEventText, Md5Name, Md5NameOrdered};

use rowkey::key_text::KeyForm;
use rowkey::salt::farm_fingerprint;
use rowkey::schema::{Schema, Value};
use rowkey::splits::Splits;
use rowkey::{Key, RowKey};

/// The tablet a key lands in: how many points are at or below it.
fn tablet(splits: &Splits, key: &[u8]) -> usize {
    splits.points().partition_point(|p| p.as_bytes() <= key)
}

/// The bucket of a key, read by its schema.
fn bucket(schema: &Schema, key: &[u8]) -> usize {
    let inspection = schema.inspect(key).unwrap_or_else(|e| panic!("{e}"));
    match inspection.value("bucket").expect("a bucket") {
        // An MD5 salt's bucket shows as its hex digits.
        Value::Str(digits) => usize::from_str_radix(digits, 16).unwrap(),
        value => value.as_int().expect("a bucket number") as usize,
    }
}

/// Checks that `keys` land in the tablet of their bucket, and that every bucket was seen.
fn assert_at_bucket_boundaries(schema: &Schema, keys: impl IntoIterator<Item = Key>) {
    let splits = schema.split_planner().plan().unwrap();
    let buckets = schema.salt.unwrap().buckets as usize;
    assert_eq!(splits.len(), buckets - 1, "{}", schema.type_name);
    let mut seen = vec![false; buckets];
    for key in keys {
        let b = bucket(schema, &key);
        assert_eq!(tablet(&splits, &key), b, "{}: {key} of bucket {b}", schema.type_name);
        seen[b] = true;
    }
    assert!(seen.iter().all(|&s| s), "{}: some bucket got no key", schema.type_name);
}

fn id(i: u32) -> String {
    format!("{:08x}", farm_fingerprint(&i.to_be_bytes()) as u32)
}

#[test]
fn sixteen_buckets_give_fifteen_splits_at_their_boundaries() {
    let splits = Reading::SCHEMA.split_planner().plan().unwrap();
    let expected: Vec<Vec<u8>> = (1..16).map(|b| format!("{b:02}#").into_bytes()).collect();
    assert_eq!(splits.points(), expected);
    let ordered = OrderedReading::SCHEMA.split_planner().plan().unwrap();
    assert_eq!(ordered.points(), (1..16u8).map(|b| [0x80 + b]).collect::<Vec<_>>());
}

#[test]
fn every_salt_and_format_splits_where_its_buckets_start() {
    let readings = (0..2_000).map(|i| {
        Reading { device_type: ["phone", "tablet"][i as usize % 2].into(), device_id: id(i), ts_millis: i.into() }
            .to_key()
            .unwrap()
    });
    assert_at_bucket_boundaries(&Reading::SCHEMA, readings);
    let ordered = (0..2_000).map(|i| {
        OrderedReading { device_type: "phone".into(), device_id: id(i), ts_millis: -i64::from(i) }.to_key().unwrap()
    });
    assert_at_bucket_boundaries(&OrderedReading::SCHEMA, ordered);
    let monitors = (0..2_000i64)
        .map(|i| Monitor { time: i * 7 - 5_000, host: "web1".into(), metric: "cpu".into() }.to_key().unwrap());
    assert_at_bucket_boundaries(&Monitor::SCHEMA, monitors);
    let events = (0..2_000u64).map(|seq| DeviceEvent { device: "d".into(), seq }.to_key().unwrap());
    assert_at_bucket_boundaries(&DeviceEvent::SCHEMA, events);
    let texts = (0..40_000u64).map(|seq| DeviceEventText { device: "d".into(), seq }.to_key().unwrap());
    assert_at_bucket_boundaries(&DeviceEventText::SCHEMA, texts);
    // A prefix in front of the bucket, in both formats.
    let every = (0..120).map(|n| EveryField::sample(n).to_key().unwrap());
    assert_at_bucket_boundaries(&EveryField::SCHEMA, every);
    let every_text = (0..4_000).map(|n| EveryText::sample(n).to_key().unwrap());
    assert_at_bucket_boundaries(&EveryText::SCHEMA, every_text);
}

#[test]
fn many_buckets_group_into_tablets_at_round_hex_boundaries() {
    for schema in [&Md5Name::SCHEMA, &Md5NameOrdered::SCHEMA] {
        let splits = schema.split_planner().tablets(16).plan().unwrap();
        let expected: Vec<String> = (1..16).map(|t| format!("{t:x}000")).collect();
        let shown: Vec<String> =
            splits.points().iter().map(|p| p.to_string().trim_end_matches('!').to_owned()).collect();
        assert_eq!(shown, expected, "{}", schema.type_name);
        for i in 0..2_000u32 {
            let key = Md5Name { name: id(i) }.to_key().unwrap();
            assert_eq!(tablet(&splits, &key), bucket(&Md5Name::SCHEMA, &key) / 4096, "{key}");
        }
    }
    assert_eq!(Md5Name::SCHEMA.split_planner().plan().unwrap().len(), 65_535);
    assert!(Md5Name::SCHEMA.split_planner().tablets(0).plan().is_err());
    assert!(Md5Name::SCHEMA.split_planner().tablets(70_000).plan().is_err());
    assert!(Md5Name::SCHEMA.split_planner().tablets(4).per_bucket(1).plan().is_err());
}

/// Counts generated keys per tablet and checks each holds its even share, within 20%.
fn assert_even(splits: &Splits, keys: &[Key]) {
    let mut counts = vec![0usize; splits.len() + 1];
    for key in keys {
        counts[tablet(splits, key)] += 1;
    }
    let mean = keys.len() as f64 / counts.len() as f64;
    for (t, &count) in counts.iter().enumerate() {
        assert!((count as f64 - mean).abs() < 0.2 * mean, "tablet {t}: {count} keys, mean {mean}: {counts:?}");
    }
}

#[test]
fn splits_inside_buckets_cut_hex_ids_evenly() {
    let splits = HexReading::SCHEMA.split_planner().per_bucket(3).plan().unwrap();
    assert_eq!(splits.len(), 15 + 16 * 3);
    assert_eq!(splits.points()[..4], ["00#4", "00#8", "00#c", "01#"]);
    let keys: Vec<Key> = (0..64_000u32)
        .map(|i| {
            let device_id = farm_fingerprint(&i.to_le_bytes()) as u32;
            HexReading { device_id, ts_millis: 1_588_291_200_000 + i64::from(i) }.to_key().unwrap()
        })
        .collect();
    assert_even(&splits, &keys);
}

#[test]
fn splits_inside_buckets_follow_a_descending_byte_field() {
    let splits = EventById::SCHEMA.split_planner().per_bucket(30).plan().unwrap();
    assert_eq!(splits.len(), 7 + 8 * 30);
    let keys: Vec<Key> = (0..40_000i64)
        .map(|seq| {
            let id = (farm_fingerprint(&seq.to_be_bytes()) as u32).to_be_bytes();
            EventById { id, seq }.to_key().unwrap()
        })
        .collect();
    // 248 tablets of about 161 keys each: the extremes of so many stay within 40%.
    let mut counts = vec![0usize; splits.len() + 1];
    for key in &keys {
        counts[tablet(&splits, key)] += 1;
    }
    let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(*min > 100 && *max < 225, "tablets hold {min} to {max} keys");
}

#[test]
fn an_unsalted_key_splits_along_its_first_field_or_says_why_not() {
    #[derive(RowKey)]
    #[rowkey(delimited = "#", prefix = "ord")]
    struct Order {
        #[rowkey(width = 6)]
        number: u32,
        item: String,
    }
    let splits = Order::SCHEMA.split_planner().per_bucket(9).plan().unwrap();
    let expected: Vec<Vec<u8>> = (1..10).map(|d| format!("ord#{d}").into_bytes()).collect();
    assert_eq!(splits.points(), expected);
    let keys: Vec<Key> =
        (0..100_000u32).map(|n| Order { number: n * 10 + 3, item: "x".into() }.to_key().unwrap()).collect();
    assert_even(&splits, &keys);

    let err = TenantReading::SCHEMA.split_planner().plan().err().unwrap().to_string();
    assert!(err.contains("has no salt") && err.contains("from_sample"), "{err}");
    let err = TenantReading::SCHEMA.split_planner().per_bucket(3).plan().err().unwrap().to_string();
    assert!(err.contains("`tenant` is text"), "{err}");
    let err = Order::SCHEMA.split_planner().per_bucket(1_000_000).plan().err().unwrap().to_string();
    assert!(err.contains("1000000 splits inside a bucket need 7 digits of `number`, which has 6"), "{err}");
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 4, from = [id], hash = "modulo"))]
    struct Tiny {
        id: i64,
        code: [u8; 1],
    }
    let _ = Tiny { id: 0, code: [0] };
    let err = Tiny::SCHEMA.split_planner().per_bucket(1).plan().err().unwrap().to_string();
    assert!(err.contains("`id` is of the int64 encoding"), "{err}");
}

#[test]
fn sample_quantiles_split_any_key() {
    let keys: Vec<Key> = (0..10_000)
        .map(|i| {
            TenantReading {
                tenant: format!("t{}", i % 97),
                device_type: "phone".into(),
                device_id: i,
                date: 20_200_501,
            }
            .to_key()
            .unwrap()
        })
        .collect();
    let splits = Splits::from_sample(keys.iter().step_by(7), 8);
    assert_eq!(splits.len(), 7);
    assert_even(&splits, &keys);
}

/// Splits with every byte that needs care in some form.
fn awkward() -> Splits {
    Splits::new([
        &b"01#"[..],
        b"\x00\x01\xff",
        b"a\"b\\c",
        b"#{x}#$y#@z",
        b"${v}%{w}",
        b"tab\there\nnl",
        "caf\u{e9}".as_bytes(),
        b"\x81\x82",
    ])
}

#[test]
fn bigtable_json_holds_the_points_in_base64() {
    let splits = awkward();
    let json: serde_json::Value = serde_json::from_str(&splits.to_bigtable_json()).unwrap();
    let keys: Vec<Key> = json["initialSplits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|split| KeyForm::Base64.parse(split["key"].as_str().unwrap()).unwrap())
        .collect();
    assert_eq!(keys, splits.points());
    let empty: serde_json::Value = serde_json::from_str(&Splits::default().to_bigtable_json()).unwrap();
    assert_eq!(empty["initialSplits"].as_array().unwrap().len(), 0);
}

#[test]
fn the_cbt_argument_takes_printable_points_and_names_the_others() {
    let splits = Reading::SCHEMA.split_planner().plan().unwrap();
    let arg = splits.to_cbt_arg().unwrap();
    assert_eq!(cbt_splits(&arg), Ok(splits.points().iter().map(|p| p.to_vec()).collect()));
    // Points without a comma or a quote are written as they are.
    assert!(!arg.contains('"'), "{arg}");

    // Commas and double quotes, which cbt's CSV reader would take as the end of a point or
    // as quoting: each such point quoted, and read back as its bytes.
    let awkward = Splits::new(["a,b", "\"x\"", "a\"b", "\"", ",", "\"\",\"\"", "plain#", "a\"\"b,"]);
    let arg = awkward.to_cbt_arg().unwrap();
    assert_eq!(cbt_splits(&arg), Ok(awkward.points().iter().map(|p| p.to_vec()).collect()), "{arg}");

    // No points: cbt refuses `splits=` with nothing after it, so there is no argument to give.
    assert_eq!(cbt_splits("splits="), Err("EOF".to_owned()));
    let err = Splits::default().to_cbt_arg().unwrap_err().to_string();
    assert!(err.contains("no split points") && err.contains("without it"), "{err}");

    let err = OrderedReading::SCHEMA.split_planner().plan().unwrap().to_cbt_arg().unwrap_err().to_string();
    assert!(err.contains(r"split 0 (\x81) holds the byte 81"), "{err}");
    let err = Splits::new(["a b"]).to_cbt_arg().unwrap_err().to_string();
    assert!(err.contains("a space"), "{err}");
}

/// Reads `splits=...` as cbt does: the text after `=` is one record of CSV, read with Go's
/// `encoding/csv` defaults. A field is unquoted (and holds no `"`) or quoted, with `""` for a
/// quote inside; a quoted field ends at a comma or the end. No text at all is an error, as is
/// a quote out of place.
fn cbt_splits(arg: &str) -> Result<Vec<Vec<u8>>, String> {
    let list = arg.strip_prefix("splits=").expect(arg).as_bytes();
    if list.is_empty() {
        return Err("EOF".to_owned());
    }
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        let mut field = Vec::new();
        if list.get(i) == Some(&b'"') {
            i += 1;
            loop {
                match (list.get(i), list.get(i + 1)) {
                    (Some(b'"'), Some(b'"')) => {
                        field.push(b'"');
                        i += 2;
                    }
                    (Some(b'"'), None | Some(b',')) => {
                        i += 1;
                        break;
                    }
                    (Some(b'"'), Some(_)) => return Err(format!("extraneous \" in a quoted field at {i}")),
                    (Some(&b), _) => {
                        field.push(b);
                        i += 1;
                    }
                    (None, _) => return Err("a quoted field without its closing quote".to_owned()),
                }
            }
        } else {
            while let Some(&b) = list.get(i).filter(|&&b| b != b',') {
                if b == b'"' {
                    return Err(format!("bare \" in a non-quoted field at {i}"));
                }
                field.push(b);
                i += 1;
            }
        }
        fields.push(field);
        match list.get(i) {
            Some(b',') => i += 1,
            None => return Ok(fields),
            Some(_) => unreachable!("a field ends at a comma or the end"),
        }
    }
}

#[test]
fn the_cbt_reader_refuses_what_cbt_refuses() {
    // What cbt 1.23 refused in `cbt createtable` against the emulator (`Invalid splits arg
    // format: ... bare " in non-quoted-field`, `... extraneous or missing " in quoted-field`).
    assert_eq!(cbt_splits("splits=a\"b"), Err("bare \" in a non-quoted field at 1".to_owned()));
    assert!(cbt_splits("splits=\"a\"b").is_err());
    assert!(cbt_splits("splits=\"a").is_err());
    // And what it took: a quoted comma, a doubled quote, a quoted field that is the whole point.
    assert_eq!(cbt_splits("splits=\"a,b\",c"), Ok(vec![b"a,b".to_vec(), b"c".to_vec()]));
    assert_eq!(cbt_splits("splits=\"a\"\"b\",c"), Ok(vec![b"a\"b".to_vec(), b"c".to_vec()]));
    assert_eq!(cbt_splits("splits=\"x\",y"), Ok(vec![b"x".to_vec(), b"y".to_vec()]));
}

/// Reads a Ruby double-quoted string list as the HBase shell (JRuby) does: `\xNN`, `\"`,
/// `\\` and `\#` escapes; an unescaped `#{`, `#$` or `#@` would interpolate, so it fails.
fn ruby_strings(list: &str) -> Vec<Vec<u8>> {
    let body = list.strip_prefix("SPLITS => [").and_then(|s| s.strip_suffix(']')).expect(list);
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        assert_eq!(bytes[i], b'"', "a string starts at {i} of {body}");
        i += 1;
        let mut value = Vec::new();
        loop {
            match bytes[i] {
                b'"' => break,
                b'\\' => {
                    match bytes[i + 1] {
                        b'x' => {
                            let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).unwrap();
                            value.push(u8::from_str_radix(hex, 16).unwrap());
                            i += 2;
                        }
                        c @ (b'"' | b'\\' | b'#') => value.push(c),
                        c => panic!("escape \\{} in {body}", char::from(c)),
                    }
                    i += 2;
                }
                b'#' if matches!(bytes[i + 1], b'{' | b'$' | b'@') => panic!("interpolation at {i} of {body}"),
                c => {
                    assert!((0x20..0x7f).contains(&c), "raw byte {c:02x} in {body}");
                    value.push(c);
                    i += 1;
                }
            }
        }
        out.push(value);
        i += 1;
        if i < bytes.len() {
            assert_eq!(&bytes[i..i + 2], b", ", "{body}");
            i += 2;
        }
    }
    out
}

#[test]
fn the_hbase_shell_form_reads_back_as_the_points() {
    for splits in [awkward(), OrderedReading::SCHEMA.split_planner().plan().unwrap(), Splits::default()] {
        let strings = ruby_strings(&splits.to_hbase());
        assert_eq!(strings, splits.points().iter().map(|p| p.to_vec()).collect::<Vec<_>>());
    }
}

/// `LIST` evaluated by `terraform console`, which parses the list as HCL: `None`
/// where terraform is not installed, else its values or its refusal.
fn terraform_values(list: &str) -> Option<Result<Vec<String>, String>> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicUsize, Ordering};
    // Tests run in parallel: each console gets a directory of its own to start in.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("rowkey-splits-tf-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new("terraform")
        .arg("console")
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    // The console quotes a string it prints in its own way (`\x7f` for DEL, not JSON), so it
    // prints the JSON in base64, which needs no quoting.
    writeln!(child.stdin.take().unwrap(), "base64encode(jsonencode({list}))").unwrap();
    let output = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    if !output.status.success() {
        return Some(Err(String::from_utf8_lossy(&output.stderr).into_owned()));
    }
    let shown = String::from_utf8(output.stdout).unwrap();
    let base64 = shown.trim().strip_prefix('"').and_then(|s| s.strip_suffix('"')).expect(&shown);
    let json = KeyForm::Base64.parse(base64).unwrap();
    Some(Ok(serde_json::from_slice(&json).unwrap()))
}

#[test]
fn terraform_reads_the_split_keys_as_the_points() {
    let text = Splits::new(awkward().points().iter().filter(|p| std::str::from_utf8(p).is_ok()));
    let signs = Splits::new(["$", "$$", "$$x", "$${", "%%{", "a$", "%", "\u{1}\u{7f}\u{85}", "\u{1f600}"]);
    let planned = Reading::SCHEMA.split_planner().plan().unwrap();
    let md5 = Md5Name::SCHEMA.split_planner().tablets(16).plan().unwrap();
    for splits in [text, signs, planned, md5, Splits::default()] {
        let hcl = splits.to_terraform().unwrap();
        let list = hcl.strip_prefix("split_keys = ").unwrap();
        let expected: Vec<String> = splits.points().iter().map(|p| String::from_utf8(p.to_vec()).unwrap()).collect();
        assert_eq!(hcl_strings(list).unwrap_or_else(|e| panic!("{e}")), expected, "{hcl}");
        match terraform_values(list) {
            Some(values) => assert_eq!(values.unwrap_or_else(|e| panic!("{hcl}: {e}")), expected),
            None => eprintln!("terraform is not installed: {hcl} was read by the test's HCL reader alone"),
        }
    }
    let err = awkward().to_terraform().unwrap_err().to_string();
    assert!(err.contains("is not UTF-8"), "{err}");
    // Terraform would turn these into other bytes (NFC): `é` composed, `Å`, a Hangul syllable.
    for point in ["e\u{301}", "\u{212b}", "\u{1100}\u{1161}"] {
        let err = Splits::new([point]).to_terraform().unwrap_err().to_string();
        assert!(err.contains("NFC"), "{point:?}: {err}");
    }
}

#[test]
fn the_hcl_reader_refuses_what_hcl_refuses() {
    // Read as Terraform reads them; the reader is checked against it where it is installed.
    let read = [
        (r#"["a\"b\\c", "\n\r\t"]"#, vec!["a\"b\\c", "\n\r\t"]),
        (
            r#"["caf\u00E9", "\U0001F600", "\U000000e9", "\u00e9ab"]"#,
            vec!["caf\u{e9}", "\u{1f600}", "\u{e9}", "\u{e9}ab"],
        ),
        // A doubled sign not before a brace is two signs: `$$${` is `$` then the escape `$${`.
        (
            r#"["$${v}%%{w}", "$$${x}", "$$$${x}", "%%%{y}", "$$", "$", "%"]"#,
            vec!["${v}%{w}", "$${x}", "$$${x}", "%%{y}", "$$", "$", "%"],
        ),
        ("[\"raw\ttab\u{1}\"]", vec!["raw\ttab\u{1}"]),
        ("[]", vec![]),
    ];
    for (list, expected) in read {
        assert_eq!(hcl_strings(list).unwrap_or_else(|e| panic!("{list}: {e}")), expected, "{list}");
        if let Some(values) = terraform_values(list) {
            assert_eq!(values.unwrap_or_else(|e| panic!("{list}: {e}")), expected, "{list}");
        }
    }
    let refused = [
        (r#"["a\x41"]"#, r"\x is not an HCL escape"),
        (r#"["a\'"]"#, r"\' is not an HCL escape"),
        (r#"["\u12"]"#, r"\u takes 4 hexadecimal digits"),
        (r#"["\u12G4"]"#, r"\u takes 4 hexadecimal digits"),
        (r#"["\U0001F60"]"#, r"\U takes 8 hexadecimal digits"),
        (r#"["\uD800"]"#, "is not a Unicode scalar value"),
        (r#"["\U00110000"]"#, "is not a Unicode scalar value"),
        ("[\"a\nb\"]", "spans lines"),
        ("[\"a\rb\"]", "spans lines"),
        (r#"["a\"]"#, "is not closed"),
        (r#"["a" "b"]"#, "no `, `"),
        // Terraform refuses these for the undeclared `x`; a declared one it would interpolate.
        (r#"["${x}"]"#, "template sequence `${`"),
        (r#"["%${x}"]"#, "template sequence `${`"),
    ];
    for (list, expected) in refused {
        let err = hcl_strings(list).err().unwrap_or_else(|| panic!("{list} was read"));
        assert!(err.contains(expected), "{list}: {expected:?} not in {err}");
        if let Some(values) = terraform_values(list) {
            assert!(values.is_err(), "terraform read {list} as {values:?}");
        }
    }
    // HCL evaluates a directive: the text written is not the value, so the reader refuses it.
    let err = hcl_strings(r#"["%{ if true }x%{ endif }"]"#).unwrap_err();
    assert!(err.contains("template sequence `%{`"), "{err}");
    if let Some(values) = terraform_values(r#"["%{ if true }x%{ endif }"]"#) {
        assert_eq!(values.unwrap(), ["x"]);
    }
}

#[test]
fn store_formats_split_where_their_buckets_start() {
    let fdb = (0..2_000i64).map(|i| {
        FdbReading { device: id(i as u32), at: i, tag: None, ok: true, seq: 7, data: vec![] }.to_key().unwrap()
    });
    assert_at_bucket_boundaries(&FdbReading::SCHEMA, fdb);
    let hbase = (0..2_000u32)
        .map(|i| HBaseVisit { host: format!("h{i}"), ts: -1, amount: 3, row: vec![0, 1] }.to_key().unwrap());
    assert_at_bucket_boundaries(&HBaseVisit::SCHEMA, hbase);
    let orders = (0..2_000u32).map(|i| McOrder { number: farm_fingerprint(&i.to_be_bytes()) as u32, line: 1 });
    assert_at_bucket_boundaries(&McOrder::SCHEMA, orders.map(|o| o.to_key().unwrap()));
}

#[test]
fn store_formats_split_inside_buckets_along_an_integer_first_field() {
    let splits = McOrder::SCHEMA.split_planner().per_bucket(3).plan().unwrap();
    assert_eq!(splits.len(), 3 + 4 * 3);
    let keys: Vec<Key> = (0..64_000u32)
        .map(|i| McOrder { number: farm_fingerprint(&i.to_le_bytes()) as u32, line: 2 }.to_key().unwrap())
        .collect();
    assert_even(&splits, &keys);
    // A point inside a bucket is the key's lead and a whole value of the field.
    let inside = McOrder { number: 1 << 30, line: 0 }.to_key().unwrap();
    let point = &splits.points()[0];
    assert!(inside.starts_with(point), "{point} {inside}");

    // Descending, unsalted: the points still cut the values evenly.
    let seqs = HBaseSeq::SCHEMA.split_planner().per_bucket(3).plan().unwrap();
    assert_eq!(seqs.len(), 3);
    let keys: Vec<Key> = (0..64_000u32)
        .map(|i| HBaseSeq { seq: farm_fingerprint(&i.to_le_bytes()) as i64, name: "n".into() }.to_key().unwrap())
        .collect();
    assert_even(&seqs, &keys);
}

#[test]
fn a_store_key_without_a_known_first_field_points_at_a_sample() {
    let err = HBaseVisit::SCHEMA.split_planner().per_bucket(2).plan().unwrap_err().to_string();
    assert!(err.contains("`host` is text") && err.contains("Splits::from_sample"), "{err}");
    let err = HBaseSeq::SCHEMA.split_planner().plan().unwrap_err().to_string();
    assert!(err.contains("has no salt"), "{err}");
}
