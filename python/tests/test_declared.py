"""Keys declared in Python (`rowkey.Key`): the Rust fixtures' schemas and keys from their Python
declarations, the derive's errors and warnings at the class statement, the generated methods
and the scan builder."""

import datetime
import json
import re
import uuid
import warnings
from typing import Annotated, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rowkey
from declared_fixtures import ALL, AccountKey, AccountKeyText, Event, Login, McPlace, McReading, Reading
from test_agreement import Unrepresentable, native

pa = pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def vectors(vectors_path):
    schemas, rows = {}, []
    with open(vectors_path) as lines:
        for line in lines:
            row = json.loads(line)
            if "schema" in row:
                schemas[row["schema"]] = row["json"]
            else:
                rows.append(row)
    return schemas, rows


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_a_declaration_gives_the_rust_types_schema_and_keys(cls, vectors):
    schemas, rows = vectors
    assert json.loads(cls.SCHEMA.to_json()) == json.loads(schemas[cls.__name__])
    checked = 0
    for row in rows:
        if row["type"] != cls.__name__:
            continue
        key = bytes.fromhex(row["key"])
        value = cls.from_key(key)
        assert value.to_key() == key, row
        try:
            values = {f["name"]: native(f["value"]) for f in row["fields"]}
        except Unrepresentable:
            continue
        assert cls.SCHEMA.encode(values) == key, row
        checked += 1
    assert checked > 0


def test_the_comparison_fails_when_one_option_is_dropped(vectors):
    # The same `Reading` without `reverse` on its time: another schema, other keys.
    class Reading(rowkey.Key, delimited="#", salt=rowkey.Salt(16, from_=["device_id"])):
        device_type: str
        device_id: str
        ts_millis: rowkey.i64

    schemas, rows = vectors
    assert json.loads(Reading.SCHEMA.to_json()) != json.loads(schemas["Reading"])
    row = next(r for r in rows if r["type"] == "Reading")
    values = {f["name"]: native(f["value"]) for f in row["fields"]}
    assert Reading.SCHEMA.encode(values) != bytes.fromhex(row["key"])


def test_every_rule_the_derive_has_is_an_error_at_the_class_naming_field_and_fix():
    with pytest.raises(rowkey.BadSchemaError) as raised:
        class Key(rowkey.Key, delimited="#"):
            a: Annotated[rowkey.u32, rowkey.desc()]
            b: Annotated[rowkey.u16, rowkey.width(30)]
            c: Annotated[str, rowkey.hex()]
    lines = str(raised.value).split("\n")
    assert lines[0] == "key Key: 3 errors:"
    assert lines[1].startswith("- a delimited key has no descending fields")
    assert lines[2] == ("- `width = 30` is wider than any u16 (5 digits at most), so its keys would start with zeros "
                        "that say nothing: use `width = 5` or less, or remove `width` for the type's full width")
    assert lines[3].startswith("- `hex` writes integers and byte strings as hex digits, and `c` is a string")
    cases = [
        (dict(salt=rowkey.Salt(4, from_=["nope"])), {"a": str}, "salt source `nope` is not a field of `K`"),
        (dict(salt=rowkey.Salt(4, from_=["a"], hash="modulo")), {"a": str}, "a modulo salt takes the bucket"),
        ({}, {"at": rowkey.i64, "b": str}, "`at` leads the key and is an integer named like a timestamp"),
        ({}, {"at": rowkey.i64}, re.compile(re.escape("Salt the key (`salt=rowkey.Salt(16, from_=[...])`), ") + ".*"
                                            + re.escape("add `allow_hotspot=True` to the class"))),
        ({}, {"a": Annotated[str, rowkey.reverse()]}, "`reverse` stores MAX - v"),
        ({}, {"a": Annotated[str, rowkey.rename("b")], "b": str}, "two fields are named `b` in the key"),
        (dict(fdb_tuple=True, hbase=True), {"a": str}, "`fdb_tuple` and `hbase` are two different formats"),
        (dict(delimited="#"), {"a": float}, "`a` is a float, which has no text encoding in a delimited key"),
    ]
    for options, fields, message in cases:
        with pytest.raises(rowkey.BadSchemaError, match=message if isinstance(message, re.Pattern) else re.escape(message)):
            type("K", (rowkey.Key,), {"__annotations__": fields}, **options)


def test_a_python_type_without_a_key_form_is_refused_with_the_fix():
    with pytest.raises(rowkey.BadSchemaError, match=r"`K.n` is an int, and a key holds integers of a width.*rowkey.i64"):
        class K(rowkey.Key):
            n: int
    with pytest.raises(rowkey.BadSchemaError, match="`K.d` is a dict, which a key field cannot be"):
        class K(rowkey.Key):  # noqa: F811
            d: dict
    with pytest.raises(rowkey.BadSchemaError, match=r"write `rowkey.reverse\(\)`, with its parentheses"):
        class K(rowkey.Key):  # noqa: F811
            n: Annotated[rowkey.u32, rowkey.reverse]
    with pytest.raises(rowkey.BadSchemaError, match="`K.c` is marked skip: give it a default"):
        class K(rowkey.Key):  # noqa: F811
            a: str
            c: Annotated[rowkey.u8, rowkey.skip()]
    with pytest.raises(TypeError, match="unknown key option 'delimiter'"):
        class K(rowkey.Key, delimiter="#"):  # noqa: F811
            a: str


def test_the_derives_warnings_are_key_design_warnings_at_the_class_statement():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        class Customer(rowkey.Key):
            id: rowkey.u64
            name: str
            email: Annotated[Optional[str], rowkey.sensitive()]

    assert [w.category for w in caught] == [rowkey.PersonalDataWarning]
    assert issubclass(rowkey.PersonalDataWarning, rowkey.KeyDesignWarning)
    assert str(caught[0].message).startswith("`name` is text named like personal data")
    assert caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error", rowkey.KeyDesignWarning)
        with pytest.raises(rowkey.SensitiveSaltWarning, match="modulo the bucket count"):
            class Pin(rowkey.Key, salt=rowkey.Salt(4, from_=["pin"], hash="modulo")):
                pin: Annotated[rowkey.u32, rowkey.sensitive()]
        # DynamoDB shards modulo a sensitive number put its residue in every partition key.
        with pytest.raises(rowkey.SensitiveSaltWarning, match="modulo the shard count"):
            class Statement(rowkey.Key, dynamodb=rowkey.DynamoDB(
                    partition=["month"], shards=rowkey.Shards(8, from_=["account"], hash="modulo"))):
                month: rowkey.u32
                account: Annotated[rowkey.u64, rowkey.sensitive()]


def test_instances_keys_and_back_with_flatten_rename_skip_and_keyword_names():
    class Page(rowkey.Key, delimited="#"):
        type: Annotated[str, rowkey.rename("kind")]
        host: Annotated[str, rowkey.reverse_domain()]
        hits: Annotated[rowkey.u32, rowkey.skip()] = 0

    page = Page("doc", "www.example.com", hits=5)
    assert page.to_key() == b"doc#com.example.www"
    assert Page.from_key(page.to_key()) == Page("doc", "www.example.com")
    assert [f.name for f in Page.SCHEMA.fields] == ["kind", "host"]
    reading = McReading("eu", -3, McPlace("paris", None), "n")
    assert McReading.from_key(reading.to_key()) == reading
    assert McReading.decode_many(McReading.encode_many([reading, reading])) == [reading, reading]
    assert McReading.decode_many([reading.to_key()], as_dicts=True)[0]["city"] == "paris"
    login = Login("acme", "ada@example.com", 7)
    assert "ada@example.com" not in str(Login.inspect(login.to_key()))


def test_a_hashed_field_holds_the_hash_key_keyed_hash_and_is_fixed_never_ranged():
    import hashlib
    import hmac
    import pickle

    secret = b"the application's secret"
    key = rowkey.HashKey(secret)
    # The standard library's HMAC-SHA-256 as the oracle; a str is hashed as its UTF-8 bytes.
    for value in ("alice@example.com", "", "\0\uffff\U0001f600"):
        full = hmac.new(secret, value.encode(), hashlib.sha256).digest()
        for width in (8, 16, 31, 32):
            assert key.hash(value, width) == key.hash(value.encode(), width) == full[:width]
    assert key.hash("a") == key.hash("a", 16) != rowkey.HashKey(b"another").hash("a")
    assert repr(key) == "HashKey(<redacted>)" and secret.decode() not in repr(key)
    with pytest.raises(TypeError):
        pickle.dumps(key)
    with pytest.raises(rowkey.BadValueError, match="secret is empty"):
        rowkey.HashKey(b"")
    with pytest.raises(ValueError, match="8 to 32 bytes wide, not 7"):
        key.hash("a", 7)

    alice = AccountKeyText("acme", key.hash("alice@example.com", 8), 2024)
    assert alice.to_key() == b"acme#" + key.hash("alice@example.com", 8).hex().encode() + b"#0000002024"
    assert AccountKeyText.from_key(alice.to_key()) == alice
    found = AccountKeyText.scan().tenant("acme").email(key.hash("alice@example.com", 8)).ranges()
    assert found.contains(alice.to_key())
    assert not found.contains(AccountKeyText("acme", key.hash("bob@example.com", 8), 2024).to_key())
    # The derive's `_range` and `_starts_with` of a hash refuse to compile; here, to run.
    for method in ("email_range", "email_starts_with"):
        with pytest.raises(rowkey.BadValueError, match=r"`email` is a keyed hash.*\.email\(key\.hash\(value\)\)"):
            getattr(AccountKeyText.scan().tenant("acme"), method)
    # A hash of another width is refused, naming the field.
    with pytest.raises(rowkey.BadValueError, match="email"):
        AccountKey(key.hash("alice@example.com", 8), 1).to_key()
    assert AccountKey.from_key(AccountKey(key.hash("a"), 1).to_key()).email == key.hash("a")


def test_batches_of_instances_dicts_and_arrow_are_the_same_keys():
    rows = [Event("acme", i, 1_588_291_200_000 + i, uuid.UUID(int=i)) for i in range(50)]
    keys = Event.encode_many(rows)
    assert keys == [r.to_key() for r in rows]
    assert Event.encode_many([r._key_values() for r in rows]) == keys
    table = pa.table({"tenant": ["acme"] * 50, "seq": pa.array(range(50), pa.int64()),
                      "at": pa.array([1_588_291_200_000 + i for i in range(50)], pa.int64()),
                      "id": pa.array([uuid.UUID(int=i).bytes for i in range(50)], pa.binary(16))})
    assert Event.encode_many(table).to_pylist() == keys
    assert Event.decode_many(keys) == rows
    assert Event.decode_many(pa.array(keys)).num_rows == 50


def test_the_scan_builder_is_the_schemas_scan_with_a_method_a_field():
    scan = Reading.scan().device_type("phone").device_id("4c410523").ts_millis_range(1_588_291_200_000, 1_588_377_600_000)
    expected = Reading.SCHEMA.scan(device_type="phone", device_id="4c410523",
                                   next=("ts_millis", slice(1_588_291_200_000, 1_588_377_600_000)))
    assert scan.ranges().to_list() == expected.to_list()
    assert len(Reading.scan().device_type("phone").ranges()) == 16
    prefix = Reading.scan().device_type("phone").device_id_starts_with("4c").ranges()
    assert prefix.to_list() == Reading.SCHEMA.scan(device_type="phone", next=("device_id", rowkey.StartsWith("4c"))).to_list()
    with pytest.raises(rowkey.BadValueError, match="`device_type` comes before `device_id`"):
        Reading.scan().device_id("4c410523")
    with pytest.raises(AttributeError, match="its fields to scan by are device_type, device_id, ts_millis"):
        Reading.scan().nothing


@settings(max_examples=200)
@given(kind=st.text(alphabet=st.characters(min_codepoint=0x24, blacklist_categories=["Cs"]), max_size=8),
       device=st.text(alphabet=st.characters(min_codepoint=0x24, blacklist_categories=["Cs"]), max_size=8),
       ts=st.integers(min_value=0, max_value=2**63 - 1))
def test_a_declared_key_round_trips_and_sorts_as_the_schema_writes_it(kind, device, ts):
    reading = Reading(kind, device, ts)
    key = reading.to_key()
    assert key == Reading.SCHEMA.encode(device_type=kind, device_id=device, ts_millis=ts)
    assert Reading.from_key(key) == reading


def test_a_lone_surrogate_is_a_bad_value_naming_the_field():
    with pytest.raises(rowkey.BadValueError, match="`device_id` holds a lone surrogate"):
        Reading("phone", "\ud800", 0).to_key()


def test_a_declared_instant_and_uuid_come_back_as_their_python_types():
    class Visit(rowkey.Key, allow_hotspot=True):
        at: datetime.datetime
        who: Optional[uuid.UUID]

    at = datetime.datetime(1969, 7, 20, 20, 17, tzinfo=datetime.timezone.utc)
    visit = Visit(at, None)
    assert Visit.from_key(visit.to_key()) == visit
    assert json.loads(Visit.SCHEMA.to_json())["fields"][0]["type"] == "SystemTime"


def test_the_declaration_docstring_examples_run():
    import doctest

    import importlib

    # `rowkey.to_python` is the function; the module is in `sys.modules` under the same name.
    modules = [importlib.import_module(f"rowkey.{name}") for name in ("declared", "markers", "to_python")]
    for module, least in zip(modules, (8, 40, 2)):
        result = doctest.testmod(module, extraglobs={"rowkey": rowkey}, optionflags=doctest.ELLIPSIS)
        assert result.attempted >= least and result.failed == 0, module.__name__


def test_string_annotations_resolve_in_the_scope_of_the_class_statement():
    source = (
        "from __future__ import annotations\n"
        "import rowkey\n"
        "def make():\n"
        "    class Inner(rowkey.Key):\n"
        "        site: str\n"
        "    class Outer(rowkey.Key):\n"
        "        inner: Inner\n"
        "        n: rowkey.u8\n"
        "    return Outer, Inner\n"
    )
    namespace: dict = {}
    exec(source, namespace)
    Outer, Inner = namespace["make"]()
    value = Outer(Inner("x"), 1)
    assert Outer.from_key(value.to_key()) == value


def test_to_python_declares_every_schema_back_to_the_same_file_and_keys(vectors):
    schemas, rows = vectors
    classes = {}
    for name, text in schemas.items():
        source = rowkey.Schema.from_json(text).to_python()
        namespace: dict = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", rowkey.KeyDesignWarning)
            exec(source, namespace)
        assert json.loads(namespace[name].SCHEMA.to_json()) == json.loads(text), source
        classes[name] = namespace[name]
    # Every fixture, `EdgeKey` and `EdgeText` of every field type included: each printed class
    # reads each Rust key to values that write it again.
    assert set(classes) >= {"EdgeKey", "EdgeText", "EveryField", "AccountKey", "WideHash"}
    checked = dict.fromkeys(classes, 0)
    for row in rows:
        key = bytes.fromhex(row["key"])
        try:
            value = classes[row["type"]].from_key(key)
        except rowkey.BadValueError as e:
            assert "datetime" in str(e), row  # an instant Python's datetime cannot hold
            continue
        assert value.to_key() == key, row
        checked[row["type"]] += 1
    # A key holding instants may hold one `datetime` cannot (before year 1, to the
    # nanosecond) in every row: its file's equality above and `test_agreement`'s reading of its
    # keys by the schema stand for it. Every other key reads all its rows.
    def timeless(fields: list) -> bool:
        return all(f["encoding"] not in ("timestamp", "timestamp_micros", "date")
                   and timeless(f.get("schema", {}).get("fields", [])) for f in fields)

    assert all(n for name, n in checked.items() if timeless(json.loads(schemas[name])["fields"])), checked
    # A leading time that the file's maker allowed is allowed in the declaration too.
    source = rowkey.Schema.from_json(json.dumps({"rowkey_schema": 1, "type": "Log", "format": "ordered", "fields": [
        {"name": "ts", "type": "u64", "encoding": "uint64"}]})).to_python()
    assert "allow_hotspot=True" in source


def test_to_python_of_a_bigtable_row_key_schema():
    bigtable = json.dumps({"encoding": {"delimitedBytes": {"delimiter": "Iw=="}}, "fields": [
        {"fieldName": "device", "type": {"stringType": {"encoding": {"utf8Bytes": {}}}}},
        {"fieldName": "kind", "type": {"stringType": {"encoding": {"utf8Bytes": {}}}}}]})
    schema = rowkey.Schema.from_json(bigtable)
    namespace: dict = {}
    try:
        exec(schema.to_python(), namespace)
    except rowkey.BadSchemaError as e:
        pytest.skip(f"this Bigtable schema has no Python declaration: {e}")
    (cls,) = [v for v in namespace.values() if isinstance(v, type) and issubclass(v, rowkey.Key) and v is not rowkey.Key]
    assert json.loads(cls.SCHEMA.to_json()) == json.loads(schema.to_json())


def test_to_rust_prints_the_struct_the_derive_checked():
    assert Reading.to_rust() == (
        "#[derive(RowKey)]\n"
        '#[rowkey(delimited = "#", salt(buckets = 16, from = [device_id], hash = "farmhash"))]\n'
        "struct Reading {\n"
        "    device_type: String,\n"
        "    device_id: String,\n"
        "    #[rowkey(reverse)] ts_millis: i64,\n"
        "}"
    )


def test_time_crate_types_are_declared_with_their_own_encodings():
    class Event(rowkey.Key, delimited="#", salt=rowkey.Salt(4, from_=["source"])):
        source: str
        at: Annotated[rowkey.DateTimeUtc, rowkey.reverse()]
        day: rowkey.NaiveDate
        exact: Annotated[rowkey.Timestamp, rowkey.nanos()]

    at = datetime.datetime(2019, 7, 20, 20, 17, 40, 123456, tzinfo=datetime.timezone.utc)
    event = Event("moon", at, datetime.date(1969, 7, 20), at)
    assert Event.from_key(event.to_key()) == event
    fields = json.loads(Event.SCHEMA.to_json())["fields"]
    assert [f["encoding"] for f in fields] == ["utf8", "timestamp", "date", "timestamp"]
    assert fields[3]["nanos"] and fields[1]["type"] == "chrono::DateTime<chrono::Utc>"
    later = Event("moon", at + datetime.timedelta(seconds=1), datetime.date(1969, 7, 20), at)
    assert later.to_key() < event.to_key()  # reversed: newest first
    apollo = datetime.datetime(1969, 7, 20, tzinfo=datetime.timezone.utc)
    with pytest.raises(rowkey.BadValueError, match="`at`.*which needs 1970 or later: use `desc`"):
        Event("moon", apollo, apollo.date(), apollo).to_key()
    with pytest.raises(rowkey.BadSchemaError, match=r"annotate it rowkey.DateTimeUtc \(RFC 3339 text\)"):
        class Plain(rowkey.Key, delimited="#"):
            source: str
            at: datetime.datetime


def test_a_declared_schema_loads_in_the_command_which_reads_and_writes_its_keys(tmp_path, rowkey_command):
    import subprocess

    path = tmp_path / "reading.json"
    path.write_text(Reading.SCHEMA.to_json())
    reading = Reading("phone", "4c410523", 1_588_291_200_000)
    inspect = subprocess.run([rowkey_command, "inspect", "--schema", str(path), "--from", "hex", "--json"],
                             input=reading.to_key().hex() + "\n", capture_output=True, text=True, timeout=60)
    assert json.loads(inspect.stdout)["fields"]["ts_millis"] == "1588291200000", inspect.stderr
    encode = subprocess.run([rowkey_command, "encode", "--schema", str(path), "--to", "hex",
                             "device_type=phone", "device_id=4c410523", "ts_millis=1588291200000"],
                            capture_output=True, text=True, timeout=60)
    assert bytes.fromhex(encode.stdout.strip()) == reading.to_key(), encode.stderr


def test_a_key_of_no_fields_or_only_a_prefix_is_one_key():
    class Marker(rowkey.Key, prefix="m"):
        pass

    assert Marker().to_key() == b"m" and Marker.from_key(b"m") == Marker()
    with pytest.raises(rowkey.BadKeyError):
        Marker.from_key(b"n")


def test_a_subclass_of_a_declared_key_is_refused_with_the_way_to_flatten_it():
    with pytest.raises(rowkey.BadSchemaError, match="`Longer` subclasses the key `Reading`.*give it a field"):
        class Longer(Reading):
            extra: str
