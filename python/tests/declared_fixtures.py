"""The Rust test fixtures that `tests/python_vectors.rs` writes keys of, declared in Python as
`rowkey.Key` classes: each must give the Rust type's schema, word for word, and its keys."""

import uuid
from typing import Annotated, Optional

import rowkey


class Reading(rowkey.Key, delimited="#", salt=rowkey.Salt(16, from_=["device_id"])):
    device_type: str
    device_id: str
    ts_millis: Annotated[rowkey.i64, rowkey.reverse()]


class FdbReading(rowkey.Key, fdb_tuple=True, prefix="\x15\x02", salt=rowkey.Salt(8, from_=["device"])):
    device: str
    at: rowkey.i64
    tag: Optional[str]
    ok: bool
    seq: Annotated[rowkey.u64, rowkey.reverse()]
    data: bytes


class McPlace(rowkey.Key, memcomparable=True):
    city: str
    zone: Optional[rowkey.u8]


class McReading(rowkey.Key, memcomparable=True, prefix="t7_"):
    region: str
    score: Annotated[rowkey.i32, rowkey.desc()]
    place: McPlace
    note: Optional[str]


class McEvery(rowkey.Key, memcomparable=True):
    letter: rowkey.char
    code: Annotated[bytes, rowkey.length(3)]
    ratio: rowkey.f32
    score: Annotated[float, rowkey.desc()]
    wide: rowkey.i128
    small: Optional[rowkey.u16]
    seq: Annotated[rowkey.i64, rowkey.bit_reverse()]
    version: Annotated[rowkey.u32, rowkey.reverse()]
    v4: Annotated[rowkey.Ipv4Addr, rowkey.rust_type("std::net::Ipv4Addr")]
    ip: Annotated[rowkey.IpAddr, rowkey.rust_type("std::net::IpAddr")]
    at: Annotated[rowkey.SystemTime, rowkey.rust_type("std::time::SystemTime")]
    flag: bool


class HBaseVisit(rowkey.Key, hbase=True, salt=rowkey.Salt(16, from_=["host"], hash="md5")):
    host: str
    ts: Annotated[rowkey.i64, rowkey.desc()]
    amount: Annotated[rowkey.i64, rowkey.numeric()]
    row: bytes


class Login(rowkey.Key):
    tenant: str
    email: Annotated[str, rowkey.sensitive()]
    at: rowkey.u32


class LoginText(rowkey.Key, delimited="#", salt=rowkey.Salt(4, from_=["tenant"], hash="modulo")):
    tenant: rowkey.u32
    email: Annotated[str, rowkey.sensitive()]
    at: rowkey.u32
    pin: Annotated[rowkey.u16, rowkey.sensitive()]


class AccountKey(rowkey.Key):
    email: rowkey.Hashed
    since: rowkey.u32


class AccountKeyText(rowkey.Key, delimited="#"):
    tenant: str
    email: Annotated[bytes, rowkey.hashed(8)]
    since: rowkey.u32


class WideHash(rowkey.Key):
    tenant: str
    email: Optional[Annotated[bytes, rowkey.hashed(32)]]


class MeterReading(rowkey.Key, delimited="#", salt=rowkey.Salt(4, from_=["seq"]),
                   dynamodb=rowkey.DynamoDB(partition=["meter"])):
    meter: str
    day: rowkey.u32
    at: Annotated[rowkey.u32, rowkey.reverse()]
    seq: Annotated[rowkey.u16, rowkey.width(3)]


class TenantOrder(rowkey.Key, delimited="#", prefix="TENANT",
                  dynamodb=rowkey.DynamoDB(partition=["tenant"], sort_prefix="ORDER")):
    tenant: str
    day: rowkey.u32
    number: str


class TenantInvoice(rowkey.Key, delimited="#", prefix="TENANT",
                    dynamodb=rowkey.DynamoDB(partition=["tenant"], sort_prefix="INVOICE")):
    tenant: str
    number: str
    status: str


class BlobVersion(rowkey.Key, dynamodb=rowkey.DynamoDB(partition=["owner"])):
    owner: str
    blob: bytes
    version: Annotated[rowkey.i32, rowkey.desc()]


class SensorEvent(rowkey.Key, delimited="#",
                  dynamodb=rowkey.DynamoDB(partition=["sensor"], shards=rowkey.Shards(4, random=True))):
    sensor: str
    day: rowkey.u32
    seq: Annotated[rowkey.u16, rowkey.width(4)]


class OrderLine(rowkey.Key, dynamodb=rowkey.DynamoDB(partition=["day"],
                                                     shards=rowkey.Shards(3, from_=["order"], hash="modulo"))):
    day: rowkey.u32
    order: rowkey.u64
    line: Annotated[rowkey.i16, rowkey.desc()]


ALL = [Reading, FdbReading, McReading, McEvery, HBaseVisit, Login, LoginText, AccountKey, AccountKeyText, WideHash,
       MeterReading, TenantOrder, TenantInvoice, BlobVersion, SensorEvent, OrderLine]


class Event(rowkey.Key, fdb_tuple=True):
    """The package's FoundationDB bench key, for the speed figures."""

    tenant: str
    seq: rowkey.i64
    at: rowkey.i64
    id: uuid.UUID
