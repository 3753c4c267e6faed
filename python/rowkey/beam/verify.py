"""The check of a move, as a pipeline: every old row under its new key and every new row, grouped
by new key. A new key no new row has is *missing*, one whose cells differ is *differing*, a new
row no old row gives is *extra*; each is counted and listed with both its keys, as the Rust
command's `verify` writes them (`missing: old [..] new [..]`), a sensitive field redacted."""

import hashlib
from typing import Iterator, Optional, Sequence

import apache_beam as beam

import rowkey

from . import table_io
from .copy import NAMESPACE, ReadShard, counter
from .mapping import Mapping, Tables, key_text
from .shards import Shard

KINDS = ("missing", "differing", "extra")


def digest(cells: Sequence[table_io.Cell]) -> bytes:
    """A row's cells as one hash, so that the shuffle carries 16 bytes a row, not its values."""
    h = hashlib.blake2b(digest_size=16)
    for family, qualifier, ts, value in sorted(cells):
        for part in (family.encode(), qualifier, str(ts).encode(), value):
            h.update(len(part).to_bytes(8, "big"))
            h.update(part)
    return h.digest()


class OldSide(beam.DoFn):
    """Each old row as `(new key, ("old", old key, its cells))`; a row that cannot be re-keyed
    has no new row to compare with: it is listed as missing at once."""

    def __init__(self, mapping: Mapping):
        self.mapping = mapping

    def setup(self):
        self.rekey = self.mapping.rekey()
        self.old, self.new = self.mapping.old_schema(), self.mapping.new_schema()
        self.missing = counter("missing")
        # Rows may merge: their cells are compared as one set, so they travel whole.
        self.whole = self.rekey.merges_rows

    def process(self, batch) -> Iterator:
        _shard, rows = batch
        for key, cells in rows:
            try:
                new_key = self.rekey.rekey(key)
            except rowkey.RowKeyError:
                self.missing.inc()
                yield beam.pvalue.TaggedOutput("report", f"missing: old {key_text(self.old, key)} new -")
                continue
            yield new_key, ("old", key, cells if self.whole else digest(cells))


class NewSide(beam.DoFn):
    """Each new row as `(its key, ("new", None, its cells' digest))`."""

    def process(self, batch) -> Iterator:
        _shard, rows = batch
        for key, cells in rows:
            yield key, ("new", None, digest(cells))


class Compare(beam.DoFn):
    """One new key's old rows and new row: a report line unless they agree."""

    def __init__(self, mapping: Mapping):
        self.mapping = mapping

    def setup(self):
        rekey = self.mapping.rekey()
        self.back: Optional[rowkey.Rekey] = rekey.inverse()
        self.old, self.new = self.mapping.old_schema(), self.mapping.new_schema()
        self.counters = {kind: counter(kind) for kind in KINDS}
        self.compared = counter("compared")

    def _old_of(self, new_key: bytes) -> Optional[bytes]:
        if self.back is None:
            return None
        try:
            return self.back.rekey(new_key)
        except rowkey.RowKeyError:
            return None

    def process(self, element):
        new_key, sides = element
        olds = [(key, cells) for side, key, cells in sides if side == "old"]
        news = [cells for side, _key, cells in sides if side == "new"]
        if not olds:
            yield self._line("extra", self._old_of(new_key), new_key)
        elif not news:
            for old_key, _cells in olds:
                yield self._line("missing", old_key, new_key)
        elif isinstance(olds[0][1], bytes):
            # Rows do not merge, so each old row must be the new row exactly: two old rows that
            # met at one new key (a dropped field that did not decide as promised) are each
            # compared, and reported, as the Rust command's verify does.
            for old_key, expected in olds:
                self.compared.inc()
                if expected != news[0]:
                    yield self._line("differing", old_key, new_key)
        else:
            self.compared.inc()
            if digest(sorted({cell for _key, cells in olds for cell in cells})) != news[0]:
                yield self._line("differing", olds[0][0], new_key)

    def _line(self, kind: str, old_key: Optional[bytes], new_key: bytes) -> str:
        self.counters[kind].inc()
        return f"{kind}: old {key_text(self.old, old_key)} new {key_text(self.new, new_key)}"


class Verify(beam.PTransform):
    """The comparison, applied to a pipeline's root; its result is the report lines."""

    def __init__(
        self,
        mapping: Mapping,
        tables: Tables,
        old_shards: Sequence[Shard],
        new_shards: Sequence[Shard],
        batch_rows: int = 500,
    ):
        super().__init__()
        self.mapping, self.tables = mapping, tables
        self.old_shards, self.new_shards = list(old_shards), list(new_shards)
        self.batch_rows = batch_rows

    def expand(self, root):
        old = (
            root
            | "Old shards" >> beam.Create(self.old_shards)
            | "Spread old" >> beam.Reshuffle()
            | "Read old" >> beam.ParDo(ReadShard(self.tables, self.tables.source, self.batch_rows, "old rows"))
            | "Re-key old" >> beam.ParDo(OldSide(self.mapping)).with_outputs("report", main="rows")
        )
        new = (
            root
            | "New shards" >> beam.Create(self.new_shards)
            | "Spread new" >> beam.Reshuffle()
            | "Read new" >> beam.ParDo(ReadShard(self.tables, self.tables.target, self.batch_rows, "new rows"))
            | "Key new" >> beam.ParDo(NewSide())
        )
        compared = (
            (old.rows, new)
            | "Both" >> beam.Flatten()
            | "By new key" >> beam.GroupByKey()
            | "Compare" >> beam.ParDo(Compare(self.mapping))
        )
        return (old.report, compared) | "Report" >> beam.Flatten()


__all__ = ["Verify", "KINDS", "NAMESPACE", "digest"]
