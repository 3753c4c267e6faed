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
import sys
import types
import typing
import uuid
import warnings
from typing import Annotated, Any, ClassVar, Dict, List, Optional, Tuple, Type, TypeVar, Union

from ._rowkey import BadSchemaError, BadValueError, Inspection, KeyRanges, Schema, StartsWith, HostAndSubdomains
from ._rowkey import _declare
from .markers import (
    _WARNINGS, Attr, DynamoDB, KeyDesignWarning, RustType, Salt, _ident, _literal, length,
)

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # the decorator only speaks to type checkers, which read the stubs
    def dataclass_transform(**_: Any) -> Any:
        return lambda cls: cls

__all__ = ["Key", "Scan"]


_PLAIN = {str: "String", bytes: "Vec<u8>", bool: "bool", float: "f64", uuid.UUID: "Uuid",
          datetime.datetime: "SystemTime", datetime.date: "chrono::NaiveDate", ipaddress.IPv4Address: "Ipv4Addr", ipaddress.IPv6Address: "Ipv6Addr"}


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
    def hashed(self) -> bool:
        """Whether the field is a keyed hash (``rowkey.Hashed``), known by its Rust type's name as
        the derive knows it."""
        inner = self.rust_type[len("Option<"):-1] if self.rust_type.startswith("Option<") else self.rust_type
        return inner.split("<")[0].split("::")[-1].strip() == "Hashed"

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
            # The last Rust type of the outermost `Annotated` that names one: what the user
            # wrote around an alias such as `rowkey.Ulid` overrides the alias's own.
            named = [meta.name for meta in t.__metadata__ if isinstance(meta, RustType)]
            if named and rust is None:
                rust = named[-1]
            for meta in t.__metadata__:
                if isinstance(meta, RustType):
                    continue
                elif isinstance(meta, length):
                    n = meta.n
                elif isinstance(meta, Attr):
                    attrs.append(meta)
                elif callable(meta) and getattr(meta, "__module__", None) == Attr.__module__:
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
                "bool, float, uuid.UUID, datetime.datetime or date, an ipaddress address, a rowkey integer width "
                "(rowkey.i64, ...), a rowkey time type (rowkey.DateTimeUtc, ...) or another rowkey.Key class")
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
        elif keyword == "dynamodb":
            if not isinstance(value, DynamoDB):
                raise BadSchemaError("dynamodb takes rowkey.DynamoDB(partition=[...], sort_prefix=...)")
            container.append(value.rust())
        else:
            container.append(f"{keyword} = {_literal(value)}")
    lines = [f"#[rowkey({', '.join(container)})]" if container else "", f"struct {_ident(cls_name)} {{"]
    for field in fields:
        attrs = f"#[rowkey({', '.join(a.rust() for a in field.attrs)})] " if field.attrs else ""
        lines.append(f"    {attrs}{_ident(field.attr)}: {field.rust_type},")
    lines.append("}")
    return "\n".join(lines)


# The derive's messages name a fix in Rust's attribute syntax; a class says it so.
_PYTHON_SPELLING = [
    ("`#[rowkey(allow_hotspot)]` to the struct", "`allow_hotspot=True` to the class"),
    ("`#[rowkey(allow_personal_data)]` to the field", "`rowkey.allow_personal_data()` to the field"),
    ('`#[rowkey(delimited = "#")]`', '`delimited="#"`'),
    ("`#[rowkey(hbase)]`", "`hbase=True`"),
    ('`#[rowkey(rename = "...")]`', '`rowkey.rename("...")`'),
    ("`#[rowkey(salt(buckets = 16, from = [...]))]`", "`salt=rowkey.Salt(16, from_=[...])`"),
    ("`#[rowkey(sensitive)]`", "`rowkey.sensitive()`"),
    ("use a chrono, time or jiff type (RFC 3339 text)", "annotate it rowkey.DateTimeUtc (RFC 3339 text)"),
]


def _in_python(message: str) -> str:
    for rust, python in _PYTHON_SPELLING:
        message = message.replace(rust, python)
    return message


_OPTIONS = ("ordered", "delimited", "fdb_tuple", "memcomparable", "hbase", "prefix", "salt", "max_len", "allow_hotspot",
            "dynamodb")
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
        parent = next((b for b in cls.__mro__[1:] if b is not Key and issubclass(b, Key)), None)
        if parent is not None:
            raise BadSchemaError(
                f"`{cls.__name__}` subclasses the key `{parent.__name__}`, whose fields a subclass would not "
                f"see: declare one class, or give it a field of type `{parent.__name__}`, which is flattened")
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
            errors = [_in_python(m) for m in str(e).split("\n")]
            listed = errors[0] if len(errors) == 1 else f"{len(errors)} errors:" + "".join(f"\n- {m}" for m in errors)
            raise BadSchemaError(f"key {cls.__name__}: {listed}") from None
        for kind, _, message in found:
            # At the class statement: `__init_subclass__` is called from `type.__new__`.
            warnings.warn(_in_python(message), _WARNINGS.get(kind, KeyDesignWarning), stacklevel=2)
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
        """The fields of ``key`` with their offsets, as ``Schema.inspect`` gives them.

        >>> class Visit(rowkey.Key, delimited="#"):
        ...     host: str
        ...     at: rowkey.u32
        >>> print(Visit.inspect(b"example.com#0000000007"))
        host=example.com at=7
        """
        return cls.SCHEMA.inspect(key)

    @classmethod
    def encode_many(cls, rows: Any) -> Any:
        """The keys of many values: a list of instances (or dicts of their key fields) gives a list
        of ``bytes``; a pyarrow ``RecordBatch`` or ``Table`` gives a ``BinaryArray``.

        >>> class Visit(rowkey.Key, delimited="#"):
        ...     host: str
        ...     at: rowkey.u32
        >>> Visit.encode_many([Visit("a.io", 1), {"host": "b.io", "at": 2}])
        [b'a.io#0000000001', b'b.io#0000000002']
        """
        if isinstance(rows, (list, tuple)):
            rows = [r._key_values() if isinstance(r, Key) else r for r in rows]
        return cls.SCHEMA.encode_many(rows)

    @classmethod
    def decode_many(cls: Type[K], keys: Any, *, as_dicts: bool = False) -> Any:
        """The values of many keys: instances (``as_dicts=True``: dicts of the key fields), or from
        a pyarrow ``BinaryArray``, a ``RecordBatch``.

        >>> class Visit(rowkey.Key, delimited="#"):
        ...     host: str
        ...     at: rowkey.u32
        >>> Visit.decode_many([b"a.io#0000000001"])
        [Visit(host='a.io', at=1)]
        >>> Visit.decode_many([b"a.io#0000000001"], as_dicts=True)
        [{'host': 'a.io', 'at': 1}]
        """
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
        f"def to_key(self):\n    return _encode(({row}{',' if row else ''}))\n"
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
    """A ``Key`` class's scan builder (``Reading.scan()``): a method a leading field, in order.

    >>> class Visit(rowkey.Key, delimited="#"):
    ...     host: str
    ...     at: rowkey.u32
    >>> Visit.scan().host("a.io").at_range(5, 7).ranges().to_list()
    [(b'a.io#0000000005', b'a.io#0000000007')]
    >>> Visit.scan().at(5)
    Traceback (most recent call last):
        ...
    rowkey.BadValueError: a scan fixes the key's leading fields in order: `host` comes before `at`
    """

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
        if method.startswith("_"):  # `copy`, `pickle` and the like probing, or a slot not yet set
            raise AttributeError(method)
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
        if field.hashed:
            # As the derive's `_range` and `_starts_with` of a `Hashed` field refuse to compile.
            raise BadValueError(f"`{field.name}` is a keyed hash, so its values do not order its keys: fix it "
                                f"instead, as `.{field.attr}(key.hash(value))`")
        if kind == "range":
            return lambda start=None, stop=None: Scan(self._cls, self._fixed, (field.name, slice(start, stop)))
        if kind == "prefix":
            return lambda text: Scan(self._cls, self._fixed, (field.name, StartsWith(text)))
        return lambda host: Scan(self._cls, self._fixed, (field.name, HostAndSubdomains(host)))

    def ranges(self) -> KeyRanges:
        """The key ranges of the scan, as ``Schema.scan`` gives them."""
        return self._cls.SCHEMA.scan(next=self._next, **self._fixed)
