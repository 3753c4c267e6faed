"""The two moves of the issue through the pipeline on the DirectRunner (two worker processes):
the target equals the target of `rowkey migrate run` for the same move, cell for cell, and brute
force; a second run leaves it as it is."""

import rowkey
import support
from rowkey.beam import run


def by_time_rows(n):
    old = rowkey.Schema.load(support.SCHEMAS / "by_time.json")
    return ((old.encode(support.reading(i)), support.cells(i)) for i in range(n))


def test_time_first_to_salted_equals_the_rust_command_and_brute_force(tmp_path):
    n = support.rows("ROWKEY_BEAM_ROWS", 100_000)
    for name in ("by_time", "salted_beam", "salted_rust"):
        support.create_table(name)
    assert support.fill("by_time", by_time_rows(n)) == n
    mapping = support.mapping("by_time.json", "reading.json")
    tables = support.tables("by_time", "salted_beam")

    outcome = run.migrate(mapping, tables, support.direct_options(2), str(tmp_path / "dead.jsonl"))
    assert (outcome.count("rows read"), outcome.count("rows written"), outcome.count("rows dead-lettered")) == (n, n, 0)
    per_shard = [v for k, v in outcome.counters.items() if k.startswith("shard ") and k.endswith(": rows written")]
    assert len(per_shard) > 1 and sum(per_shard) == n, outcome.counters
    assert (tmp_path / "dead.jsonl").read_text() == ""

    done = support.rust_migrate(
        "run",
        ["--from", str(support.SCHEMAS / "by_time.json"), "--to", str(support.SCHEMAS / "reading.json")],
        "by_time",
        "salted_rust",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr

    old_rows = support.read_all("by_time")
    support.assert_same(old_rows, dict(by_time_rows(n)), "the old table as written")
    beam_rows = support.read_all("salted_beam")
    support.assert_same(
        beam_rows, support.read_all("salted_rust"), "the pipeline's target against `rowkey migrate run`'s"
    )
    expected = support.brute_force(old_rows, mapping.old_schema(), mapping.new_schema(), lambda fields: fields)
    support.assert_same(beam_rows, expected, "the pipeline's target against brute force")

    # Run again over the finished target: the same cells written again, nothing doubled.
    again = run.migrate(mapping, tables, support.direct_options(2), str(tmp_path / "dead.jsonl"))
    assert again.count("rows written") == n
    support.assert_same(support.read_all("salted_beam"), expected, "the target after a second run")

    checked = run.verify(mapping, tables, support.direct_options(2), str(tmp_path / "verify.txt"))
    assert {k: checked.count(k) for k in ("old rows", "new rows", "compared", "missing", "differing", "extra")} == {
        "old rows": n,
        "new rows": n,
        "compared": n,
        "missing": 0,
        "differing": 0,
        "extra": 0,
    }
    assert (tmp_path / "verify.txt").read_text() == ""


def test_delimited_to_ordered_with_a_rename_and_a_default_from_the_command(tmp_path):
    n = support.rows("ROWKEY_BEAM_ROWS", 100_000)
    old = rowkey.Schema.load(support.SCHEMAS / "device_reading.json")
    for name in ("delimited", "ordered_beam", "ordered_rust"):
        support.create_table(name)

    def device_rows():
        for i in range(n):
            r = support.reading(i)
            yield (
                old.encode(device_type=r["device_type"], device=r["device_id"], ts_millis=r["ts_millis"]),
                support.cells(i),
            )

    support.fill("delimited", device_rows())
    mapping_args = [
        "--from",
        str(support.SCHEMAS / "device_reading.json"),
        "--to",
        str(support.SCHEMAS / "ordered_reading.json"),
        "--rename",
        "device=device_id",
        "--default",
        "region=eu",
    ]
    where = ["--project", support.PROJECT, "--instance", support.INSTANCE, "--source", "delimited"]
    beam = support.beam_command(
        "migrate",
        *mapping_args,
        *where,
        "--target",
        "ordered_beam",
        "--dead-letters",
        str(tmp_path / "dead.jsonl"),
        "--runner",
        "DirectRunner",
        timeout=900,
    )
    assert beam.returncode == 0, beam.stderr[-3000:]
    assert f"rows read: {n}, written: {n}, dead-lettered: 0" in beam.stdout, beam.stdout
    rust = support.rust_migrate("run", mapping_args, "delimited", "ordered_rust", tmp_path)
    assert rust.returncode == 0, rust.stderr

    got = support.read_all("ordered_beam")
    support.assert_same(got, support.read_all("ordered_rust"), "the pipeline's target against `rowkey migrate run`'s")
    new = rowkey.Schema.load(support.SCHEMAS / "ordered_reading.json")

    def move(fields):
        return {
            "region": "eu",
            "device_type": fields["device_type"],
            "device_id": fields["device"],
            "ts_millis": fields["ts_millis"],
        }

    support.assert_same(
        got,
        support.brute_force(support.read_all("delimited"), old, new, move),
        "the pipeline's target against brute force",
    )

    check = support.beam_command(
        "verify",
        *mapping_args,
        *where,
        "--target",
        "ordered_beam",
        "--output",
        str(tmp_path / "verify.txt"),
        timeout=900,
    )
    assert check.returncode == 0, check.stdout + check.stderr[-3000:]
    assert f"old rows: {n}, new rows: {n}, compared: {n}, missing: 0, differing: 0, extra: 0" in check.stdout, (
        check.stdout
    )
