"""Checks rowkey's FoundationDB tuple keys against FoundationDB's own Python binding.

Reads the TSV that `tests/fdb_python_keys.rs` writes (one key a line: the fields as JSON, then
the key in hex). For every line, `fdb.tuple.pack` of the fields must give rowkey's bytes, and
`fdb.tuple.unpack` of rowkey's bytes must give the fields back. Stops at the first
disagreement, naming the line.

Usage: check.py KEYS.tsv
"""

import json
import struct
import sys
import types
import uuid

import fdb
import fdb.tuple

# `fdb.tuple.Versionstamp.to_bytes` asks whether its version is an `fdb.impl.Value` (the
# result of a transaction's future), and importing `fdb.impl` loads the native client library,
# which a machine without FoundationDB installed lacks. No such value exists without a
# cluster, so a class nothing is an instance of stands in for it; packing and unpacking are the
# binding's own code.
if "impl" not in vars(fdb):

    class _NoFutureValue:
        pass

    fdb.impl = types.SimpleNamespace(Value=_NoFutureValue)

MIN_KEYS = 10_000


def build(field):
    """The Python value a field's JSON stands for."""
    (kind, value), = field.items()
    if kind == "int":
        return int(value)
    if kind == "str":
        return value
    if kind == "bytes":
        return bytes.fromhex(value)
    if kind == "f64":
        return struct.unpack(">d", bytes.fromhex(value))[0]
    if kind == "f32":
        return fdb.tuple.SingleFloat(struct.unpack(">f", bytes.fromhex(value))[0])
    if kind == "bool":
        return value
    if kind == "null":
        return None
    if kind == "tuple":
        return tuple(build(f) for f in value)
    if kind == "uuid":
        return uuid.UUID(bytes=bytes.fromhex(value))
    if kind == "vs":
        return fdb.tuple.Versionstamp.from_bytes(bytes.fromhex(value))
    raise ValueError(f"unknown field kind {kind!r}")


def same(value):
    """A form of a value that compares floats by their bits (so -0.0 is not 0.0) and keeps
    bools apart from ints."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, float):
        return ("f64", struct.pack(">d", value))
    if isinstance(value, fdb.tuple.SingleFloat):
        return ("f32", struct.pack(">f", value.value))
    if isinstance(value, fdb.tuple.Versionstamp):
        return ("vs", value.to_bytes())
    if isinstance(value, tuple):
        return ("tuple", tuple(same(v) for v in value))
    return (type(value).__name__, value)


def main(path):
    count = 0
    with open(path, encoding="utf-8") as keys:
        for number, line in enumerate(keys, 1):
            fields, packed = line.rstrip("\n").split("\t")
            value = tuple(build(f) for f in json.loads(fields))
            key = bytes.fromhex(packed)
            ours = fdb.tuple.pack(value)
            if ours != key:
                sys.exit(f"line {number}: fdb.tuple.pack{value!r} = {ours.hex()}, rowkey wrote {packed}")
            back = fdb.tuple.unpack(key)
            if same(back) != same(value):
                sys.exit(f"line {number}: fdb.tuple.unpack({packed}) = {back!r}, rowkey encoded {value!r}")
            count += 1
    if count < MIN_KEYS:
        sys.exit(f"{path} holds {count} keys; the check needs at least {MIN_KEYS}")
    print(f"fdb-python: {count} passed, 0 failed")


if __name__ == "__main__":
    main(sys.argv[1])
