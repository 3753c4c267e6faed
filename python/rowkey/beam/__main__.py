"""`python -m rowkey.beam migrate|verify --from OLD.json --to NEW.json --source T --target T2
--project P --instance I [--rename a=b] [--default f=v] [Beam pipeline options...]`

Exit status: 0 when every row was copied (migrate) or the tables agree (verify); 1 when rows
were dead-lettered, when any row is missing, differs or is extra, or when the pipeline failed
(run the same command again: it writes the same cells); 2 for bad input (a mapping that cannot
work, a missing table, a target without a column family of the source, one table as both),
before any pipeline starts."""

import argparse
import logging
import sys
from typing import List, Optional

from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

import rowkey

from . import run
from .mapping import Mapping, Tables

EPILOG = """Arguments this command does not know are Beam pipeline options, e.g.
  --runner DataflowRunner --region us-central1 --temp_location gs://B/tmp --max_num_workers 50
  --runner DirectRunner --direct_num_workers 2 --direct_running_mode multi_processing
With DataflowRunner, --dead-letters and --output must be paths the workers can write (gs://...)."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rowkey.beam",
        description=__doc__.split("\n\n")[0],
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("step", choices=["migrate", "verify"], help="copy the rows, or compare the two tables")
    p.add_argument("--from", dest="old", required=True, help="the old design's schema file")
    p.add_argument("--to", dest="new", required=True, help="the new design's schema file")
    p.add_argument(
        "--rename",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="an old field that is a new field of another name (repeatable)",
    )
    p.add_argument(
        "--default",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a value, as `rowkey encode` takes it, for a new field the old design lacks (repeatable)",
    )
    p.add_argument(
        "--drop-derived",
        action="append",
        default=[],
        metavar="FIELD",
        help="an old field the new key drops because the kept fields decide it (repeatable)",
    )
    p.add_argument(
        "--merge-rows",
        action="store_true",
        help="let old fields no new field takes go: rows that differ only there merge",
    )
    p.add_argument("--project", required=True)
    p.add_argument("--instance", required=True)
    p.add_argument("--app-profile", help="the Bigtable app profile (e.g. one routed to a batch cluster)")
    p.add_argument("--source", required=True, help="the old table")
    p.add_argument("--target", required=True, help="the new table (it must exist, with every column family of the old)")
    p.add_argument(
        "--split",
        action="append",
        default=[],
        metavar="HEX",
        help="a split point of the old table, as hex (repeatable); by default the table's own sample "
        "of keys, and the old salt's buckets",
    )
    p.add_argument(
        "--shards",
        type=int,
        default=0,
        help="shards cut from the table's sample of keys (default: one a sampled key, about one a tablet)",
    )
    p.add_argument("--batch-rows", type=int, default=500, help="rows read and written at a time (default 500)")
    p.add_argument(
        "--dead-letters", help="migrate: the file of rows that cannot be re-keyed (default: TARGET.dead-letters.jsonl)"
    )
    p.add_argument("--output", help="verify: the file of differences (default: TARGET.verify.txt)")
    return p


def _hex(text: str) -> bytes:
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"--split {text}: write a split point as hex, two digits a byte (3031 for `01`)") from None


def main(argv: Optional[List[str]] = None) -> int:
    logging.basicConfig(level=logging.WARNING)
    args, beam_args = parser().parse_known_args(argv)
    try:
        mapping = Mapping.from_args(args.old, args.new, args.rename, args.default, args.drop_derived, args.merge_rows)
        splits = [_hex(h) for h in args.split]
    except (OSError, ValueError) as err:  # rowkey's errors are ValueErrors; none holds a sensitive value
        print(f"error: {err}", file=sys.stderr)
        return 2
    tables = Tables(args.project, args.instance, args.source, args.target, args.app_profile)
    options = PipelineOptions(beam_args)
    path = (args.dead_letters or f"{args.target}.dead-letters.jsonl") if args.step == "migrate" else None
    path = path or args.output or f"{args.target}.verify.txt"
    runner = options.view_as(StandardOptions).runner or "DirectRunner"
    if "Dataflow" in runner and "://" not in path:
        # A worker's local disk is gone with the worker: dead letters written there are lost.
        flag = "--dead-letters" if args.step == "migrate" else "--output"
        print(f"error: {flag} {path}: on {runner} it must be a path every worker can write (gs://...)", file=sys.stderr)
        return 2
    try:
        if args.step == "migrate":
            outcome = run.migrate(mapping, tables, options, path, splits, args.shards, args.batch_rows)
            read, written, dead = (outcome.count(f"rows {w}") for w in ("read", "written", "dead-lettered"))
            print(f"rows read: {read}, written: {written}, dead-lettered: {dead}")
            if dead:
                print(f"{dead} rows could not be re-keyed and were not copied: their keys and reasons are in {path}")
            return 1 if dead else 0
        outcome = run.verify(mapping, tables, options, path, splits, args.shards, args.batch_rows)
        c = outcome.count
        print(
            f"old rows: {c('old rows')}, new rows: {c('new rows')}, compared: {c('compared')}, "
            f"missing: {c('missing')}, differing: {c('differing')}, extra: {c('extra')}"
        )
        bad = c("missing") + c("differing") + c("extra")
        if bad:
            print(f"the tables differ: each row is listed, with both its keys, in {path}")
        # Two old rows with the same cells under one new key compare equal one by one: only the
        # counts show that they met, as in the Rust command's report.
        merges = mapping.rekey().merges_rows
        old_rows, new_rows = c("old rows"), c("new rows")
        if not (new_rows == old_rows or (merges and new_rows < old_rows)):
            why = "merged rows cannot outnumber the old ones" if merges else "no rows merge"
            print(f"the row counts differ ({old_rows} old, {new_rows} new) and {why}")
            bad += 1
        return 1 if bad else 0
    except (rowkey.RowKeyError, run.BadTables) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # the pipeline failed: the cells written so far are the ones a rerun writes
        print(f"error: the pipeline failed ({type(err).__name__}: {err}); run the same command again", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
