//! DynamoDB queries from scans, against a table held in memory with DynamoDB's condition
//! rules (`SortCondition::holds`, a key's bytes compared as bytes): for generated items of
//! three designs and generated scans (look-alike prefixes, every kind of bound on every field,
//! prefixes of text), the queries read exactly the items whose keys lie in the scan's ranges,
//! no item twice, and a sharded scan's queries merge back into key order.

mod common;

use std::collections::BTreeSet;
use std::ops::Bound;

use common::dynamo::{
    BlobVersion, Item, MeterReading, TenantInvoice, TenantOrder, blob_version, exact, expected, items, meter_reading,
    read, scans_exact, tenant_invoice, tenant_order,
};
use proptest::prelude::*;
use rowkey::dynamodb::{AttributeType, DynamoKeys, KeyQuery};
use rowkey::key::Key;
use rowkey::schema::Schema;
use rowkey::{RowKey, merge};

/// Cases a property: 48, or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(48)
}

fn kinds() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0u8..12, 1..8)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_sharded_time_series_is_read_exactly_and_merges_into_key_order(
        rows in prop::collection::vec(meter_reading(), 1..60), kinds in kinds(),
    ) {
        let keys = DynamoKeys::of(&MeterReading::SCHEMA).unwrap();
        let table = items(&keys, &rows, true);
        let checked = scans_exact(&keys, &MeterReading::SCHEMA, 1, &rows, &table, &kinds)?;
        prop_assert!(checked > 0 || rows.len() < 2);
        // A meter's day, from every shard, merged by sort key: the keys in unsalted order.
        let day = &rows[0];
        let ranges = MeterReading::scan().meter(&day.meter).day(day.day).ranges().unwrap();
        let queries = keys.queries(&ranges).unwrap();
        prop_assert_eq!(queries.len(), 4);
        let shards = queries.iter().map(|q| {
            let mut got: Vec<_> = table.iter().filter(|i| i.item.partition == q.partition && q.keeps(i.item.sort.as_ref().unwrap().as_bytes())).collect();
            got.sort_by(|a, b| a.item.sort.cmp(&b.item.sort));
            got.into_iter().map(|i| (i.item.sort.clone().unwrap(), i.key.clone())).collect::<Vec<_>>()
        }).collect::<Vec<_>>();
        let merged: Vec<Key> = merge(shards, |(sort, _)| Some(sort.as_bytes().to_vec())).map(|(_, key)| key).collect();
        let mut want: Vec<Key> = expected(&ranges, &table).into_iter().collect();
        want.sort_by_key(|k| MeterReading::SCHEMA.unsalted(k).unwrap().to_vec());
        prop_assert_eq!(merged, want);
    }

    #[test]
    fn one_entity_of_a_single_table_design_is_read_exactly_beside_another(
        orders in prop::collection::vec(tenant_order(), 1..40),
        invoices in prop::collection::vec(tenant_invoice(), 0..40),
        kinds in kinds(),
    ) {
        let order_keys = DynamoKeys::of(&TenantOrder::SCHEMA).unwrap();
        let invoice_keys = DynamoKeys::of(&TenantInvoice::SCHEMA).unwrap();
        let mut table = items(&order_keys, &orders, true);
        table.extend(items(&invoice_keys, &invoices, false));
        scans_exact(&order_keys, &TenantOrder::SCHEMA, 1, &orders, &table, &kinds)?;
        // The tenant's partition holds both; its orders alone are one `begins_with`.
        let ranges = TenantOrder::scan().tenant(&orders[0].tenant).ranges().unwrap();
        exact(&order_keys, &ranges, &table)?;
        for item in &mut table { item.ours = !item.ours; }
        let invoices_only: Vec<TenantInvoice> = invoices;
        scans_exact(&invoice_keys, &TenantInvoice::SCHEMA, 1, &invoices_only, &table, &kinds)?;
    }

    #[test]
    fn binary_sort_keys_with_nul_and_ff_bytes_are_read_exactly(
        rows in prop::collection::vec(blob_version(), 1..60), kinds in kinds(),
    ) {
        let keys = DynamoKeys::of(&BlobVersion::SCHEMA).unwrap();
        let table = items(&keys, &rows, true);
        scans_exact(&keys, &BlobVersion::SCHEMA, 1, &rows, &table, &kinds)?;
        // Within a partition, the sort keys sort as the keys do.
        let mut sorted: Vec<&Item> = table.iter().collect();
        sorted.sort_by(|a, b| a.key.cmp(&b.key));
        for pair in sorted.windows(2).filter(|p| p[0].item.partition == p[1].item.partition) {
            prop_assert!(pair[0].item.sort <= pair[1].item.sort);
        }
    }
}

/// Bytes around the edges of UTF-8: the last one-byte character, continuation bytes, leads
/// of two to four bytes, and bytes no text holds.
fn edgy() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        Just(0x00u8),
        Just(0x61),
        Just(0x7f),
        Just(0x80),
        Just(0xbf),
        Just(0xc3),
        Just(0xdf),
        Just(0xed),
        Just(0xf4),
        Just(0x8f),
        Just(0xff)
    ];
    prop::collection::vec(byte, 0..4)
}

fn bound(kind: u8, bytes: Vec<u8>) -> Bound<Key> {
    match kind % 3 {
        0 => Bound::Included(Key::from(bytes)),
        1 => Bound::Excluded(Key::from(bytes)),
        _ => Bound::Unbounded,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() * 8, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any two byte bounds, over any keys: the query reads exactly the keys between them, and
    /// says text bounds in UTF-8.
    #[test]
    fn a_query_reads_exactly_the_sort_keys_between_any_bounds(
        lo in edgy(), hi in edgy(), kinds in (0u8..3, 0u8..3), binary in any::<bool>(),
        keys in prop::collection::vec(prop_oneof![edgy(), "[a\u{7f}\u{80}\u{7ff}\u{800}\u{d7ff}\u{e000}\u{10ffff}]{0,3}".prop_map(String::into_bytes)], 0..40),
    ) {
        let ty = if binary { AttributeType::Binary } else { AttributeType::String };
        let keys: BTreeSet<Vec<u8>> = keys.into_iter().filter(|k| !k.is_empty() && (binary || std::str::from_utf8(k).is_ok())).collect();
        let (lo, hi) = (bound(kinds.0, lo), bound(kinds.1, hi));
        let within = |k: &[u8]| rowkey::range::KeyRange::new(lo.clone(), hi.clone()).contains(k);
        let want: BTreeSet<&Vec<u8>> = keys.iter().filter(|k| within(k)).collect();
        match KeyQuery::new(Key::from("p"), lo.clone(), hi.clone(), ty) {
            None => prop_assert!(want.is_empty(), "no query, and {:?} lie between", want),
            Some(query) => {
                let got: BTreeSet<&Vec<u8>> = keys.iter().filter(|k| query.keeps(k)).collect();
                prop_assert_eq!(&got, &want, "{:?}", query);
                if let (Some(sort), false) = (&query.sort, binary) {
                    let (a, b) = sort.values();
                    prop_assert!(std::str::from_utf8(a.as_bytes()).is_ok() && b.is_none_or(|b| std::str::from_utf8(b.as_bytes()).is_ok()), "{:?}", query);
                }
            }
        }
    }
}

#[test]
fn the_comparison_fails_when_the_dropped_end_is_kept_or_a_shard_skipped() {
    // Numbers 1 to 3 of one day: `number` in [1, 3) is `BETWEEN ..#1 AND ..#3`, which reads 3.
    let keys = DynamoKeys::of(&TenantOrder::SCHEMA).unwrap();
    let orders: Vec<TenantOrder> =
        (1..=3).map(|n| TenantOrder { tenant: "a".into(), day: 1, number: n.to_string() }).collect();
    let table = items(&keys, &orders, true);
    let ranges = TenantOrder::scan().tenant("a").day(1).number_range("1".."3").ranges().unwrap();
    let queries = keys.queries(&ranges).unwrap();
    assert!(queries[0].drop.is_some(), "{queries:?}");
    let want = expected(&ranges, &table);
    assert_eq!(read(&queries, &table, false).into_iter().collect::<BTreeSet<_>>(), want);
    assert_ne!(read(&queries, &table, true).into_iter().collect::<BTreeSet<_>>(), want);

    // A meter's day over four shards: without one shard's query, its items are missing.
    let keys = DynamoKeys::of(&MeterReading::SCHEMA).unwrap();
    let rows: Vec<MeterReading> = (0..16).map(|seq| MeterReading { meter: "m".into(), day: 1, at: 0, seq }).collect();
    let table = items(&keys, &rows, true);
    let ranges = MeterReading::scan().meter("m").day(1).ranges().unwrap();
    let queries = keys.queries(&ranges).unwrap();
    let want = expected(&ranges, &table);
    assert_eq!(read(&queries, &table, false).into_iter().collect::<BTreeSet<_>>(), want);
    assert_ne!(read(&queries[1..], &table, false).into_iter().collect::<BTreeSet<_>>(), want);
}

#[test]
fn a_scan_that_leaves_a_partition_field_open_is_refused_naming_the_fields() {
    let keys = DynamoKeys::of(&MeterReading::SCHEMA).unwrap();
    for ranges in [
        MeterReading::scan().ranges().unwrap(),
        MeterReading::scan().meter_range("a".."b").ranges().unwrap(),
        MeterReading::scan().meter_starts_with("a").ranges().unwrap(),
    ] {
        let err = keys.queries(&ranges).unwrap_err().to_string();
        assert!(err.contains("must fix every partition field (`meter`)"), "{ranges}: {err}");
    }
    // An empty range is no query.
    assert!(keys.queries(&MeterReading::scan().meter("m").day_range(5..5).ranges().unwrap()).unwrap().is_empty());
}

#[test]
fn designs_dynamodb_cannot_hold_are_refused_with_the_fix() {
    let err = |r: rowkey::Result<DynamoKeys>| r.unwrap_err().to_string();
    assert!(err(DynamoKeys::new(&TenantOrder::SCHEMA, &["day"], None)).contains("leading fields"));
    assert!(err(DynamoKeys::new(&TenantOrder::SCHEMA, &[], None)).contains("leading fields"));
    assert!(err(DynamoKeys::new(&TenantOrder::SCHEMA, &["tenant"], Some("OR#DER"))).contains("delimiter"));
    assert!(err(DynamoKeys::new(&BlobVersion::SCHEMA, &["owner", "blob", "version"], None)).contains("`desc`"));
    // An ordered key whose sort fields are all empty has an empty sort key: refused per item.
    #[derive(RowKey)]
    struct Pair {
        a: String,
        b: String,
    }
    let keys = DynamoKeys::new(&Pair::SCHEMA, &["a"], None).unwrap();
    let e = keys.item(&Pair { a: "x".into(), b: String::new() }.to_key().unwrap()).unwrap_err().to_string();
    assert!(e.contains("sort key is empty") && e.contains("sort_prefix"), "{e}");
    let with_prefix = DynamoKeys::new(&Pair::SCHEMA, &["a"], Some("P")).unwrap();
    let key = Pair { a: "x".into(), b: String::new() }.to_key().unwrap();
    assert_eq!(with_prefix.key(&with_prefix.item(&key).unwrap()).unwrap(), key);
}

#[test]
fn the_schema_file_carries_the_design_and_gives_the_same_item_keys() {
    for schema in [&MeterReading::SCHEMA, &TenantOrder::SCHEMA, &BlobVersion::SCHEMA] {
        let read = Schema::from_json(&schema.to_json()).unwrap();
        assert_eq!(read.dynamodb, schema.dynamodb, "{}", schema.type_name);
    }
    let read = Box::leak(Box::new(Schema::from_json(&TenantOrder::SCHEMA.to_json()).unwrap()));
    let order = TenantOrder { tenant: "acme".into(), day: 20240501, number: "7".into() };
    let key = order.to_key().unwrap();
    assert_eq!(
        DynamoKeys::of(read).unwrap().item(&key).unwrap(),
        DynamoKeys::of(&TenantOrder::SCHEMA).unwrap().item(&key).unwrap()
    );
    // A file's design is checked as the derive checks it, at its place in the file.
    let json = TenantOrder::SCHEMA.to_json().replace(
        r#""partition": [
      "tenant"
    ]"#,
        r#""partition": ["day"]"#,
    );
    let err = Schema::from_json(&json).unwrap_err().to_string();
    assert!(err.contains("dynamodb") && err.contains("leading fields"), "{err}");
    // A schema that declares none says how to.
    #[derive(RowKey)]
    struct Plain {
        a: String,
    }
    let err = DynamoKeys::of(&Plain::SCHEMA).unwrap_err().to_string();
    assert!(err.contains("#[rowkey(dynamodb(partition = [...]))]"), "{err}");
}
