"""Running a move or its check: shards worked out on the machine that starts the job, the
pipeline run on the runner the options name, and its counters read back."""

import dataclasses
from typing import Dict, List, Optional, Sequence

import apache_beam as beam
from apache_beam.io import WriteToText
from apache_beam.metrics.metric import MetricsFilter
from apache_beam.options.pipeline_options import PipelineOptions

from . import table_io
from .copy import NAMESPACE, Migrate
from .mapping import Mapping, Tables
from .shards import Shard, at_buckets, cut, even
from .verify import KINDS, Verify


def shards_of(
    tables: Tables, table: str, schema, split_points: Optional[Sequence[bytes]] = None, shards: int = 0
) -> List[Shard]:
    """The shards of `table`: at `split_points` when given; else at its own sample of keys
    (SampleRowKeys: every key, about one a tablet, or every so many keys for `shards` of them),
    and at its design's salt buckets too when it is salted."""
    if split_points:
        return cut(split_points)
    client, t = table_io.open_table(tables, table)
    try:
        sample = table_io.sample_keys(t)
    finally:
        table_io.close(client)
    points = even(sample, shards) if shards else sample
    buckets = at_buckets(schema)
    if buckets is not None:
        points = [*points, *(shard.start for shard in buckets)]
    return cut(points)


class BadTables(ValueError):
    """The two tables cannot take the move (one is missing, the new one lacks a family of the
    old, or they are one table): found before any pipeline starts."""


def check_tables(tables: Tables) -> None:
    """Raises `BadTables` unless `tables.source` and `tables.target` are two tables of the
    instance and the target holds every column family of the source (a copy writes each cell
    into its own family, and a write to a family the table lacks fails only inside the run)."""
    if tables.source == tables.target:
        raise BadTables(
            f"--source and --target are both `{tables.source}`: a move reads one table and writes another "
            "(into its own source it would double every row); give the new table as --target"
        )
    where = f"instance {tables.instance} of project {tables.project}"
    old = table_io.families(tables, tables.source)
    if old is None:
        raise BadTables(f"the old table `{tables.source}` (--source) is not in {where}; check the name")
    new = table_io.families(tables, tables.target)
    if new is None:
        raise BadTables(
            f"the new table `{tables.target}` (--target) is not in {where}; create it, with the families of "
            f"`{tables.source}` ({', '.join(sorted(old)) or 'none'}) and the splits `rowkey migrate plan` prints"
        )
    lacking = sorted(old - new)
    if lacking:
        raise BadTables(
            f"the new table `{tables.target}` has no column {'family' if len(lacking) == 1 else 'families'} "
            f"{', '.join(lacking)}, which the old table `{tables.source}` holds and the copy writes; add each "
            f"(`cbt -project {tables.project} -instance {tables.instance} createfamily {tables.target} FAMILY`) "
            "and run again"
        )


def counters(result) -> Dict[str, int]:
    """The move's counters by name, summed over the steps that report them."""
    out: Dict[str, int] = {}
    for metric in result.metrics().query(MetricsFilter().with_namespace(NAMESPACE))["counters"]:
        value = metric.committed if metric.committed is not None else metric.attempted
        out[metric.key.metric.name] = out.get(metric.key.metric.name, 0) + (value or 0)
    return out


@dataclasses.dataclass
class Outcome:
    """What a run did: its counters (`rows read`, `shard 3: rows written`, `missing`, ...) and the
    file its lines (dead letters, or the check's report) went to."""

    counters: Dict[str, int]
    output: str

    def count(self, name: str) -> int:
        return self.counters.get(name, 0)


def _write(lines, path: str):
    return lines | "Write lines" >> WriteToText(path, shard_name_template="", num_shards=1)


def migrate(
    mapping: Mapping,
    tables: Tables,
    options: PipelineOptions,
    dead_letters: str,
    split_points: Optional[Sequence[bytes]] = None,
    shards: int = 0,
    batch_rows: int = 500,
    between: Optional[beam.PTransform] = None,
) -> Outcome:
    """Copies every row of `tables.source` into `tables.target` under its new key; the rows that
    cannot be re-keyed go, with their reasons, to the file `dead_letters`. Raises when the
    pipeline fails: run it again, it writes the same cells; raises `BadTables` before it starts
    when the tables cannot take the move."""
    check_tables(tables)
    cut_at = shards_of(tables, tables.source, mapping.old_schema(), split_points, shards)
    with beam.Pipeline(options=options) as pipeline:
        dead = pipeline | "Migrate" >> Migrate(mapping, tables, cut_at, batch_rows, between)
        _write(dead, dead_letters)
    return Outcome(counters(pipeline.result), dead_letters)


def verify(
    mapping: Mapping,
    tables: Tables,
    options: PipelineOptions,
    output: str,
    split_points: Optional[Sequence[bytes]] = None,
    shards: int = 0,
    batch_rows: int = 500,
) -> Outcome:
    """Compares the two tables; the missing, differing and extra rows are counted and listed, one
    a line, in the file `output`. Raises `BadTables` as `migrate` does."""
    check_tables(tables)
    old_shards = shards_of(tables, tables.source, mapping.old_schema(), split_points, shards)
    new_shards = shards_of(tables, tables.target, mapping.new_schema(), None, shards)
    with beam.Pipeline(options=options) as pipeline:
        report = pipeline | "Verify" >> Verify(mapping, tables, old_shards, new_shards, batch_rows)
        _write(report, output)
    outcome = Outcome(counters(pipeline.result), output)
    for kind in KINDS:
        outcome.counters.setdefault(kind, 0)
    return outcome
