"""What the Beam tests and the rate script share: an emulator, the test tables' rows and cells,
brute-force re-keying, whole-table reads, and the Rust `rowkey migrate` command."""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import warnings
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import rowkey
from apache_beam.options.pipeline_options import PipelineOptions
from rowkey.beam import Mapping, Tables, table_io

HERE = pathlib.Path(__file__).parent
SCHEMAS = HERE / "schemas"
REPO = HERE.parent.parent
PROJECT, INSTANCE = "rowkey-beam", "beam-tests"
FAMILY, META = "m", "meta"
CBTEMULATOR = "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator"

Cells = Tuple[table_io.Cell, ...]


class Emulator:
    """A Bigtable emulator on a free port of 127.0.0.1, stopped by its own pid."""

    def __init__(self, log_dir: pathlib.Path):
        binary = os.environ.get("CBTEMULATOR") or CBTEMULATOR
        self.log = open(log_dir / "cbtemulator.log", "w+")
        self.process = subprocess.Popen(
            [binary, "-host", "127.0.0.1", "-port", "0"], stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.log.seek(0)
            found = re.search(r"127\.0\.0\.1:\d+", self.log.read())
            if found:
                self.host = found.group(0)
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the Bigtable emulator did not start")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self.log.close()


def admin_instance():
    from google.cloud.bigtable import Client

    warnings.filterwarnings("ignore", message="Connecting to Bigtable emulator", category=RuntimeWarning)
    return Client(project=PROJECT, admin=True).instance(INSTANCE)


CREATED: List[str] = []
"""The tables made since the last `drop_created`."""


def create_table(name: str, families: Tuple[str, ...] = (FAMILY, META)) -> None:
    """A new empty table with the tests' two families (or `families`), keeping every version of
    a cell."""
    from google.cloud.bigtable import column_family

    CREATED.append(name)
    table = admin_instance().table(name)
    if table.exists():
        table.delete()
    keep = column_family.MaxVersionsGCRule(1000)
    table.create(column_families={family: keep for family in families})


def drop_created() -> None:
    """Deletes the tables made since the last call: an emulator holds them all in memory, and
    CI's emulator is shared with other tests."""
    instance = admin_instance()
    while CREATED:
        table = instance.table(CREATED.pop())
        if table.exists():
            table.delete()


def tables(source: str, target: str) -> Tables:
    return Tables(PROJECT, INSTANCE, source, target)


# The time-first table: 3 device types, 5,000 devices, one reading a millisecond.
TYPES = ("phone", "watch", "car")


def reading(i: int) -> Dict[str, object]:
    device = (i * 0x9E3779B97F4A7C15 % 2**64) % 5_000
    return {"ts_millis": 1_588_291_200_000 + i, "device_type": TYPES[i % 3], "device_id": f"{device:08x}"}


def cells(i: int) -> Cells:
    """Row `i`'s cells: a reading; for every third row two older versions of it; for every seventh
    a binary qualifier and a second family, so that a copy must keep versions, families,
    qualifiers and timestamps exactly."""
    at = 1_588_291_200_000_000 + i * 1_000
    out = [(FAMILY, b"celsius", at, f"{i % 40}.{i % 10}".encode())]
    if i % 3 == 0:
        out += [(FAMILY, b"celsius", at - 1_000, b"old"), (FAMILY, b"celsius", at - 2_000, b"older")]
    if i % 7 == 0:
        out += [(FAMILY, b"\x00raw\xff", at, bytes([0, 255, i % 256])), (META, b"\xfe", 7_000, b"")]
    return tuple(sorted(out))


def fill(table_name: str, keyed: Iterable[Tuple[bytes, Cells]], batch: int = 5_000) -> int:
    """Writes the rows; their count."""
    client, table = table_io.open_table(tables(table_name, table_name), table_name)
    n, rows = 0, []
    try:
        for row in keyed:
            rows.append(row)
            if len(rows) == batch:
                table_io.write_rows(table, rows)
                n, rows = n + len(rows), []
        table_io.write_rows(table, rows)
        return n + len(rows)
    finally:
        table_io.close(client)


def read_all(table_name: str) -> Dict[bytes, Cells]:
    client, table = table_io.open_table(tables(table_name, table_name), table_name)
    try:
        return dict(table_io.read_rows(table, b"", None))
    finally:
        table_io.close(client)


def mapping(old: str, new: str, rename=(), default=()) -> Mapping:
    return Mapping.from_args(str(SCHEMAS / old), str(SCHEMAS / new), list(rename), list(default))


def brute_force(
    rows: Dict[bytes, Cells], old: rowkey.Schema, new: rowkey.Schema, move: Callable[[dict], dict]
) -> Dict[bytes, Cells]:
    """The target a move must leave, worked out without `Rekey`: each key decoded, its fields
    moved by hand, encoded in the new design."""
    return {new.encode(move(old.decode(key))): row_cells for key, row_cells in rows.items()}


DIRECT_ARGS = ["--direct_num_workers", "2", "--direct_running_mode", "multi_processing"]


def beam_command(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """`python -m rowkey.beam ARGS` as a user runs it, on the DirectRunner's two worker processes."""
    return subprocess.run(
        [sys.executable, "-m", "rowkey.beam", *args, *DIRECT_ARGS], capture_output=True, text=True, timeout=timeout
    )


"""The command's Beam options of the tests: the DirectRunner with two worker processes."""


def direct_options(workers: int = 2, extra: Optional[List[str]] = None) -> PipelineOptions:
    mode = ["--direct_running_mode", "multi_processing"] if workers > 1 else ["--direct_running_mode", "in_memory"]
    return PipelineOptions(["--runner", "DirectRunner", "--direct_num_workers", str(workers), *mode, *(extra or [])])


def rowkey_command() -> str:
    """The Rust `rowkey` command: ROWKEY_BIN, else a build of this checkout (release, then dev)."""
    given = os.environ.get("ROWKEY_BIN")
    if given:
        return given
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    for profile in ("release", "debug"):
        if (target / profile / "rowkey").exists():
            return str(target / profile / "rowkey")
    found = shutil.which("rowkey")
    if found:
        return found
    raise RuntimeError("no `rowkey` command: build it (`cargo build -p rowkey-cli`) or set ROWKEY_BIN")


def rust_migrate(
    step: str, mapping_args: List[str], source: str, target: str, workdir: pathlib.Path
) -> subprocess.CompletedProcess:
    """`rowkey migrate run|verify` on the emulator, as a user runs it."""
    args = [
        rowkey_command(),
        "migrate",
        step,
        *mapping_args,
        "--project",
        PROJECT,
        "--instance",
        INSTANCE,
        "--source",
        source,
        "--target",
        target,
    ]
    if step == "run":
        args += ["--checkpoint", str(workdir / f"{target}.checkpoint.json"), "--no-count"]
    return subprocess.run(args, capture_output=True, text=True, timeout=900)


def assert_same(got: Dict[bytes, Cells], expected: Dict[bytes, Cells], what: str) -> None:
    """The two tables hold the same rows, each with the same cells; else the first row that differs."""
    for key in sorted(set(got) | set(expected)):
        if key not in got:
            raise AssertionError(f"{what}: row {key!r} is missing")
        if key not in expected:
            raise AssertionError(f"{what}: row {key!r} should not be there")
        if got[key] != expected[key]:
            raise AssertionError(f"{what}: the cells of row {key!r}: {got[key]} != {expected[key]}")


def rows(name: str, default: int) -> int:
    """A row count from the environment (ROWKEY_BEAM_ROWS and kin), so CI sets the size."""
    return int(os.environ.get(name, default))
