"""DynamoDB tables of a key design, through boto3: the key attributes of an item, a scan's
queries as boto3 key conditions, and reads that page every query, drop the one item a
``between`` reads past a half-open range, and merge a sharded scan's queries in sort-key order.

The design is the key's ``dynamodb`` (``rowkey.DynamoDB(...)`` on a class, ``dynamodb(...)`` on a
Rust type, or the schema file's); the queries are ``rowkey.DynamoKeys.queries``, the Rust crate's.

>>> import rowkey
>>> class Order(rowkey.Key, delimited="#", prefix="TENANT",
...             dynamodb=rowkey.DynamoDB(partition=["tenant"], sort_prefix="ORDER")):
...     tenant: str
...     day: rowkey.u32
>>> orders = rowkey.DynamoTable(None, Order)      # a boto3 Table in place of None
>>> orders.key_attributes(Order("acme", 20240501).to_key())
{'pk': 'TENANT#acme', 'sk': 'ORDER#0020240501'}
>>> query = orders.queries(Order.scan().tenant("acme").day_range(20240501, 20240601).ranges())[0]
>>> query.operator, query.values, query.drop
('between', ('ORDER#0020240501', 'ORDER#0020240601'), 'ORDER#0020240601')
>>> orders.query_arguments(query)["KeyConditionExpression"].get_expression()["operator"]
'AND'
"""

import heapq
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, Union

from ._rowkey import DynamoKeys, KeyQuery, KeyRanges, Schema

__all__ = ["DynamoTable"]


def _bytes(value: Any) -> bytes:
    """A key attribute's bytes: text as UTF-8 (DynamoDB's order of strings), boto3's
    ``Binary`` as its value."""
    if isinstance(value, str):
        return value.encode()
    return bytes(getattr(value, "value", value))


class DynamoTable:
    """A DynamoDB table (a boto3 ``Table`` resource) whose items' keys are a key design's; its
    key attributes named ``partition_key`` and ``sort_key`` (``pk`` and ``sk`` by default).
    ``page_limit`` sets each request's ``Limit``, for pages smaller than DynamoDB's 1 MB."""

    def __init__(self, table: Any, design: Union[DynamoKeys, Schema, type], *, partition_key: str = "pk",
                 sort_key: str = "sk", page_limit: Optional[int] = None) -> None:
        self.table = table
        self.keys = design if isinstance(design, DynamoKeys) else DynamoKeys(design)
        self.partition_key, self.sort_key, self.page_limit = partition_key, sort_key, page_limit

    def key_attributes(self, key: bytes) -> Dict[str, Any]:
        """The item key of ``key`` as boto3 takes it, for ``put_item`` (with the item's other
        attributes), ``get_item`` or ``delete_item``."""
        partition, sort = self.keys.item(key)
        out: Dict[str, Any] = {self.partition_key: partition}
        if sort is not None:
            out[self.sort_key] = sort
        return out

    def key_of(self, item: Mapping[str, Any]) -> bytes:
        """The key of an item the table returned: ``key_attributes`` backwards."""
        sort = item.get(self.sort_key) if self.keys.has_sort_key else None
        return self.keys.key(item[self.partition_key], sort)

    def queries(self, ranges: KeyRanges) -> List[KeyQuery]:
        """The queries of a scan's ranges: ``DynamoKeys.queries``."""
        return self.keys.queries(ranges)

    def condition(self, query: KeyQuery) -> Any:
        """The query's ``KeyConditionExpression`` as boto3 conditions:
        ``Key(pk).eq(...) & Key(sk).between(...)``."""
        from boto3.dynamodb.conditions import Key  # type: ignore[import-untyped, import-not-found, unused-ignore]

        expression = Key(self.partition_key).eq(query.partition)
        sort = Key(self.sort_key)
        values = query.values
        operator = query.operator
        if operator is None:
            return expression
        made = {
            "=": lambda: sort.eq(values[0]), "<": lambda: sort.lt(values[0]), "<=": lambda: sort.lte(values[0]),
            ">": lambda: sort.gt(values[0]), ">=": lambda: sort.gte(values[0]),
            "between": lambda: sort.between(values[0], values[1]), "begins_with": lambda: sort.begins_with(values[0]),
        }[operator]()
        return expression & made

    def query_arguments(self, query: KeyQuery, forward: bool = True) -> Dict[str, Any]:
        """The keyword arguments of ``table.query`` for one query: the condition, the order
        (``forward=False`` reads from the greatest sort key down) and the page limit."""
        arguments: Dict[str, Any] = {"KeyConditionExpression": self.condition(query), "ScanIndexForward": forward}
        if self.page_limit is not None:
            arguments["Limit"] = self.page_limit
        return arguments

    def _pages(self, query: KeyQuery, forward: bool) -> Iterator[Dict[str, Any]]:
        arguments = self.query_arguments(query, forward)
        while True:
            page = self.table.query(**arguments)
            for item in page.get("Items", []):
                sort = item.get(self.sort_key)
                if sort is None or query.keeps(sort):
                    yield item
            if "LastEvaluatedKey" not in page:
                return
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def read(self, ranges: KeyRanges, forward: bool = True) -> List[Dict[str, Any]]:
        """Every item of the keys in ``ranges`` (a scan's, its partition fields fixed): each
        query paged to its end, the item past a half-open range dropped, the queries of a
        sharded scan merged in sort-key order (descending when ``forward`` is false)."""
        runs: List[List[Tuple[bytes, int, Dict[str, Any]]]] = []
        for query in self.queries(ranges):
            run = [(_bytes(item.get(self.sort_key, b"")), n, item) for n, item in enumerate(self._pages(query, forward))]
            runs.append(run)
        merged = heapq.merge(*runs, key=lambda entry: entry[0], reverse=not forward)
        return [item for _, _, item in merged]
