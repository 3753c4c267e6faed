"""`python -m rowkey.beam`: bad input exits 2 with the fix, before any pipeline starts."""

import pytest
import support
from rowkey.beam.__main__ import main

WHERE = ["--project", "p", "--instance", "i", "--source", "a", "--target", "b"]
MOVE = ["--from", str(support.SCHEMAS / "device_reading.json"), "--to", str(support.SCHEMAS / "ordered_reading.json")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["migrate", *MOVE, *WHERE, "--rename", "device"], "--rename device: write it as OLD=NEW"),
        (["migrate", *MOVE, *WHERE, "--rename", "device=device_id"], "region"),
        (
            ["verify", *MOVE, *WHERE, "--rename", "device=device_id", "--default", "region=eu", "--split", "zz"],
            "--split zz: write a split point as hex",
        ),
        (
            [
                "migrate",
                *MOVE,
                *WHERE,
                "--rename",
                "device=device_id",
                "--default",
                "region=eu",
                "--runner",
                "DataflowRunner",
            ],
            "--dead-letters b.dead-letters.jsonl: on DataflowRunner it must be a path every worker can write",
        ),
    ],
)
def test_bad_input_exits_2_naming_the_fix(args, message, capsys):
    assert main(args) == 2
    assert message in capsys.readouterr().err
