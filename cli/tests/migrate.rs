//! `rowkey migrate` against the Bigtable emulator: `plan` shows the mapping and refuses one that
//! cannot work; `run` refuses a missing table and another migration's checkpoint without
//! writing, and a run killed part way (SIGKILL) and started again ends with exactly the rows
//! of brute force; `verify` passes, then finds a deleted row and exits 1.
//!
//! Skipped, with one line, where the emulator is not installed.

#[path = "../../tests/common/mod.rs"]
mod common;
// The emulator suite's own starter; this test needs only part of it.
#[allow(dead_code)]
#[path = "../../tests/bigtable_emulator/emulator.rs"]
mod emulator;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::keys::{Reading, ReadingByTime};
use common::pii::{Login, LoginByEmail, LoginText, MARKER};
use emulator::{Emulator, INSTANCE, PROJECT, Tools};
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::bigtable_rs::google::bigtable::v2::{Mutation, mutation};
use rowkey::bigtable::{ReadOptions, Row, Table, set_cell};
use rowkey::{Key, KeyRange, RowKey};

const FAMILY: &str = "f";
const ROWS: usize = 30_000;

fn by_time(i: usize) -> ReadingByTime {
    ReadingByTime {
        ts_millis: 1_588_291_200_000 + i as i64,
        device_type: ["phone", "watch"][i % 2].to_owned(),
        device_id: format!("{:08x}", (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) % 3_000),
    }
}

fn cells(row: &Row) -> Vec<(String, Vec<u8>, i64, Vec<u8>)> {
    let mut cells: Vec<_> = row
        .cells
        .iter()
        .map(|c| (c.family_name.clone(), c.qualifier.clone(), c.timestamp_micros, c.value.clone()))
        .collect();
    cells.sort();
    cells
}

struct Setup {
    dir: PathBuf,
    emulator: Emulator,
}

impl Setup {
    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_str().unwrap().to_owned()
    }

    fn rowkey(&self, args: &[&str]) -> Command {
        let mut command = Command::cargo_bin("rowkey").unwrap();
        command.env("BIGTABLE_EMULATOR_HOST", self.emulator.host()).arg("migrate").args(args);
        command
    }

    /// The arguments of `run` and `verify` for the two tables.
    fn tables<'a>(&'a self, from: &'a str, to: &'a str, source: &'a str, target: &'a str) -> Vec<&'a str> {
        vec![
            "--project",
            PROJECT,
            "--instance",
            INSTANCE,
            "--from",
            from,
            "--to",
            to,
            "--source",
            source,
            "--target",
            target,
        ]
    }
}

fn stdout_of(mut command: Command, status: i32) -> String {
    let output = command.output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(status), "{text}");
    text
}

#[test]
fn migrate_on_the_emulator() {
    let tools = match Tools::find() {
        Ok(tools) => tools,
        Err(why) => {
            let _ = writeln!(std::io::stderr(), "rowkey migrate: SKIPPED, {why}");
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!("rowkey-cli-migrate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let setup = Setup { dir, emulator: Emulator::start(&tools).expect("the emulator") };
    std::fs::write(setup.path("by_time.json"), ReadingByTime::SCHEMA.to_json()).unwrap();
    std::fs::write(setup.path("reading.json"), Reading::SCHEMA.to_json()).unwrap();
    let (from, to) = (setup.path("by_time.json"), setup.path("reading.json"));
    setup.emulator.create_table("old", FAMILY);
    setup.emulator.create_table("new", FAMILY);

    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let _context = runtime.enter();
    let connection =
        BigTableConnection::new_with_emulator(&setup.emulator.host(), PROJECT, INSTANCE, false, 1, None).unwrap();
    let (old, new) = (Table::new(connection.client(), "old"), Table::new(connection.client(), "new"));
    runtime.block_on(async {
        let rows = (0..ROWS).map(|i| {
            let at = 1_588_291_200_000_000 + i as i64 * 1_000;
            (by_time(i).to_key().unwrap(), vec![set_cell(FAMILY, "celsius", i.to_string(), at)])
        });
        old.write_rows(rows).await.unwrap();
    });

    // plan
    let text = stdout_of(setup.rowkey(&["plan", "--from", &from, "--to", &to]), 0);
    assert!(text.contains("device_id <- device_id"), "{text}");
    assert!(text.contains("new table's initial splits (15 points"), "{text}");
    let source = ["--source", "old", "--project", PROJECT, "--instance", INSTANCE];
    let text = stdout_of(setup.rowkey(&[&["plan", "--from", &from, "--to", &to], source.as_slice()].concat()), 0);
    assert!(text.contains("rows in `old`: "), "{text}");
    assert!(!text.contains("cannot be re-keyed"), "{text}");
    let text = stdout_of(setup.rowkey(&["plan", "--from", &to, "--to", &from, "--rename", "nobody=x"]), 2);
    assert!(text.contains("the rename of `nobody` names no field"), "{text}");

    // Bad input writes nothing.
    let checkpoint = setup.path("copy.json");
    let mut args = setup.tables(&from, &to, "old", "missing");
    args.extend(["--checkpoint", &checkpoint]);
    let text = stdout_of(setup.rowkey(&[&["run"], args.as_slice()].concat()), 2);
    assert!(text.contains("the new table `missing` does not exist"), "{text}");
    assert!(!Path::new(&checkpoint).exists());

    // A run killed part way, then started again.
    let mut args = setup.tables(&from, &to, "old", "new");
    args.extend(["--checkpoint", &checkpoint, "--batch-rows", "100", "--at-once", "2"]);
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("rowkey"))
        .env("BIGTABLE_EMULATOR_HOST", setup.emulator.host())
        .arg("migrate")
        .arg("run")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let copied = |path: &str| {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        json["shards"].as_array().map_or(0, |shards| shards.iter().map(|s| s["rows"].as_u64().unwrap()).sum::<u64>())
    };
    while copied(&checkpoint) < 2_000 {
        assert!(started.elapsed() < Duration::from_secs(60), "the copy made no progress");
        assert!(child.try_wait().unwrap().is_none(), "the copy ended before it was killed");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = copied(&checkpoint);
    assert!(before < ROWS as u64, "killed part way: {before}");
    let text = stdout_of(setup.rowkey(&[&["run"], args.as_slice()].concat()), 0);
    assert!(text.contains(&format!("{} rows copied", ROWS as u64 - before)), "{text}");
    assert!(text.contains(&format!("{ROWS} in all")), "{text}");
    runtime.block_on(async {
        let expected: BTreeMap<Key, _> = old
            .read_rows(&KeyRange::all().into(), &ReadOptions::new())
            .await
            .unwrap()
            .iter()
            .map(|row| {
                let r = ReadingByTime::from_key(&row.key).unwrap();
                let key = Reading { device_type: r.device_type, device_id: r.device_id, ts_millis: r.ts_millis };
                (key.to_key().unwrap(), cells(row))
            })
            .collect();
        let found = new.read_rows(&KeyRange::all().into(), &ReadOptions::new()).await.unwrap();
        assert_eq!(found.len(), ROWS);
        for (row, (key, cells_of)) in found.iter().zip(&expected) {
            assert_eq!(&row.key, key);
            assert_eq!(&cells(row), cells_of);
        }
    });

    // Another migration's checkpoint.
    setup.emulator.create_table("other", FAMILY);
    let mut other = setup.tables(&from, &to, "old", "other");
    other.extend(["--checkpoint", &checkpoint]);
    let text = stdout_of(setup.rowkey(&[&["run"], other.as_slice()].concat()), 2);
    assert!(text.contains("belongs to another migration"), "{text}");

    // verify
    let args = setup.tables(&from, &to, "old", "new");
    let text = stdout_of(setup.rowkey(&[&["verify"], args.as_slice()].concat()), 0);
    assert!(text.contains(&format!("old rows: {ROWS}, new rows: {ROWS}, compared: {ROWS}, missing: 0")), "{text}");
    let gone = by_time(77);
    let gone_new =
        Reading { device_type: gone.device_type.clone(), device_id: gone.device_id.clone(), ts_millis: gone.ts_millis };
    runtime.block_on(async {
        let delete = Mutation { mutation: Some(mutation::Mutation::DeleteFromRow(mutation::DeleteFromRow {})) };
        new.write_rows([(gone_new.to_key().unwrap(), vec![delete])]).await.unwrap();
    });
    let text = stdout_of(setup.rowkey(&[&["verify"], args.as_slice()].concat()), 1);
    assert!(text.contains("missing: 1"), "{text}");
    assert!(text.contains(&format!("missing: old [ts_millis={}", gone.ts_millis)), "{text}");
    drop(runtime);
    let _ = std::fs::remove_dir_all(&setup.dir);
}

/// A default for a field marked sensitive is redacted in the plan, shown with --reveal.
#[test]
fn plan_redacts_a_sensitive_default() {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-migrate-default-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (from, to) = (dir.join("by_email.json"), dir.join("login_text.json"));
    std::fs::write(&from, LoginByEmail::SCHEMA.to_json()).unwrap();
    std::fs::write(&to, LoginText::SCHEMA.to_json()).unwrap();
    let plan = |reveal: bool| {
        let mut command = Command::cargo_bin("rowkey").unwrap();
        command.args(["migrate", "plan", "--from", from.to_str().unwrap(), "--to", to.to_str().unwrap()]);
        command.args(["--default", "tenant=7", "--default", "pin=61357"]);
        if reveal {
            command.arg("--reveal");
        }
        stdout_of(command, 0)
    };
    let text = plan(false);
    assert!(!text.contains("61357"), "the sensitive default printed:\n{text}");
    assert!(text.contains("  pin <- = <redacted, 5 characters>\n"), "{text}");
    assert!(text.contains("  tenant <- = 7\n"), "{text}");
    let text = plan(true);
    assert!(text.contains("  pin <- = 61357\n"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `--default` written without `=` is refused with the form it takes, and without the text
/// given: a default is often a sensitive field's value.
#[test]
fn a_mistyped_default_is_refused_without_its_value() {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-migrate-bad-default-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (from, to) = (dir.join("by_email.json"), dir.join("login_text.json"));
    std::fs::write(&from, LoginByEmail::SCHEMA.to_json()).unwrap();
    std::fs::write(&to, LoginText::SCHEMA.to_json()).unwrap();
    let mut command = Command::cargo_bin("rowkey").unwrap();
    command.args(["migrate", "plan", "--from", from.to_str().unwrap(), "--to", to.to_str().unwrap()]);
    command.args(["--default", MARKER]);
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--default takes FIELD=VALUE"), "{stderr}");
    assert!(!stderr.contains(MARKER) && !String::from_utf8_lossy(&output.stdout).contains(MARKER), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `plan --source` on a small table of keys with a sensitive field: its rows counted, or
/// estimated from the sample past --count-limit; the split points from its sample, which hold
/// the field's values, only with --reveal.
#[test]
fn plan_from_a_table_with_sensitive_keys() {
    const LOGINS: usize = 3_000;
    let tools = match Tools::find() {
        Ok(tools) => tools,
        Err(why) => {
            let _ = writeln!(std::io::stderr(), "rowkey migrate plan --source: SKIPPED, {why}");
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!("rowkey-cli-migrate-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let setup = Setup { dir, emulator: Emulator::start(&tools).expect("the emulator") };
    std::fs::write(setup.path("login.json"), Login::SCHEMA.to_json()).unwrap();
    let schema = setup.path("login.json");
    setup.emulator.create_table("logins", FAMILY);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let _context = runtime.enter();
    let connection =
        BigTableConnection::new_with_emulator(&setup.emulator.host(), PROJECT, INSTANCE, false, 1, None).unwrap();
    runtime.block_on(async {
        let rows = (0..LOGINS).map(|i| {
            let key = Login { tenant: "acme".into(), email: format!("{MARKER}-{i:05}@example.com"), at: i as u32 };
            (key.to_key().unwrap(), vec![set_cell(FAMILY, "ok", "1", 1_000)])
        });
        Table::new(connection.client(), "logins").write_rows(rows).await.unwrap();
    });
    let plan = |more: &[&str]| {
        let source = ["--source", "logins", "--project", PROJECT, "--instance", INSTANCE];
        let args = [&["plan", "--from", &schema, "--to", &schema], source.as_slice(), more].concat();
        stdout_of(setup.rowkey(&args), 0)
    };

    let text = plan(&[]);
    assert!(text.contains(&format!("rows in `logins`: {LOGINS} (counted)\n")), "{text}");
    assert!(text.contains("new table's initial splits from the old table's sample ("), "{text}");
    assert!(
        text.contains("a split point would show the value of the sensitive field `email`, so nothing is printed"),
        "{text}"
    );
    assert!(!text.contains("cbt createtable") && !text.contains("initialSplits"), "split points printed:\n{text}");
    assert!(!text.contains(MARKER), "{text}");
    let text = plan(&["--reveal"]);
    assert!(text.contains("cbt createtable") || text.contains("initialSplits"), "--reveal prints them:\n{text}");

    let text = plan(&["--count-limit", "1000"]);
    let line =
        text.lines().find(|line| line.starts_with("rows in `logins`: about ")).unwrap_or_else(|| panic!("{text}"));
    let estimate: f64 = line["rows in `logins`: about ".len()..].split(',').next().unwrap().parse().unwrap();
    let ratio = estimate / LOGINS as f64;
    eprintln!("plan --count-limit 1000 on {LOGINS} rows: {line}");
    assert!((0.9..1.1).contains(&ratio), "an estimate {ratio:.2} times the rows: {line}");
    assert!(line.contains("as rough as the rows' sizes vary"), "{line}");
    drop(runtime);
    let _ = std::fs::remove_dir_all(&setup.dir);
}
