"""DoFns that fail on purpose, once across every worker process: each takes a marker file with
an exclusive create, so the first process to get there fails and every later attempt (a retried
bundle, a rerun) passes."""

import os
import signal

import apache_beam as beam


def first(marker: str) -> bool:
    """Whether this call is the first to claim `marker`."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


class FailSecondBatchOnce(beam.DoFn):
    """Raises on the second batch of each shard (its first is written by then), once a shard."""

    def __init__(self, marker_dir: str):
        self.marker_dir = marker_dir
        self.seen = {}

    def process(self, batch):
        shard, _rows = batch
        self.seen[shard] = self.seen.get(shard, 0) + 1
        if self.seen[shard] == 2 and first(os.path.join(self.marker_dir, f"shard-{shard}")):
            raise RuntimeError(f"injected failure in shard {shard}")
        yield batch


class KillWorkerOnce(beam.DoFn):
    """Kills its own worker process (SIGKILL, as the OOM killer or a lost VM does) at the second
    batch of shard `shard` (its first written by then), once."""

    def __init__(self, marker: str, shard: int):
        self.marker, self.shard = marker, shard
        self.batches = 0

    def process(self, batch):
        if batch[0] == self.shard:
            self.batches += 1
            if self.batches == 2 and first(self.marker):
                os.kill(os.getpid(), signal.SIGKILL)
        yield batch
