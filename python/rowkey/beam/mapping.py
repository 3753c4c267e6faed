"""The move a pipeline makes: two key designs, how the old fields become the new ones, and where
the tables are. Plain data, so that a runner can pickle it to every worker; each worker builds
its own `Rekey` from it (the compiled objects do not pickle)."""

import dataclasses
import pathlib
from typing import Dict, Optional, Sequence, Tuple

import rowkey


def _pairs(values: Sequence[str], flag: str, shape: str) -> Dict[str, str]:
    out = {}
    for pair in values:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise rowkey.RowKeyError(f"{flag} {pair}: write it as {shape}")
        out[name] = value
    return out


@dataclasses.dataclass(frozen=True)
class Mapping:
    """Two key designs (their schema files' text) and the re-keying between them.

    `rename` maps an old field to the new field of another name; `default` gives a value, as
    `rowkey encode` takes it, for a new field the old design lacks.

    >>> import json
    >>> old = json.dumps({"rowkey_schema": 1, "type": "Old", "format": "delimited", "delimiter": "#",
    ...                   "fields": [{"name": "user", "type": "String", "encoding": "utf8"}]})
    >>> new = json.dumps({"rowkey_schema": 1, "type": "New", "format": "ordered",
    ...                   "fields": [{"name": "region", "type": "String", "encoding": "utf8"},
    ...                              {"name": "account", "type": "String", "encoding": "utf8"}]})
    >>> mapping = Mapping(old, new, rename=(("user", "account"),), default=(("region", "eu"),))
    >>> mapping.rekey().rekey(b"ann") == mapping.new_schema().encode(region="eu", account="ann")
    True
    """

    old_json: str
    new_json: str
    rename: Tuple[Tuple[str, str], ...] = ()
    default: Tuple[Tuple[str, str], ...] = ()
    drop_derived: Tuple[str, ...] = ()
    merge_rows: bool = False

    @staticmethod
    def from_args(
        old_path: str,
        new_path: str,
        rename: Sequence[str] = (),
        default: Sequence[str] = (),
        drop_derived: Sequence[str] = (),
        merge_rows: bool = False,
    ) -> "Mapping":
        """The mapping the command's arguments describe (`--rename OLD=NEW`, `--default FIELD=VALUE`),
        checked: a mapping that cannot work raises here, before any pipeline starts."""
        mapping = Mapping(
            pathlib.Path(old_path).read_text(),
            pathlib.Path(new_path).read_text(),
            tuple(_pairs(rename, "--rename", "OLD=NEW").items()),
            tuple(_pairs(default, "--default", "FIELD=VALUE").items()),
            tuple(drop_derived),
            merge_rows,
        )
        mapping.rekey()
        return mapping

    def old_schema(self) -> rowkey.Schema:
        """The old design (built anew: the compiled objects do not pickle)."""
        return rowkey.Schema.from_json(self.old_json)

    def new_schema(self) -> rowkey.Schema:
        """The new design (built anew)."""
        return rowkey.Schema.from_json(self.new_json)

    def rekey(self) -> rowkey.Rekey:
        """The `Rekey` of this mapping (built anew: call once per worker)."""
        return rowkey.Rekey(
            self.old_schema(),
            self.new_schema(),
            rename=dict(self.rename),
            default=dict(self.default),
            drop_derived=list(self.drop_derived),
            merge_rows=self.merge_rows,
        )


@dataclasses.dataclass(frozen=True)
class Tables:
    """Where the two tables are. With `BIGTABLE_EMULATOR_HOST` set, the client talks to the
    emulator it names."""

    project: str
    instance: str
    source: str
    target: str
    app_profile: Optional[str] = None


def key_text(schema: rowkey.Schema, key: Optional[bytes]) -> str:
    """A key for a report or a log: its fields as `inspect` prints them (a sensitive field's value
    redacted); a key the design refuses is shown as bytes only when the design has no sensitive
    field, else by its length alone, as the Rust command's verify report does.

    >>> import json
    >>> s = rowkey.Schema.from_json(json.dumps({"rowkey_schema": 1, "type": "T", "format": "delimited",
    ...     "delimiter": "#", "fields": [{"name": "id", "type": "String", "encoding": "utf8", "sensitive": True}]}))
    >>> key_text(s, b"secret")
    '[id=<redacted, 6 bytes>]'
    >>> key_text(s, None)
    '-'
    """
    if key is None:
        return "-"
    try:
        return f"[{schema.inspect(key)}]"
    except rowkey.RowKeyError:
        if any(field.sensitive for field in schema.fields):
            return f"<key of {len(key)} bytes>"
        return repr(key)[2:-1]
