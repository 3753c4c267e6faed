"""`Rekey` against encode/decode of both designs; `to_row_set` against the ranges."""

import json

import pytest

import rowkey


def schema(fmt, fields, **extra):
    doc = {"rowkey_schema": 1, "type": extra.pop("type", "T"), "format": fmt, "fields": fields, **extra}
    return rowkey.Schema.from_json(json.dumps(doc))


USER = {"name": "user", "type": "String", "encoding": "utf8"}
DAY_TEXT = {"name": "day", "type": "u32", "encoding": "decimal", "width": 10, "signed": False}
DAY = {"name": "day", "type": "u32", "encoding": "int64"}
OLD = schema("delimited", [USER, DAY_TEXT], delimiter="#", type="Old")
NEW = schema("ordered", [dict(USER, name="account"), DAY, {"name": "region", "type": "String", "encoding": "utf8"}],
             type="New", salt={"buckets": 4, "hash": "farmhash", "from": ["account"]})


def test_rekey_gives_the_new_designs_key_of_the_same_values():
    rekey = rowkey.Rekey(OLD, NEW, rename={"user": "account"}, default={"region": "eu"})
    for user, day in [("ann", 7), ("", 0), ("a#b"[:1], 2**32 - 1)]:
        old = OLD.encode(user=user, day=day)
        assert rekey.rekey(old) == NEW.encode(account=user, day=day, region="eu")
    olds = [OLD.encode(user=u, day=d) for u in ("ann", "bob") for d in (1, 2)]
    assert rekey.rekey_many(olds) == [rekey.rekey(k) for k in olds]


def test_inverse_goes_back_and_is_none_when_it_cannot():
    rekey = rowkey.Rekey(OLD, NEW, rename={"user": "account"}, default={"region": "eu"})
    back = rekey.inverse()
    old = OLD.encode(user="ann", day=7)
    assert back.rekey(rekey.rekey(old)) == old
    narrow = schema("ordered", [USER], type="Narrow")
    dropping = rowkey.Rekey(OLD, narrow, drop_derived=["day"], merge_rows=True)
    assert dropping.dropped == ["day"] and dropping.inverse() is None


def test_rekey_errors_keep_their_kind():
    with pytest.raises(rowkey.BadSchemaError, match="region"):
        rowkey.Rekey(OLD, NEW, rename={"user": "account"})
    with pytest.raises(rowkey.BadValueError, match="`region` takes"):
        rowkey.Rekey(OLD, NEW, rename={"user": "account"}, default={"region": 5})
    rekey = rowkey.Rekey(OLD, NEW, rename={"user": "account"}, default={"region": "eu"})
    with pytest.raises(rowkey.BadKeyError):
        rekey.rekey(b"ann#7")
    with pytest.raises(rowkey.BadKeyError, match="key 1: "):
        rekey.rekey_many([OLD.encode(user="a", day=1), b"x"])


def test_to_row_set_holds_the_ranges_and_refuses_an_empty_query():
    from google.cloud.bigtable import row_set  # a test dependency, as .ci/run installs it
    ranges = NEW.scan(account="ann", day=7)
    got = ranges.to_row_set()
    assert isinstance(got, row_set.RowSet) and len(got.row_ranges) == len(ranges) == 1
    rr = got.row_ranges[0]
    start, end = ranges[0]
    assert (rr.start_key, rr.start_inclusive) == (start, True)
    assert (rr.end_key, rr.end_inclusive) == (end, False)
    # Unbounded ends stay open: no bucket fixed, a range in each of the 4 buckets.
    assert len(NEW.scan().to_row_set().row_ranges) == 4
    empty = OLD.scan(user="ann", next=("day", slice(5, 5)))
    with pytest.raises(rowkey.BadValueError, match="whole table"):
        empty.to_row_set()
