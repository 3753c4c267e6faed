"""pyarrow in and out of the batch forms: the keys of a RecordBatch or Table are the keys of
the same rows as dicts, a BinaryArray of keys decodes to a RecordBatch that encodes back to
them, for every schema and key the Rust test wrote; and each Arrow column type a key field
reads, with its refusals."""

import datetime
import json
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rowkey
from test_agreement import load

pa = pytest.importorskip("pyarrow")

UTC = datetime.timezone.utc

EVENT = rowkey.Schema.from_json(json.dumps({
    "rowkey_schema": 1, "type": "Event", "format": "fdb_tuple",
    "fields": [{"name": "tenant", "type": "String", "encoding": "utf8"},
               {"name": "seq", "type": "i64", "encoding": "int64"},
               {"name": "at", "type": "SystemTime", "encoding": "timestamp_micros"},
               {"name": "id", "type": "Uuid", "encoding": "uuid"},
               {"name": "note", "type": "Option<String>", "encoding": "utf8", "optional": True}],
}))


def event_rows(n):
    return [{"tenant": f"t{i % 3}", "seq": i - 5, "at": datetime.datetime(1969, 12, 31, tzinfo=UTC)
             + datetime.timedelta(microseconds=i * 1_000_003), "id": uuid.UUID(int=i * 2**100 + i),
             "note": None if i % 4 == 0 else "n\x00" * (i % 3)} for i in range(n)]


def event_table(rows, *, unit="us", tz="UTC"):
    return pa.table({
        "tenant": pa.array([r["tenant"] for r in rows], pa.string()),
        "seq": pa.array([r["seq"] for r in rows], pa.int64()),
        "at": pa.array([r["at"] for r in rows], pa.timestamp("us", tz="UTC")).cast(pa.timestamp(unit, tz=tz)),
        "id": pa.array([r["id"].bytes for r in rows], pa.binary(16)),
        "note": pa.array([r["note"] for r in rows], pa.string()),
    })


def test_a_table_gives_the_keys_of_its_rows_as_dicts():
    rows = event_rows(50)
    keys = EVENT.encode_many(event_table(rows))
    assert isinstance(keys, pa.BinaryArray)
    assert keys.to_pylist() == EVENT.encode_many(rows) == [EVENT.encode(r) for r in rows]


def test_timestamps_of_every_unit_and_zone_are_their_instants():
    rows = [dict(r, at=r["at"].replace(microsecond=0)) for r in event_rows(20)]
    want = EVENT.encode_many(rows)
    for unit in ("s", "ms", "us", "ns"):
        for tz in ("UTC", "+05:30", "America/New_York"):
            assert EVENT.encode_many(event_table(rows, unit=unit, tz=tz)).to_pylist() == want, (unit, tz)


def test_a_naive_timestamp_column_is_refused_with_the_fix():
    with pytest.raises(rowkey.BadValueError, match=r"row 0: `at` takes timezone-aware.*tz=\"UTC\""):
        EVENT.encode_many(event_table(event_rows(3), tz=None))


def test_a_finer_fraction_than_the_field_keeps_is_refused():
    table = event_table(event_rows(3)).set_column(2, "at", pa.array([1000, 2000, 1_000_000_001], pa.timestamp("ns", tz="UTC")))
    with pytest.raises(rowkey.BadValueError, match=r"row 2: `at` keeps microseconds.*floor_temporal"):
        EVENT.encode_many(table)


def test_slices_chunks_and_batches_read_from_their_own_offsets():
    rows = event_rows(40)
    table = pa.concat_tables([event_table(rows[:13]), event_table(rows[13:])])
    assert len(table.column("seq").chunks) == 2
    assert EVENT.encode_many(table).to_pylist() == EVENT.encode_many(rows)
    sliced = event_table(rows).slice(7, 20)
    assert EVENT.encode_many(sliced).to_pylist() == EVENT.encode_many(rows[7:27])
    batch = event_table(rows).to_batches()[0].slice(3)
    assert EVENT.encode_many(batch).to_pylist() == EVENT.encode_many(rows[3:])
    keys = EVENT.encode_many(rows)
    chunked = pa.chunked_array([pa.array(keys[:9], pa.binary()), pa.array(keys[9:], pa.binary())])
    assert EVENT.decode_many(chunked).to_pylist() == EVENT.decode_many(pa.array(keys)).to_pylist()
    large = pa.array(keys, pa.large_binary()).slice(2)
    assert EVENT.decode_many(large).to_pylist() == EVENT.decode_many(pa.array(keys[2:])).to_pylist()
    assert EVENT.encode_many(EVENT.decode_many(pa.array(keys, pa.binary()).slice(5))).to_pylist() == keys[5:]


def test_columns_that_are_no_fields_or_missing_are_named():
    table = event_table(event_rows(2))
    with pytest.raises(rowkey.BadValueError, match=r"the column `extra` is no field of the key \(tenant, seq, at, id, note\)"):
        EVENT.encode_many(table.append_column("extra", pa.array([1, 2])))
    with pytest.raises(rowkey.BadValueError, match="no column `note`"):
        EVENT.encode_many(table.drop_columns(["note"]))


def test_a_null_in_a_field_that_is_not_optional_names_the_row_and_field():
    table = event_table(event_rows(4)).set_column(1, "seq", pa.array([1, 2, None, 4], pa.int64()))
    with pytest.raises(rowkey.BadValueError, match=r"row 2: `seq` is not optional \(i64\): its column holds a null"):
        EVENT.encode_many(table)


def test_a_bad_row_in_a_later_batch_is_named_by_its_row_in_the_table():
    rows = event_rows(20)
    bad = event_table(rows[13:]).set_column(1, "seq", pa.array([1, 2, None, 4, 5, 6, 7], pa.int64()))
    with pytest.raises(rowkey.BadValueError, match=r"row 15: `seq` is not optional"):
        EVENT.encode_many(pa.concat_tables([event_table(rows[:13]), bad]))
    # The same through the text forms of a column with no direct reading.
    as_text = bad.set_column(3, "id", pa.array([str(r["id"]) for r in rows[13:]]))
    first = event_table(rows[:13]).set_column(3, "id", pa.array([str(r["id"]) for r in rows[:13]]))
    with pytest.raises(rowkey.BadValueError, match=r"row 15: `seq`"):
        EVENT.encode_many(pa.concat_tables([first, as_text]))


def test_other_column_types_go_the_way_of_python_values():
    rows = event_rows(6)
    table = event_table(rows)
    # A UUID column as text, seq as a decimal: read as the dicts' values are.
    table = table.set_column(3, "id", pa.array([str(r["id"]) for r in rows]))
    table = table.set_column(1, "seq", pa.array([r["seq"] for r in rows], pa.decimal128(20, 0)))
    assert EVENT.encode_many(table).to_pylist() == EVENT.encode_many(rows)
    bad = table.set_column(1, "seq", pa.array([0.5] * 6))
    with pytest.raises(rowkey.BadValueError, match="row 0: `seq` takes int"):
        EVENT.encode_many(bad)


def test_decode_many_of_arrow_gives_typed_columns():
    rows = event_rows(10)
    batch = EVENT.decode_many(pa.array(EVENT.encode_many(rows), pa.binary()))
    assert isinstance(batch, pa.RecordBatch)
    assert batch.schema.names == ["tenant", "seq", "at", "id", "note"]
    assert [str(t) for t in batch.schema.types] == ["string", "int64", "timestamp[us, tz=UTC]",
                                                     "fixed_size_binary[16]", "string"]
    assert batch.column("note").null_count == 3
    assert batch.column("at").to_pylist() == [r["at"] for r in rows]
    assert [uuid.UUID(bytes=b) for b in batch.column("id").to_pylist()] == [r["id"] for r in rows]


def test_bad_keys_in_an_array_are_named_by_index():
    keys = EVENT.encode_many(event_rows(3))
    with pytest.raises(rowkey.BadKeyError, match=r"key 1: "):
        EVENT.decode_many(pa.array([keys[0], keys[1][:-1], keys[2]], pa.binary()))
    with pytest.raises(rowkey.BadKeyError, match=r"key 1: a null is no key"):
        EVENT.decode_many(pa.array([keys[0], None], pa.binary()))
    with pytest.raises(rowkey.BadKeyError, match=r"keys are a binary array, not string"):
        EVENT.decode_many(pa.array(["a"]))


def test_rekey_many_of_arrow_gives_arrow():
    to = rowkey.Schema.from_json(json.dumps({
        "rowkey_schema": 1, "type": "ByTenant", "format": "ordered",
        "fields": [{"name": "tenant", "type": "String", "encoding": "utf8"},
                   {"name": "id", "type": "Uuid", "encoding": "uuid"},
                   {"name": "seq", "type": "i64", "encoding": "int64", "desc": True}],
    }))
    rekey = rowkey.Rekey(EVENT, to, drop_derived=["at", "note"], merge_rows=True)
    keys = EVENT.encode_many(event_rows(8))
    new = rekey.rekey_many(pa.array(keys, pa.binary()))
    assert isinstance(new, pa.BinaryArray)
    assert new.to_pylist() == rekey.rekey_many(keys)


def test_every_schema_the_rust_test_wrote_round_trips_through_arrow(vectors_path):
    """decode_many of a key array, then encode_many of the batch, is the keys again: over
    every format and field type, the Arrow columns of each (and the text of what Arrow has no
    type for) carry the values whole."""
    schemas, rows = load(vectors_path)
    by_type = {}
    for row in rows:
        by_type.setdefault(row["type"], []).append(bytes.fromhex(row["key"]))
    through = 0
    for name, keys in by_type.items():
        schema = schemas[name]
        fits = []
        for key in keys:
            try:
                schema.decode_many(pa.array([key], pa.binary()))
                fits.append(key)
            except rowkey.BadValueError as e:
                # Only an instant to the nanosecond beyond Arrow's 64-bit range may not fit.
                assert "beyond Arrow's timestamp('ns')" in str(e), (name, key.hex(), str(e))
        batch = schema.decode_many(pa.array(fits, pa.binary()))
        assert schema.encode_many(batch).to_pylist() == fits, name
        assert schema.encode_many(pa.Table.from_batches([batch])).to_pylist() == fits, name
        through += len(fits)
    # The generated instants to the nanosecond reach far past 1677 and 2262 in some rows.
    assert through > len(rows) * 3 // 4, (through, len(rows))


INTS = {"i8": (pa.int8(), -(2**7), 2**7 - 1), "u16": (pa.uint16(), 0, 2**16 - 1),
        "i32": (pa.int32(), -(2**31), 2**31 - 1), "i64": (pa.int64(), -(2**63), 2**63 - 1),
        "u64": (pa.uint64(), 0, 2**64 - 1)}


@pytest.mark.parametrize("ty", sorted(INTS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_integer_columns_of_every_width_are_their_values(ty, data):
    arrow_type, lo, hi = INTS[ty]
    schema = rowkey.Schema.from_json(json.dumps({
        "rowkey_schema": 1, "type": "N", "format": "memcomparable",
        "fields": [{"name": "n", "type": ty, "encoding": "uint64" if ty[0] == "u" else "int64"},
                   {"name": "f", "type": "Option<f64>", "encoding": "float64", "desc": True, "optional": True},
                   {"name": "b", "type": "bool", "encoding": "bool"}],
    }))
    ns = data.draw(st.lists(st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0])), max_size=20))
    fs = data.draw(st.lists(st.one_of(st.none(), st.floats(), st.just(-0.0)), min_size=len(ns), max_size=len(ns)))
    bs = data.draw(st.lists(st.booleans(), min_size=len(ns), max_size=len(ns)))
    table = pa.table({"n": pa.array(ns, arrow_type), "f": pa.array(fs, pa.float64()), "b": pa.array(bs)})
    keys = schema.encode_many(table)
    assert keys.to_pylist() == schema.encode_many({"n": ns, "f": fs, "b": bs})
    back = schema.decode_many(keys)
    assert back.column("n").to_pylist() == ns and back.column("b").to_pylist() == bs
    assert schema.encode_many(back).to_pylist() == keys.to_pylist()


def test_a_fixed_width_column_reads_by_its_type_not_its_buffer_length():
    schema = rowkey.Schema.from_json(json.dumps({
        "rowkey_schema": 1, "type": "Tagged", "format": "ordered",
        "fields": [{"name": "tag", "type": "[u8; 3]", "encoding": "byte_array", "len": 3},
                   {"name": "n", "type": "u8", "encoding": "int64"}],
    }))
    # A values buffer longer than its two values need, as a builder's or a file's may be.
    tags = pa.Array.from_buffers(pa.binary(3), 2, [None, pa.py_buffer(b"abcdef" + b"\x00" * 10)])
    table = pa.table({"tag": tags, "n": pa.array([1, 2], pa.uint8())})
    rows = [{"tag": b"abc", "n": 1}, {"tag": b"def", "n": 2}]
    assert schema.encode_many(table).to_pylist() == schema.encode_many(rows)
