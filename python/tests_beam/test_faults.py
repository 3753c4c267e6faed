"""Faults: a bundle of each shard failing once, and a worker process killed. The DirectRunner
fails the pipeline where Dataflow would retry the bundle; either way the same run started again
completes, and the target is exact: every row under its right key, no cell doubled."""

import os

import apache_beam as beam
import faults
import pytest
import rowkey
import support
from rowkey.beam import run


def old_table(name, n):
    old = rowkey.Schema.load(support.SCHEMAS / "by_time.json")
    support.create_table(name)
    rows = {old.encode(support.reading(i)): support.cells(i) for i in range(n)}
    support.fill(name, rows.items())
    support.assert_same(support.read_all(name), rows, "the old table as written")
    # Four shards of n/4 rows: every shard has many batches of 200.
    return [old.encode(support.reading(n * s // 4)) for s in (1, 2, 3)]


def run_until_done(mapping, tables, tmp_path, points, between, most=6):
    """The same run, started again after each failure; the failures seen and the last outcome."""
    failures = []
    for _ in range(most):
        try:
            outcome = run.migrate(
                mapping,
                tables,
                support.direct_options(2),
                str(tmp_path / "dead.jsonl"),
                split_points=points,
                batch_rows=200,
                between=between,
            )
            return failures, outcome
        except Exception as err:  # the runner's error for the failed bundle, whatever its type
            failures.append(err)
            written = len(support.read_all(tables.target))
            assert written < len(support.read_all(tables.source)), "a failed run stopped part way"
    raise AssertionError(f"still failing after {most} runs: {failures[-1]}")


def assert_exact(mapping, tables):
    expected = support.brute_force(support.read_all(tables.source), mapping.old_schema(), mapping.new_schema(), dict)
    support.assert_same(support.read_all(tables.target), expected, "the target after the faults")


def test_each_shard_failing_once_then_the_same_run_again_is_exact(tmp_path):
    n = support.rows("ROWKEY_BEAM_FAULT_ROWS", 10_000)
    points = old_table("fault_old", n)
    support.create_table("fault_new")
    mapping, tables = support.mapping("by_time.json", "reading.json"), support.tables("fault_old", "fault_new")
    markers = tmp_path / "markers"
    markers.mkdir()
    fail = beam.ParDo(faults.FailSecondBatchOnce(str(markers)))
    failures, outcome = run_until_done(mapping, tables, tmp_path, points, fail)
    # The DirectRunner fails the run at a shard's failure (a run for each, at worst); a runner that
    # retries bundles would need none.
    assert len(failures) <= 4, failures
    assert sorted(os.listdir(markers)) == [f"shard-{i}" for i in range(4)], "each shard failed once"
    assert outcome.count("rows written") == n
    assert_exact(mapping, tables)


# The runner's thread that watched the killed worker ends with the error that fails the run.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_killed_worker_then_the_same_run_again_is_exact(tmp_path):
    n = support.rows("ROWKEY_BEAM_FAULT_ROWS", 10_000)
    points = old_table("killed_old", n)
    support.create_table("killed_new")
    mapping, tables = support.mapping("by_time.json", "reading.json"), support.tables("killed_old", "killed_new")
    marker = tmp_path / "killed"
    kill = beam.ParDo(faults.KillWorkerOnce(str(marker), shard=2))
    failures, outcome = run_until_done(mapping, tables, tmp_path, points, kill)
    assert marker.exists(), "a worker was killed"
    assert len(failures) <= 1, failures
    assert outcome.count("rows written") == n
    assert_exact(mapping, tables)
