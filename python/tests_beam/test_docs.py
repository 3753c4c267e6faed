"""The examples in `rowkey.beam`'s docstrings run and hold."""

import doctest

import pytest
import rowkey.beam
from rowkey.beam import mapping, shards


@pytest.mark.parametrize("module", [rowkey.beam, mapping, shards], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0, result
