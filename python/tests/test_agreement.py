"""The same bytes as Rust: every key the Rust test `tests/python_vectors.rs` wrote, over every
field type in every format's fixture schemas, is what Python encodes from the same values,
native or as text, and decodes back to those values."""

import datetime
import ipaddress
import json
import struct
import uuid

import pytest

import rowkey

UTC = datetime.timezone.utc
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)


class Unrepresentable(Exception):
    """A value no native Python type holds exactly (an instant beyond datetime's years, or to
    the nanosecond): the key is checked through its text form instead."""


def native(tagged):
    (kind, payload), = tagged.items()
    if kind == "null":
        return None
    if kind in ("bool", "str", "ulid"):
        return payload
    if kind == "int":
        return int(payload)
    if kind == "float":
        return struct.unpack(">d", bytes.fromhex(payload))[0]
    if kind == "bytes":
        return bytes.fromhex(payload)
    if kind in ("micros", "nanos"):
        n = int(payload)
        if kind == "nanos":
            if n % 1000:
                raise Unrepresentable
            n //= 1000
        try:
            return EPOCH + datetime.timedelta(microseconds=n)
        except OverflowError:
            raise Unrepresentable from None
    if kind == "days":
        try:
            return datetime.date(1970, 1, 1) + datetime.timedelta(days=payload)
        except OverflowError:
            raise Unrepresentable from None
    if kind == "uuid":
        return uuid.UUID(hex=payload)
    if kind == "ip":
        return ipaddress.ip_address(payload)
    raise AssertionError(f"unknown tag {kind}: add it here as in tests/python_vectors.rs")


def same(a, b):
    """Equal, floats by their bits (NaN payloads, -0.0)."""
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack(">d", a) == struct.pack(">d", b)
    return type(a) is type(b) and a == b


def load(path):
    schemas, rows = {}, []
    with open(path) as lines:
        for line in lines:
            row = json.loads(line)
            if "schema" in row:
                schemas[row["schema"]] = rowkey.Schema.from_json(row["json"])
            else:
                rows.append(row)
    return schemas, rows


@pytest.fixture(scope="module")
def vectors(vectors_path):
    return load(vectors_path)


def test_the_vectors_cover_every_format_and_field_type(vectors):
    schemas, rows = vectors
    formats = {schema.format.split()[0] for schema in schemas.values()}
    assert formats == {"ordered", "delimited", "fdb_tuple", "memcomparable", "hbase"}, formats
    kinds = {kind for row in rows for field in row["fields"] for kind in field["value"]}
    assert kinds >= {"null", "bool", "int", "float", "str", "bytes", "micros", "nanos", "days", "uuid", "ulid", "ip"}
    assert len(rows) >= 1000


def test_python_encodes_and_decodes_the_keys_rust_wrote(vectors):
    schemas, rows = vectors
    checked_native = 0
    for n, row in enumerate(rows):
        schema = schemas[row["type"]]
        key = bytes.fromhex(row["key"])
        where = f"row {n} of {row['type']} (key {row['key']})"
        encodings = {f.name: f.encoding for f in schema.fields}
        # The text forms (a text field's str is its value itself).
        texts = {}
        for field in row["fields"]:
            value = field["value"]
            if "null" in value:
                texts[field["name"]] = None
            elif encodings[field["name"]] in ("utf8", "char"):
                texts[field["name"]] = value["str"]
            else:
                texts[field["name"]] = field["text"]
        assert schema.encode(texts) == key, f"{where}: encode of the texts"
        try:
            values = {field["name"]: native(field["value"]) for field in row["fields"]}
        except Unrepresentable:
            assert [f.value_text for f in schema.inspect(key).fields if not f.computed] == [
                f["text"] for f in row["fields"]], where
            continue
        assert schema.encode(values) == key, f"{where}: encode of the native values"
        decoded = schema.decode(key)
        assert list(decoded) == list(values), where
        for name, value in values.items():
            assert same(decoded[name], value), f"{where}: `{name}` decoded {decoded[name]!r}, not {value!r}"
        checked_native += 1
    # Most rows hold only values Python holds natively.
    assert checked_native > len(rows) // 2, (checked_native, len(rows))


def test_keys_sort_as_rust_wrote_them_and_decode_in_that_order(vectors):
    """Each schema's keys, sorted as bytes, decode: and re-encoding each gives the same sorted list."""
    schemas, rows = vectors
    by_type = {}
    for row in rows:
        by_type.setdefault(row["type"], []).append(bytes.fromhex(row["key"]))
    for name, keys in by_type.items():
        schema = schemas[name]
        ordered = sorted(set(keys))
        again = []
        for key in ordered:
            inspection = schema.inspect(key)
            texts = {f.name: f.value_text for f in inspection.fields if not f.computed}
            for f in schema.fields:
                if f.kind == "value" and f.encoding in ("utf8", "char") and f.name in texts:
                    texts[f.name] = inspection[f.name] if inspection[f.name] is not None else None
            again.append(schema.encode(texts))
        assert again == ordered, name
