"""Rows whose keys cannot be re-keyed: each in the dead-letter file with its reason, counted,
and every other row copied; a sensitive field's value in neither the file nor the logs."""

import json

import rowkey
import support
from rowkey.beam import run

# Keys the old design refuses (too few fields, a short number, one field too many), and a key
# it reads whose time (-5) the new design's reversed, unsigned time cannot hold.
NEGATIVE = b"-9999999999999999994#phone#00000001"
BAD = [b"garbage", b"12#phone#0000002a", b"0000000001588291200#phone#00000001#extra", NEGATIVE]


def test_unkeyable_rows_are_dead_letters_and_the_rest_land(tmp_path):
    n = 3_000
    old = rowkey.Schema.load(support.SCHEMAS / "by_time.json")
    support.create_table("dl_old")
    support.create_table("dl_new")
    good = {old.encode(support.reading(i)): support.cells(i) for i in range(n)}
    support.fill("dl_old", [*good.items(), *((key, support.cells(0)) for key in BAD)])
    mapping, tables = support.mapping("by_time.json", "reading.json"), support.tables("dl_old", "dl_new")
    outcome = run.migrate(mapping, tables, support.direct_options(2), str(tmp_path / "dead.jsonl"))
    counts = (outcome.count("rows read"), outcome.count("rows written"), outcome.count("rows dead-lettered"))
    assert counts == (n + len(BAD), n, len(BAD))
    letters = [json.loads(line) for line in (tmp_path / "dead.jsonl").read_text().splitlines()]
    assert sorted(bytes.fromhex(letter["key_hex"]) for letter in letters) == sorted(BAD)
    reasons = {bytes.fromhex(letter["key_hex"]): letter["reason"] for letter in letters}
    assert "fewer fields" in reasons[b"garbage"], reasons
    assert "expected 19 decimal digits" in reasons[b"12#phone#0000002a"], reasons
    assert "more fields" in reasons[BAD[2]], reasons
    assert "`ts_millis`" in reasons[NEGATIVE], reasons
    assert old.decode(NEGATIVE)["ts_millis"] == -5
    support.assert_same(
        support.read_all("dl_new"),
        support.brute_force(good, old, mapping.new_schema(), dict),
        "the rows that could be re-keyed",
    )


def test_a_sensitive_value_stays_out_of_dead_letters_and_logs(tmp_path):
    old = rowkey.Schema.load(support.SCHEMAS / "device_reading.json")
    support.create_table("dls_old")
    support.create_table("dls_new")
    good = [(old.encode(device_type="car", device=f"secret-{i}", ts_millis=i), support.cells(i)) for i in range(50)]
    bad = [(b"car#secret-bad#x", support.cells(1)), (b"car#secret-bad", support.cells(2))]
    support.fill("dls_old", good + bad)
    dead = tmp_path / "dead.jsonl"
    done = support.beam_command(
        "migrate",
        "--from",
        str(support.SCHEMAS / "device_reading.json"),
        "--to",
        str(support.SCHEMAS / "ordered_reading.json"),
        "--rename",
        "device=device_id",
        "--default",
        "region=eu",
        "--project",
        support.PROJECT,
        "--instance",
        support.INSTANCE,
        "--source",
        "dls_old",
        "--target",
        "dls_new",
        "--dead-letters",
        str(dead),
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    assert "rows read: 52, written: 50, dead-lettered: 2" in done.stdout, done.stdout
    assert f"2 rows could not be re-keyed and were not copied: their keys and reasons are in {dead}" in done.stdout
    letters = [json.loads(line) for line in dead.read_text().splitlines()]
    assert sorted(letter["key"] for letter in letters) == ["<key of 14 bytes>", "<key of 16 bytes>"], letters
    assert all("key_hex" not in letter and letter["reason"] for letter in letters), letters
    for text in (dead.read_text(), done.stdout, done.stderr):
        assert "secret" not in text
    assert len(support.read_all("dls_new")) == 50
