//! A single-table DynamoDB design: a tenant's orders and invoices in one partition, each
//! entity read by one exact query, a meter's readings spread over four shards, read back by one
//! query a shard merged in order, and a sensor's events over four shards drawn at random, the
//! partition key's last part. Against a DynamoDB endpoint given as
//! `DYNAMODB_ENDPOINT` (dynalite or DynamoDB Local, say `http://127.0.0.1:4567`; CI starts
//! dynalite), or DynamoDB itself with the usual AWS settings when `DYNAMODB_ENDPOINT=aws`.
//!
//! `cargo run --features dynamodb --example dynamodb`

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::types::{AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType};
use rowkey::RowKey;
use rowkey::dynamodb::{DynamoKeys, Table};

/// `TENANT#acme` / `ORDER#0020240501#0042`.
#[derive(RowKey, Debug)]
#[rowkey(delimited = "#", prefix = "TENANT", dynamodb(partition = [tenant], sort_prefix = "ORDER"))]
struct Order {
    tenant: String,
    day: u32,
    #[rowkey(width = 4)]
    number: u16,
}

/// `TENANT#acme` / `INVOICE#0042`: the same partitions as the orders.
#[derive(RowKey, Debug)]
#[rowkey(delimited = "#", prefix = "TENANT", dynamodb(partition = [tenant], sort_prefix = "INVOICE"))]
struct Invoice {
    tenant: String,
    #[rowkey(width = 4)]
    number: u16,
}

/// `2#meter-7` / `0020240501#...`: a meter's writes spread over four partitions by `seq`.
#[derive(RowKey, Debug)]
#[rowkey(delimited = "#", salt(buckets = 4, from = [seq]), dynamodb(partition = [meter]))]
struct Reading {
    meter: String,
    day: u32,
    #[rowkey(width = 6)]
    seq: u32,
}

/// `sensor-3#2` / `0020240501#000042`: the shard ends the partition key, drawn on each write;
/// the key itself holds none.
#[derive(RowKey, Debug)]
#[rowkey(delimited = "#", dynamodb(partition = [sensor], shards(buckets = 4, random)))]
struct Event {
    sensor: String,
    day: u32,
    #[rowkey(width = 6)]
    seq: u32,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Ok(endpoint) = std::env::var("DYNAMODB_ENDPOINT") else {
        eprintln!("set DYNAMODB_ENDPOINT to a DynamoDB endpoint (http://127.0.0.1:4567 for dynalite), or `aws`");
        return Ok(());
    };
    let client = client(&endpoint);
    for table in ["app", "readings", "events"] {
        create(&client, table).await?;
    }

    let orders = Table::new(client.clone(), "app", DynamoKeys::of(&Order::SCHEMA)?);
    let invoices = Table::new(client.clone(), "app", DynamoKeys::of(&Invoice::SCHEMA)?);
    for (day, number) in [(20240430, 1), (20240501, 2), (20240517, 3), (20240601, 4)] {
        let key = Order { tenant: "acme".into(), day, number }.to_key()?;
        client.put_item().table_name("app").set_item(Some(orders.key_attributes(&key)?)).send().await?;
        let key = Invoice { tenant: "acme".into(), number }.to_key()?;
        client.put_item().table_name("app").set_item(Some(invoices.key_attributes(&key)?)).send().await?;
    }
    // May's orders: `BETWEEN ORDER#0020240501 AND ORDER#0020240601`, the invoices beside them
    // never read, and the end excluded as the Rust range says.
    let may = Order::scan().tenant("acme").day_range(20240501..20240601).ranges()?;
    for query in orders.keys().queries(&may)? {
        println!(
            "query: partition {} sort {}",
            query.partition,
            query.sort.as_ref().map_or("any".into(), ToString::to_string)
        );
    }
    let found: Vec<Order> = orders
        .read(&may, true)
        .await?
        .iter()
        .map(|item| Ok(Order::from_key(&orders.key_of(item)?)?))
        .collect::<Result<_, Box<dyn std::error::Error>>>()?;
    println!("May's orders: {found:?}");
    assert_eq!(found.iter().map(|o| o.number).collect::<Vec<_>>(), [2, 3]);

    // Write sharding: 100 readings of one day in four partitions, read back newest first.
    let readings = Table::new(client.clone(), "readings", DynamoKeys::of(&Reading::SCHEMA)?);
    for seq in 0..100 {
        let key = Reading { meter: "meter-7".into(), day: 20240501, seq }.to_key()?;
        client.put_item().table_name("readings").set_item(Some(readings.key_attributes(&key)?)).send().await?;
    }
    let day = Reading::scan().meter("meter-7").day(20240501).ranges()?;
    let items = readings.read(&day, false).await?;
    let seqs: Vec<u32> = items
        .iter()
        .map(|item| Ok(Reading::from_key(&readings.key_of(item)?)?.seq))
        .collect::<Result<_, Box<dyn std::error::Error>>>()?;
    println!(
        "{} readings from {} queries, newest first: {:?} ...",
        seqs.len(),
        readings.keys().queries(&day)?.len(),
        &seqs[..5]
    );
    assert_eq!(seqs, (0..100).rev().collect::<Vec<_>>());

    // Random shards at the partition key's end: the same reads, whatever shard each write drew.
    let events = Table::new(client.clone(), "events", DynamoKeys::of(&Event::SCHEMA)?);
    for seq in 0..100 {
        let key = Event { sensor: "sensor-3".into(), day: 20240501, seq }.to_key()?;
        client.put_item().table_name("events").set_item(Some(events.key_attributes(&key)?)).send().await?;
    }
    let day = Event::scan().sensor("sensor-3").day(20240501).ranges()?;
    let items = events.read(&day, true).await?;
    let shards: std::collections::BTreeSet<String> =
        items.iter().filter_map(|item| item.get("pk")?.as_s().ok().cloned()).collect();
    let seqs: Vec<u32> = items
        .iter()
        .map(|item| Ok(Event::from_key(&events.key_of(item)?)?.seq))
        .collect::<Result<_, Box<dyn std::error::Error>>>()?;
    println!("{} events from shards {shards:?}, in order: {:?} ...", seqs.len(), &seqs[..5]);
    assert_eq!(seqs, (0..100).collect::<Vec<_>>());
    assert!(shards.len() > 1);
    Ok(())
}

fn client(endpoint: &str) -> Client {
    let config = aws_sdk_dynamodb::Config::builder().behavior_version(BehaviorVersion::latest());
    let config = if endpoint == "aws" {
        // Region and credentials from the environment, as the AWS tools take them.
        config.region(std::env::var("AWS_REGION").ok().map(Region::new)).credentials_provider(Credentials::new(
            std::env::var("AWS_ACCESS_KEY_ID").unwrap_or_default(),
            std::env::var("AWS_SECRET_ACCESS_KEY").unwrap_or_default(),
            std::env::var("AWS_SESSION_TOKEN").ok(),
            None,
            "environment",
        ))
    } else {
        // A local server takes any region and keys.
        config
            .region(Region::new("us-east-1"))
            .credentials_provider(Credentials::new("local", "local", None, None, "example"))
            .endpoint_url(endpoint)
    };
    Client::from_conf(config.build())
}

async fn create(client: &Client, table: &str) -> Result<(), Box<dyn std::error::Error>> {
    let attribute =
        |name: &str| AttributeDefinition::builder().attribute_name(name).attribute_type(ScalarAttributeType::S).build();
    let key = |name: &str, kind| KeySchemaElement::builder().attribute_name(name).key_type(kind).build();
    client
        .create_table()
        .table_name(table)
        .attribute_definitions(attribute("pk")?)
        .attribute_definitions(attribute("sk")?)
        .key_schema(key("pk", KeyType::Hash)?)
        .key_schema(key("sk", KeyType::Range)?)
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await?;
    Ok(())
}
