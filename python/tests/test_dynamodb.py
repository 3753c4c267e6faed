"""DynamoDB from Python: item keys and queries of the Rust crate's designs, and reads through
boto3 on a DynamoDB server (dynalite, run by node on a free port of 127.0.0.1, stopped by its
pid). Items of three designs are written, and for generated scans (look-alike prefixes, fixed
fields, half-open ranges with open ends, text prefixes) ``DynamoTable.read`` must return what a
brute-force filter of every item written finds, in sort-key order both ways, in pages of a few
items. Without dynalite (``DYNALITE``, or ``target/dynalite`` as ``.ci/run`` installs it) the
server tests are skipped, saying why."""

import os
import random
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Annotated

import pytest

import rowkey
from declared_fixtures import BlobVersion, MeterReading, OrderLine, SensorEvent, TenantInvoice, TenantOrder

SERVE = ("require(process.argv[1])({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })"
         ".listen(Number(process.argv[2]), '127.0.0.1')")


def test_item_keys_and_queries_are_the_rust_crates():
    keys = rowkey.DynamoKeys(TenantOrder)
    assert keys.attribute_type == "S" and keys.has_sort_key
    key = TenantOrder("acme", 20240501, "7").to_key()
    assert keys.item(key) == ("TENANT#acme", "ORDER#0020240501#7")
    assert keys.key("TENANT#acme", "ORDER#0020240501#7") == key
    with pytest.raises(rowkey.BadKeyError, match="sort prefix"):
        keys.key("TENANT#acme", "INVOICE#7#paid")
    # One shard a query, each `begins_with` the fixed day.
    queries = rowkey.DynamoKeys(MeterReading).queries(MeterReading.scan().meter("m").day(20240501).ranges())
    assert [q.partition for q in queries] == ["0#m", "1#m", "2#m", "3#m"]
    assert {(q.operator, q.values) for q in queries} == {("begins_with", ("0020240501#",))}
    # Binary keys are bytes.
    blobs = rowkey.DynamoKeys(BlobVersion)
    assert blobs.attribute_type == "B"
    key = BlobVersion("o", b"\0\xff", 1).to_key()
    assert blobs.item(key) == (b"o", key[len(b"o\0\x01"):])  # cut after the owner and its separator
    with pytest.raises(rowkey.BadValueError, match="must fix every partition field"):
        blobs.queries(BlobVersion.scan().ranges())


def test_a_key_attribute_of_another_type_is_a_bad_value_not_a_crash():
    from unittest import mock

    keys = rowkey.DynamoKeys(TenantOrder)
    for odd in (7, None, mock.Mock()):  # a Mock's `.value` is a Mock, without end
        with pytest.raises(rowkey.BadValueError, match="str or bytes"):
            keys.key(odd, "ORDER#1#1")
    binary = mock.Mock(value=b"o")  # as boto3's Binary gives its bytes
    assert rowkey.DynamoKeys(BlobVersion).key(binary, rowkey.DynamoKeys(BlobVersion).item(
        BlobVersion("o", b"", 0).to_key())[1]) == BlobVersion("o", b"", 0).to_key()


def test_a_key_without_a_design_says_how_to_declare_one():
    class Plain(rowkey.Key):
        a: str

    with pytest.raises(rowkey.BadValueError, match=r"`dynamodb=rowkey.DynamoDB\(partition=\[\.\.\.\]\)` to the class"):
        rowkey.DynamoKeys(Plain)


def test_a_query_repr_hides_a_sensitive_keys_values():
    class Login(rowkey.Key, delimited="#", dynamodb=rowkey.DynamoDB(partition=["email"])):
        email: Annotated[str, rowkey.sensitive()]
        at: rowkey.u32

    query = rowkey.DynamoKeys(Login).queries(Login.scan().email("ada@example.com").at_range(1, 5).ranges())[0]
    assert "ada" not in repr(query) and "between" in repr(query)


def test_shards_end_the_partition_key_drawn_at_random_or_from_a_field():
    events = rowkey.DynamoKeys(SensorEvent)
    key = SensorEvent("s-1", 20240501, 7).to_key()
    drawn = {events.item(key)[0] for _ in range(64)}
    assert len(drawn) > 1 and drawn <= {"s-1#0", "s-1#1", "s-1#2", "s-1#3"}
    assert all(events.key(partition, "0020240501#0007") == key for partition in drawn)
    with pytest.raises(rowkey.BadKeyError, match="shard"):
        events.key("s-1#4", "0020240501#0007")
    assert [q.partition for q in events.queries(SensorEvent.scan().sensor("s-1").ranges())] == [
        "s-1#0", "s-1#1", "s-1#2", "s-1#3"]
    lines = rowkey.DynamoKeys(OrderLine)
    key = OrderLine(3, 10, 1).to_key()
    partition, sort = lines.item(key)
    shards = [q.partition for q in lines.queries(OrderLine.scan().day(3).ranges())]
    assert partition == shards[10 % 3]
    with pytest.raises(rowkey.BadKeyError, match="not the one its source fields give"):
        lines.key(shards[0], sort)
    printed = SensorEvent.SCHEMA.to_python() + OrderLine.SCHEMA.to_python()
    assert "shards=rowkey.Shards(4, random=True)" in printed
    assert "shards=rowkey.Shards(3, from_=['order'], hash='modulo')" in printed
    with pytest.raises(rowkey.BadSchemaError, match="keep `salt` or `shards`, not both"):
        class Both(rowkey.Key, delimited="#", salt=rowkey.Salt(4, from_=["seq"]),
                   dynamodb=rowkey.DynamoDB(partition=["sensor"], shards=rowkey.Shards(4, random=True))):
            sensor: str
            seq: rowkey.u32


def test_the_schema_file_and_to_python_carry_the_design():
    printed = TenantOrder.SCHEMA.to_python()
    assert 'dynamodb=rowkey.DynamoDB(partition=[\'tenant\'], sort_prefix=\'ORDER\')' in printed
    assert rowkey.Schema.from_json(TenantOrder.SCHEMA.to_json()).to_json() == TenantOrder.SCHEMA.to_json()


@pytest.fixture(scope="module")
def dynamodb():
    boto3 = pytest.importorskip("boto3")
    package = Path(os.environ.get("DYNALITE") or Path(__file__).parents[2] / "target/dynalite/node_modules/dynalite")
    if not (package / "package.json").is_file():
        pytest.skip(f"no dynalite at {package}: set DYNALITE, or `npm install --prefix target/dynalite dynalite`")
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on the PATH to run dynalite with")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([node, "-e", SERVE, str(package), str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert server.poll() is None, "dynalite exited before listening"
                assert time.monotonic() < deadline, "dynalite did not listen within 20 s"
                time.sleep(0.05)
        yield boto3.resource("dynamodb", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                             aws_access_key_id="rowkey", aws_secret_access_key="test")
    finally:
        server.kill()
        server.wait()


def make_table(resource, name, ty):
    return resource.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": ty}, {"AttributeName": "sk", "AttributeType": ty}])


def write(table, rows):
    """Writes each row's item; the keys written, one a distinct key."""
    keys = sorted({row.to_key() for row in rows})
    with table.table.batch_writer() as batch:
        for key in keys:
            batch.put_item(Item={**table.key_attributes(key), "v": "x"})
    return keys


def ordered(table, keys, forward):
    sort = sorted(keys, key=lambda k: rowkey.dynamodb._bytes(table.keys.item(k)[1]))
    return sort if forward else sort[::-1]


def check(table, ranges, written, forward=True):
    want = ordered(table, [k for k in written if ranges.contains(k)], forward)
    got = [table.key_of(item) for item in table.read(ranges, forward)]
    assert got == want, (ranges, [repr(q) for q in table.queries(ranges)])


def scans(cls, rows, rng, count):
    """Scans of `cls` from its rows' values: the partition field and more fixed, then a
    half-open range, open ends included, or a prefix of text on the next field."""
    names = [f for f in cls.__dataclass_fields__]
    for _ in range(count):
        seed, other = rng.choice(rows), rng.choice(rows)
        fixed = rng.randrange(1, len(names) + 1)
        scan = cls.scan()
        for name in names[:fixed]:
            scan = getattr(scan, name)(getattr(seed, name))
        if fixed < len(names):
            name = names[fixed]
            a, b = sorted([getattr(seed, name), getattr(other, name)])
            if isinstance(a, str) and rng.random() < 0.3:
                scan = getattr(scan, f"{name}_starts_with")(a[:max(1, len(a) // 2)])
            else:
                scan = getattr(scan, f"{name}_range")(rng.choice([a, None]), rng.choice([b, None]))
        yield scan.ranges()


def test_reads_on_a_dynamodb_server_are_what_brute_force_finds(dynamodb):
    rng = random.Random(7)
    look_alike = lambda: "".join(rng.choice("ab") for _ in range(rng.randint(1, 3)))  # noqa: E731

    series = rowkey.DynamoTable(make_table(dynamodb, "series", "S"), MeterReading)
    readings = [MeterReading(look_alike(), 20240501 + rng.randrange(3), rng.choice([0, 2**32 - 1, rng.randrange(9)]),
                             rng.randrange(1000)) for _ in range(2_000)]
    written = write(series, readings)
    app = make_table(dynamodb, "app", "S")
    orders, invoices = rowkey.DynamoTable(app, TenantOrder), rowkey.DynamoTable(app, TenantInvoice)
    order_rows = [TenantOrder(look_alike(), rng.randrange(1, 4), "".join(rng.choice("19\x7f\u07ff") for _ in range(rng.randint(1, 3))))
                  for _ in range(1_000)]
    invoice_rows = [TenantInvoice(look_alike(), str(rng.randrange(100)), rng.choice(["open", "paid"])) for _ in range(1_000)]
    written_orders, written_invoices = write(orders, order_rows), write(invoices, invoice_rows)
    blobs = rowkey.DynamoTable(make_table(dynamodb, "blobs", "B"), BlobVersion, page_limit=3)
    blob_rows = [BlobVersion(look_alike(), bytes(rng.choice([0, 1, 0x61, 0xff]) for _ in range(rng.randrange(4))),
                             rng.choice([-2**31, -1, 0, 1, 2, 2**31 - 1])) for _ in range(1_000)]
    written_blobs = write(blobs, blob_rows)
    events = rowkey.DynamoTable(make_table(dynamodb, "events", "S"), SensorEvent, page_limit=5)
    event_rows = [SensorEvent(look_alike(), 20240501 + rng.randrange(3), rng.choice([0, 9999, rng.randrange(10_000)]))
                  for _ in range(1_000)]
    written_events = write(events, event_rows)
    lines = rowkey.DynamoTable(make_table(dynamodb, "lines", "B"), OrderLine)
    line_rows = [OrderLine(rng.randrange(1, 4), rng.choice([0, 2**64 - 1, rng.randrange(50)]),
                           rng.choice([-2**15, -1, 0, 1, 2**15 - 1])) for _ in range(1_000)]
    written_lines = write(lines, line_rows)

    for table, cls, rows, keys in [(series, MeterReading, readings, written), (orders, TenantOrder, order_rows, written_orders),
                                   (invoices, TenantInvoice, invoice_rows, written_invoices), (blobs, BlobVersion, blob_rows, written_blobs),
                                   (events, SensorEvent, event_rows, written_events), (lines, OrderLine, line_rows, written_lines)]:
        for n, ranges in enumerate(scans(cls, rows, rng, 60)):
            check(table, ranges, keys, forward=n % 2 == 0)
    # A tenant's orders alone, though its invoices share the partition; pages of three.
    paged = rowkey.DynamoTable(app, TenantOrder, page_limit=3)
    check(paged, TenantOrder.scan().tenant(order_rows[0].tenant).ranges(), written_orders)


def test_the_comparison_fails_when_the_end_item_is_kept_or_a_shard_skipped(dynamodb):
    orders = rowkey.DynamoTable(make_table(dynamodb, "misses", "S"), TenantOrder)
    written = write(orders, [TenantOrder("t", 1, n) for n in "123"])
    ranges = TenantOrder.scan().tenant("t").day(1).number_range("1", "3").ranges()
    check(orders, ranges, written)
    query = orders.queries(ranges)[0]
    assert query.operator == "between" and query.drop == "ORDER#0000000001#3"
    raw = orders.table.query(**orders.query_arguments(query))["Items"]
    assert len(raw) == 3  # `between` reads the end item, which `read` drops

    series = rowkey.DynamoTable(make_table(dynamodb, "shards", "S"), MeterReading)
    written = write(series, [MeterReading("m", 1, 0, seq) for seq in range(16)])
    ranges = MeterReading.scan().meter("m").day(1).ranges()
    check(series, ranges, written)
    fewer = [item for query in series.queries(ranges)[1:] for item in series._pages(query, True)]
    assert len(fewer) < len(written)
