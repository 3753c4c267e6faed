"""Reading and writing rows with google-cloud-bigtable's data client: every cell of a row as a
plain tuple, and writes that set exactly those cells again (same timestamps), so that writing a
row twice leaves the table as writing it once."""

import warnings
from typing import FrozenSet, Iterator, List, Optional, Sequence, Tuple

from .mapping import Tables

Cell = Tuple[str, bytes, int, bytes]
"""`(family, qualifier, timestamp_micros, value)`: one version of one column."""

Row = Tuple[bytes, Tuple[Cell, ...]]
"""A row key and its cells, sorted (Bigtable sends families in no fixed order)."""


def open_table(tables: Tables, name: str):
    """A data-client table of the instance in `tables` (the client must be closed: see `close`)."""
    from google.cloud.bigtable.data import BigtableDataClient

    # With BIGTABLE_EMULATOR_HOST set the client uses no credentials, and says so on every client.
    warnings.filterwarnings("ignore", message="Connecting to Bigtable emulator", category=RuntimeWarning)
    client = BigtableDataClient(project=tables.project)
    kwargs = {"app_profile_id": tables.app_profile} if tables.app_profile else {}
    return client, client.get_table(tables.instance, name, **kwargs)


def close(client) -> None:
    """Closes a client `open_table` made (its channel and background threads)."""
    client.close()


def families(tables: Tables, name: str) -> Optional[FrozenSet[str]]:
    """The column families of table `name`, read with the admin API (the data API cannot list
    them); None when the instance has no such table."""
    from google.api_core.exceptions import NotFound
    from google.cloud.bigtable import Client

    warnings.filterwarnings("ignore", message="Connecting to Bigtable emulator", category=RuntimeWarning)
    client = Client(project=tables.project, admin=True)
    try:
        return frozenset(client.instance(tables.instance).table(name).list_column_families())
    except NotFound:
        return None
    finally:
        client.table_admin_client.transport.close()


CHUNK_ROWS = 10_000
"""Rows a read asks for at a time: each query ends well inside the client's operation timeout
(10 minutes), however long a shard takes to copy."""


def read_rows(table, start: bytes, end: Optional[bytes], chunk_rows: int = CHUNK_ROWS) -> Iterator[Row]:
    """The rows of `[start, end)` (`end` None: to the table's end), each with all its cells, read
    `chunk_rows` at a time, each query starting just after the last row of the one before."""
    from google.cloud.bigtable.data import ReadRowsQuery, RowRange

    inclusive = True
    while True:
        query = ReadRowsQuery(
            row_ranges=[
                RowRange(start_key=start or None, end_key=end, start_is_inclusive=inclusive if start else None)
            ],
            limit=chunk_rows,
        )
        n = 0
        for row in table.read_rows_stream(query):
            cells = [(c.family, c.qualifier, c.timestamp_micros, c.value) for c in row.cells]
            cells.sort()
            n += 1
            start = row.row_key
            yield start, tuple(cells)
        if n < chunk_rows:
            return
        inclusive = False


def write_rows(table, rows: Sequence[Row]) -> None:
    """Sets every cell of `rows` as given. A failure for good (after the client's retries) raises,
    so that the runner retries the bundle, which writes the same cells again."""
    from google.cloud.bigtable.data import RowMutationEntry, SetCell

    if not rows:
        return
    entries: List[RowMutationEntry] = [
        RowMutationEntry(
            key, [SetCell(family, qualifier, value, timestamp_micros=ts) for family, qualifier, ts, value in cells]
        )
        for key, cells in rows
    ]
    from google.cloud.bigtable.data.exceptions import MutationsExceptionGroup

    # A row of many cells may pass Bigtable's limit of 100,000 mutations per call: the client
    # splits the entries into calls by count and size itself.
    try:
        table.bulk_mutate_rows(entries)
    except MutationsExceptionGroup as group:
        # The client's message holds the failed entries, row keys and values included: the
        # runner logs what a DoFn raises, and a log must never hold a sensitive value.
        causes = sorted({type(e.__cause__ or e).__name__ for e in group.exceptions})
        raise WriteFailed(
            f"{len(group.exceptions)} of {len(entries)} rows were not written ({', '.join(causes)}); "
            "a retry of the bundle, or the same command run again, writes them"
        ) from None


class WriteFailed(RuntimeError):
    """A write failed for good after the client's retries (the message names no key or value)."""


def sample_keys(table) -> List[bytes]:
    """The table's own sample of row keys (SampleRowKeys), the empty key and duplicates left out."""
    keys = sorted({key for key, _offset in table.sample_row_keys() if key})
    return keys
