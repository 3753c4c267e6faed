"""`to_row_set`: the RowSet, read as Bigtable reads the ranges it sends, holds exactly the keys
whose values match the query. No emulator: each range is judged from the bounds the client
puts on the wire (`RowRange.get_range_kwargs()`, the `google.bigtable.v2.RowRange` fields)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rowkey

row_set = pytest.importorskip("google.cloud.bigtable.row_set", reason="to_row_set needs google-cloud-bigtable")


def reading(fmt, desc=False):
    ts = {"name": "ts", "type": "u32", "encoding": "decimal" if fmt == "delimited" else "int64"}
    if fmt == "delimited":
        ts.update(width=10, signed=False)
    if desc:
        ts["desc"] = True
    doc = {
        "rowkey_schema": 1, "type": "Reading", "format": fmt,
        "salt": {"buckets": 16, "hash": "farmhash", "from": ["device_id"]},
        "fields": [{"name": "device_type", "type": "String", "encoding": "utf8"},
                   {"name": "device_id", "type": "String", "encoding": "utf8"}, ts],
    }
    if fmt == "delimited":
        doc["delimiter"] = "#"
    return rowkey.Schema.from_json(json.dumps(doc))


SCHEMAS = [reading("delimited"), reading("ordered"), reading("ordered", desc=True)]
KINDS = ["meter", "valve", "m", ""]
DEVICES = [f"d{i}" for i in range(24)] + ["", "d1$", "d1\xff"]
TS = [0, 1, 4, 5, 6, 9, 10, 2**31, 2**32 - 2, 2**32 - 1]
ROWS = [{"device_type": k, "device_id": d, "ts": t} for k in KINDS for d in DEVICES for t in TS]


def reads(row_ranges, key):
    """Whether Bigtable returns the row `key` for these ranges, from their wire fields."""
    for row_range in row_ranges:
        wire = row_range.get_range_kwargs()
        if "start_key_closed" in wire and key < wire["start_key_closed"]:
            continue
        if "start_key_open" in wire and key <= wire["start_key_open"]:
            continue
        if "end_key_closed" in wire and key > wire["end_key_closed"]:
            continue
        if "end_key_open" in wire and key >= wire["end_key_open"]:
            continue
        return True
    return False


@settings(max_examples=60, deadline=None)
@given(schema=st.sampled_from(SCHEMAS), kind=st.sampled_from([None] + KINDS),
       device=st.sampled_from([None] + DEVICES), lo=st.sampled_from([None] + TS),
       hi=st.sampled_from([None] + TS))
def test_the_row_set_reads_exactly_the_matching_rows(schema, kind, device, lo, hi):
    fixed = {}
    if kind is not None:
        fixed["device_type"] = kind
        if device is not None:
            fixed["device_id"] = device
    bounded = "device_id" in fixed and (lo is not None or hi is not None)
    ranges = schema.scan(next=("ts", slice(lo, hi)), **fixed) if bounded else schema.scan(**fixed)

    def matches(row):
        if any(row[name] != value for name, value in fixed.items()):
            return False
        return not bounded or ((lo is None or row["ts"] >= lo) and (hi is None or row["ts"] < hi))

    want = sorted(key for key, row in zip(schema.encode_many(ROWS), ROWS) if matches(row))
    if ranges.is_empty():
        assert want == []
        with pytest.raises(rowkey.BadValueError, match="whole table"):
            ranges.to_row_set()
        return
    got = ranges.to_row_set()
    # Single row keys would be read besides the ranges; the set must hold ranges only.
    assert isinstance(got, row_set.RowSet) and got.row_keys == []
    assert len(got.row_ranges) == len(ranges)
    keys = schema.encode_many(ROWS)
    assert sorted(key for key in keys if reads(got.row_ranges, key)) == want


def test_one_range_per_bucket_when_the_salt_source_is_open():
    schema = SCHEMAS[0]
    got = schema.scan(device_type="meter").to_row_set()
    starts = sorted(r.get_range_kwargs()["start_key_closed"] for r in got.row_ranges)
    assert starts == [b"%02d#meter#" % bucket for bucket in range(16)]
    assert all(r.get_range_kwargs()["end_key_open"] == s[:-1] + b"$" for r, s in
               zip(sorted(got.row_ranges, key=lambda r: r.get_range_kwargs()["start_key_closed"]), starts))


def test_a_scan_of_everything_leaves_the_ends_open():
    schema = rowkey.Schema.from_json(json.dumps({
        "rowkey_schema": 1, "type": "T", "format": "ordered",
        "fields": [{"name": "a", "type": "u8", "encoding": "int64"}]}))
    (whole,) = schema.scan().to_row_set().row_ranges
    assert "end_key_open" not in whole.get_range_kwargs() and "end_key_closed" not in whole.get_range_kwargs()
    (tail,) = schema.scan(next=("a", slice(250, None))).to_row_set().row_ranges
    assert tail.get_range_kwargs() == {"start_key_closed": schema.encode(a=250)}
