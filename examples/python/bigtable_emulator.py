"""Rows written under `rowkey` keys and read back by a scan, through google-cloud-bigtable.

Needs the Bigtable emulator (`gcloud beta emulators bigtable start`, or `cbtemulator -host
127.0.0.1 -port 8086`) and BIGTABLE_EMULATOR_HOST naming it; `.ci/run` starts one. The keys are
`Reading`'s (reading.json: 16 salt buckets from `device_id`, then `device_type#device_id#ts`),
so one device's rows sit in one bucket and a query that fixes no device spans all 16.
Run: BIGTABLE_EMULATOR_HOST=127.0.0.1:8086 python examples/python/bigtable_emulator.py
"""

import os
import pathlib
import sys
import warnings
from typing import List

from google.cloud.bigtable import Client, column_family
from google.cloud.bigtable.row_set import RowSet

import rowkey

if not os.environ.get("BIGTABLE_EMULATOR_HOST"):
    sys.exit("set BIGTABLE_EMULATOR_HOST to the emulator's host:port (this example writes to it)")

schema = rowkey.Schema.load(pathlib.Path(__file__).with_name("reading.json"))

# With BIGTABLE_EMULATOR_HOST set the client talks plain gRPC to it, with no credentials (and
# warns that it does, on every client it builds).
warnings.filterwarnings("ignore", message="Connecting to Bigtable emulator", category=RuntimeWarning)
client = Client(project="rowkey-example", admin=True)
table = client.instance("rowkey-example").table("readings")
if table.exists():
    table.delete()
table.create(column_families={"m": column_family.MaxVersionsGCRule(1)})

# 64 meters and 64 valves, 12 readings each: enough devices to land in every bucket.
devices = [(kind, f"{kind[0]}{i:07x}") for kind in ("meter", "valve") for i in range(64)]
rows = [{"device_type": kind, "device_id": dev, "ts": ts} for kind, dev in devices for ts in range(12)]
keys = schema.encode_many(rows)
mutations = []
for key, row in zip(keys, rows):
    mutation = table.direct_row(key)
    mutation.set_cell("m", b"value", f"{row['device_id']}@{row['ts']}".encode())
    mutations.append(mutation)
statuses = table.mutate_rows(mutations)
assert all(status.code == 0 for status in statuses), statuses


def read(ranges: rowkey.KeyRanges) -> List[bytes]:
    """The decoded keys of the rows `ranges` reads, in the order Bigtable returns them."""
    got = [row.row_key for row in table.read_rows(row_set=ranges.to_row_set())]
    assert got == sorted(got), "Bigtable returns rows in key order"
    return got


# One device's readings from ts 5 up to 10 (10 excluded): its bucket is computed, one range.
one = schema.scan(device_type="meter", device_id="m0000007", next=("ts", range(5, 10)))
assert len(one) == 1
got = read(one)
assert [schema.decode(key) for key in got] == [
    {"device_type": "meter", "device_id": "m0000007", "ts": ts} for ts in range(5, 10)
], got
print(f"one device, ts 5..10: {len(got)} rows in 1 range")

# All meters, any device: a range in each of the 16 buckets, and no valve among the rows.
meters = schema.scan(device_type="meter")
assert len(meters) == 16
got = read(meters)
assert sorted(got) == sorted(k for k, row in zip(keys, rows) if row["device_type"] == "meter")
buckets = {key.split(b"#", 1)[0] for key in got}
assert buckets == {b"%02d" % b for b in range(16)}, buckets
print(f"all meters: {len(got)} rows from {len(buckets)} buckets in {len(meters)} ranges")

# A query no key can match reads nothing, and to_row_set() refuses it: a RowSet without ranges
# would read the whole table.
nothing = schema.scan(device_type="meter", device_id="m0000007", next=("ts", slice(5, 5)))
assert nothing.is_empty()
assert len(list(table.read_rows(row_set=RowSet()))) == len(rows)
try:
    nothing.to_row_set()
except rowkey.BadValueError as err:
    print(f"empty query refused: {err}")
else:
    raise AssertionError("to_row_set() of an empty query must raise")

table.delete()
