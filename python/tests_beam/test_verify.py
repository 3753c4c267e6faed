"""The verify pipeline finds a deleted row, a changed cell, an extra row and an old row that
cannot be re-keyed, each by both its keys, and exits non-zero; a clean copy exits 0. Two old rows
that met at one new key are each reported, with the row counts, as `rowkey migrate verify` does."""

import rowkey
import support
from google.cloud.bigtable.data import DeleteAllFromRow
from rowkey.beam import Mapping, key_text, run, table_io


def verify_command(tmp_path, source, target):
    return support.beam_command(
        "verify",
        "--from",
        str(support.SCHEMAS / "by_time.json"),
        "--to",
        str(support.SCHEMAS / "reading.json"),
        "--project",
        support.PROJECT,
        "--instance",
        support.INSTANCE,
        "--source",
        source,
        "--target",
        target,
        "--output",
        str(tmp_path / "report.txt"),
        timeout=600,
    )


def test_verify_finds_each_fault_by_its_keys(tmp_path):
    n = 3_000
    old = rowkey.Schema.load(support.SCHEMAS / "by_time.json")
    new = rowkey.Schema.load(support.SCHEMAS / "reading.json")
    support.create_table("v_old")
    support.create_table("v_new")
    rows = {old.encode(support.reading(i)): support.cells(i) for i in range(n)}
    support.fill("v_old", rows.items())
    support.assert_same(support.read_all("v_old"), rows, "the old table as written")
    mapping, tables = support.mapping("by_time.json", "reading.json"), support.tables("v_old", "v_new")
    run.migrate(mapping, tables, support.direct_options(2), str(tmp_path / "dead.jsonl"))
    clean = verify_command(tmp_path, "v_old", "v_new")
    assert clean.returncode == 0, clean.stdout + clean.stderr[-3000:]
    assert f"old rows: {n}, new rows: {n}, compared: {n}, missing: 0, differing: 0, extra: 0" in clean.stdout

    rekey = mapping.rekey()
    deleted, changed = old.encode(support.reading(17)), old.encode(support.reading(21))
    extra = new.encode(device_type="phone", device_id="ffffffff", ts_millis=5)
    client, target = table_io.open_table(tables, "v_new")
    try:
        target.mutate_row(rekey.rekey(deleted), DeleteAllFromRow())
        at = 1_588_291_200_000_000 + 21 * 1_000
        table_io.write_rows(
            target,
            [
                (rekey.rekey(changed), ((support.FAMILY, b"celsius", at, b"tampered"),)),
                (extra, ((support.FAMILY, b"celsius", 1_000, b"1"),)),
            ],
        )
    finally:
        table_io.close(client)
    support.fill("v_old", [(b"not-a-key", support.cells(1))])

    found = verify_command(tmp_path, "v_old", "v_new")
    assert found.returncode == 1, found.stdout + found.stderr[-3000:]
    assert f"old rows: {n + 1}, new rows: {n}, compared: {n - 1}, missing: 2, differing: 1, extra: 1" in found.stdout, (
        found.stdout
    )
    lines = sorted((tmp_path / "report.txt").read_text().splitlines())
    assert lines == sorted(
        [
            f"missing: old {key_text(old, deleted)} new {key_text(new, rekey.rekey(deleted))}",
            "missing: old not-a-key new -",
            f"differing: old {key_text(old, changed)} new {key_text(new, rekey.rekey(changed))}",
            f"extra: old {key_text(old, rekey.inverse().rekey(extra))} new {key_text(new, extra)}",
        ]
    ), lines
    assert "missing: old [ts_millis=1588291200017 device_type=car device_id=00000c0d] new [bucket=11 " in "\n".join(
        lines
    )


def test_two_old_rows_at_one_new_key_are_each_reported_as_the_rust_command_does(tmp_path):
    # A dropped field that does not decide as `--drop-derived` promises: some readings again
    # under another device type meet their twin at one new key. Three twins hold cells of
    # their own (the new row holds both rows' cells, so each old row differs from it), one the
    # same cells as its twin (only the row counts show it).
    n = 300
    move = ["--from", str(support.SCHEMAS / "by_time.json"), "--to", str(support.SCHEMAS / "by_device.json")]
    drop = ["--drop-derived", "device_type"]
    mapping = Mapping.from_args(*move[1::2], drop_derived=["device_type"])
    old, new = mapping.old_schema(), mapping.new_schema()
    rows = {old.encode(support.reading(i)): support.cells(i) for i in range(n)}
    twins = {i: ((support.META, b"twin", (1_000 + i) * 1_000, b"%d" % i),) for i in (10, 50, 100)}
    twins[150] = support.cells(150)
    for i, cells in twins.items():
        rows[old.encode(dict(support.reading(i), device_type="kettle"))] = cells
    support.create_table("dd_old")
    support.create_table("dd_new")
    support.fill("dd_old", rows.items())
    run.migrate(mapping, support.tables("dd_old", "dd_new"), support.direct_options(2), str(tmp_path / "dead.jsonl"))

    where = ["--project", support.PROJECT, "--instance", support.INSTANCE, "--source", "dd_old", "--target", "dd_new"]
    beam = support.beam_command("verify", *move, *drop, *where, "--output", str(tmp_path / "report.txt"), timeout=600)
    assert beam.returncode == 1, beam.stdout + beam.stderr[-3000:]
    counts = f"old rows: {n + 4}, new rows: {n}, compared: {n + 4}, missing: 0, differing: 6, extra: 0"
    assert counts in beam.stdout, beam.stdout + beam.stderr[-3000:]
    assert f"the row counts differ ({n + 4} old, {n} new) and no rows merge" in beam.stdout, beam.stdout
    lines = sorted((tmp_path / "report.txt").read_text().splitlines())
    expected = []
    for i in (10, 50, 100):
        for device_type in (support.reading(i)["device_type"], "kettle"):
            key = old.encode(dict(support.reading(i), device_type=device_type))
            expected.append(f"differing: old {key_text(old, key)} new {key_text(new, mapping.rekey().rekey(key))}")
    assert lines == sorted(expected), lines

    rust = support.rust_migrate("verify", [*move, *drop], "dd_old", "dd_new", tmp_path)
    assert rust.returncode == 1, rust.stdout + rust.stderr
    assert rust.stdout.splitlines()[0] == counts, rust.stdout
    assert sorted(line for line in rust.stdout.splitlines() if line.startswith("differing: ")) == lines
