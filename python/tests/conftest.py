"""Shared by the tests: the path of the agreement vectors the Rust test writes."""

import os

import pytest


@pytest.fixture(scope="session")
def vectors_path():
    path = os.environ.get("ROWKEY_PYTHON_VECTORS")
    if not path:
        pytest.fail(
            "ROWKEY_PYTHON_VECTORS is not set: run `ROWKEY_PYTHON_VECTORS=FILE cargo test --test python_vectors` "
            "first (.ci/run does), then pytest with the same variable"
        )
    return path
