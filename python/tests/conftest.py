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


@pytest.fixture(scope="session")
def rowkey_command():
    """The `rowkey` command built from this checkout, for the tests that hold the package to
    what the command says."""
    path = os.environ.get("ROWKEY_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(
            "ROWKEY_BIN is not the path of the `rowkey` command: build it (`cargo build -p rowkey-cli`) and "
            "set ROWKEY_BIN=target/debug/rowkey (.ci/run does)"
        )
    return path
