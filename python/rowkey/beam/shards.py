"""The old table cut into shards, key ranges that together hold every row once: at split points
given, else at the table's own sample of keys (SampleRowKeys, which Bigtable keeps at about its
tablets' edges, so that a shard is about a tablet's worth of rows) and at a salted design's
buckets. A runner spreads the shards over its workers and retries one as a unit: many small
shards let it use many workers and make a retry cheap."""

import dataclasses
from typing import Iterable, List, Optional

import rowkey


@dataclasses.dataclass(frozen=True)
class Shard:
    """Rows `[start, end)` of the old table (`end` None: to its end), number `index` of the move.

    >>> [s.end for s in cut([b"m", b"c", b"m"])]
    [b'c', b'm', None]
    """

    index: int
    start: bytes
    end: Optional[bytes]


def cut(points: Iterable[bytes]) -> List[Shard]:
    """Shards between sorted, distinct split points, from the table's start to its end."""
    edges = sorted({p for p in points if p})
    starts = [b""] + edges
    ends: List[Optional[bytes]] = list(edges) + [None]
    return [Shard(i, s, e) for i, (s, e) in enumerate(zip(starts, ends))]


def at_buckets(schema: rowkey.Schema) -> Optional[List[Shard]]:
    """One shard per salt bucket of a salted design (None for an unsalted one): each bucket's
    range as the design's own scan of every key gives it, cut at the bucket edges so that no row
    between buckets (a key the design refuses) is left out."""
    ranges = schema.scan()
    if len(ranges) < 2:
        return None
    return cut(start for start, _end in list(ranges)[1:])


def even(sample: List[bytes], shards: int) -> List[bytes]:
    """Every `len(sample) / shards`-th key of `sample` (rounded up), as the Rust migration picks its
    split points from a sample.

    >>> even([b"a", b"b", b"c", b"d", b"e", b"f"], 3)
    [b'b', b'd', b'f']
    """
    step = max(1, -(-len(sample) // max(1, shards)))
    return sample[step - 1 :: step]
