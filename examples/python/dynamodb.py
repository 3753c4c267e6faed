"""A single-table DynamoDB design declared in Python: a tenant's orders and invoices in one
partition, each entity read by one exact query through boto3; a meter's readings spread
over four shards, read back newest first by one query a shard, merged; and a sensor's events
over four shards drawn at random, the partition key's last part.

Against the endpoint in ``DYNAMODB_ENDPOINT`` (dynalite or DynamoDB Local, say
``http://127.0.0.1:4567``; CI starts dynalite), or DynamoDB itself when it is ``aws``:

    DYNAMODB_ENDPOINT=http://127.0.0.1:4567 python examples/python/dynamodb.py
"""

import os
import sys
from typing import Annotated, Any

import rowkey


class Order(rowkey.Key, delimited="#", prefix="TENANT",
            dynamodb=rowkey.DynamoDB(partition=["tenant"], sort_prefix="ORDER")):
    """``TENANT#acme`` / ``ORDER#0020240501#0042``."""

    tenant: str
    day: rowkey.u32
    number: Annotated[rowkey.u16, rowkey.width(4)]


class Invoice(rowkey.Key, delimited="#", prefix="TENANT",
              dynamodb=rowkey.DynamoDB(partition=["tenant"], sort_prefix="INVOICE")):
    """``TENANT#acme`` / ``INVOICE#0042``: in the orders' partitions."""

    tenant: str
    number: Annotated[rowkey.u16, rowkey.width(4)]


class Reading(rowkey.Key, delimited="#", salt=rowkey.Salt(4, from_=["seq"]),
              dynamodb=rowkey.DynamoDB(partition=["meter"])):
    """``2#meter-7`` / ``0020240501#000042``: a meter's writes over four partitions."""

    meter: str
    day: rowkey.u32
    seq: Annotated[rowkey.u32, rowkey.width(6)]


class Event(rowkey.Key, delimited="#",
            dynamodb=rowkey.DynamoDB(partition=["sensor"], shards=rowkey.Shards(4, random=True))):
    """``sensor-3#2`` / ``0020240501#000042``: the shard ends the partition key, drawn on each
    write; the key itself holds none."""

    sensor: str
    day: rowkey.u32
    seq: Annotated[rowkey.u32, rowkey.width(6)]


def table(resource: Any, name: str) -> Any:
    return resource.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"}])


def main() -> None:
    endpoint = os.environ.get("DYNAMODB_ENDPOINT")
    if not endpoint:
        sys.exit("set DYNAMODB_ENDPOINT to a DynamoDB endpoint (http://127.0.0.1:4567 for dynalite), or `aws`")
    import boto3

    if endpoint == "aws":
        resource = boto3.resource("dynamodb")
    else:  # a local server takes any region and keys
        resource = boto3.resource("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                                  aws_access_key_id="local", aws_secret_access_key="local")
    app = table(resource, "app")
    orders, invoices = rowkey.DynamoTable(app, Order), rowkey.DynamoTable(app, Invoice)
    for day, number in [(20240430, 1), (20240501, 2), (20240517, 3), (20240601, 4)]:
        app.put_item(Item=orders.key_attributes(Order("acme", day, number).to_key()))
        app.put_item(Item=invoices.key_attributes(Invoice("acme", number).to_key()))

    # May's orders: `between` the first of May and of June, the end item dropped, the invoices
    # in the same partition never read.
    may = Order.scan().tenant("acme").day_range(20240501, 20240601).ranges()
    for query in orders.queries(may):
        print("query:", query)
    found = [Order.from_key(orders.key_of(item)) for item in orders.read(may)]
    print("May's orders:", found)
    assert [order.number for order in found] == [2, 3]

    # Write sharding: 100 readings of one day in four partitions, read back newest first.
    readings = rowkey.DynamoTable(table(resource, "readings"), Reading)
    with readings.table.batch_writer() as batch:
        for seq in range(100):
            batch.put_item(Item=readings.key_attributes(Reading("meter-7", 20240501, seq).to_key()))
    day = Reading.scan().meter("meter-7").day(20240501).ranges()
    seqs = [Reading.from_key(readings.key_of(item)).seq for item in readings.read(day, forward=False)]
    print(f"{len(seqs)} readings from {len(readings.queries(day))} queries, newest first: {seqs[:5]} ...")
    assert seqs == list(range(99, -1, -1))

    # Random shards at the partition key's end: the same reads, whatever shard each write drew.
    events = rowkey.DynamoTable(table(resource, "events"), Event)
    with events.table.batch_writer() as batch:
        for seq in range(100):
            batch.put_item(Item=events.key_attributes(Event("sensor-3", 20240501, seq).to_key()))
    day = Event.scan().sensor("sensor-3").day(20240501).ranges()
    items = events.read(day)
    shards = sorted({item["pk"] for item in items})
    print(f"{len(items)} events from shards {shards}, in order: {[Event.from_key(events.key_of(i)).seq for i in items[:5]]} ...")
    assert [Event.from_key(events.key_of(item)).seq for item in items] == list(range(100))
    assert len(shards) > 1


if __name__ == "__main__":
    main()
