"""The README's `Reading` key declared in Python (no schema file, no Rust), its rows written to
Bigtable and read back by a scan, through google-cloud-bigtable.

Needs the Bigtable emulator (`gcloud beta emulators bigtable start`, or `cbtemulator -host
127.0.0.1 -port 8086`) and BIGTABLE_EMULATOR_HOST naming it; `.ci/run` starts one.
Run: BIGTABLE_EMULATOR_HOST=127.0.0.1:8086 python examples/python/declared.py
"""

import os
import sys
import warnings
from typing import Annotated, List

from google.cloud.bigtable import Client, column_family

import rowkey


class Reading(rowkey.Key, delimited="#", salt=rowkey.Salt(16, from_=["device_id"])):
    """A device's readings, newest first, behind a bucket of its id."""

    device_type: str
    device_id: str
    ts_millis: Annotated[rowkey.i64, rowkey.reverse()]


if not os.environ.get("BIGTABLE_EMULATOR_HOST"):
    sys.exit("set BIGTABLE_EMULATOR_HOST to the emulator's host:port (this example writes to it)")

warnings.filterwarnings("ignore", message="Connecting to Bigtable emulator", category=RuntimeWarning)
table = Client(project="rowkey-example", admin=True).instance("rowkey-example").table("declared")
if table.exists():
    table.delete()
table.create(column_families={"m": column_family.MaxVersionsGCRule(1)})

start = 1_588_291_200_000
readings = [Reading(kind, f"{kind[0]}{i:07x}", start + minute * 60_000)
            for kind in ("meter", "valve") for i in range(32) for minute in range(10)]
mutations = []
for reading, key in zip(readings, Reading.encode_many(readings)):
    row = table.direct_row(key)
    row.set_cell("m", b"v", str(reading.ts_millis).encode())
    mutations.append(row)
assert all(status.code == 0 for status in table.mutate_rows(mutations))


def read(scan: rowkey.Scan) -> List[Reading]:
    """The readings a scan's ranges read, in the order Bigtable returns them."""
    return [Reading.from_key(row.row_key) for row in table.read_rows(row_set=scan.ranges().to_row_set())]


# One device's last five minutes: one range in its bucket, newest first (the time is reversed).
recent = read(Reading.scan().device_type("meter").device_id("m0000007").ts_millis_range(start + 5 * 60_000, None))
assert [r.ts_millis for r in recent] == [start + m * 60_000 for m in range(9, 4, -1)], recent
# Every valve: no device id, so a range in each of the 16 buckets.
valves = read(Reading.scan().device_type("valve"))
assert len(valves) == 320 and {r.device_type for r in valves} == {"valve"}
print(f"{len(readings)} readings written; read back {len(recent)} of one meter and {len(valves)} of the valves")
