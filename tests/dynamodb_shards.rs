//! Write sharding as the partition key's last part (`dynamodb(shards(...))`): random shards
//! and shards computed from a sort field, against a table held in memory. A scan's queries
//! (one a shard) read exactly the keys in its ranges and merge back into key order; an item
//! key gives its key back and no other; a random draw spreads one key's writes; designs that
//! cannot shard are refused with the fix; the schema file carries the shards.

mod common;

use std::collections::BTreeSet;

use common::dynamo::{
    Item, OrderLine, SensorEvent, exact, expected, items, order_line, read, scans_exact, sensor_event,
};
use proptest::prelude::*;
use rowkey::dynamodb::{DynamoKeys, ItemKey};
use rowkey::key::Key;
use rowkey::range::KeyRanges;
use rowkey::salt::SaltHash;
use rowkey::schema::{DynamoShards, SaltSchema, Schema};
use rowkey::{RowKey, merge};

/// Every shard's items of `ranges`, each shard in sort-key order, merged by sort key.
fn merged(keys: &DynamoKeys, ranges: &KeyRanges, table: &[Item]) -> Vec<Key> {
    let queries = keys.queries(ranges).unwrap();
    let shards = queries.iter().map(|q| {
        let mut got: Vec<&Item> = table
            .iter()
            .filter(|i| i.item.partition == q.partition && q.keeps(i.item.sort.as_ref().unwrap().as_bytes()))
            .collect();
        got.sort_by(|a, b| a.item.sort.cmp(&b.item.sort));
        got.into_iter().map(|i| (i.item.sort.clone().unwrap(), i.key.clone())).collect::<Vec<_>>()
    });
    let shards: Vec<Vec<(Key, Key)>> = shards.collect();
    merge(shards, |(sort, _): &(Key, Key)| Some(sort.as_bytes().to_vec())).map(|(_, key)| key).collect()
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_shards_are_read_exactly_and_merge_into_key_order(
        rows in prop::collection::vec(sensor_event(), 1..60), kinds in prop::collection::vec(0u8..12, 1..8),
    ) {
        let keys = DynamoKeys::of(&SensorEvent::SCHEMA).unwrap();
        let table = items(&keys, &rows, true);
        scans_exact(&keys, &SensorEvent::SCHEMA, 1, &rows, &table, &kinds)?;
        let ranges = SensorEvent::scan().sensor(&rows[0].sensor).ranges().unwrap();
        prop_assert_eq!(keys.queries(&ranges).unwrap().len(), 4);
        let want: Vec<Key> = expected(&ranges, &table).into_iter().collect();
        prop_assert_eq!(merged(&keys, &ranges, &table), want);
    }

    #[test]
    fn shards_from_a_sort_field_are_read_exactly_and_merge_into_key_order(
        rows in prop::collection::vec(order_line(), 1..60), kinds in prop::collection::vec(0u8..12, 1..8),
    ) {
        let keys = DynamoKeys::of(&OrderLine::SCHEMA).unwrap();
        let table = items(&keys, &rows, true);
        scans_exact(&keys, &OrderLine::SCHEMA, 1, &rows, &table, &kinds)?;
        for row in &rows {
            // The shard is the order number modulo 3, whatever the line.
            let shard = usize::try_from(row.order % 3).unwrap();
            let day = keys.queries(&OrderLine::scan().day(row.day).ranges().unwrap()).unwrap();
            prop_assert_eq!(&keys.item(&row.to_key().unwrap()).unwrap().partition, &day[shard].partition);
        }
        let ranges = OrderLine::scan().day(rows[0].day).ranges().unwrap();
        let want: Vec<Key> = expected(&ranges, &table).into_iter().collect();
        prop_assert_eq!(merged(&keys, &ranges, &table), want);
        // One order's lines: still every shard's query, each exact.
        exact(&keys, &OrderLine::scan().day(rows[0].day).order(rows[0].order).ranges().unwrap(), &table)?;
    }
}

#[test]
fn a_random_shard_is_drawn_on_every_write_and_any_shard_reads_back() {
    let keys = DynamoKeys::of(&SensorEvent::SCHEMA).unwrap();
    let key = SensorEvent { sensor: "s-1".into(), day: 20240501, seq: 7 }.to_key().unwrap();
    let mut partitions = BTreeSet::new();
    for _ in 0..64 {
        let item = keys.item(&key).unwrap();
        assert_eq!(item.sort.as_ref().unwrap(), "0020240501#0007");
        assert_eq!(keys.key(&item).unwrap(), key);
        partitions.insert(item.partition.to_readable());
    }
    // Four shards, 64 draws: one shard alone would be a one-in-2^126 event.
    assert!(partitions.len() > 1, "{partitions:?}");
    assert!(partitions.iter().all(|p| ["s-1#0", "s-1#1", "s-1#2", "s-1#3"].contains(&p.as_str())), "{partitions:?}");

    let sort = Some(Key::from("0020240501#0007"));
    let refused = |partition: &str| {
        keys.key(&ItemKey { partition: Key::from(partition), sort: sort.clone() }).unwrap_err().to_string()
    };
    let e = refused("s-1#4");
    assert!(e.contains("shard") && e.contains("bucket"), "{e}");
    assert!(refused("s-1").contains("does not end with a shard"), "{}", refused("s-1"));
    assert!(refused("s-1#2#0").contains("shard"), "{}", refused("s-1#2#0"));
    assert!(refused("s-1#02").contains("shard"), "{}", refused("s-1#02"));
}

#[test]
fn a_computed_shard_reads_back_only_from_its_own_shard() {
    let keys = DynamoKeys::of(&OrderLine::SCHEMA).unwrap();
    let key = OrderLine { day: 3, order: 10, line: 1 }.to_key().unwrap();
    let item = keys.item(&key).unwrap();
    assert_eq!(keys.item(&key).unwrap(), item, "a computed shard is the same on every write");
    assert_eq!(keys.key(&item).unwrap(), key);
    let queries = keys.queries(&OrderLine::scan().day(3).ranges().unwrap()).unwrap();
    assert_eq!(item.partition, queries[1].partition, "10 % 3 is shard 1");
    let moved = ItemKey { partition: queries[2].partition.clone(), sort: item.sort.clone() };
    let e = keys.key(&moved).unwrap_err().to_string();
    assert!(e.contains("shard 2 is not the one its source fields give"), "{e}");
}

#[test]
fn designs_that_cannot_shard_are_refused_with_the_fix() {
    let err = |schema: &'static Schema, partition: &[&str], shards| {
        DynamoKeys::new(schema, partition, None).unwrap().with_shards(shards).unwrap_err().to_string()
    };
    let computed = |from: &'static [&'static str]| {
        DynamoShards::Computed(SaltSchema { buckets: 4, hash: SaltHash::FarmHash, from })
    };
    let e = err(&OrderLine::SCHEMA, &["day"], computed(&["day"]));
    assert!(e.contains("partition fields only") && e.contains("sort fields"), "{e}");
    let e = err(&OrderLine::SCHEMA, &["day"], computed(&["lines"]));
    assert!(e.contains("`lines` is not a field of `OrderLine`"), "{e}");
    let e = err(&OrderLine::SCHEMA, &["day"], computed(&["order", "order"]));
    assert!(e.contains("listed twice"), "{e}");
    let e = err(&OrderLine::SCHEMA, &["day"], computed(&[]));
    assert!(e.contains("no source fields") && e.contains("random"), "{e}");
    let e = err(&OrderLine::SCHEMA, &["day"], DynamoShards::Random { buckets: 0 });
    assert!(e.contains("1 to 65536"), "{e}");
    // A salt already shards the partition key from its front.
    let e = err(&common::dynamo::MeterReading::SCHEMA, &["meter"], DynamoShards::Random { buckets: 4 });
    assert!(e.contains("has a salt") && e.contains("not both"), "{e}");
}

#[test]
fn the_schema_file_carries_the_shards_and_gives_the_same_item_keys() {
    for schema in [&SensorEvent::SCHEMA, &OrderLine::SCHEMA] {
        let read = Schema::from_json(&schema.to_json()).unwrap();
        assert_eq!(read.dynamodb, schema.dynamodb, "{}", schema.type_name);
    }
    assert!(SensorEvent::SCHEMA.to_json().contains(r#""random": true"#));
    let read: &'static Schema = Box::leak(Box::new(Schema::from_json(&OrderLine::SCHEMA.to_json()).unwrap()));
    let key = OrderLine { day: 1, order: u64::MAX, line: i16::MIN }.to_key().unwrap();
    assert_eq!(
        DynamoKeys::of(read).unwrap().item(&key).unwrap(),
        DynamoKeys::of(&OrderLine::SCHEMA).unwrap().item(&key).unwrap()
    );
    // Checked as the derive checks it, at its place; `random` is true or absent.
    let mut json: serde_json::Value = serde_json::from_str(&OrderLine::SCHEMA.to_json()).unwrap();
    json["dynamodb"]["shards"]["from"] = serde_json::json!(["day"]);
    let e = Schema::from_json(&json.to_string()).unwrap_err().to_string();
    assert!(e.contains("dynamodb.shards") && e.contains("partition fields only"), "{e}");
    let json = SensorEvent::SCHEMA.to_json().replace(r#""random": true"#, r#""random": false"#);
    let e = Schema::from_json(&json).unwrap_err().to_string();
    assert!(e.contains("dynamodb.shards.random"), "{e}");
}

#[test]
fn a_shard_is_left_out_and_the_comparison_fails() {
    let keys = DynamoKeys::of(&OrderLine::SCHEMA).unwrap();
    let rows: Vec<OrderLine> = (0..12).map(|order| OrderLine { day: 1, order, line: 0 }).collect();
    let table = items(&keys, &rows, true);
    let ranges = OrderLine::scan().day(1).ranges().unwrap();
    let queries = keys.queries(&ranges).unwrap();
    let want = expected(&ranges, &table);
    assert_eq!(read(&queries, &table, false).into_iter().collect::<BTreeSet<_>>(), want);
    assert_ne!(read(&queries[..2], &table, false).into_iter().collect::<BTreeSet<_>>(), want);
}
