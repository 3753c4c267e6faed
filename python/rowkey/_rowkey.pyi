"""Type stubs of the compiled module `rowkey._rowkey` (re-exported by `rowkey`)."""

import datetime
import decimal
import ipaddress
import os
import uuid
# Arrow is optional and untyped: its names read as `Any` to a checker, whether or not it is
# installed, so each Arrow overload comes after the one of Python objects, which it would shadow.
import pyarrow  # type: ignore[import-untyped, import-not-found, unused-ignore]
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union, overload

Value = Union[
    None, bool, int, float, str, bytes, bytearray, datetime.datetime, datetime.date, uuid.UUID,
    ipaddress.IPv4Address, ipaddress.IPv6Address, decimal.Decimal,
]
"""What `encode` takes for a field: a native value, or its text form as `rowkey encode` takes it."""

Decoded = Union[
    None, bool, int, float, str, bytes, datetime.datetime, datetime.date, uuid.UUID,
    ipaddress.IPv4Address, ipaddress.IPv6Address,
]
"""What `decode` gives for a field (a ULID as its Crockford text)."""

class RowKeyError(ValueError): ...
class BadKeyError(RowKeyError): ...
class BadValueError(RowKeyError): ...
class BadSchemaError(RowKeyError): ...

class Field:
    name: str
    type: str
    encoding: str
    direction: str
    sensitive: bool
    optional: bool
    transform: Optional[str]
    kind: str

class InspectedField:
    name: str
    offset: int
    sensitive: bool
    value: Decoded
    value_text: str
    computed: bool

class Inspection:
    fields: List[InspectedField]
    type_name: str
    def __getitem__(self, name: str) -> Decoded: ...
    def __len__(self) -> int: ...
    def to_dict(self) -> Dict[str, Decoded]: ...
    def revealed(self) -> str: ...

class KeyRanges(Sequence[Tuple[bytes, Optional[bytes]]]):
    """Half-open `(start, end)` pairs; `end` None for no end."""
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Tuple[bytes, Optional[bytes]]: ...  # type: ignore[override]
    def __iter__(self) -> Iterator[Tuple[bytes, Optional[bytes]]]: ...
    def is_empty(self) -> bool: ...
    def contains(self, key: bytes) -> bool: ...
    def to_list(self) -> List[Tuple[bytes, Optional[bytes]]]: ...
    def to_row_set(self) -> "google.cloud.bigtable.row_set.RowSet": ...  # type: ignore[name-defined]

class StartsWith:
    """`scan(next=(field, StartsWith(text)))`: the text values that start with `text`."""
    def __init__(self, text: str) -> None: ...

class HostAndSubdomains:
    """`scan(next=(field, HostAndSubdomains(host)))`: a `reverse_domain` host and its sub-domains."""
    def __init__(self, host: str) -> None: ...

class Schema:
    type_name: str
    format: str
    fields: List[Field]
    @staticmethod
    def from_json(text: str) -> Schema: ...
    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> Schema: ...
    def encode(self, values: Optional[Mapping[str, Value]] = None, /, **kwargs: Value) -> bytes: ...
    def decode(self, key: bytes) -> Dict[str, Decoded]: ...
    def _encode_tuple(self, row: Tuple[Value, ...]) -> bytes: ...
    @overload
    def encode_many(
        self, rows: Union[Iterable[Mapping[str, Value]], Mapping[str, Sequence[Value]]]
    ) -> List[bytes]: ...
    @overload
    def encode_many(self, rows: "Union[pyarrow.RecordBatch, pyarrow.Table]") -> "pyarrow.BinaryArray": ...
    @overload
    def decode_many(self, keys: Iterable[bytes]) -> List[Dict[str, Decoded]]: ...
    @overload
    def decode_many(self, keys: "Union[pyarrow.BinaryArray, pyarrow.ChunkedArray]") -> "pyarrow.RecordBatch": ...
    def scan(
        self, *, next: Optional[Tuple[str, Union[slice, range, StartsWith, HostAndSubdomains]]] = None,
        **fixed: Value
    ) -> KeyRanges: ...
    def inspect(self, key: bytes) -> Inspection: ...
    def to_json(self) -> str: ...
    def to_python(self) -> str: ...

class Rekey:
    merges_rows: bool
    dropped: List[str]
    def __init__(
        self,
        old: Schema,
        new: Schema,
        *,
        rename: Optional[Mapping[str, str]] = None,
        default: Optional[Mapping[str, Value]] = None,
        drop_derived: Optional[Sequence[str]] = None,
        merge_rows: bool = False,
    ) -> None: ...
    def rekey(self, old_key: bytes) -> bytes: ...
    @overload
    def rekey_many(self, old_keys: Iterable[bytes]) -> List[bytes]: ...
    @overload
    def rekey_many(self, old_keys: "Union[pyarrow.BinaryArray, pyarrow.ChunkedArray]") -> "pyarrow.BinaryArray": ...
    def inverse(self) -> Optional[Rekey]: ...

class HashKey:
    def __init__(self, secret: bytes) -> None: ...
    def hash(self, value: Union[str, bytes], width: int = 16) -> bytes: ...

def _declare(
    source: str, flattened: Mapping[str, Schema]
) -> Tuple[Schema, List[Tuple[str, str, str]]]: ...
