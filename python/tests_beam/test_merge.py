"""A move that drops a field with `--merge-rows`: old rows that differ only in the dropped field
become one row holding the cells of all, as `rowkey migrate run` makes it; verify compares the
merged row with the union of its old rows' cells."""

import rowkey
import support
from rowkey.beam import Mapping, run

MOVE = ["--from", str(support.SCHEMAS / "by_time.json"), "--to", str(support.SCHEMAS / "by_device.json")]


def test_rows_that_differ_only_in_a_dropped_field_merge(tmp_path):
    n = 2_000
    old = rowkey.Schema.load(support.SCHEMAS / "by_time.json")
    new = rowkey.Schema.load(support.SCHEMAS / "by_device.json")
    rows = {old.encode(support.reading(i)): support.cells(i) for i in range(n)}
    # Every tenth reading again under another device type, with a column of its own: the two merge.
    for i in range(0, n, 10):
        twin = dict(support.reading(i), device_type="kettle")
        rows[old.encode(twin)] = ((support.META, b"twin", (1_000 + i) * 1_000, b"%d" % i),)
    for name in ("merge_old", "merge_beam", "merge_rust"):
        support.create_table(name)
    support.fill("merge_old", rows.items())

    mapping = Mapping.from_args(*MOVE[1::2], merge_rows=True)
    outcome = run.migrate(
        mapping, support.tables("merge_old", "merge_beam"), support.direct_options(2), str(tmp_path / "dead.jsonl")
    )
    assert (outcome.count("rows read"), outcome.count("rows written")) == (n + n // 10, n + n // 10)
    rust = support.rust_migrate("run", [*MOVE, "--merge-rows"], "merge_old", "merge_rust", tmp_path)
    assert rust.returncode == 0, rust.stderr

    expected = {}
    for key, cells in rows.items():
        fields = old.decode(key)
        new_key = new.encode(device_id=fields["device_id"], ts_millis=fields["ts_millis"])
        expected[new_key] = tuple(sorted(expected.get(new_key, ()) + cells))
    assert len(expected) == n
    got = support.read_all("merge_beam")
    support.assert_same(got, expected, "the merged target against brute force")
    support.assert_same(got, support.read_all("merge_rust"), "the merged target against `rowkey migrate run`'s")

    where = ["--project", support.PROJECT, "--instance", support.INSTANCE, "--source", "merge_old"]
    check = support.beam_command(
        "verify",
        *MOVE,
        "--merge-rows",
        *where,
        "--target",
        "merge_beam",
        "--output",
        str(tmp_path / "report.txt"),
        timeout=600,
    )
    assert check.returncode == 0, check.stdout + check.stderr[-3000:]
    assert f"old rows: {n + n // 10}, new rows: {n}, compared: {n}, missing: 0, differing: 0, extra: 0" in check.stdout
