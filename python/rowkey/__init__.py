"""Row keys from a rowkey schema file, byte for byte as the Rust crate writes them.

A schema file is what ``T::SCHEMA.to_json()`` of a ``#[derive(RowKey)]`` type writes (or a
Bigtable table's row key schema). Load it, then encode and decode keys with native values:

>>> import rowkey
>>> schema = rowkey.Schema.from_json('''{
...     "rowkey_schema": 1, "type": "Reading", "format": "delimited", "delimiter": "#",
...     "fields": [{"name": "device", "type": "String", "encoding": "utf8"},
...                {"name": "ts", "type": "u32", "encoding": "decimal", "width": 10, "signed": false}]}''')
>>> schema.encode(device="phone", ts=7)
b'phone#0000000007'
>>> schema.decode(b'phone#0000000007')
{'device': 'phone', 'ts': 7}
>>> schema.encode(device="phone", ts=-1)
Traceback (most recent call last):
    ...
rowkey.BadValueError: ...

A key can also be declared in Python, with the derive's attributes and rules: see
``rowkey.Key``.

Errors are ``RowKeyError`` (a ``ValueError``): ``BadKeyError`` for bytes that are no key of the
schema, ``BadValueError`` for a value a key cannot hold, ``BadSchemaError`` for a file that is
no schema. Their messages name the field and never hold the value of a field marked sensitive.
"""

from ._rowkey import (
    BadKeyError,
    BadSchemaError,
    BadValueError,
    DynamoKeys,
    Field,
    HashKey,
    HostAndSubdomains,
    InspectedField,
    Inspection,
    KeyQuery,
    KeyRanges,
    Rekey,
    RowKeyError,
    Schema,
    StartsWith,
)

__all__ = [
    "BadKeyError",
    "BadSchemaError",
    "BadValueError",
    "DynamoKeys",
    "Field",
    "HashKey",
    "HostAndSubdomains",
    "InspectedField",
    "Inspection",
    "KeyQuery",
    "KeyRanges",
    "Rekey",
    "RowKeyError",
    "Schema",
    "StartsWith",
]

# The classes and exceptions live in the compiled module; they read as this package's.
for _name in __all__:
    globals()[_name].__module__ = "rowkey"
del _name

from . import declared as _declared, dynamodb as _dynamodb, markers as _markers, to_python as _to_python  # noqa: E402
from .declared import *  # noqa: E402,F401,F403
from .dynamodb import *  # noqa: E402,F401,F403
from .markers import *  # noqa: E402,F401,F403
from .to_python import *  # noqa: E402,F401,F403

__all__ += _declared.__all__ + _dynamodb.__all__ + _markers.__all__ + _to_python.__all__
