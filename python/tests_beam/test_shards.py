"""Shards: together they hold every row once, whatever the keys, for each way of cutting them."""

import rowkey
import support
from rowkey.beam import Mapping, run, shards, table_io


def test_cut_covers_the_key_space_once():
    got = shards.cut([b"m", b"c", b"", b"m"])
    assert [(s.index, s.start, s.end) for s in got] == [(0, b"", b"c"), (1, b"c", b"m"), (2, b"m", None)]
    assert [(s.start, s.end) for s in shards.cut([])] == [(b"", None)]


def test_a_salted_designs_shards_are_its_buckets():
    salted = rowkey.Schema.load(support.SCHEMAS / "reading.json")
    got = shards.at_buckets(salted)
    assert [s.start for s in got] == [b""] + [b"%02d#" % b for b in range(1, 16)]
    assert got[-1].end is None
    assert shards.at_buckets(rowkey.Schema.load(support.SCHEMAS / "by_time.json")) is None


def test_a_move_from_a_salted_design_reads_every_row_even_between_buckets(tmp_path):
    """The move back to time-first: shards at the old salt's buckets, and keys that are no bucket's
    (before the first, between two, after the last) read, and dead-lettered, not skipped."""
    n = 3_000
    salted = rowkey.Schema.load(support.SCHEMAS / "reading.json")
    support.create_table("salted_old")
    support.create_table("time_new")
    rows = {salted.encode(support.reading(i)): support.cells(i) for i in range(n)}
    stray = [b"!", b"05~", b"zz"]
    support.fill("salted_old", [*rows.items(), *((key, support.cells(1)) for key in stray)])
    mapping = Mapping.from_args(str(support.SCHEMAS / "reading.json"), str(support.SCHEMAS / "by_time.json"))
    outcome = run.migrate(
        mapping, support.tables("salted_old", "time_new"), support.direct_options(2), str(tmp_path / "dead.jsonl")
    )
    assert (outcome.count("rows read"), outcome.count("rows written"), outcome.count("rows dead-lettered")) == (
        n + 3,
        n,
        3,
    )
    # The buckets' edges and the sample's: at least a shard a bucket.
    assert len([k for k in outcome.counters if k.endswith(": rows read")]) >= 16
    expected = support.brute_force(rows, salted, mapping.new_schema(), dict)
    support.assert_same(support.read_all("time_new"), expected, "the move back from the salted design")


def test_a_shard_read_in_chunks_reads_each_row_once():
    support.create_table("chunks")
    rows = {b"k%03d" % i: ((support.FAMILY, b"q", 1_000, b"%d" % i),) for i in range(50)}
    support.fill("chunks", rows.items())
    client, table = table_io.open_table(support.tables("chunks", "chunks"), "chunks")
    try:
        for start, end in [(b"", None), (b"k007", b"k042"), (b"k010", b"k020")]:
            expected = [(k, c) for k, c in sorted(rows.items()) if k >= start and (end is None or k < end)]
            for chunk_rows in (1, 7, 10, 1_000):
                got = list(table_io.read_rows(table, start, end, chunk_rows))
                assert got == expected, (start, end, chunk_rows)
    finally:
        table_io.close(client)
