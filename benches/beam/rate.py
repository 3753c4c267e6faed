"""Rows per second of the same move, time-first to salted (python/tests_beam/schemas), on one
table in a Bigtable emulator of its own: the Beam pipeline on the DirectRunner with one and two
worker processes, and the Rust `rowkey migrate run`. A measurement to read, not a test.

Run from the repository, with the `beam` extra installed and the command built in release:
    cargo build --release -p rowkey-cli
    python benches/beam/rate.py [ROWS]         (100,000 by default; ROWKEY_BIN names the command)
Each copy goes to a fresh table; every target is checked against the first, row for row.
"""

import os
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests_beam"))

import support  # noqa: E402
from rowkey.beam import run  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    work = pathlib.Path(tempfile.mkdtemp(prefix="rowkey-beam-rate-"))
    emulator = support.Emulator(work)
    os.environ["BIGTABLE_EMULATOR_HOST"] = emulator.host
    try:
        mapping = support.mapping("by_time.json", "reading.json")
        old = mapping.old_schema()
        support.create_table("rate_old")
        started = time.perf_counter()
        support.fill("rate_old", ((old.encode(support.reading(i)), support.cells(i)) for i in range(n)))
        print(f"{n} rows written to the old table in {time.perf_counter() - started:.1f} s", flush=True)
        first = None
        runs = [("beam, DirectRunner, 1 worker", 1), ("beam, DirectRunner, 2 workers", 2), ("rowkey migrate run", 0)]
        for what, workers in runs:
            target = f"rate_new_{workers}"
            support.create_table(target)
            started = time.perf_counter()
            if workers:
                run.migrate(
                    mapping,
                    support.tables("rate_old", target),
                    support.direct_options(workers),
                    str(work / f"{target}.dead.jsonl"),
                )
            else:
                done = support.rust_migrate(
                    "run",
                    ["--from", str(support.SCHEMAS / "by_time.json"), "--to", str(support.SCHEMAS / "reading.json")],
                    "rate_old",
                    target,
                    work,
                )
                assert done.returncode == 0, done.stderr
            took = time.perf_counter() - started
            print(f"{what:32} {took:6.1f} s  {n / took:8.0f} rows/s", flush=True)
            rows = support.read_all(target)
            if first is None:
                first = rows
            support.assert_same(rows, first, what)
        parts(mapping, n)
    finally:
        emulator.stop()


def parts(mapping, n: int) -> None:
    """Where one worker's time goes: the whole table read, re-keyed and written in this process,
    with no pipeline around it."""
    from rowkey.beam import table_io

    client, source = table_io.open_table(support.tables("rate_old", "rate_old"), "rate_old")
    support.create_table("rate_parts")
    client2, target = table_io.open_table(support.tables("rate_parts", "rate_parts"), "rate_parts")
    try:
        started = time.perf_counter()
        rows = list(table_io.read_rows(source, b"", None))
        read = time.perf_counter() - started
        started = time.perf_counter()
        keys = mapping.rekey().rekey_many([key for key, _ in rows])
        rekeyed = time.perf_counter() - started
        moved = [(key, cells) for key, (_, cells) in zip(keys, rows)]
        started = time.perf_counter()
        for i in range(0, n, 500):
            table_io.write_rows(target, moved[i : i + 500])
        written = time.perf_counter() - started
    finally:
        table_io.close(client)
        table_io.close(client2)
    us = 1e6 / n
    print(
        f"one process, no pipeline: read {read * us:.1f} µs/row, re-key {rekeyed * us:.1f} µs/row, "
        f"write {written * us:.1f} µs/row"
    )


if __name__ == "__main__":
    main()
