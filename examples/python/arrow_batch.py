"""Keys for a whole Arrow table at once, and the table back from the keys: the batch form a
pipeline or a notebook uses with pyarrow (`pip install pyarrow`). The columns are read from the
arrays' memory, not as a Python object per value. Run: python examples/python/arrow_batch.py
"""

import pathlib

import pyarrow as pa
import pyarrow.compute as pc

import rowkey

schema = rowkey.Schema.load(pathlib.Path(__file__).with_name("reading.json"))
readings = pa.table({
    "device_type": pa.array(["meter", "meter", "phone"] * 10_000),
    "device_id": pa.array([f"{i:08x}" for i in range(30_000)]),
    "ts": pa.array(range(30_000), pa.uint32()),
})

keys = schema.encode_many(readings)                   # a pyarrow BinaryArray, one key a row
assert isinstance(keys, pa.BinaryArray) and len(keys) == readings.num_rows
assert keys[8].as_py() == schema.encode(device_type="phone", device_id="00000008", ts=8)

back = schema.decode_many(keys)                       # a RecordBatch of the key's fields
assert back.schema.names == ["device_type", "device_id", "ts"]
assert back.column("ts").to_pylist()[:3] == [0, 1, 2]
assert schema.encode_many(back).equals(keys)

# The keys sorted as the store will hold them: each bucket's rows together, in value order.
order = pc.sort_indices(keys)
print(back.take(order).slice(0, 3).to_pylist())
print(len(keys), "keys,", pc.sum(pc.binary_length(keys)).as_py(), "bytes")
