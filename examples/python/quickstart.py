"""A key from a schema file, in Python, with the bytes the Rust type writes.

The schema is `Reading::SCHEMA.to_json()` of

    #[derive(RowKey)]
    #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
    struct Reading { device_type: String, device_id: String, ts: u32 }

whose `to_key` of ("meter", "4c410523", 7) is `01#meter#4c410523#0000000007` (the crate's
`Schema::unsalted` doc test). Run: python examples/python/quickstart.py
"""

import pathlib

import rowkey

schema = rowkey.Schema.load(pathlib.Path(__file__).with_name("reading.json"))
key = schema.encode(device_type="meter", device_id="4c410523", ts=7)
assert key == b"01#meter#4c410523#0000000007", key
assert schema.decode(key) == {"device_type": "meter", "device_id": "4c410523", "ts": 7}
print(key.decode(), schema.inspect(key))

# One device's readings from ts 5 up to 10: the bucket is computed, so one range.
ranges = schema.scan(device_type="meter", device_id="4c410523", next=("ts", range(5, 10)))
assert len(ranges) == 1 and ranges.contains(key)
print(ranges.to_list())

# A thousand keys at once, the GIL released while Rust encodes them.
keys = schema.encode_many({"device_type": ["meter"] * 1000, "device_id": [f"{i:08x}" for i in range(1000)],
                           "ts": list(range(1000))})
assert schema.decode_many(keys)[7] == {"device_type": "meter", "device_id": "00000007", "ts": 7}
print(len(keys), "keys")
