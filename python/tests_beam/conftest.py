"""The Beam tests' emulator (BIGTABLE_EMULATOR_HOST when given, else one of their own) and the
paths the DirectRunner's worker processes import the tests' DoFns from."""

import os
import pathlib

import pytest
import support


@pytest.fixture(scope="session", autouse=True)
def emulator(tmp_path_factory):
    # Worker processes of the multi-processing DirectRunner unpickle the tests' DoFns by module:
    # they must find `faults` as this process does.
    here = str(pathlib.Path(__file__).parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    if os.environ.get("BIGTABLE_EMULATOR_HOST"):
        yield os.environ["BIGTABLE_EMULATOR_HOST"]
        return
    emulator = support.Emulator(tmp_path_factory.mktemp("emulator"))
    os.environ["BIGTABLE_EMULATOR_HOST"] = emulator.host
    try:
        yield emulator.host
    finally:
        del os.environ["BIGTABLE_EMULATOR_HOST"]
        emulator.stop()


@pytest.fixture(autouse=True)
def drop_tables(emulator):
    yield
    support.drop_created()
