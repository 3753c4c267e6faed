"""The copy: shards → a reshuffle (so that a runner spreads them over its workers) → each shard's
rows read in batches → re-keyed, a row that cannot be re-keyed sent to the dead-letter output →
every cell written under the new key, unchanged.

A bundle the runner retries (or a run started again after a failure) reads the same rows and
writes the same cells with the same timestamps: Bigtable keeps one value per column and
timestamp, so nothing is doubled and the target ends as one clean run leaves it."""

import json
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.pvalue import TaggedOutput

import rowkey

from . import table_io
from .mapping import Mapping, Tables, key_text
from .shards import Shard

NAMESPACE = "rowkey.beam"
DEAD = "dead_letters"

Batch = Tuple[int, List[table_io.Row]]
"""A shard's index and some of its rows."""


def counter(what: str, shard: Optional[int] = None):
    """A Beam counter of the move, for the whole move or for one shard (`shard 3: rows read`)."""
    return Metrics.counter(NAMESPACE, what if shard is None else f"shard {shard}: {what}")


class _ShardCounters:
    """Per-shard counters, made once per shard and worker (Beam looks counters up by name)."""

    def __init__(self, what: str):
        self.what = what
        self.total = counter(what)
        self.by_shard = {}

    def inc(self, shard: int, n: int) -> None:
        if n:
            self.total.inc(n)
            if shard not in self.by_shard:
                self.by_shard[shard] = counter(self.what, shard)
            self.by_shard[shard].inc(n)


class ReadShard(beam.DoFn):
    """A shard's rows, every cell of each, in batches of `batch_rows`."""

    def __init__(self, tables: Tables, table: str, batch_rows: int = 500, label: str = "rows read"):
        self.tables, self.table, self.batch_rows, self.label = tables, table, batch_rows, label

    def setup(self):
        self.client, self.source = table_io.open_table(self.tables, self.table)
        self.read = _ShardCounters(self.label)

    def process(self, shard: Shard) -> Iterator[Batch]:
        batch: List[table_io.Row] = []
        for row in table_io.read_rows(self.source, shard.start, shard.end):
            batch.append(row)
            if len(batch) == self.batch_rows:
                self.read.inc(shard.index, len(batch))
                yield shard.index, batch
                batch = []
        self.read.inc(shard.index, len(batch))
        if batch:
            yield shard.index, batch

    def teardown(self):
        table_io.close(self.client)


def dead_letter(shard: int, key: bytes, reason: str, old: rowkey.Schema) -> str:
    """A dead letter as a JSON line: the shard, the key as `inspect` shows it (a sensitive field
    redacted) with its bytes as hex only when the old design has no sensitive field, and the
    reason (the package's errors never hold a sensitive value)."""
    letter = {"shard": shard, "key": key_text(old, key), "reason": reason}
    if not any(f.sensitive for f in old.fields):
        letter["key_hex"] = key.hex()
    return json.dumps(letter, sort_keys=True)


class Rekey(beam.DoFn):
    """Each row under its new key; a row that cannot be re-keyed to the dead-letter output."""

    def __init__(self, mapping: Mapping):
        self.mapping = mapping

    def setup(self):
        self.rekey = self.mapping.rekey()
        self.old = self.mapping.old_schema()
        self.dead = _ShardCounters("rows dead-lettered")

    def process(self, batch: Batch) -> Iterator:
        shard, rows = batch
        keys = [key for key, _ in rows]
        try:
            # One crossing into Rust for the batch; the slow path finds the rows it refused.
            new_keys: List[Optional[bytes]] = list(self.rekey.rekey_many(keys))
            reasons: List[Optional[str]] = [None] * len(keys)
        except rowkey.RowKeyError:
            new_keys, reasons = [], []
            for key in keys:
                try:
                    new_keys.append(self.rekey.rekey(key))
                    reasons.append(None)
                except rowkey.RowKeyError as err:
                    new_keys.append(None)
                    reasons.append(str(err))
        out = []
        for (key, cells), new_key, reason in zip(rows, new_keys, reasons):
            if new_key is None:
                self.dead.inc(shard, 1)
                yield TaggedOutput(DEAD, dead_letter(shard, key, reason or "", self.old))
            else:
                out.append((new_key, cells))
        if out:
            yield shard, out


class WriteRows(beam.DoFn):
    """Writes each batch's rows, every cell as read; counts the rows once the write succeeds."""

    def __init__(self, tables: Tables, table: str):
        self.tables, self.table = tables, table

    def setup(self):
        self.client, self.target = table_io.open_table(self.tables, self.table)
        self.written = _ShardCounters("rows written")

    def process(self, batch: Batch) -> Iterable[None]:
        shard, rows = batch
        table_io.write_rows(self.target, rows)
        self.written.inc(shard, len(rows))
        return ()

    def teardown(self):
        table_io.close(self.client)


class Migrate(beam.PTransform):
    """The whole move, applied to a pipeline's root; its result is the dead letters (JSON lines).

    `between` is a transform applied to the re-keyed batches before they are written: a test's
    way in (a fault), nothing in a real move.
    """

    def __init__(
        self,
        mapping: Mapping,
        tables: Tables,
        shards: Sequence[Shard],
        batch_rows: int = 500,
        between: Optional[beam.PTransform] = None,
    ):
        super().__init__()
        self.mapping, self.tables, self.shards = mapping, tables, list(shards)
        self.batch_rows, self.between = batch_rows, between

    def expand(self, root):
        rekeyed = (
            root
            | "Shards" >> beam.Create(self.shards)
            # Without it a runner may fuse the shards' reads into the one bundle that made them.
            | "Spread" >> beam.Reshuffle()
            | "Read" >> beam.ParDo(ReadShard(self.tables, self.tables.source, self.batch_rows))
            | "Rekey" >> beam.ParDo(Rekey(self.mapping)).with_outputs(DEAD, main="rows")
        )
        rows = rekeyed.rows
        if self.between is not None:
            rows = rows | "Between" >> self.between
        _ = rows | "Write" >> beam.ParDo(WriteRows(self.tables, self.tables.target))
        return rekeyed[DEAD]
