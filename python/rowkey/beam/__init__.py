"""A table moved to a new key design by an Apache Beam pipeline (`pip install 'rowkey[beam]'`): the
same move as `rowkey migrate run`, spread over as many workers as a runner gives it (Dataflow, or
the DirectRunner on one machine).

From a shell, with ordinary Beam options after the move's own::

    python -m rowkey.beam migrate --from by_time.json --to reading.json \\
        --source readings --target readings_v2 --project P --instance I \\
        --runner DataflowRunner --region us-central1 --temp_location gs://B/tmp \\
        --dead-letters gs://B/readings_v2.dead-letters.jsonl
    python -m rowkey.beam verify ... (the same arguments, --output for the differences)

From Python, the transforms `Migrate` and `Verify` go into a pipeline of your own, or
`run.migrate` / `run.verify` run one:

>>> import json
>>> from rowkey.beam import Mapping, Shard, shards
>>> field = lambda name: {"name": name, "type": "String", "encoding": "utf8"}
>>> old = json.dumps({"rowkey_schema": 1, "type": "Old", "format": "delimited", "delimiter": "#",
...                   "fields": [field("day"), field("user")]})
>>> new = json.dumps({"rowkey_schema": 1, "type": "New", "format": "delimited", "delimiter": "#",
...                   "salt": {"buckets": 4, "hash": "farmhash", "from": ["user"]},
...                   "fields": [field("user"), field("day")]})
>>> mapping = Mapping(old, new)
>>> mapping.rekey().rekey(b"2024-05-01#ann").split(b"#", 1)[1]  # after the salt bucket
b'ann#2024-05-01'
>>> len(shards.at_buckets(mapping.new_schema()))  # a salted design's shards: its buckets
4

Every cell is copied as read (family, qualifier, timestamp, value, every version), so a bundle
the runner retries, or the command run again after a failure, writes the same cells: the target
ends exact. Rows that cannot be re-keyed go to a dead-letter file with their reasons, counted.
"""

from . import shards
from .copy import NAMESPACE, Migrate
from .mapping import Mapping, Tables, key_text
from .shards import Shard
from .verify import Verify

__all__ = ["Mapping", "Migrate", "NAMESPACE", "Shard", "Tables", "Verify", "key_text", "shards"]
