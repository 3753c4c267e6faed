//! A DynamoDB table of a key design, through the official SDK (`aws-sdk-dynamodb`): item key
//! attributes for writes, and reads of a scan's queries, every page of every query, merged in
//! sort-key order (feature `dynamodb`).

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::DisplayErrorContext;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

use super::{AttributeType, DynamoKeys, ItemKey, KeyQuery};
use crate::key::Key;
use crate::range::KeyRanges;

/// An item's attributes, as the SDK gives and takes them.
pub type Item = HashMap<String, AttributeValue>;

/// What can go wrong reading a table.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The scan cannot be said as queries (a partition field left open), or an item's key
    /// is none of the design's.
    #[error(transparent)]
    Key(#[from] crate::Error),
    /// A `Query` failed after the SDK's retries. The partition is given by its place among
    /// the scan's queries, never by its value, which may hold personal data.
    #[error("Query {index} of {count} on table {table} failed: {message}")]
    Query {
        /// The table.
        table: String,
        /// The query's place, from 1.
        index: usize,
        /// How many queries the scan made.
        count: usize,
        /// The SDK's error, with its causes.
        message: String,
    },
    /// An item without the key attribute the design reads, or with one of another type.
    #[error("an item of table {table} has no {ty} attribute `{attribute}`: is the table of this key design?")]
    Item {
        /// The table.
        table: String,
        /// The attribute's name.
        attribute: String,
        /// `S` or `B`.
        ty: &'static str,
    },
}

/// A DynamoDB table whose items' keys are a key design's: see the [module](super).
///
/// ```no_run
/// # async fn read(client: aws_sdk_dynamodb::Client) -> Result<(), rowkey::dynamodb::ReadError> {
/// use rowkey::RowKey;
/// use rowkey::dynamodb::{DynamoKeys, Table};
///
/// #[derive(RowKey)]
/// #[rowkey(delimited = "#", prefix = "TENANT", dynamodb(partition = [tenant], sort_prefix = "ORDER"))]
/// struct Order { tenant: String, day: u32, number: u32 }
///
/// let orders = Table::new(client, "app", DynamoKeys::of(&Order::SCHEMA)?);
/// let key = Order { tenant: "acme".into(), day: 20240501, number: 42 }.to_key()?;
/// orders.client().put_item().table_name("app").set_item(Some(orders.key_attributes(&key)?)).send().await.ok();
/// let may = orders.read(&Order::scan().tenant("acme").day_range(20240501..20240601).ranges()?, true).await?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Table {
    client: Client,
    name: String,
    keys: DynamoKeys,
    partition_attribute: String,
    sort_attribute: String,
    page_limit: Option<i32>,
}

impl Table {
    /// The table `name`, its key attributes named `pk` and `sk` (see
    /// [`with_attributes`](Self::with_attributes)).
    #[must_use]
    pub fn new(client: Client, name: impl Into<String>, keys: DynamoKeys) -> Table {
        Table {
            client,
            name: name.into(),
            keys,
            partition_attribute: "pk".to_owned(),
            sort_attribute: "sk".to_owned(),
            page_limit: None,
        }
    }

    /// The names of the partition and sort key attributes, as the table's `KeySchema` has them.
    #[must_use]
    pub fn with_attributes(mut self, partition: impl Into<String>, sort: impl Into<String>) -> Table {
        self.partition_attribute = partition.into();
        self.sort_attribute = sort.into();
        self
    }

    /// At most `items` items a page (the query's `Limit`), for reads that should page sooner
    /// than DynamoDB's 1 MB.
    #[must_use]
    pub fn with_page_limit(mut self, items: i32) -> Table {
        self.page_limit = Some(items);
        self
    }

    /// The table's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The SDK client.
    #[must_use]
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The key design.
    #[must_use]
    pub fn keys(&self) -> &DynamoKeys {
        &self.keys
    }

    fn value(&self, bytes: &Key) -> AttributeValue {
        match self.keys.attribute_type() {
            // A string key was checked to be UTF-8 when it was made.
            AttributeType::String => AttributeValue::S(String::from_utf8_lossy(bytes.as_bytes()).into_owned()),
            AttributeType::Binary => AttributeValue::B(Blob::new(bytes.as_bytes())),
        }
    }

    /// The key attributes of the item of `key`, for `PutItem`, `GetItem` or `DeleteItem`.
    ///
    /// # Errors
    ///
    /// What [`DynamoKeys::item`] returns.
    pub fn key_attributes(&self, key: &[u8]) -> crate::Result<Item> {
        let item = self.keys.item(key)?;
        let mut out = Item::new();
        out.insert(self.partition_attribute.clone(), self.value(&item.partition));
        if let Some(sort) = &item.sort {
            out.insert(self.sort_attribute.clone(), self.value(sort));
        }
        Ok(out)
    }

    /// The key of an item the table returned: [`key_attributes`](Self::key_attributes) backwards.
    ///
    /// # Errors
    ///
    /// [`ReadError::Item`] for an item without the key attributes, and [`ReadError::Key`] for
    /// attributes no key of the design gives.
    pub fn key_of(&self, item: &Item) -> Result<Key, ReadError> {
        let partition = self.attribute(item, &self.partition_attribute)?;
        let sort = if self.keys.has_sort_key() { Some(self.attribute(item, &self.sort_attribute)?) } else { None };
        Ok(self.keys.key(&ItemKey { partition, sort })?)
    }

    fn attribute(&self, item: &Item, name: &str) -> Result<Key, ReadError> {
        let ty = self.keys.attribute_type();
        match (item.get(name), ty) {
            (Some(AttributeValue::S(text)), AttributeType::String) => Ok(Key::from(text.as_str())),
            (Some(AttributeValue::B(blob)), AttributeType::Binary) => Ok(Key::from(blob.as_ref())),
            _ => Err(ReadError::Item { table: self.name.clone(), attribute: name.to_owned(), ty: ty.letter() }),
        }
    }

    /// The SDK's `Query` of one of [`DynamoKeys::queries`], ready to send or page
    /// (`.into_paginator()`): the key condition with its names and values, and the order
    /// (`forward` false reads a partition from its greatest sort key down). The items it
    /// returns still need [`KeyQuery::keeps`].
    #[must_use]
    pub fn query(&self, query: &KeyQuery, forward: bool) -> QueryFluentBuilder {
        let (expression, values) = query.key_condition();
        let mut builder = self
            .client
            .query()
            .table_name(&self.name)
            .scan_index_forward(forward)
            .expression_attribute_names("#pk", &self.partition_attribute)
            .set_limit(self.page_limit)
            .key_condition_expression(expression);
        if query.sort.is_some() {
            builder = builder.expression_attribute_names("#sk", &self.sort_attribute);
        }
        for (placeholder, value) in values {
            builder = builder.expression_attribute_values(placeholder, self.value(value));
        }
        builder
    }

    /// Every item of the keys in `ranges` (a scan's, its partition fields fixed): each query
    /// of [`DynamoKeys::queries`] paged to its end, the item a `BETWEEN` reads beyond the range
    /// dropped, and the queries merged in sort-key order (descending when `forward` is false:
    /// newest first for a reversed or `desc` time is `forward`, its keys already sort so).
    /// Retries are the SDK client's.
    ///
    /// # Errors
    ///
    /// [`ReadError::Key`] for a scan that leaves a partition field open, and the first failed
    /// query or item without its key.
    pub async fn read(&self, ranges: &KeyRanges, forward: bool) -> Result<Vec<Item>, ReadError> {
        let queries = self.keys.queries(ranges)?;
        let mut read = Vec::with_capacity(queries.len());
        for (index, query) in queries.iter().enumerate() {
            let mut pages = self.query(query, forward).into_paginator().send();
            let mut items = Vec::new();
            while let Some(page) = pages.next().await {
                let page = page.map_err(|e| ReadError::Query {
                    table: self.name.clone(),
                    index: index + 1,
                    count: queries.len(),
                    message: DisplayErrorContext(&e).to_string(),
                })?;
                for item in page.items.unwrap_or_default() {
                    let sort = if self.keys.has_sort_key() {
                        self.attribute(&item, &self.sort_attribute)?
                    } else {
                        Key::new()
                    };
                    if query.keeps(sort.as_bytes()) {
                        items.push((sort, item));
                    }
                }
            }
            // The merge takes ascending runs.
            if !forward {
                items.reverse();
            }
            read.push(items);
        }
        let mut merged: Vec<Item> =
            crate::merge(read, |(sort, _): &(Key, Item)| sort.as_bytes().to_vec()).map(|(_, item)| item).collect();
        if !forward {
            merged.reverse();
        }
        Ok(merged)
    }
}
