"""Keys declared in Python: a class of ``rowkey.Key`` is a key design, held to the rules of
Rust's ``#[derive(RowKey)]`` (the derive's own code checks it), with the derive's keys, scans
and checks.

>>> from typing import Annotated
>>> import rowkey
>>> class Reading(rowkey.Key, delimited="#", salt=rowkey.Salt(16, from_=["device_id"])):
...     device_type: str
...     device_id: str
...     ts_millis: Annotated[rowkey.i64, rowkey.reverse()]
>>> reading = Reading("phone", "4c410523", 1_588_291_200_000)
>>> reading.to_key()
b'01#phone#4c410523#9223370448563575807'
>>> Reading.from_key(reading.to_key()) == reading
True
>>> len(Reading.scan().device_type("phone").ranges())  # the device is not fixed: all 16 buckets
16

The struct attributes are the class's keywords (``delimited="#"``, ``fdb_tuple=True``,
``prefix=b"\\x01"``, ``salt=rowkey.Salt(...)``, ``max_len=...``, ``allow_hotspot=True``); a
field's Rust type is its annotation (``str``, ``bytes``, ``bool``, ``float``, ``uuid.UUID``,
``datetime.datetime``, the ``ipaddress`` addresses, ``rowkey.i64`` and the other integer
widths, ``Optional[...]``, another ``rowkey.Key`` class to flatten), and its attributes are
``Annotated`` markers (``rowkey.reverse()``, ``rowkey.width(6)``, ``rowkey.sensitive()``, ...).
A mistake the derive refuses at compile time is a ``BadSchemaError`` when the class is made,
every one at once; what it warns about is a ``KeyDesignWarning``.
"""

from __future__ import annotations

import dataclasses
import datetime
import ipaddress
import json
import sys
import types
import typing
import uuid
import warnings
from typing import Annotated, Any, ClassVar, Dict, List, Optional, Sequence, Tuple, Type, TypeVar, Union

from ._rowkey import BadSchemaError, BadValueError, Inspection, KeyRanges, Schema, StartsWith, HostAndSubdomains
from ._rowkey import _declare

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # the decorator only speaks to type checkers, which read the stubs
    def dataclass_transform(**_: Any) -> Any:
        return lambda cls: cls

__all__ = [
    "Key", "Salt", "KeyDesignWarning", "PersonalDataWarning", "SensitiveSaltWarning",
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "char",
    "Ulid", "SystemTime", "Ipv4Addr", "Ipv6Addr", "IpAddr", "rust_type", "RustType", "Attr", "Scan",
    "desc", "reverse", "bit_reverse", "reverse_domain", "hex", "width", "big_endian", "rename", "skip",
    "monotonic", "nanos", "numeric", "sensitive", "allow_personal_data", "length", "to_python",
]


class KeyDesignWarning(UserWarning):
    """What ``#[derive(RowKey)]`` warns about a key design, raised when a ``Key`` class is made."""


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
    (the key's bytes do not depend on it)."""
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
    """Larger values first (ordered, memcomparable and HBase keys)."""
    return Attr("desc")


def reverse() -> Attr:
    """The key holds ``MAX - v``: newest first for a time in an integer."""
    return Attr("reverse")


def bit_reverse() -> Attr:
    """Spanner's bit-reversed sequence of an ``i64`` or ``u64``."""
    return Attr("bit_reverse")


def reverse_domain() -> Attr:
    """A host name held with its labels reversed (``com.example.www``)."""
    return Attr("reverse_domain")


def hex() -> Attr:  # noqa: A001 - the derive's name
    """Lowercase hex digits (delimited keys)."""
    return Attr("hex")


def width(digits: int) -> Attr:
    """Zero-padded decimal of ``digits`` digits (delimited keys)."""
    return Attr("width", int(digits))


def big_endian() -> Attr:
    """Eight big-endian bytes."""
    return Attr("big_endian")


def rename(name: str) -> Attr:
    """The field's name in the key, its schema and its errors."""
    return Attr("rename", str(name))


def skip() -> Attr:
    """Not part of the key; ``from_key`` gives it its default."""
    return Attr("skip")


def monotonic() -> Attr:
    """Its values grow with time (the hotspot check)."""
    return Attr("monotonic")


def nanos() -> Attr:
    """An instant kept to the nanosecond."""
    return Attr("nanos")


def numeric() -> Attr:
    """HBase's ``OrderedNumeric``."""
    return Attr("numeric")


def sensitive() -> Attr:
    """Personal data: never shown by ``inspect``, errors or the ``rowkey`` command."""
    return Attr("sensitive")


def allow_personal_data() -> Attr:
    """No personal-data warning for this field."""
    return Attr("allow_personal_data")


class length:  # noqa: N801 - reads as an attribute
    """``Annotated[bytes, rowkey.length(16)]``: a ``[u8; 16]``, bytes of that length."""

    def __init__(self, n: int) -> None:
        self.n = int(n)


class Salt:
    """``salt(buckets = N, from = [...], hash = "...")``: a bucket field after the prefix,
    computed from the ``from_`` fields (their Python names) by ``hash`` (``"farmhash"``,
    ``"modulo"`` or ``"md5"``)."""

    def __init__(self, buckets: int, *, from_: Sequence[str], hash: str = "farmhash") -> None:  # noqa: A002
        if isinstance(from_, str):
            from_ = [from_]
        self.buckets, self.from_, self.hash = int(buckets), list(from_), hash

    def rust(self) -> str:
        return (f"salt(buckets = {self.buckets}, from = [{', '.join(_ident(s) for s in self.from_)}], "
                f"hash = {_literal(self.hash)})")

    def __repr__(self) -> str:
        return f"rowkey.Salt({self.buckets}, from_={self.from_!r}, hash={self.hash!r})"


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


_PLAIN = {str: "String", bytes: "Vec<u8>", bool: "bool", float: "f64", uuid.UUID: "Uuid",
          datetime.datetime: "SystemTime", ipaddress.IPv4Address: "Ipv4Addr", ipaddress.IPv6Address: "Ipv6Addr"}


@dataclasses.dataclass
class _Field:
    attr: str
    rust_type: str
    attrs: List[Attr]
    flatten: Optional[Type["Key"]]

    @property
    def name(self) -> str:
        """The field's name in the key."""
        return next((a.value for a in self.attrs if a.keyword == "rename"), self.attr)

    @property
    def skipped(self) -> bool:
        return any(a.keyword == "skip" for a in self.attrs)


def _field(cls_name: str, attr: str, hint: Any) -> _Field:
    """A field's Rust type and attributes from its annotation."""
    attrs: List[Attr] = []
    rust: Optional[str] = None
    n: Optional[int] = None

    def unwrap(t: Any) -> Any:
        nonlocal rust, n
        while typing.get_origin(t) is Annotated:
            for meta in t.__metadata__:
                if isinstance(meta, RustType):
                    rust = meta.name
                elif isinstance(meta, length):
                    n = meta.n
                elif isinstance(meta, Attr):
                    attrs.append(meta)
                elif callable(meta) and getattr(meta, "__module__", None) == __name__:
                    raise BadSchemaError(f"`{cls_name}.{attr}`: write `rowkey.{meta.__name__}()`, with its parentheses")
            t = t.__origin__
        return t

    t = unwrap(hint)
    optional = False
    if typing.get_origin(t) in (Union, getattr(types, "UnionType", Union)):
        args = [a for a in typing.get_args(t) if a is not type(None)]
        optional = len(args) < len(typing.get_args(t))
        if len(args) == 1:
            t = unwrap(args[0])
        elif rust is None:
            raise BadSchemaError(f"`{cls_name}.{attr}`: a key field has one type, or `Optional` of one")
    flatten = t if isinstance(t, type) and issubclass(t, Key) and t is not Key else None
    if flatten is not None:
        rust = flatten.__name__
        attrs.insert(0, Attr("flatten"))
    elif rust is None:
        if t is bytes and n is not None:
            rust = f"[u8; {n}]"
        elif t is int:
            raise BadSchemaError(
                f"`{cls_name}.{attr}` is an int, and a key holds integers of a width: annotate it rowkey.i64 "
                "(or i8, i16, i32, u8, u16, u32, u64), as `{attr}: rowkey.i64`".replace("{attr}", attr))
        elif t in _PLAIN:
            rust = _PLAIN[t]
        else:
            raise BadSchemaError(
                f"`{cls_name}.{attr}` is a {getattr(t, '__name__', t)!s}, which a key field cannot be: use str, bytes, "
                "bool, float, uuid.UUID, datetime.datetime, an ipaddress address, a rowkey integer width "
                "(rowkey.i64, ...) or another rowkey.Key class")
    return _Field(attr, f"Option<{rust}>" if optional else rust, attrs, flatten)


def _source(cls_name: str, options: Dict[str, Any], fields: List[_Field]) -> str:
    """The Rust struct a class stands for, attributes and all."""
    container = []
    for keyword, value in options.items():
        if keyword in ("ordered", "fdb_tuple", "memcomparable", "hbase", "allow_hotspot"):
            if value:
                container.append(keyword)
        elif keyword == "salt":
            if not isinstance(value, Salt):
                raise BadSchemaError("salt takes rowkey.Salt(buckets, from_=[...], hash=...)")
            container.append(value.rust())
        else:
            container.append(f"{keyword} = {_literal(value)}")
    lines = [f"#[rowkey({', '.join(container)})]" if container else "", f"struct {_ident(cls_name)} {{"]
    for field in fields:
        attrs = f"#[rowkey({', '.join(a.rust() for a in field.attrs)})] " if field.attrs else ""
        lines.append(f"    {attrs}{_ident(field.attr)}: {field.rust_type},")
    lines.append("}")
    return "\n".join(lines)


_OPTIONS = ("ordered", "delimited", "fdb_tuple", "memcomparable", "hbase", "prefix", "salt", "max_len", "allow_hotspot")
K = TypeVar("K", bound="Key")


@dataclass_transform()
class Key:
    """The base of a key declared in Python; see the module's documentation."""

    SCHEMA: ClassVar[Schema]
    __rowkey_fields__: ClassVar[Tuple[_Field, ...]]
    __rowkey_source__: ClassVar[str]

    def __init_subclass__(cls, **options: Any) -> None:
        unknown = [k for k in options if k not in _OPTIONS]
        if unknown:
            raise TypeError(f"{cls.__name__}: unknown key option {unknown[0]!r}; the options are {', '.join(_OPTIONS)}")
        super().__init_subclass__()
        # String annotations (`from __future__ import annotations`) name what the class
        # statement's scope sees, which may be a function's locals: the frame that runs it
        # (`__init_subclass__` is called from `type.__new__`, which has none of its own).
        scope = sys._getframe(1)
        hints = typing.get_type_hints(cls, localns={**scope.f_globals, **scope.f_locals}, include_extras=True)
        own = [a for a in cls.__dict__.get("__annotations__", {}) if typing.get_origin(hints[a]) is not ClassVar]
        fields = [_field(cls.__name__, attr, hints[attr]) for attr in own]
        for field in fields:
            if field.skipped and not hasattr(cls, field.attr):
                raise BadSchemaError(f"`{cls.__name__}.{field.attr}` is marked skip: give it a default, which "
                                     "from_key gives it")
        flattened = {f.flatten.__name__: f.flatten.SCHEMA for f in fields if f.flatten is not None}
        source = _source(cls.__name__, options, fields)
        try:
            schema, found = _declare(source, flattened)
        except BadSchemaError as e:
            errors = str(e).split("\n")
            listed = errors[0] if len(errors) == 1 else f"{len(errors)} errors:" + "".join(f"\n- {m}" for m in errors)
            raise BadSchemaError(f"key {cls.__name__}: {listed}") from None
        for kind, _, message in found:
            # At the class statement: `__init_subclass__` is called from `type.__new__`.
            warnings.warn(message, _WARNINGS.get(kind, KeyDesignWarning), stacklevel=2)
        cls.SCHEMA = schema
        cls.__rowkey_fields__ = tuple(fields)
        cls.__rowkey_source__ = source
        dataclasses.dataclass(cls)
        _compile(cls)

    # `_key_values`, `_from_values`, `to_key` and `from_key` are written for each class when
    # it is made (`_compile`): straight-line code, as `dataclasses` writes `__init__`, since a
    # loop over the fields costs several times the key's own encoding.
    def _key_values(self) -> Dict[str, Any]:
        raise NotImplementedError  # replaced on each class

    @classmethod
    def _from_values(cls: Type[K], values: Dict[str, Any]) -> K:
        raise NotImplementedError  # replaced on each class

    def to_key(self) -> bytes:
        """The key of this value, as the derived type's ``to_key`` writes it."""
        raise NotImplementedError  # replaced on each class

    @classmethod
    def from_key(cls: Type[K], key: bytes) -> K:
        """The value of ``key``; a ``BadKeyError`` names where the bytes stop matching."""
        raise NotImplementedError  # replaced on each class

    @classmethod
    def to_rust(cls) -> str:
        """The Rust struct this class declares, as the derive checked it: paste it into a crate
        (with ``use rowkey::RowKey;`` and the field types' imports) for the same keys.

        >>> import rowkey
        >>> class Visit(rowkey.Key, delimited="#"):
        ...     host: str
        ...     at: rowkey.u32
        >>> print(Visit.to_rust())
        #[derive(RowKey)]
        #[rowkey(delimited = "#")]
        struct Visit {
            host: String,
            at: u32,
        }
        """
        return "#[derive(RowKey)]\n" + cls.__rowkey_source__.lstrip("\n")

    @classmethod
    def inspect(cls, key: bytes) -> Inspection:
        """The fields of ``key`` with their offsets, as ``Schema.inspect`` gives them."""
        return cls.SCHEMA.inspect(key)

    @classmethod
    def encode_many(cls, rows: Any) -> Any:
        """The keys of many values: a list of instances (or dicts of their key fields) gives a list
        of ``bytes``; a pyarrow ``RecordBatch`` or ``Table`` gives a ``BinaryArray``."""
        if isinstance(rows, (list, tuple)):
            rows = [r._key_values() if isinstance(r, Key) else r for r in rows]
        return cls.SCHEMA.encode_many(rows)

    @classmethod
    def decode_many(cls: Type[K], keys: Any, *, as_dicts: bool = False) -> Any:
        """The values of many keys: instances (``as_dicts=True``: dicts of the key fields), or from
        a pyarrow ``BinaryArray``, a ``RecordBatch``."""
        decoded = cls.SCHEMA.decode_many(keys)
        if as_dicts or not isinstance(decoded, list):
            return decoded
        return [cls._from_values(values) for values in decoded]

    @classmethod
    def scan(cls) -> "Scan":
        """A scan builder, a method a field as the derive's ``T::scan()``: fix the leading fields
        in order (``.device_type("phone")``), then optionally bound the next one
        (``.ts_millis_range(start, stop)``, ``.path_starts_with(text)``,
        ``.host_with_subdomains(host)``), then ``.ranges()``."""
        return Scan(cls, {}, None)


def _paths(cls: Type[Key], owner: str) -> List[Tuple[str, str]]:
    """Each key field's name, and the expression that reads it from ``owner``, flattened fields'
    fields included."""
    out = []
    for field in cls.__rowkey_fields__:
        if field.skipped:
            continue
        if field.flatten is not None:
            out += _paths(field.flatten, f"{owner}.{field.attr}")
        else:
            out.append((field.name, f"{owner}.{field.attr}"))
    return out


def _compile(cls: Type[Key]) -> None:
    """Writes the class's key methods as straight-line code."""
    paths = _paths(cls, "self")
    values = "{" + ", ".join(f"{name!r}: {read}" for name, read in paths) + "}"
    row = ", ".join(read for _, read in paths)
    args = []
    for field in cls.__rowkey_fields__:
        if field.flatten is not None:
            args.append(f"{field.attr}=_flat_{field.attr}._from_values(values)")
        elif not field.skipped:
            args.append(f"{field.attr}=values[{field.name!r}]")
    plain = not hasattr(cls, "__post_init__") and all(
        f.flatten is None and not f.skipped and f.name == f.attr for f in cls.__rowkey_fields__)
    # A class whose attributes are its key's fields, by the same names, and which does nothing
    # when made: the decoded dict is the instance's `__dict__`, as `__init__` would leave it.
    build = "obj = _new(_cls)\n    obj.__dict__ = values\n    return obj" if plain else f"return _cls({', '.join(args)})"
    # The class methods are closures over the class (static methods), which Python calls
    # faster than class methods it binds on every call.
    source = (
        f"def _key_values(self):\n    return {values}\n"
        f"def to_key(self):\n    return _encode(({row},))\n"
        f"def _from_values(values):\n    {build}\n"
        f"def from_key(key):\n    values = _decode(key)\n    {build}\n"
    )
    scope: Dict[str, Any] = {
        "_encode": cls.SCHEMA._encode_tuple, "_decode": cls.SCHEMA.decode, "_new": object.__new__, "_cls": cls,
    }
    scope.update({f"_flat_{f.attr}": f.flatten for f in cls.__rowkey_fields__ if f.flatten is not None})
    made: Dict[str, Any] = {}
    exec(source, scope, made)  # noqa: S102 - the code is written here, from identifiers and reprs
    for name in ("_key_values", "to_key"):
        made[name].__qualname__ = f"{cls.__qualname__}.{name}"
        made[name].__doc__ = getattr(Key, name).__doc__
        setattr(cls, name, made[name])
    for name in ("_from_values", "from_key"):
        made[name].__qualname__ = f"{cls.__qualname__}.{name}"
        made[name].__doc__ = getattr(Key, name).__doc__
        setattr(cls, name, staticmethod(made[name]))


class Scan:
    """A ``Key`` class's scan builder (``Reading.scan()``)."""

    def __init__(self, cls: Type[Key], fixed: Dict[str, Any], next_: Any) -> None:
        self._cls, self._fixed, self._next = cls, fixed, next_

    def _steps(self) -> List[_Field]:
        steps = []
        for field in self._cls.__rowkey_fields__:
            if field.skipped:
                continue
            if field.flatten is not None:
                break
            steps.append(field)
        return steps

    def __getattr__(self, method: str) -> Any:
        steps = self._steps()
        for suffix, kind in (("_range", "range"), ("_starts_with", "prefix"), ("_with_subdomains", "host"), ("", "fix")):
            attr = method[: len(method) - len(suffix)] if suffix and method.endswith(suffix) else method
            if (suffix and not method.endswith(suffix)) or not any(f.attr == attr for f in steps):
                continue
            index = next(i for i, f in enumerate(steps) if f.attr == attr)
            return self._step(steps, index, kind)
        names = ", ".join(f.attr for f in steps) or "none"
        raise AttributeError(f"{self._cls.__name__}.scan() has no `{method}`: its fields to scan by are {names}")

    def _step(self, steps: List[_Field], index: int, kind: str) -> Any:
        field = steps[index]
        if self._next is not None:
            raise BadValueError(f"the scan already bounds `{self._next[0]}`: call .ranges()")
        if index != len(self._fixed):
            expected = steps[len(self._fixed)].attr if len(self._fixed) < len(steps) else None
            raise BadValueError(f"a scan fixes the key's leading fields in order: `{expected}` comes before "
                                f"`{field.attr}`" if expected else f"every field is fixed: `{field.attr}` was already")
        if kind == "fix":
            return lambda value: Scan(self._cls, {**self._fixed, field.name: value}, None)
        if kind == "range":
            return lambda start=None, stop=None: Scan(self._cls, self._fixed, (field.name, slice(start, stop)))
        if kind == "prefix":
            return lambda text: Scan(self._cls, self._fixed, (field.name, StartsWith(text)))
        return lambda host: Scan(self._cls, self._fixed, (field.name, HostAndSubdomains(host)))

    def ranges(self) -> KeyRanges:
        """The key ranges of the scan, as ``Schema.scan`` gives them."""
        return self._cls.SCHEMA.scan(next=self._next, **self._fixed)


# The Python spelling of each Rust type a declaration takes, by the type's last path segment,
# and the Rust type that spelling declares (a schema's own text, if other, is kept by
# `rowkey.rust_type`).
_SPELLED = {
    "String": ("str", "String"), "char": ("rowkey.char", "char"), "bool": ("bool", "bool"),
    "f64": ("float", "f64"), "f32": ("rowkey.f32", "f32"), "Vec": ("bytes", "Vec<u8>"),
    "Uuid": ("uuid.UUID", "Uuid"), "Ulid": ("rowkey.Ulid", "Ulid"), "SystemTime": ("datetime.datetime", "SystemTime"),
    "Ipv4Addr": ("ipaddress.IPv4Address", "Ipv4Addr"), "Ipv6Addr": ("ipaddress.IPv6Address", "Ipv6Addr"),
    "IpAddr": ("rowkey.IpAddr", "IpAddr"),
    **{n: (f"rowkey.{n}", n) for n in ("i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
                                       "u128", "usize")},
}
_DIGITS = {"i8": 3, "i16": 5, "i32": 10, "i64": 19, "isize": 19, "u8": 3, "u16": 5, "u32": 10, "u64": 20, "usize": 20}


def _annotation(field: Dict[str, Any], flattened: Optional[str]) -> str:
    """A field's annotation, markers and all, from its schema-file description."""
    rust = field["type"]
    optional = rust.startswith("Option<") and rust.endswith(">")
    inner = rust[len("Option<"):-1].strip() if optional else rust
    markers = []
    if flattened is not None:
        spelled = flattened
    elif inner.startswith("[") and inner.endswith("]"):
        spelled = "bytes"
        markers.append(f"rowkey.length({inner[1:-1].split(';')[1].strip()})")
    else:
        name = inner.split("<")[0].split("::")[-1].strip()
        if name not in _SPELLED:
            raise BadSchemaError(f"`{field['name']}` is a `{inner}`, which a key declared in Python cannot be yet")
        spelled, declares = _SPELLED[name]
        if declares != inner:
            markers.append(f"rowkey.rust_type({inner!r})")
    encoding = field["encoding"]
    if field.get("desc"):
        markers.append("rowkey.desc()")
    if "reverse" in field:
        markers.append("rowkey.reverse()")
    if "bit_reverse" in field:
        markers.append("rowkey.bit_reverse()")
    if field.get("reverse_domain"):
        markers.append("rowkey.reverse_domain()")
    if encoding == "hex":
        markers.append("rowkey.hex()")
    if encoding == "decimal" and field["width"] != _DIGITS.get(inner.split("::")[-1]):
        markers.append(f"rowkey.width({field['width']})")
    if encoding == "big_endian_int64":
        markers.append("rowkey.big_endian()")
    if encoding == "numeric":
        markers.append("rowkey.numeric()")
    if field.get("rust_name", field["name"]) != field["name"]:
        markers.append(f"rowkey.rename({field['name']!r})")
    for flag in ("monotonic", "sensitive"):
        if field.get(flag):
            markers.append(f"rowkey.{flag}()")
    if optional:
        spelled = f"Optional[{spelled}]"
    return f"Annotated[{spelled}, {', '.join(markers)}]" if markers else spelled


def _class_source(schema: Dict[str, Any], classes: Dict[str, str], allow_hotspot: bool) -> str:
    """A class's source, the classes it flattens added to ``classes`` (by name) first."""
    names = {f["name"]: f.get("rust_name", f["name"]) for f in schema["fields"]}
    options = []
    if schema["format"] == "delimited":
        options.append(f"delimited={schema['delimiter']!r}")
    elif schema["format"] != "ordered":
        options.append(f"{schema['format']}=True")
    if "prefix" in schema:
        options.append(f"prefix={schema['prefix']!r}")
    if "prefix_hex" in schema:
        options.append(f"prefix={bytes.fromhex(schema['prefix_hex'])!r}")
    if "salt" in schema:
        salt = schema["salt"]
        sources = [names.get(n, n) for n in salt["from"]]
        hashed = "" if salt["hash"] == "farmhash" else f", hash={salt['hash']!r}"
        options.append(f"salt=rowkey.Salt({salt['buckets']}, from_={sources!r}{hashed})")
    if schema.get("max_len", 4096) != 4096:
        options.append(f"max_len={schema['max_len']}")
    if allow_hotspot:
        options.append("allow_hotspot=True")
    lines = [f"class {schema['type']}(rowkey.Key{''.join(', ' + o for o in options)}):"]
    for field in schema["fields"]:
        flattened = None
        if field["encoding"] == "flattened":
            flattened = field["schema"]["type"]
            if flattened not in classes:
                classes[flattened] = _class_source(field["schema"], classes, False)
        attr = field.get("rust_name", field["name"])
        lines.append(f"    {attr}: {_annotation(field, flattened)}")
    if not schema["fields"]:
        lines.append("    pass")
    return "\n".join(lines)


def to_python(schema_json: str) -> str:
    """A Python declaration of the key a schema file describes (``Schema.to_json()``, or what
    ``Schema.load`` reads): a module's text that declares a ``rowkey.Key`` class whose
    ``SCHEMA.to_json()`` is the file's. Also ``schema.to_python()``.

    >>> import rowkey
    >>> schema = rowkey.Schema.from_json('''{"rowkey_schema": 1, "type": "Visit", "format": "delimited",
    ...     "delimiter": "#", "fields": [{"name": "host", "type": "String", "encoding": "utf8",
    ...     "reverse_domain": true}, {"name": "at", "type": "u32", "encoding": "decimal", "width": 10,
    ...     "signed": false}]}''')
    >>> print(schema.to_python())
    import datetime
    import ipaddress
    import uuid
    from typing import Annotated, Optional
    <BLANKLINE>
    import rowkey
    <BLANKLINE>
    <BLANKLINE>
    class Visit(rowkey.Key, delimited='#'):
        host: Annotated[str, rowkey.reverse_domain()]
        at: rowkey.u32
    """
    schema = json.loads(schema_json)
    header = ("import datetime\nimport ipaddress\nimport uuid\nfrom typing import Annotated, Optional\n\n"
              "import rowkey\n")

    def render(allow_hotspot: bool) -> str:
        classes: Dict[str, str] = {}
        main = _class_source(schema, classes, allow_hotspot)
        bodies = [*classes.values(), main]
        return header + "".join(f"\n\n{body}\n" for body in bodies).rstrip("\n")

    source = render(False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", KeyDesignWarning)
            # Compiled on its own: this module's `from __future__ import annotations` would
            # make the text's annotations strings.
            code = compile(source, "<rowkey.to_python>", "exec", dont_inherit=True)
            exec(code, {"__name__": "rowkey._to_python"})  # noqa: S102 - checks the text just written
    except BadSchemaError as e:
        # The file's design was accepted where it was made, so a leading time was allowed there.
        if "leads the key" not in str(e):
            raise
        source = render(True)
    return source
