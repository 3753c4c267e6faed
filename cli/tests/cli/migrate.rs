//! `rowkey migrate run` and `verify` refuse one table given as both source and target, before
//! they connect to any instance.

use crate::common::keys::Reading;
use crate::{rowkey, schema_file};

#[test]
fn migrate_refuses_a_table_as_its_own_target() {
    let schema = schema_file::<Reading>();
    let checkpoint = std::env::temp_dir().join(format!("rowkey-cli-same-table-{}.json", std::process::id()));
    for step in ["run", "verify"] {
        let mut command = rowkey();
        command.args(["migrate", step, "--from"]).arg(&schema).arg("--to").arg(&schema);
        command.args(["--project", "p", "--instance", "i", "--source", "readings", "--target", "readings"]);
        if step == "run" {
            command.arg("--checkpoint").arg(&checkpoint);
        }
        // An emulator that is not there: the refusal must come before any connection.
        let output = command.env("BIGTABLE_EMULATOR_HOST", "127.0.0.1:9").output().unwrap();
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{step}: {err}");
        assert_eq!(err.lines().count(), 1, "{step}: {err}");
        assert!(err.contains("--source and --target are both `readings`"), "{step}: {err}");
        assert!(err.contains("give the new table as --target"), "{step}: {err}");
        assert!(!checkpoint.exists(), "{step}");
    }
}
