"""`python -m rowkey.beam migrate|verify` check both tables before any pipeline starts: a missing
table, a target without a column family of the source, or one table given as both is exit 2 with
one line naming it and the fix, and nothing is written."""

import pytest
import support

MOVE = ["--from", str(support.SCHEMAS / "by_time.json"), "--to", str(support.SCHEMAS / "reading.json")]
ROWS = 20


def command(step, source, target, tmp_path):
    where = ["--project", support.PROJECT, "--instance", support.INSTANCE, "--source", source, "--target", target]
    output = (
        ["--dead-letters", str(tmp_path / "dead.jsonl")] if step == "migrate" else ["--output", str(tmp_path / "r")]
    )
    return support.beam_command(step, *MOVE, *where, *output, timeout=300)


def old_table(name):
    """A source of a few rows, some with a cell in the second family (every seventh row)."""
    support.create_table(name)
    old = support.mapping("by_time.json", "reading.json").old_schema()
    support.fill(name, ((old.encode(support.reading(i)), support.cells(i)) for i in range(ROWS)))


WHERE = "instance beam-tests of project rowkey-beam"
CASES = {
    # the case: (source, target, the families of the target when it is made, the line expected)
    "no source": ("t_absent", "t_new", "m meta", f"the old table `t_absent` (--source) is not in {WHERE}"),
    "no target": (
        "t_old",
        "t_absent",
        "",
        f"the new table `t_absent` (--target) is not in {WHERE}; create it, with the families of `t_old` (m, meta)",
    ),
    "no family": (
        "t_old",
        "t_new",
        "m",
        (
            "the new table `t_new` has no column family meta, which the old table `t_old` holds and the copy "
            "writes; add each (`cbt -project rowkey-beam -instance beam-tests createfamily t_new FAMILY`)"
        ),
    ),
    "one table": ("t_old", "t_old", "", "--source and --target are both `t_old`"),
}


@pytest.mark.parametrize("step", ["migrate", "verify"])
@pytest.mark.parametrize("case", list(CASES))
def test_tables_that_cannot_take_the_move_are_refused_before_the_pipeline(step, case, tmp_path):
    source, target, families, expected = CASES[case]
    if source == "t_old":
        old_table(source)
    if target == "t_new":
        support.create_table(target, tuple(families.split()))
    done = command(step, source, target, tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr[-3000:]
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {expected}"), done.stderr[-3000:]
    if source == "t_old":
        assert len(support.read_all(source)) == ROWS
    if target == "t_new":
        assert support.read_all(target) == {}
