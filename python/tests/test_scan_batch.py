"""`scan`: ranges hold exactly the keys whose values match the query; `encode_many` and
`decode_many` give what `encode` and `decode` give, row by row."""

import datetime
import json
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rowkey

UTC = datetime.timezone.utc


def reading(fmt="delimited", desc=False, reverse=False):
    ts = {"name": "ts", "type": "i64", "encoding": "decimal" if fmt == "delimited" else "int64"}
    if fmt == "delimited":
        ts.update(width=19, signed=True)
    if desc:
        ts["desc"] = True
    if reverse:
        ts["reverse"] = {"max": 2**63 - 1}
    doc = {
        "rowkey_schema": 1, "type": "Reading", "format": fmt,
        "salt": {"buckets": 4, "hash": "farmhash", "from": ["device"]},
        "fields": [{"name": "kind", "type": "String", "encoding": "utf8"},
                   {"name": "device", "type": "String", "encoding": "utf8"}, ts],
    }
    if fmt == "delimited":
        doc["delimiter"] = "#"
    return rowkey.Schema.from_json(json.dumps(doc))


SCHEMAS = [reading(), reading("ordered"), reading("ordered", desc=True), reading("delimited", reverse=True),
           reading("ordered", reverse=True), reading("memcomparable")]
TS = st.integers(0, 2**62)


def in_pairs(ranges, key):
    return any(start <= key and (end is None or key < end) for start, end in ranges)


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: repr(s))
@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["a", "b"]), device=st.sampled_from(["d1", "d2"]), ts=TS,
       lo=st.one_of(st.none(), TS), hi=st.one_of(st.none(), TS), fix_device=st.booleans())
def test_ranges_hold_exactly_the_matching_keys(schema, kind, device, ts, lo, hi, fix_device):
    key = schema.encode(kind=kind, device=device, ts=ts)
    if fix_device:
        ranges = schema.scan(kind="a", device="d1", next=("ts", slice(lo, hi)))
        wanted = kind == "a" and device == "d1" and (lo is None or lo <= ts) and (hi is None or ts < hi)
    else:
        ranges = schema.scan(kind="a", next=("device", slice("d1", "d2")))
        wanted = kind == "a" and device == "d1"
    assert ranges.contains(key) == wanted
    # The half-open byte pairs say the same.
    assert in_pairs(ranges.to_list(), key) == wanted
    assert in_pairs(list(ranges), key) == wanted


def test_a_salted_scan_without_its_source_has_a_range_per_bucket():
    schema = reading()
    assert len(schema.scan(kind="a")) == 4
    assert len(schema.scan(kind="a", device="d1")) == 1
    assert len(schema.scan(kind="a", device="d1", next=("ts", range(5, 9)))) == 1


def test_an_empty_query_is_its_own_result():
    schema = reading()
    ranges = schema.scan(kind="a", device="d1", next=("ts", slice(5, 5)))
    assert ranges.is_empty() and ranges.to_list() == []
    # Without the device the bucket is unknown: an empty range in every bucket is empty too.
    assert schema.scan(kind="a", next=("device", slice("d2", "d1"))).is_empty()
    assert not schema.scan(kind="a", device="d1", next=("ts", slice(5, 6))).is_empty()


def test_bad_queries_are_named():
    schema = reading()
    with pytest.raises(rowkey.BadValueError, match="color"):
        schema.scan(color="red")
    with pytest.raises(rowkey.BadValueError, match="slice"):
        schema.scan(kind="a", device="d1", next=("ts", [1, 2]))
    with pytest.raises(rowkey.BadValueError, match="step"):
        schema.scan(kind="a", device="d1", next=("ts", slice(1, 9, 2)))
    with pytest.raises(rowkey.BadValueError, match="`ts`"):
        schema.scan(kind="a", device="d1", next=("ts", slice("soon", None)))


ROWS = [{"kind": k, "device": d, "ts": t} for k in ("a", "b") for d in ("d1", "d2", "") for t in (0, 7, 2**62)]


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: repr(s))
def test_batches_agree_with_one_at_a_time(schema):
    keys = schema.encode_many(ROWS)
    assert keys == [schema.encode(row) for row in ROWS]
    columns = {name: [row[name] for row in ROWS] for name in ROWS[0]}
    assert schema.encode_many(columns) == keys
    assert schema.encode_many(iter(ROWS)) == keys
    assert schema.decode_many(keys) == ROWS
    assert schema.encode_many([]) == [] and schema.decode_many([]) == []


def test_batch_errors_name_the_row_and_keep_their_kind():
    schema = reading()
    with pytest.raises(rowkey.BadValueError, match="row 2: .*`ts`"):
        schema.encode_many(ROWS[:2] + [dict(ROWS[0], ts="soon")])
    with pytest.raises(rowkey.BadValueError, match="row 1: `ts` takes"):
        schema.encode_many([ROWS[0], dict(ROWS[0], ts=1.5)])
    with pytest.raises(rowkey.BadValueError, match="columns differ in length"):
        schema.encode_many({"kind": ["a", "b"], "device": ["d"], "ts": [1, 2]})
    keys = schema.encode_many(ROWS)
    with pytest.raises(rowkey.BadKeyError, match="key 1: "):
        schema.decode_many([keys[0], keys[1][:-1]])
    with pytest.raises(rowkey.BadKeyError, match="key 0: a key is bytes"):
        schema.decode_many(["text"])


def test_a_schema_is_shared_across_threads():
    schema = reading("ordered")
    rows = [{"kind": "a", "device": f"d{i}", "ts": i} for i in range(2000)]
    expected = schema.encode_many(rows)
    results = [None] * 4

    def work(n):
        results[n] = schema.decode_many(schema.encode_many(rows))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result == rows for result in results)
    assert schema.decode_many(expected) == rows


SITES = rowkey.Schema.from_json(json.dumps({
    "rowkey_schema": 1, "type": "Page", "format": "ordered",
    "fields": [{"name": "host", "type": "String", "encoding": "utf8", "reverse_domain": True},
               {"name": "path", "type": "String", "encoding": "utf8"}],
}))
NAMES = rowkey.Schema.from_json(json.dumps({
    "rowkey_schema": 1, "type": "Named", "format": "delimited", "delimiter": "#",
    "fields": [{"name": "kind", "type": "String", "encoding": "utf8"},
               {"name": "name", "type": "String", "encoding": "utf8"}],
}))


def test_starts_with_reads_exactly_the_names_with_the_prefix():
    names = ["", "4", "4c", "4c4", "4c41", "4c410523", "4c5", "4d", "4b\xff", "4c\x7f"]
    keys = {name: NAMES.encode(kind="meter", name=name) for name in names}
    keys["other"] = NAMES.encode(kind="meters", name="4c41")
    ranges = NAMES.scan(kind="meter", next=("name", rowkey.StartsWith("4c")))
    assert {n for n, k in keys.items() if ranges.contains(k)} == {n for n in names if n.startswith("4c")}


def test_host_and_subdomains_reads_the_host_and_no_lookalike():
    hosts = ["google.com", "maps.google.com", "a.b.google.com", "google-analytics.com", "oogle.com", "google.co",
             "com", "xgoogle.com"]
    keys = {h: SITES.encode(host=h, path="/") for h in hosts}
    ranges = SITES.scan(next=("host", rowkey.HostAndSubdomains("google.com")))
    assert {h for h, k in keys.items() if ranges.contains(k)} == {"google.com", "maps.google.com", "a.b.google.com"}


def test_starts_with_on_a_field_that_cannot_take_it_names_the_field():
    with pytest.raises(rowkey.BadValueError, match="`host`"):
        SITES.scan(next=("host", rowkey.StartsWith("goo")))
    assert repr(rowkey.StartsWith("4c")) == 'rowkey.StartsWith("4c")'
