"""`decode` and the `rowkey` command agree on every key: arbitrary bytes and mutated real keys,
for every schema the Rust test wrote, are accepted by both or refused by both with the same
message, and what both accept reads as the same fields."""

import json
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rowkey
from test_agreement import load


CASES = []


@pytest.fixture(scope="module")
def schema_files(vectors_path, tmp_path_factory):
    """Each schema the Rust test wrote, in a file for the command, with its keys (held here,
    not passed to the test, so that a failing example prints only its own keys)."""
    schemas, rows = load(vectors_path)
    folder = tmp_path_factory.mktemp("schemas")
    out = CASES
    out.clear()
    for name, schema in sorted(schemas.items()):
        path = folder / f"{name}.json"
        path.write_text(schema.to_json())
        keys = [bytes.fromhex(r["key"]) for r in rows if r["type"] == name]
        out.append((schema, str(path), keys))
    return len(out)


def command_says(command, schema_path, keys):
    """What `rowkey inspect --json --reveal` prints of each key: its fields' text, or its error."""
    run = subprocess.run(
        [command, "inspect", "--schema", schema_path, "--from", "hex", "--json", "--reveal"],
        input="".join(key.hex() + "\n" for key in keys), capture_output=True, text=True, timeout=60,
    )
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(lines) == len(keys), run.stderr
    return lines


def mutations(keys):
    """A key of the schema, changed a little: cut, lengthened, a byte set, or bytes of no key."""
    def mutate(draw):
        how = draw(st.integers(0, 4))
        key = draw(st.sampled_from(keys))
        if how == 0:
            return draw(st.binary(min_size=1, max_size=24))
        if how == 1 and len(key) > 1:
            return key[: draw(st.integers(1, len(key) - 1))]
        if how == 2:
            return key + draw(st.binary(min_size=1, max_size=3))
        if how == 3:
            at = draw(st.integers(0, len(key) - 1))
            return key[:at] + bytes([draw(st.integers(0, 255))]) + key[at + 1:]
        return key
    return st.composite(lambda draw: mutate(draw))()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_decode_accepts_and_refuses_what_the_command_does(schema_files, rowkey_command, data):
    assert schema_files > 10
    for schema, path, real in CASES:
        keys = data.draw(st.lists(mutations(real), min_size=1, max_size=12), label=schema.type_name)
        for key, said in zip(keys, command_says(rowkey_command, path, keys)):
            where = f"{schema.type_name} key {key.hex()}"
            try:
                inspection = schema.inspect(key)
            except rowkey.BadKeyError as e:
                assert "error" in said, f"{where}: decode refused ({e}), the command read {said}"
                assert str(e) == said["error"], where
                with pytest.raises(rowkey.BadKeyError):
                    schema.decode(key)
                continue
            assert "error" not in said, f"{where}: decode read it, the command refused: {said['error']}"
            assert {f.name: f.value_text for f in inspection.fields} == said["fields"], where
