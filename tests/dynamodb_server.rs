//! The DynamoDB keys and queries on a DynamoDB server: 20,000 items of three key designs (a
//! sharded time series, a single-table design of orders and invoices in one partition, binary
//! sort keys full of `00` and `ff`), and two more whose shards end the partition key (drawn at
//! random, and computed from a sort field), go into dynalite through `BatchWriteItem`, and for
//! generated scans (look-alike prefixes, every kind of bound on every field, prefixes of text)
//! `Table::read` must return exactly the items a brute-force filter of every item written
//! finds, in sort-key order forward and reverse, across pages of a few items and of DynamoDB's
//! 1 MB. Then the same comparison shown to fail when the item a `BETWEEN` reads past a
//! half-open range is kept, or one shard's query is left out.
//!
//! dynalite (npm) runs on node, started on a free port of 127.0.0.1 and killed by its pid
//! when the test ends. Without it the test prints why it was skipped and passes. Run with
//! `cargo test --features dynamodb --test dynamodb_server` after `npm install --prefix
//! target/dynalite dynalite`.
#![cfg(feature = "dynamodb")]

mod common;
#[path = "dynamodb_server/dynalite.rs"]
mod dynalite;

use std::collections::HashMap;
use std::io::Write;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType, PutRequest, ScalarAttributeType,
    WriteRequest,
};
use common::dynamo::{
    BlobVersion, Item, MeterReading, OrderLine, SensorEvent, TenantInvoice, TenantOrder, blob_version, expected, items,
    meter_reading, order_line, scan, sensor_event, tenant_invoice, tenant_order, text_field, texts,
};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rowkey::RowKeyOwned;
use rowkey::dynamodb::{AttributeType, DynamoKeys, Table};
use rowkey::key::Key;
use rowkey::range::KeyRanges;
use rowkey::schema::Schema;

/// Generated scans a design: `ROWKEY_DYNAMODB_SCANS`, 60 by default.
fn scans() -> usize {
    std::env::var("ROWKEY_DYNAMODB_SCANS").ok().and_then(|n| n.parse().ok()).unwrap_or(60)
}

#[test]
fn queries_on_a_dynamodb_server_read_exactly_what_brute_force_finds() {
    let package = match dynalite::find() {
        Ok(package) => package,
        Err(why) => {
            let _ = writeln!(std::io::stderr(), "dynamodb_server: SKIPPED, {why}");
            return;
        }
    };
    let server = dynalite::Dynalite::start(&package).unwrap_or_else(|e| panic!("starting dynalite: {e}"));
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a tokio runtime");
    runtime.block_on(async {
        let client = server.client();
        let mut runner = TestRunner::deterministic();

        // A sharded time series: a meter's day is in four partitions.
        let series = Table::new(client.clone(), "series", DynamoKeys::of(&MeterReading::SCHEMA).unwrap());
        create(&client, "series", AttributeType::String).await;
        let readings: Vec<MeterReading> = generate(&mut runner, meter_reading(), 10_000);
        let model = items(series.keys(), &readings, true);
        let mut distinct = model.len();
        write(&series, &model, 0).await;
        compare(&series, &MeterReading::SCHEMA, &readings, &model, 1).await;

        // Orders and invoices in one table, one partition a tenant.
        let orders = Table::new(client.clone(), "app", DynamoKeys::of(&TenantOrder::SCHEMA).unwrap());
        let invoices = Table::new(client.clone(), "app", DynamoKeys::of(&TenantInvoice::SCHEMA).unwrap());
        create(&client, "app", AttributeType::String).await;
        let order_rows: Vec<TenantOrder> = generate(&mut runner, tenant_order(), 4_000);
        let invoice_rows: Vec<TenantInvoice> = generate(&mut runner, tenant_invoice(), 4_000);
        let mut app = items(orders.keys(), &order_rows, true);
        let invoice_model = items(invoices.keys(), &invoice_rows, false);
        write(&orders, &app, 0).await;
        write(&invoices, &invoice_model, 0).await;
        app.extend(invoice_model);
        distinct += app.len();
        compare(&orders, &TenantOrder::SCHEMA, &order_rows, &app, 1).await;
        for item in &mut app {
            item.ours = !item.ours;
        }
        compare(&invoices, &TenantInvoice::SCHEMA, &invoice_rows, &app, 1).await;

        // Binary sort keys; one owner's versions carry 2 KB each, so its partition is read in
        // pages of DynamoDB's 1 MB.
        let blobs = Table::new(client.clone(), "blobs", DynamoKeys::of(&BlobVersion::SCHEMA).unwrap());
        create(&client, "blobs", AttributeType::Binary).await;
        let mut blob_rows: Vec<BlobVersion> = generate(&mut runner, blob_version(), 6_000);
        blob_rows.extend((0..1_000).map(|version| BlobVersion { owner: "big".into(), blob: vec![0, 0xff], version }));
        let model = items(blobs.keys(), &blob_rows, true);
        distinct += model.len();
        write(&blobs, &model, 2_048).await;
        compare(&blobs, &BlobVersion::SCHEMA, &blob_rows, &model, 1).await;
        let big = BlobVersion::scan().owner("big").ranges().unwrap();
        assert_eq!(read_keys(&blobs, &big, true).await, ordered(blobs.keys(), &expected(&big, &model), true));

        assert!(distinct >= 20_000, "only {distinct} distinct items");

        // Shards at the partition key's end: drawn at random for text keys, and the order
        // number modulo 3 for binary ones.
        let events = Table::new(client.clone(), "events", DynamoKeys::of(&SensorEvent::SCHEMA).unwrap());
        create(&client, "events", AttributeType::String).await;
        let event_rows: Vec<SensorEvent> = generate(&mut runner, sensor_event(), 3_000);
        let model = items(events.keys(), &event_rows, true);
        distinct += model.len();
        write(&events, &model, 0).await;
        compare(&events, &SensorEvent::SCHEMA, &event_rows, &model, 1).await;
        let lines = Table::new(client.clone(), "lines", DynamoKeys::of(&OrderLine::SCHEMA).unwrap());
        create(&client, "lines", AttributeType::Binary).await;
        let line_rows: Vec<OrderLine> = generate(&mut runner, order_line(), 3_000);
        let model = items(lines.keys(), &line_rows, true);
        distinct += model.len();
        write(&lines, &model, 0).await;
        compare(&lines, &OrderLine::SCHEMA, &line_rows, &model, 1).await;

        let _ = writeln!(std::io::stderr(), "dynamodb_server: {distinct} distinct items written");
        misses_are_caught(&client).await;
    });
}

/// `n` values of `strategy`, one after another from the runner's seed.
fn generate<T>(runner: &mut TestRunner, strategy: impl Strategy<Value = T>, n: usize) -> Vec<T> {
    (0..n).map(|_| strategy.new_tree(runner).expect("a value").current()).collect()
}

async fn create(client: &Client, table: &str, ty: AttributeType) {
    let scalar = match ty {
        AttributeType::String => ScalarAttributeType::S,
        AttributeType::Binary => ScalarAttributeType::B,
    };
    let attribute = |name: &str| {
        AttributeDefinition::builder().attribute_name(name).attribute_type(scalar.clone()).build().expect("complete")
    };
    let key =
        |name: &str, kind| KeySchemaElement::builder().attribute_name(name).key_type(kind).build().expect("complete");
    client
        .create_table()
        .table_name(table)
        .attribute_definitions(attribute("pk"))
        .attribute_definitions(attribute("sk"))
        .key_schema(key("pk", KeyType::Hash))
        .key_schema(key("sk", KeyType::Range))
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await
        .unwrap_or_else(|e| panic!("creating {table}: {}", aws_sdk_dynamodb::error::DisplayErrorContext(&e)));
}

/// Writes the items, 25 a `BatchWriteItem`, each with `payload` bytes beside its key.
async fn write(table: &Table, model: &[Item], payload: usize) {
    let name = table.name();
    for chunk in model.chunks(25) {
        let requests: Vec<WriteRequest> = chunk
            .iter()
            .map(|item| {
                let mut attributes = table.key_attributes(&item.key).unwrap();
                attributes.insert("v".into(), AttributeValue::S("x".repeat(payload.max(1))));
                WriteRequest::builder()
                    .put_request(PutRequest::builder().set_item(Some(attributes)).build().unwrap())
                    .build()
            })
            .collect();
        let mut pending = HashMap::from([(name.to_owned(), requests)]);
        while !pending.is_empty() {
            let out = table
                .client()
                .batch_write_item()
                .set_request_items(Some(pending))
                .send()
                .await
                .unwrap_or_else(|e| panic!("writing {name}: {}", aws_sdk_dynamodb::error::DisplayErrorContext(&e)));
            pending = out.unprocessed_items.unwrap_or_default().into_iter().filter(|(_, r)| !r.is_empty()).collect();
        }
    }
}

/// The keys of `expected` in the order a read returns them: by sort key, up or down.
fn ordered(keys: &DynamoKeys, expected: &std::collections::BTreeSet<Key>, forward: bool) -> Vec<Key> {
    let mut out: Vec<Key> = expected.iter().cloned().collect();
    out.sort_by_key(|key| keys.item(key).unwrap().sort);
    if !forward {
        out.reverse();
    }
    out
}

async fn read_keys(table: &Table, ranges: &KeyRanges, forward: bool) -> Vec<Key> {
    let items = table.read(ranges, forward).await.unwrap_or_else(|e| panic!("reading {ranges}: {e}"));
    items.iter().map(|item| table.key_of(item).unwrap()).collect()
}

/// For pairs of `rows`, every count of fixed fields from the partition on and a kind of bound
/// that turns with the pair: the table's read equals brute force over `model`, both ways, in
/// pages of whatever DynamoDB returns and, every third scan, of three items.
async fn compare<T: RowKeyOwned>(table: &Table, schema: &Schema, rows: &[T], model: &[Item], partition: usize) {
    let paged = table.clone().with_page_limit(3);
    let mut checked = 0;
    for (i, pair) in rows.windows(2).take(scans()).enumerate() {
        let (seed, other) = (texts(schema, &pair[0]), texts(schema, &pair[1]));
        for extra in partition..=seed.len() {
            let kind = match u8::try_from((i * 7 + extra) % 12).unwrap() {
                9 if seed.get(extra).is_none_or(|(n, _)| !text_field(schema, n)) => 0,
                kind => kind,
            };
            let Some(ranges) = scan(schema, &seed, &other, extra, kind) else { continue };
            let want = expected(&ranges, model);
            for forward in [true, false] {
                let reader = if checked % 3 == 2 { &paged } else { table };
                let got = read_keys(reader, &ranges, forward).await;
                assert_eq!(
                    got,
                    ordered(table.keys(), &want, forward),
                    "{} scan {ranges} (forward {forward}): queries {:?}",
                    schema.type_name,
                    table.keys().queries(&ranges)
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= scans(), "{}: only {checked} scans", schema.type_name);
}

/// The comparison fails when the item past a half-open range is kept, or a shard skipped.
async fn misses_are_caught(client: &Client) {
    let orders = Table::new(client.clone(), "app", DynamoKeys::of(&TenantOrder::SCHEMA).unwrap());
    let rows: Vec<TenantOrder> =
        (1..=3).map(|n| TenantOrder { tenant: "miss".into(), day: 1, number: n.to_string() }).collect();
    let model = items(orders.keys(), &rows, true);
    write(&orders, &model, 0).await;
    let ranges = TenantOrder::scan().tenant("miss").day(1).number_range("1".."3").ranges().unwrap();
    let want = ordered(orders.keys(), &expected(&ranges, &model), true);
    assert_eq!(read_keys(&orders, &ranges, true).await, want);
    let queries = orders.keys().queries(&ranges).unwrap();
    assert!(queries[0].drop.is_some());
    // The same query without dropping: the item `BETWEEN` reads at its end is one too many.
    let raw = orders.query(&queries[0], true).send().await.unwrap().items.unwrap_or_default();
    let kept: Vec<Key> = raw.iter().map(|item| orders.key_of(item).unwrap()).collect();
    assert_ne!(kept, want);
    assert_eq!(kept.len(), want.len() + 1);

    let series = Table::new(client.clone(), "series", DynamoKeys::of(&MeterReading::SCHEMA).unwrap());
    let rows: Vec<MeterReading> =
        (0..16).map(|seq| MeterReading { meter: "miss".into(), day: 1, at: 0, seq }).collect();
    let model = items(series.keys(), &rows, true);
    write(&series, &model, 0).await;
    let ranges = MeterReading::scan().meter("miss").day(1).ranges().unwrap();
    let want = ordered(series.keys(), &expected(&ranges, &model), true);
    assert_eq!(read_keys(&series, &ranges, true).await, want);
    // One shard's range left out: its items are missing.
    let fewer: KeyRanges = ranges.iter().skip(1).cloned().collect();
    assert_ne!(read_keys(&series, &fewer, true).await, want);
}
