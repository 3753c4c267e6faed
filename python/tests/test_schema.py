"""The package's surface: schema files, native values both ways, inspect, errors."""

import datetime
import decimal
import ipaddress
import json
import math
import struct
import uuid

import pytest

import rowkey

UTC = datetime.timezone.utc

# A key of the ordered format with a field of most types, behind a prefix and a salt.
ORDERED = {
    "rowkey_schema": 1,
    "type": "Event",
    "format": "ordered",
    "prefix": "ev",
    "salt": {"buckets": 8, "hash": "farmhash", "from": ["user"]},
    "fields": [
        {"name": "user", "type": "String", "encoding": "utf8"},
        {"name": "email", "type": "String", "encoding": "utf8", "sensitive": True},
        {"name": "small", "type": "i8", "encoding": "int64"},
        {"name": "big", "type": "u64", "encoding": "uint64"},
        {"name": "score", "type": "f64", "encoding": "float64"},
        {"name": "level", "type": "f32", "encoding": "float32"},
        {"name": "ok", "type": "bool", "encoding": "bool"},
        {"name": "data", "type": "Vec<u8>", "encoding": "bytes"},
        {"name": "note", "type": "Option<String>", "encoding": "utf8", "optional": True},
        {"name": "at", "type": "SystemTime", "encoding": "timestamp_micros", "desc": True},
        {"name": "day", "type": "NaiveDate", "encoding": "date", "min_days": -2147483648, "max_days": 2147483647},
        {"name": "id", "type": "Uuid", "encoding": "uuid"},
        {"name": "ip", "type": "IpAddr", "encoding": "ip"},
        {"name": "v4", "type": "Ipv4Addr", "encoding": "ipv4"},
    ],
}

VALUES = {
    "user": "alice",
    "email": "alice@example.com",
    "small": -128,
    "big": 2**64 - 1,
    "score": -0.5,
    "level": 1.5,
    "ok": True,
    "data": b"\x00\xff",
    "note": None,
    "at": datetime.datetime(1969, 7, 20, 20, 17, 40, 123456, tzinfo=UTC),
    "day": datetime.date(2020, 2, 29),
    "id": uuid.UUID("4c410523-0000-4000-8000-00000000ffff"),
    "ip": ipaddress.ip_address("2001:db8::1"),
    "v4": ipaddress.IPv4Address("10.0.0.1"),
}

DELIMITED = {
    "rowkey_schema": 1,
    "type": "Reading",
    "format": "delimited",
    "delimiter": "#",
    "fields": [
        {"name": "device", "type": "String", "encoding": "utf8"},
        {"name": "id", "type": "u32", "encoding": "hex", "digits": 8},
        {"name": "ts", "type": "i64", "encoding": "decimal", "width": 19, "signed": False,
         "reverse": {"max": 9223372036854775807}},
        {"name": "pin", "type": "u16", "encoding": "decimal", "width": 5, "signed": False, "sensitive": True},
    ],
}


@pytest.fixture(scope="module")
def schema():
    return rowkey.Schema.from_json(json.dumps(ORDERED))


@pytest.fixture(scope="module")
def text_schema():
    return rowkey.Schema.from_json(json.dumps(DELIMITED))


def bits(x):
    return struct.pack(">d", x)


def test_fields_describe_the_key_in_key_order(schema):
    fields = schema.fields
    assert [f.name for f in fields][:4] == ["prefix", "bucket", "user", "email"]
    assert [f.kind for f in fields][:3] == ["prefix", "bucket", "value"]
    at = next(f for f in fields if f.name == "at")
    assert (at.type, at.encoding, at.direction, at.sensitive) == ("SystemTime", "timestamp micros", "desc", False)
    email = next(f for f in fields if f.name == "email")
    assert email.sensitive and email.direction == "asc" and not email.optional
    assert next(f for f in fields if f.name == "note").optional
    assert schema.type_name == "Event" and schema.format == "ordered"


def test_load_reads_a_file_and_names_it_when_it_is_no_schema(tmp_path, schema):
    path = tmp_path / "event.json"
    path.write_text(schema.to_json())
    assert rowkey.Schema.load(str(path)).encode(VALUES) == schema.encode(VALUES)
    bad = tmp_path / "bad.json"
    bad.write_text('{"rowkey_schema": 1, "type": "T", "format": "ordered", "fields": [{"name": "a", "type": "i64", "encoding": "int46"}]}')
    with pytest.raises(rowkey.BadSchemaError, match="bad.json.*int46"):
        rowkey.Schema.load(bad)
    with pytest.raises(rowkey.BadSchemaError, match="not JSON"):
        rowkey.Schema.from_json("{")


def test_native_values_round_trip(schema):
    key = schema.encode(VALUES)
    assert isinstance(key, bytes) and key.startswith(b"ev")
    assert schema.decode(key) == VALUES
    # Keyword arguments, or a dict and keywords together, give the same key.
    assert schema.encode(**VALUES) == key
    rest = dict(VALUES)
    user = rest.pop("user")
    assert schema.encode(rest, user=user) == key


def test_decoded_values_are_native_types(schema):
    decoded = schema.decode(schema.encode(VALUES))
    assert decoded["at"].tzinfo is not None and decoded["at"].utcoffset() == datetime.timedelta(0)
    assert type(decoded["day"]) is datetime.date
    # Built without UUID.__init__: still a whole UUID.
    assert isinstance(decoded["id"], uuid.UUID) and decoded["id"].is_safe is uuid.SafeUUID.unknown
    assert hash(decoded["id"]) == hash(VALUES["id"]) and str(decoded["id"]) == str(VALUES["id"])
    assert decoded["id"].bytes == VALUES["id"].bytes
    assert isinstance(decoded["ip"], ipaddress.IPv6Address) and isinstance(decoded["v4"], ipaddress.IPv4Address)
    assert type(decoded["big"]) is int and type(decoded["ok"]) is bool and type(decoded["data"]) is bytes


def test_text_forms_give_the_same_key(schema):
    texts = dict(VALUES, big=str(2**64 - 1), small="-128", score="-0.5", level="1.5", ok="true",
                 data='b"\\x00\\xff"', at="1969-07-20T20:17:40.123456Z", day="2020-02-29",
                 id="4c410523-0000-4000-8000-00000000ffff", ip="2001:db8::1", v4="10.0.0.1")
    assert schema.encode(texts) == schema.encode(VALUES)
    # For a text field a str is the value itself, never a text form: quotes stay quotes.
    quoted = dict(VALUES, user='"alice"')
    assert schema.decode(schema.encode(quoted))["user"] == '"alice"'


def test_an_aware_datetime_in_any_zone_is_the_same_instant(schema):
    plus2 = datetime.timezone(datetime.timedelta(hours=2))
    local = VALUES["at"].astimezone(plus2)
    assert schema.encode(dict(VALUES, at=local)) == schema.encode(VALUES)


def test_a_naive_datetime_is_refused_with_the_fix(schema):
    with pytest.raises(rowkey.BadValueError, match=r"`at`.*naive.*tzinfo=datetime\.timezone\.utc"):
        schema.encode(dict(VALUES, at=datetime.datetime(2020, 5, 1)))
    # A datetime is no date: the time of day would be lost.
    with pytest.raises(rowkey.BadValueError, match=r"`day`.*value\.date\(\)"):
        schema.encode(dict(VALUES, day=datetime.datetime(2020, 5, 1, tzinfo=UTC)))


@pytest.mark.parametrize("field, value", [("small", 128), ("small", -129), ("big", -1), ("big", 2**64), ("big", 2**200)])
def test_ints_are_range_checked_against_the_field_width(schema, field, value):
    with pytest.raises(rowkey.BadValueError, match=f"`{field}`"):
        schema.encode(dict(VALUES, **{field: value}))


def test_edges_of_ints_encode(schema):
    for small in (-128, 127, 0):
        for big in (0, 2**64 - 1):
            values = dict(VALUES, small=small, big=big)
            assert schema.decode(schema.encode(values)) == values


@pytest.mark.parametrize("pattern", [0x7FF0000000000001, 0xFFF8000000000000, 0x7FF8DEADBEEF0001, 0x7FF8000000000000])
def test_nan_payloads_reach_the_key_and_come_back(schema, pattern):
    nan = struct.unpack(">d", pattern.to_bytes(8, "big"))[0]
    decoded = schema.decode(schema.encode(dict(VALUES, score=nan)))
    assert math.isnan(decoded["score"]) and bits(decoded["score"]) == bits(nan)


def test_keys_of_nan_payloads_differ(schema):
    keys = {schema.encode(dict(VALUES, score=struct.unpack(">d", p.to_bytes(8, "big"))[0]))
            for p in (0x7FF0000000000001, 0x7FF0000000000002, 0x7FF8000000000000)}
    assert len(keys) == 3


def test_an_f32_field_takes_only_what_an_f32_holds(schema):
    with pytest.raises(rowkey.RowKeyError, match="`level`"):
        schema.encode(dict(VALUES, level=0.1))


def test_wrong_types_are_refused_by_name_not_value(schema):
    cases = {"small": 1.5, "big": True, "ok": 1, "data": 3, "at": 5, "id": 7, "ip": b"\x01", "user": b"x"}
    for field, value in cases.items():
        with pytest.raises(rowkey.BadValueError, match=f"`{field}` takes") as info:
            schema.encode(dict(VALUES, **{field: value}))
        assert type(value).__name__ in str(info.value)


def test_missing_unknown_and_none_fields_are_named(schema):
    values = dict(VALUES)
    del values["small"]
    with pytest.raises(rowkey.BadValueError, match="`small` is missing"):
        schema.encode(values)
    with pytest.raises(rowkey.BadValueError, match="no field `color`"):
        schema.encode(dict(VALUES, color="red"))
    with pytest.raises(rowkey.BadValueError, match="`small` is not optional"):
        schema.encode(dict(VALUES, small=None))


def test_decimal_takes_whole_numbers_for_int_fields(schema):
    assert schema.encode(dict(VALUES, big=decimal.Decimal("1E+3"))) == schema.encode(dict(VALUES, big=1000))
    assert schema.encode(dict(VALUES, score=decimal.Decimal("-0.5"))) == schema.encode(VALUES)
    with pytest.raises(rowkey.BadValueError, match="`big`.*not a whole number"):
        schema.encode(dict(VALUES, big=decimal.Decimal("1.5")))


def test_prefix_and_bucket_are_computed_and_checked(schema):
    key = schema.encode(VALUES)
    inspection = schema.inspect(key)
    bucket = inspection["bucket"]
    assert schema.encode(dict(VALUES, prefix="ev", bucket=bucket)) == key
    with pytest.raises(rowkey.BadValueError, match="bucket"):
        schema.encode(dict(VALUES, bucket=(bucket + 1) % 8))


def test_inspect_redacts_sensitive_fields_in_str_and_repr(schema):
    inspection = schema.inspect(schema.encode(VALUES))
    for shown in (str(inspection), repr(inspection), repr(inspection.fields), str(inspection.fields[3])):
        assert "alice@example.com" not in shown
    assert "email=<redacted, 17 bytes>" in str(inspection)
    assert "email=alice@example.com" in inspection.revealed()
    email = next(f for f in inspection.fields if f.name == "email")
    assert email.sensitive and email.value == "alice@example.com" and email.offset > 0
    assert [f.offset for f in inspection.fields] == sorted(f.offset for f in inspection.fields)
    assert inspection.to_dict()["user"] == "alice" and len(inspection) == len(schema.fields)


def test_errors_never_hold_a_sensitive_value(text_schema):
    good = {"device": "phone", "id": 0x4C410523, "ts": 7, "pin": 4242}
    key = text_schema.encode(good)
    assert key == b"phone#4c410523#" + str(2**63 - 1 - 7).encode() + b"#04242"
    for bad in (dict(good, pin=424242), dict(good, pin="42x42"), dict(good, pin=-4242)):
        with pytest.raises(rowkey.BadValueError, match="`pin`") as info:
            text_schema.encode(bad)
        assert "4242" not in str(info.value)
    with pytest.raises(rowkey.BadKeyError, match="`pin`") as info:
        text_schema.decode(key[:-5] + b"4x242")
    assert "4x242" not in str(info.value) and "4242" not in str(info.value)


def test_hex_ints_and_reversed_fields_decode_to_their_values(text_schema):
    values = {"device": "phone", "id": 0x4C410523, "ts": 1588291200000, "pin": 7}
    assert text_schema.decode(text_schema.encode(values)) == values
    assert text_schema.encode(dict(values, id="4c410523")) == text_schema.encode(values)


@pytest.mark.parametrize("key", [b"", b"phone", b"phone#4c410523#", b"phone#4c410523#9223370448563575807#04242#x"])
def test_bad_keys_raise_bad_key_error(text_schema, key):
    with pytest.raises(rowkey.BadKeyError):
        text_schema.decode(key)
    with pytest.raises(rowkey.RowKeyError):
        text_schema.inspect(key)


def test_the_exception_hierarchy():
    for cls in (rowkey.BadKeyError, rowkey.BadValueError, rowkey.BadSchemaError):
        assert issubclass(cls, rowkey.RowKeyError)
    assert issubclass(rowkey.RowKeyError, ValueError)
    assert rowkey.RowKeyError.__module__ == "rowkey"


def test_instants_beyond_datetime_are_an_error_naming_inspect():
    wide = dict(ORDERED, fields=[{"name": "at", "type": "SystemTime", "encoding": "timestamp_micros"}], prefix=None, salt=None)
    del wide["prefix"], wide["salt"]
    schema = rowkey.Schema.from_json(json.dumps(wide))
    key = schema.encode(at="+10000-01-01T00:00:00Z")
    with pytest.raises(rowkey.BadValueError, match="`at`.*inspect"):
        schema.decode(key)
    assert schema.inspect(key).fields[0].value_text == "+10000-01-01T00:00:00Z"


def test_a_bigtable_row_key_schema_reads_too():
    table = {"rowKeySchema": {"fields": [
        {"fieldName": "device", "type": {"stringType": {"encoding": {"utf8Bytes": {}}}}},
        {"fieldName": "ts", "type": {"stringType": {"encoding": {"utf8Bytes": {}}}}},
    ], "encoding": {"delimitedBytes": {"delimiter": "Iw=="}}}}
    schema = rowkey.Schema.from_json(json.dumps(table))
    assert [f.name for f in schema.fields] == ["device", "ts"]
    key = schema.encode(device="phone", ts="5")
    assert key == b"phone#5" and schema.decode(key) == {"device": "phone", "ts": "5"}


def test_the_package_docstring_examples_run():
    import doctest

    result = doctest.testmod(rowkey, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_a_byte_prefix_is_bytes_in_and_out():
    # CockroachDB's /Table/53/1/ before the fields: not text, so the file gives it as hex.
    design = dict(ORDERED, prefix_hex="bd89", salt=None)
    del design["prefix"], design["salt"]
    schema = rowkey.Schema.from_json(json.dumps(design))
    key = schema.encode(VALUES)
    assert key.startswith(b"\xbd\x89\x00\x01")
    inspection = schema.inspect(key)
    assert inspection["prefix"] == b"\xbd\x89"
    assert str(inspection).startswith('prefix=b"\\xbd\\x89" user=alice')
    assert schema.encode(dict(VALUES, prefix=b"\xbd\x89")) == key
    with pytest.raises(rowkey.BadValueError, match="prefix"):
        schema.encode(dict(VALUES, prefix=b"\xbd\x8a"))
    assert json.loads(schema.to_json())["prefix_hex"] == "bd89"
    with pytest.raises(rowkey.BadSchemaError, match="not both"):
        rowkey.Schema.from_json(json.dumps(dict(design, prefix="ev")))


def test_decoded_uuids_are_whole_objects_through_a_collection():
    # `uuid_object.rs` allocates these and sets their slots from C: each must be a plain
    # UUID that compares, hashes, pickles, refuses assignment, takes a weak reference and
    # survives the cycle collector (a bad reference count crashes or corrupts here).
    import gc
    import pickle
    import sys
    import weakref

    schema = rowkey.Schema.from_json(json.dumps({
        "rowkey_schema": 1, "type": "Ids", "format": "fdb_tuple",
        "fields": [{"name": "id", "type": "Uuid", "encoding": "uuid"}],
    }))
    ids = [uuid.UUID(int=0), uuid.UUID(int=(1 << 128) - 1)] + [uuid.uuid4() for _ in range(2000)]
    decoded = [row["id"] for row in schema.decode_many(schema.encode_many([{"id": i} for i in ids]))]
    gc.collect()
    assert decoded == ids and [hash(d) for d in decoded] == [hash(i) for i in ids]
    assert all(type(d) is uuid.UUID and d.is_safe is uuid.SafeUUID.unknown for d in decoded)
    assert pickle.loads(pickle.dumps(decoded[1])) == ids[1]
    with pytest.raises(TypeError):
        decoded[0].int = 5
    ref = weakref.ref(decoded[2])
    assert ref() is decoded[2]
    one = schema.decode(schema.encode({"id": ids[3]}))["id"]
    assert sys.getrefcount(one) == 2  # `one` and the call's argument: no reference leaked
    del decoded
    gc.collect()
    assert ref() is None
