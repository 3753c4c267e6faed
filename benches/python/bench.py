"""Speed of the Python package against FoundationDB's own tuple layer (PyPI `foundationdb`,
pure Python), on a `(str, int, int, UUID)` key, and of the Bigtable device key through
`encode_many`. A script, not a test: run it on an idle machine and read the figures.

    python benches/python/bench.py [--rows N]

Each figure is the best of several runs of `timeit`, per key.
"""

import argparse
import json
import os
import pathlib
import subprocess
import time
import timeit
import uuid

import rowkey

try:
    import pyarrow as pa
except ImportError:  # the Arrow figures need `pip install pyarrow`
    pa = None

try:
    import fdb.tuple as fdb_tuple
except ImportError:  # the comparison needs `pip install foundationdb`
    fdb_tuple = None

FDB_SCHEMA = rowkey.Schema.from_json(json.dumps({
    "rowkey_schema": 1, "type": "Event", "format": "fdb_tuple",
    "fields": [{"name": "tenant", "type": "String", "encoding": "utf8"},
               {"name": "seq", "type": "i64", "encoding": "int64"},
               {"name": "at", "type": "i64", "encoding": "int64"},
               {"name": "id", "type": "Uuid", "encoding": "uuid"}],
}))

class Event(rowkey.Key, fdb_tuple=True):
    """`FDB_SCHEMA` declared as a class: what `to_key` and `from_key` add to `encode` and `decode`."""

    tenant: str
    seq: rowkey.i64
    at: rowkey.i64
    id: uuid.UUID


assert json.loads(Event.SCHEMA.to_json())["fields"] == json.loads(FDB_SCHEMA.to_json())["fields"]

# The README's device key: delimited, salted, the time reversed.
READING = rowkey.Schema.from_json(json.dumps({
    "rowkey_schema": 1, "type": "Reading", "format": "delimited", "delimiter": "#",
    "salt": {"buckets": 16, "hash": "farmhash", "from": ["device_id"]},
    "fields": [{"name": "device_type", "type": "String", "encoding": "utf8"},
               {"name": "device_id", "type": "String", "encoding": "utf8"},
               {"name": "ts_millis", "type": "i64", "encoding": "decimal", "width": 19, "signed": False,
                "reverse": {"max": 9223372036854775807}}],
}))


def per_call(stmt, number, repeat=5):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


# The peer bench's `profile` program runs one of its operations over its 10,000 inputs a given
# number of times; `schema/reading_derived_to_key` is the Rust derive's `to_key` of this
# `Reading` key on readings like these.
PROFILE = pathlib.Path(os.environ.get(
    "ROWKEY_PROFILE", pathlib.Path(__file__).resolve().parents[1] / "peers/target/release/examples/profile"))


def derived_reading_to_key(repeat=300):
    """Seconds a key of the Rust derive's `Reading::to_key`, measured now: the run of `repeat`
    passes less the run of none (the inputs' set-up), best of five each; None without the
    program."""
    if not PROFILE.exists():
        return None

    def run(n):
        start = time.perf_counter()
        subprocess.run([str(PROFILE), "schema/reading_derived_to_key", str(n)], check=True)
        return time.perf_counter() - start
    base = min(run(0) for _ in range(5))
    return (min(run(repeat) for _ in range(5)) - base) / (repeat * 10_000)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    rows = parser.parse_args().rows
    ident = uuid.UUID("4c410523-0000-4000-8000-00000000ffff")
    values = {"tenant": "acme", "seq": 42, "at": 1_588_291_200_000, "id": ident}
    batch = [dict(values, seq=i) for i in range(rows)]
    key = FDB_SCHEMA.encode(values)
    keys = FDB_SCHEMA.encode_many(batch)
    figures = {}
    figures["rowkey encode"] = per_call(lambda: FDB_SCHEMA.encode(values), 20_000)
    figures["rowkey encode_many (per key)"] = per_call(lambda: FDB_SCHEMA.encode_many(batch), 5) / rows
    figures["rowkey decode"] = per_call(lambda: FDB_SCHEMA.decode(key), 20_000)
    figures["rowkey decode_many (per key)"] = per_call(lambda: FDB_SCHEMA.decode_many(keys), 5) / rows
    event = Event("acme", 42, 1_588_291_200_000, ident)
    assert event.to_key() == key and Event.from_key(key) == event
    figures["declared Event to_key"] = per_call(event.to_key, 20_000)
    figures["declared Event from_key"] = per_call(lambda: Event.from_key(key), 20_000)
    if fdb_tuple is not None:
        packed = ("acme", 42, 1_588_291_200_000, ident)
        assert fdb_tuple.pack(packed) == key, "rowkey and fdb.tuple differ on the key"
        figures["fdb.tuple.pack"] = per_call(lambda: fdb_tuple.pack(packed), 20_000)
        figures["fdb.tuple.unpack"] = per_call(lambda: fdb_tuple.unpack(key), 20_000)
    readings = [{"device_type": "phone", "device_id": f"{i:08x}", "ts_millis": 1_588_291_200_000 + i}
                for i in range(rows)]
    figures["Reading encode_many (per key)"] = per_call(lambda: READING.encode_many(readings), 5) / rows
    if pa is not None:
        table = pa.table({"tenant": pa.array(["acme"] * rows), "seq": pa.array(range(rows), pa.int64()),
                          "at": pa.array([values["at"]] * rows, pa.int64()),
                          "id": pa.array([ident.bytes] * rows, pa.binary(16))})
        arrow_keys = FDB_SCHEMA.encode_many(table)
        assert arrow_keys.to_pylist() == keys, "the Arrow batch and the dicts give different keys"
        figures["rowkey encode_many Arrow (per key)"] = per_call(lambda: FDB_SCHEMA.encode_many(table), 5) / rows
        figures["rowkey decode_many Arrow (per key)"] = per_call(lambda: FDB_SCHEMA.decode_many(arrow_keys), 5) / rows
        reading_table = pa.table({"device_type": pa.array(["phone"] * rows),
                                  "device_id": pa.array([f"{i:08x}" for i in range(rows)]),
                                  "ts_millis": pa.array([1_588_291_200_000 + i for i in range(rows)], pa.int64())})
        figures["Reading encode_many Arrow (per key)"] = (
            per_call(lambda: READING.encode_many(reading_table), 5) / rows)
    derived = derived_reading_to_key()
    if derived is not None:
        figures["Reading derived to_key (Rust)"] = derived
    for name, seconds in figures.items():
        print(f"{name:34} {seconds * 1e6:8.2f} µs")
    if fdb_tuple is not None:
        pack, unpack = figures["fdb.tuple.pack"], figures["fdb.tuple.unpack"]
        print(f"encode      {pack / figures['rowkey encode']:6.1f}x fdb.tuple.pack (target 5x)")
        print(f"encode_many {pack / figures['rowkey encode_many (per key)']:6.1f}x fdb.tuple.pack (target 8x)")
        print(f"decode      {unpack / figures['rowkey decode']:6.1f}x fdb.tuple.unpack (target 3x)")
        print(f"decode_many {unpack / figures['rowkey decode_many (per key)']:6.1f}x fdb.tuple.unpack (target 5x)")
        if pa is not None:
            print(f"encode_many Arrow {pack / figures['rowkey encode_many Arrow (per key)']:6.1f}x fdb.tuple.pack"
                  " (target 20x)")
            print(f"decode_many Arrow {unpack / figures['rowkey decode_many Arrow (per key)']:6.1f}x"
                  " fdb.tuple.unpack (target 10x)")
    added = (figures["declared Event to_key"] - figures["rowkey encode"],
             figures["declared Event from_key"] - figures["rowkey decode"])
    print(f"declared class adds {added[0] * 1e6:5.2f} µs to encode, {added[1] * 1e6:5.2f} µs to decode (target at most 0.2)")
    if derived is None:
        print(f"Reading: no Rust figure; build {PROFILE} first: cargo build --release "
              "--manifest-path benches/peers/Cargo.toml --example profile")
    elif pa is not None:
        arrow = figures["Reading encode_many Arrow (per key)"]
        print(f"Reading through Arrow {arrow / derived:6.1f}x the derived to_key's time (target within 2x)")


if __name__ == "__main__":
    main()
