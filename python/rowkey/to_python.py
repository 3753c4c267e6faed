"""A schema file printed as the Python declaration of its key (``Schema.to_python()``): the
way from a Rust type's export, or a Bigtable row key schema, to a ``rowkey.Key`` class."""

import json
import typing
import warnings
from typing import Any, Dict, Optional, Tuple

from . import markers
from ._rowkey import BadSchemaError
from .markers import KeyDesignWarning

__all__ = ["to_python"]


# The Python spelling of each Rust type a declaration takes, by the type's last path segment,
# and the Rust type that spelling declares (a schema's own text, if other, is kept by
# `rowkey.rust_type`).
_SPELLED = {
    "String": ("str", "String"), "char": ("rowkey.char", "char"), "bool": ("bool", "bool"),
    "f64": ("float", "f64"), "f32": ("rowkey.f32", "f32"), "Vec": ("bytes", "Vec<u8>"),
    "Uuid": ("uuid.UUID", "Uuid"), "Ulid": ("rowkey.Ulid", "Ulid"), "SystemTime": ("datetime.datetime", "SystemTime"),
    "Ipv4Addr": ("ipaddress.IPv4Address", "Ipv4Addr"), "Ipv6Addr": ("ipaddress.IPv6Address", "Ipv6Addr"),
    "IpAddr": ("rowkey.IpAddr", "IpAddr"),
    # Types whose bytes are their own (a `custom` encoding): values are those bytes.
    "Duration": ("bytes", "Vec<u8>"),
    **{f"NonZero{n.upper()[0]}{n[1:]}": ("bytes", "Vec<u8>") for n in ("i8", "i16", "i32", "i64", "i128", "isize",
                                                                      "u8", "u16", "u32", "u64", "u128", "usize")},
    "NonZero": ("bytes", "Vec<u8>"),
    **{n: (f"rowkey.{n}", n) for n in ("i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
                                       "u128", "usize")},
}
_DIGITS = {"i8": 3, "i16": 5, "i32": 10, "i64": 19, "isize": 19, "u8": 3, "u16": 5, "u32": 10, "u64": 20, "usize": 20}


def _spelling(field: str, inner: str) -> Tuple[str, str]:
    """The Python spelling of Rust type ``inner`` and the Rust type that spelling declares."""
    name = inner.split("<")[0].split("::")[-1].strip()
    jiff = "jiff" in inner or "civil" in inner
    alias = {
        "NaiveDateTime": "NaiveDateTime", "NaiveDate": "NaiveDate", "OffsetDateTime": "OffsetDateTime",
        "UtcDateTime": "UtcDateTime", "PrimitiveDateTime": "PrimitiveDateTime", "Timestamp": "Timestamp",
        "Date": "CivilDate" if jiff else "TimeDate",
        "DateTime": "CivilDateTime" if jiff else "DateTimeFixedOffset" if "FixedOffset" in inner
        else "DateTimeUtc" if "Utc" in inner else None,
    }.get(name)
    if alias is not None:
        return f"rowkey.{alias}", typing.get_args(getattr(markers, alias))[1].name
    if name not in _SPELLED:
        raise BadSchemaError(f"`{field}` is a `{inner}`, which a key declared in Python cannot be yet")
    return _SPELLED[name]


def _annotation(field: Dict[str, Any], flattened: Optional[str]) -> str:
    """A field's annotation, markers and all, from its schema-file description."""
    rust = field["type"]
    optional = rust.startswith("Option<") and rust.endswith(">")
    inner = rust[len("Option<"):-1].strip() if optional else rust
    markers = []
    hashed = inner.split("<")[0].split("::")[-1].strip() == "Hashed"
    if flattened is not None:
        spelled = flattened
    elif hashed:
        # `Hashed` has its alias; another width its marker; another spelling the type's text.
        spelled = "rowkey.Hashed" if inner == "Hashed" else "bytes"
        width = inner[len("Hashed<"):-1] if inner.startswith("Hashed<") and inner.endswith(">") else None
        if inner != "Hashed":
            markers.append(f"rowkey.hashed({width})" if width and width.isdigit() else f"rowkey.rust_type({inner!r})")
    elif inner.startswith("[") and inner.endswith("]"):
        spelled = "bytes"
        markers.append(f"rowkey.length({inner[1:-1].split(';')[1].strip()})")
    else:
        spelled, declares = _spelling(field["name"], inner)
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
    if encoding == "hex" and not hashed:  # a hash is hex in a delimited key of itself
        markers.append("rowkey.hex()")
    if encoding == "decimal" and field["width"] != _DIGITS.get(inner.split("::")[-1]):
        markers.append(f"rowkey.width({field['width']})")
    if encoding == "big_endian_int64":
        markers.append("rowkey.big_endian()")
    if encoding == "timestamp" and field.get("nanos"):
        markers.append("rowkey.nanos()")
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
    if "dynamodb" in schema:
        design = schema["dynamodb"]
        prefix = f", sort_prefix={design['sort_prefix']!r}" if "sort_prefix" in design else ""
        shards = ""
        if "shards" in design:
            sharding = design["shards"]
            if sharding.get("random"):
                shards = f", shards=rowkey.Shards({sharding['buckets']}, random=True)"
            else:
                hashed = "" if sharding["hash"] == "farmhash" else f", hash={sharding['hash']!r}"
                sources = [names.get(n, n) for n in sharding["from"]]
                shards = f", shards=rowkey.Shards({sharding['buckets']}, from_={sources!r}{hashed})"
        partition = [names.get(n, n) for n in design["partition"]]
        options.append(f"dynamodb=rowkey.DynamoDB(partition={partition!r}{prefix}{shards})")
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
