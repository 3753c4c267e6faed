"""The words of a key declared in Python: the Rust types a field can be (``rowkey.i64``,
``rowkey.char``, ...), the field attributes (``rowkey.reverse()``, ``rowkey.width(6)``, ...), the
salt, and the warnings a declaration raises; each written out as the Rust attribute it stands
for, which the derive's rules then check.

>>> from typing import Annotated
>>> import rowkey
>>> class Order(rowkey.Key, delimited="#", salt=rowkey.Salt(8, from_=["customer"])):
...     customer: str
...     number: Annotated[rowkey.u32, rowkey.width(8)]
...     placed_ms: Annotated[rowkey.i64, rowkey.reverse(), rowkey.rename("placed")]
>>> Order("c-17", 42, 1_700_000_000_000).to_key()
b'7#c-17#00000042#9223370336854775807'
>>> [f.name for f in Order.SCHEMA.fields]
['bucket', 'customer', 'number', 'placed']
"""

import datetime
import ipaddress
from typing import Annotated, Any, List, Optional, Sequence, Tuple, Union

from ._rowkey import BadSchemaError

__all__ = [
    "KeyDesignWarning", "PersonalDataWarning", "SensitiveSaltWarning", "Salt", "DynamoDB", "Shards", "RustType", "Attr",
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "char",
    "Ulid", "SystemTime", "Ipv4Addr", "Ipv6Addr", "IpAddr", "rust_type", "length", "Hashed", "hashed",
    "DateTimeUtc", "DateTimeFixedOffset", "NaiveDateTime", "NaiveDate", "OffsetDateTime", "UtcDateTime",
    "PrimitiveDateTime", "TimeDate", "Timestamp", "CivilDateTime", "CivilDate",
    "desc", "reverse", "bit_reverse", "reverse_domain", "hex", "width", "big_endian", "rename", "skip",
    "monotonic", "nanos", "numeric", "sensitive", "allow_personal_data",
]


class KeyDesignWarning(UserWarning):
    """What ``#[derive(RowKey)]`` warns about a key design, raised when a ``Key`` class is made.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     class Person(rowkey.Key):
    ...         email: str
    >>> caught[0].category.__name__, str(caught[0].message)[:45]
    ('PersonalDataWarning', '`email` is text named like personal data, and')
    """


class PersonalDataWarning(KeyDesignWarning):
    """Text named like personal data, held in the key in clear (neither hashed nor ``sensitive``)."""


class SensitiveSaltWarning(KeyDesignWarning):
    """A ``sensitive`` field whose value a modulo salt's bucket shows part of."""


_WARNINGS = {"PersonalDataInKey": PersonalDataWarning, "SensitiveModuloSalt": SensitiveSaltWarning}


class RustType:
    """An ``Annotated`` marker naming the field's Rust type (``rowkey.i64`` carries one); made
    by ``rowkey.rust_type``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"RustType({self.name!r})"


def rust_type(name: str) -> RustType:
    """The field's Rust type as the Rust struct spells it, where a schema must match one
    exported from Rust word for word: ``Annotated[uuid.UUID, rowkey.rust_type("uuid::Uuid")]``
    (the key's bytes do not depend on it).

    >>> import uuid
    >>> class Ping(rowkey.Key):
    ...     id: Annotated[uuid.UUID, rowkey.rust_type("uuid::Uuid")]
    >>> Ping.SCHEMA.fields[0].type
    'uuid::Uuid'
    """
    return RustType(name)


i8 = Annotated[int, RustType("i8")]
i16 = Annotated[int, RustType("i16")]
i32 = Annotated[int, RustType("i32")]
i64 = Annotated[int, RustType("i64")]
i128 = Annotated[int, RustType("i128")]
isize = Annotated[int, RustType("isize")]
u8 = Annotated[int, RustType("u8")]
u16 = Annotated[int, RustType("u16")]
u32 = Annotated[int, RustType("u32")]
u64 = Annotated[int, RustType("u64")]
u128 = Annotated[int, RustType("u128")]
usize = Annotated[int, RustType("usize")]
f32 = Annotated[float, RustType("f32")]
f64 = Annotated[float, RustType("f64")]
char = Annotated[str, RustType("char")]
Ulid = Annotated[str, RustType("Ulid")]
SystemTime = Annotated[datetime.datetime, RustType("SystemTime")]
Ipv4Addr = Annotated[ipaddress.IPv4Address, RustType("Ipv4Addr")]
Ipv6Addr = Annotated[ipaddress.IPv6Address, RustType("Ipv6Addr")]
IpAddr = Annotated[Union[ipaddress.IPv4Address, ipaddress.IPv6Address], RustType("IpAddr")]
# A keyed hash of a value (`rowkey::field::Hashed`, 16 bytes): the value is `HashKey.hash(...)`.
Hashed = Annotated[bytes, RustType("Hashed")]


def hashed(width: int) -> RustType:
    """``Annotated[bytes, rowkey.hashed(8)]``: a keyed hash of ``width`` bytes (8 to 32;
    ``rowkey.Hashed`` is 16), whose value is ``key.hash(value, width)`` of a ``rowkey.HashKey``.
    The key holds the hash, never the value: a scan can fix the field, not range over it.

    >>> key = rowkey.HashKey(b"the application's secret")
    >>> class Account(rowkey.Key, delimited="#"):
    ...     tenant: str
    ...     email: Annotated[bytes, rowkey.hashed(8)]
    >>> row = Account("acme", key.hash("alice@example.com", 8))
    >>> row.to_key()
    b'acme#47dc1d79d4b77f41'
    >>> Account.from_key(row.to_key()) == row
    True
    >>> Account.scan().tenant("acme").email(key.hash("alice@example.com", 8)).ranges().contains(row.to_key())
    True
    """
    return RustType(f"Hashed<{int(width)}>")


# Instants and dates of the Rust time crates, each written as its crate writes it (RFC 3339 text
# in a delimited key), which a delimited key needs: `datetime.datetime` alone is `SystemTime`.
DateTimeUtc = Annotated[datetime.datetime, RustType("chrono::DateTime<chrono::Utc>")]
DateTimeFixedOffset = Annotated[datetime.datetime, RustType("chrono::DateTime<chrono::FixedOffset>")]
NaiveDateTime = Annotated[datetime.datetime, RustType("chrono::NaiveDateTime")]
NaiveDate = Annotated[datetime.date, RustType("chrono::NaiveDate")]
OffsetDateTime = Annotated[datetime.datetime, RustType("time::OffsetDateTime")]
UtcDateTime = Annotated[datetime.datetime, RustType("time::UtcDateTime")]
PrimitiveDateTime = Annotated[datetime.datetime, RustType("time::PrimitiveDateTime")]
TimeDate = Annotated[datetime.date, RustType("time::Date")]
Timestamp = Annotated[datetime.datetime, RustType("jiff::Timestamp")]
CivilDateTime = Annotated[datetime.datetime, RustType("jiff::civil::DateTime")]
CivilDate = Annotated[datetime.date, RustType("jiff::civil::Date")]


class Attr:
    """A field attribute, as ``#[rowkey(...)]`` writes it on a Rust field."""

    def __init__(self, keyword: str, value: Any = None) -> None:
        self.keyword = keyword
        self.value = value

    def rust(self) -> str:
        if self.value is None:
            return self.keyword
        return f"{self.keyword} = {_literal(self.value)}"

    def __repr__(self) -> str:
        return f"rowkey.{self.keyword}({'' if self.value is None else repr(self.value)})"


def desc() -> Attr:
    """Larger values first (ordered, memcomparable and HBase keys).

    >>> class Score(rowkey.Key, memcomparable=True):
    ...     player: str
    ...     points: Annotated[rowkey.u32, rowkey.desc()]
    >>> Score("ann", 9).to_key() < Score("ann", 3).to_key()
    True
    """
    return Attr("desc")


def reverse() -> Attr:
    """The key holds ``MAX - v``: newest first for a time in an integer.

    >>> class Event(rowkey.Key, delimited="#"):
    ...     source: str
    ...     at_ms: Annotated[rowkey.u32, rowkey.reverse()]
    >>> Event("a", 7).to_key()
    b'a#4294967288'
    """
    return Attr("reverse")


def bit_reverse() -> Attr:
    """Spanner's bit-reversed sequence of an ``i64`` or ``u64``: consecutive ids far apart.

    >>> class Order(rowkey.Key):
    ...     id: Annotated[rowkey.u64, rowkey.bit_reverse()]
    >>> Order(1).to_key() > Order(2).to_key()
    True
    """
    return Attr("bit_reverse")


def reverse_domain() -> Attr:
    """A host name held with its labels reversed (``com.example.www``).

    >>> class Page(rowkey.Key, delimited="#"):
    ...     host: Annotated[str, rowkey.reverse_domain()]
    ...     path: str
    >>> Page("www.example.com", "/").to_key()
    b'com.example.www#/'
    """
    return Attr("reverse_domain")


def hex() -> Attr:  # noqa: A001 - the derive's name
    """Lowercase hex digits (delimited keys).

    >>> class Blob(rowkey.Key, delimited="#"):
    ...     digest: Annotated[bytes, rowkey.length(4), rowkey.hex()]
    >>> Blob(b"\\x01\\xab\\x00\\xff").to_key()
    b'01ab00ff'
    """
    return Attr("hex")


def width(digits: int) -> Attr:
    """Zero-padded decimal of ``digits`` digits (delimited keys), 1 to the type's widest.

    >>> class Invoice(rowkey.Key, delimited="#"):
    ...     number: Annotated[rowkey.u32, rowkey.width(6)]
    >>> Invoice(42).to_key()
    b'000042'
    """
    return Attr("width", int(digits))


def big_endian() -> Attr:
    """Eight big-endian bytes (any format but delimited).

    >>> class Seq(rowkey.Key, allow_hotspot=True):
    ...     n: Annotated[rowkey.u64, rowkey.big_endian()]
    >>> Seq.SCHEMA.fields[0].encoding
    'big-endian int64'
    """
    return Attr("big_endian")


def rename(name: str) -> Attr:
    """The field's name in the key, its schema and its errors (the attribute keeps its own).

    >>> class Item(rowkey.Key):
    ...     type: Annotated[str, rowkey.rename("kind")]
    >>> Item.SCHEMA.fields[0].name, Item("a").type
    ('kind', 'a')
    """
    return Attr("rename", str(name))


def skip() -> Attr:
    """Not part of the key; ``from_key`` gives it its default, which it must have.

    >>> class Hit(rowkey.Key):
    ...     page: str
    ...     cached: Annotated[bool, rowkey.skip()] = False
    >>> Hit.from_key(Hit("a", True).to_key())
    Hit(page='a', cached=False)
    """
    return Attr("skip")


def monotonic() -> Attr:
    """Its values grow with time: leading the key, an error (every write to one tablet).

    >>> class Job(rowkey.Key):
    ...     seq: Annotated[rowkey.u64, rowkey.monotonic()]
    Traceback (most recent call last):
        ...
    rowkey.BadSchemaError: key Job: `seq` leads the key and is marked `monotonic`, ...
    """
    return Attr("monotonic")


def nanos() -> Attr:
    """An instant kept to the nanosecond (chrono, time and jiff instants).

    >>> class Tick(rowkey.Key, allow_hotspot=True):
    ...     at: Annotated[rowkey.Timestamp, rowkey.nanos()]
    >>> Tick.SCHEMA.fields[0].encoding
    'timestamp nanos'
    >>> class Tock(rowkey.Key, allow_hotspot=True):
    ...     at: Annotated[rowkey.SystemTime, rowkey.nanos()]
    Traceback (most recent call last):
        ...
    rowkey.BadSchemaError: key Tock: `nanos` keeps the nanoseconds of a chrono, time or jiff instant, ...
    """
    return Attr("nanos")


def numeric() -> Attr:
    """HBase's ``OrderedNumeric`` (HBase keys).

    >>> class Amount(rowkey.Key, hbase=True):
    ...     cents: Annotated[rowkey.i64, rowkey.numeric()]
    >>> Amount.SCHEMA.fields[0].encoding
    'numeric'
    """
    return Attr("numeric")


def sensitive() -> Attr:
    """Personal data: never shown by ``inspect``, errors or the ``rowkey`` command.

    >>> class Login(rowkey.Key):
    ...     email: Annotated[str, rowkey.sensitive()]
    >>> str(Login.inspect(Login("ada@example.com").to_key()))
    'email=<redacted, 15 bytes>'
    """
    return Attr("sensitive")


def allow_personal_data() -> Attr:
    """No personal-data warning for this field, whose key must hold it as it is.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", rowkey.KeyDesignWarning)
    ...     class Contact(rowkey.Key):
    ...         phone: Annotated[str, rowkey.allow_personal_data()]
    """
    return Attr("allow_personal_data")


class length:  # noqa: N801 - reads as an attribute
    """``Annotated[bytes, rowkey.length(16)]``: a ``[u8; 16]``, bytes of that length.

    >>> class Tag(rowkey.Key):
    ...     code: Annotated[bytes, rowkey.length(2)]
    >>> Tag.SCHEMA.fields[0].type
    '[u8; 2]'
    """

    def __init__(self, n: int) -> None:
        self.n = int(n)


class Salt:
    """``salt(buckets = N, from = [...], hash = "...")``: a bucket field after the prefix,
    computed from the ``from_`` fields (their Python names) by ``hash`` (``"farmhash"``,
    ``"modulo"`` or ``"md5"``).

    >>> class Visit(rowkey.Key, delimited="#", salt=rowkey.Salt(4, from_=["user"], hash="md5")):
    ...     user: str
    ...     page: str
    Traceback (most recent call last):
        ...
    rowkey.BadSchemaError: key Visit: an md5 salt's buckets are the first 1 to 4 hex digits of the digest, ...
    >>> class Visit(rowkey.Key, delimited="#", salt=rowkey.Salt(16, from_=["user"], hash="md5")):
    ...     user: str
    ...     page: str
    >>> Visit("u1", "/").to_key()[:2]
    b'e#'
    """

    def __init__(self, buckets: int, *, from_: Sequence[str], hash: str = "farmhash") -> None:  # noqa: A002
        if isinstance(from_, str):
            from_ = [from_]
        self.buckets, self.from_, self.hash = int(buckets), list(from_), hash

    def rust(self) -> str:
        return (f"salt(buckets = {self.buckets}, from = [{', '.join(_ident(s) for s in self.from_)}], "
                f"hash = {_literal(self.hash)})")

    def __repr__(self) -> str:
        return f"rowkey.Salt({self.buckets}, from_={self.from_!r}, hash={self.hash!r})"


class DynamoDB:
    """``dynamodb(partition = [...], sort_prefix = "...")``: the leading fields (their Python
    names, in order) that make the DynamoDB partition key, the rest the sort key, after
    ``sort_prefix`` if given. ``rowkey.DynamoKeys`` reads it.

    >>> class Order(rowkey.Key, delimited="#", dynamodb=rowkey.DynamoDB(partition=["number"])):
    ...     tenant: str
    ...     number: rowkey.u32
    Traceback (most recent call last):
        ...
    rowkey.BadSchemaError: key Order: the partition key is the key's leading fields, in order, and `number` is not ...
    >>> class Order(rowkey.Key, delimited="#", dynamodb=rowkey.DynamoDB(partition=["tenant"], sort_prefix="ORDER")):
    ...     tenant: str
    ...     number: rowkey.u32
    >>> rowkey.DynamoKeys(Order).item(Order("acme", 7).to_key())
    ('acme', 'ORDER#0000000007')
    """

    def __init__(self, partition: Sequence[str], sort_prefix: Optional[str] = None,
                 shards: Optional["Shards"] = None) -> None:
        if isinstance(partition, str):
            partition = [partition]
        if shards is not None and not isinstance(shards, Shards):
            raise TypeError("shards takes rowkey.Shards(N, random=True) or rowkey.Shards(N, from_=[...])")
        self.partition, self.sort_prefix, self.shards = list(partition), sort_prefix, shards

    def rust(self) -> str:
        prefix = "" if self.sort_prefix is None else f", sort_prefix = {_literal(self.sort_prefix)}"
        shards = "" if self.shards is None else f", {self.shards.rust()}"
        return f"dynamodb(partition = [{', '.join(_ident(p) for p in self.partition)}]{prefix}{shards})"

    def __repr__(self) -> str:
        prefix = "" if self.sort_prefix is None else f", sort_prefix={self.sort_prefix!r}"
        shards = "" if self.shards is None else f", shards={self.shards!r}"
        return f"rowkey.DynamoDB(partition={self.partition!r}{prefix}{shards})"


class Shards:
    """``shards(...)`` of ``rowkey.DynamoDB``: write sharding as the partition key's last part
    (``acme#3``), over ``buckets`` shards, each item's drawn at random (``random=True``: even
    writes, but every read queries all shards) or computed from the ``from_`` fields as a salt's
    bucket is (``hash`` ``"farmhash"``, ``"modulo"`` or ``"md5"``). A scan queries every shard
    and ``rowkey.DynamoTable.read`` merges them.

    >>> class Line(rowkey.Key, dynamodb=rowkey.DynamoDB(partition=["day"], shards=rowkey.Shards(8, from_=["day"]))):
    ...     day: rowkey.u32
    ...     order: rowkey.u64
    Traceback (most recent call last):
        ...
    rowkey.BadSchemaError: key Line: the shards come from partition fields only, so every item of a partition key ...
    >>> class Event(rowkey.Key, delimited="#",
    ...             dynamodb=rowkey.DynamoDB(partition=["sensor"], shards=rowkey.Shards(4, random=True))):
    ...     sensor: str
    ...     seq: rowkey.u32
    >>> rowkey.DynamoKeys(Event).item(Event("s-1", 7).to_key())[0] in ("s-1#0", "s-1#1", "s-1#2", "s-1#3")
    True
    """

    def __init__(self, buckets: int, *, from_: Optional[Sequence[str]] = None, hash: Optional[str] = None,  # noqa: A002
                 random: bool = False) -> None:
        if isinstance(from_, str):
            from_ = [from_]
        self.buckets, self.hash, self.random = int(buckets), hash, bool(random)
        self.from_ = None if from_ is None else list(from_)

    def _settings(self) -> List[Tuple[str, str]]:
        """Each setting given, as the derive writes it and as Python does."""
        settings = [(f"buckets = {self.buckets}", str(self.buckets))]
        if self.random:
            settings.append(("random", "random=True"))
        if self.from_ is not None:
            settings.append((f"from = [{', '.join(_ident(s) for s in self.from_)}]", f"from_={self.from_!r}"))
        if self.hash is not None:
            settings.append((f"hash = {_literal(self.hash)}", f"hash={self.hash!r}"))
        return settings

    def rust(self) -> str:
        return f"shards({', '.join(rust for rust, _ in self._settings())})"

    def __repr__(self) -> str:
        return f"rowkey.Shards({', '.join(python for _, python in self._settings())})"


# Rust's keywords, which a field named so is written `r#name` as (the schema's name is `name`).
_KEYWORDS = set("""as async await break const continue dyn else enum extern false fn for if impl in let loop
match mod move mut pub ref return static struct trait true type unsafe use where while abstract become box do
final macro override priv try typeof unsized virtual yield gen""".split())


def _ident(name: str) -> str:
    if name in ("self", "Self", "super", "crate", "_"):
        raise BadSchemaError(f"`{name}` cannot name a field of a key: Rust, whose rules the key follows, keeps it")
    return f"r#{name}" if name in _KEYWORDS else name


def _literal(value: Any) -> str:
    """``value`` as a Rust literal: a string, a byte string or an integer."""
    if isinstance(value, bool) or not isinstance(value, (str, bytes, int)):
        raise BadSchemaError(f"{value!r} is not a str, bytes or int")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, bytes):
        return 'b"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in b'"\\' else f"\\x{b:02x}" for b in value) + '"'
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{{{ord(c):x}}}" for c in value) + '"'
