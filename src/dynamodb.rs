//! DynamoDB keys from a rowkey key: its leading fields are the item's partition key, the rest
//! its sort key, and a scan of the key becomes the `Query` calls that read exactly its rows.
//!
//! DynamoDB places an item by the hash of its partition key and sorts a partition's items by
//! their sort keys' bytes (strings by their UTF-8 bytes). A `Query` names one partition key and
//! at most one sort-key condition. [`DynamoKeys`] cuts each key of a schema in two where its
//! partition fields end; the sort key is the rest, after an optional constant (an entity type,
//! for single-table designs), so it sorts as the key does:
//!
//! | key (`delimited = "#"`, salt of 4 from `seq`) | partition key | sort key (`sort_prefix = "READING"`) |
//! |---|---|---|
//! | `2#meter-7#20240501#0042` | `2#meter-7` | `READING#20240501#0042` |
//!
//! | key (ordered) | partition key | sort key |
//! |---|---|---|
//! | `61 63 6d 65 00 01 80 00 01 62` | `61 63 6d 65` | `80 00 01 62` |
//!
//! A delimited key's parts are strings (`S`), an ordered key's binary (`B`). The salt, when
//! there is one, is part of the partition key: the write sharding of DynamoDB's guides. Its
//! sources may be sort-key fields, so that one hot partition key's writes spread over the
//! buckets; a scan then reads one `Query` a bucket, which [`merge`](crate::merge) puts back in
//! sort-key order. Shards can also end the partition key without being part of the key
//! ([`DynamoKeys::with_shards`], `dynamodb(shards(...))`): computed from fields as a salt
//! bucket is, or drawn at random on every write.
//!
//! [`DynamoKeys::queries`] turns the key ranges of a scan into queries, one a range: the
//! condition is `begins_with` where the range is one prefix's (the scan builder's prefixes end
//! at a field, so `ORDER#1` never reads `ORDER#10`), a comparison where one end is open,
//! `BETWEEN` where both ends are included, and for a half-open range, which no condition says,
//! `BETWEEN start AND end` with the item whose sort key is `end` dropped by the reader
//! ([`KeyQuery::keeps`]): at most one item read too many a query.
//!
//! ```
//! use rowkey::RowKey;
//! use rowkey::dynamodb::{DynamoKeys, SortCondition};
//!
//! #[derive(RowKey)]
//! #[rowkey(delimited = "#", prefix = "TENANT")]
//! struct Order {
//!     tenant: String,
//!     day: u32,
//!     #[rowkey(width = 4)]
//!     number: u16,
//! }
//!
//! let keys = DynamoKeys::new(&Order::SCHEMA, &["tenant"], Some("ORDER"))?;
//! let item = keys.item(&Order { tenant: "acme".into(), day: 20240501, number: 42 }.to_key()?)?;
//! assert_eq!(item.partition, "TENANT#acme");
//! assert_eq!(item.sort.as_ref().unwrap(), "ORDER#0020240501#0042");
//!
//! // May's orders: one query, exact.
//! let queries = keys.queries(&Order::scan().tenant("acme").day_range(20240501..20240601).ranges()?)?;
//! assert_eq!(queries.len(), 1);
//! assert_eq!(queries[0].partition, "TENANT#acme");
//! assert_eq!(queries[0].sort, Some(SortCondition::Between("ORDER#0020240501".into(), "ORDER#0020240601".into())));
//! assert_eq!(queries[0].drop.as_ref().unwrap(), "ORDER#0020240601");
//! assert!(queries[0].keeps(item.sort.as_ref().unwrap().as_bytes()));
//! # Ok::<(), rowkey::Error>(())
//! ```

mod condition;
pub(crate) mod shard;
#[cfg(feature = "dynamodb")]
mod table;

use std::ops::Bound;

pub use condition::{AttributeType, KeyQuery, SortCondition};
#[cfg(feature = "dynamodb")]
pub use table::{Item, ReadError, Table};

use crate::error::{Error, Result};
use crate::format::ordered::{OrderedReader, SEPARATOR};
use crate::key::Key;
use crate::range::{KeyRanges, prefix_successor};
use crate::schema::{DynamoShards, Encoding, Format, KeyField, Schema};
use shard::Shard;

/// DynamoDB's limits on a key attribute's length, in bytes.
const PARTITION_MAX: usize = 2048;
const SORT_MAX: usize = 1024;

/// The cut of `schema`'s keys that `partition` and `sort_prefix` describe, or why DynamoDB
/// cannot hold it.
pub(crate) fn check(
    schema: &Schema,
    partition: &[&str],
    sort_prefix: Option<&'static str>,
) -> std::result::Result<Cut, String> {
    let (ty, separator) = match schema.format {
        Format::Delimited(delimiter) => (AttributeType::String, delimiter.as_bytes()),
        Format::Ordered => (AttributeType::Binary, &SEPARATOR[..]),
        other => {
            return Err(format!(
                "`{}` is a {other} key; DynamoDB keys are delimited text (strings) or the ordered format (binary): \
                 declare it `delimited = \"#\"` or ordered",
                schema.type_name
            ));
        }
    };
    let fields = schema.key_fields();
    let lead = usize::from(schema.prefix.is_some()) + usize::from(schema.salt.is_some());
    let names: Vec<&str> = fields[lead..].iter().map(KeyField::name).collect();
    let listed = |names: &[&str]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    if partition.is_empty() || names.get(..partition.len()) != Some(partition) {
        return Err(format!(
            "the partition key is the key's leading fields, in order: [{}] are not; the key's fields are [{}], so \
             name {}",
            listed(partition),
            listed(&names),
            listed(&names[..partition.len().clamp(1, names.len().max(1)).min(names.len())])
        ));
    }
    for name in partition {
        let Some(field) = schema.fields.iter().find(|f| f.name == *name) else {
            return Err(format!(
                "`{name}` is a field of a flattened struct: the partition key takes the key's own fields"
            ));
        };
        if matches!(field.encoding, Encoding::Flattened(_)) {
            return Err(format!("`{name}` is flattened: the partition key takes the key's own fields"));
        }
        if field.descending {
            return Err(format!(
                "`{name}` is `desc`, but a partition key is matched, never ordered: drop `desc` from `{name}`"
            ));
        }
    }
    let has_sort_fields = names.len() > partition.len();
    if let Some(prefix) = sort_prefix {
        if prefix.is_empty() {
            return Err("the sort prefix is empty: give it a name (`ORDER`) or none".to_owned());
        }
        if ty == AttributeType::String && prefix.as_bytes().windows(separator.len()).any(|w| w == separator) {
            return Err(format!("the sort prefix {prefix:?} holds the delimiter: choose one without it"));
        }
    }
    let mut sort_lead = Key::from(sort_prefix.unwrap_or("").as_bytes());
    if sort_prefix.is_some() && has_sort_fields {
        sort_lead.extend_from_slice(separator);
    }
    Ok(Cut { lead_fields: lead + partition.len(), has_sort_fields, sort_lead, ty, separator })
}

/// An item's key attributes: the partition key, and the sort key where the design has one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ItemKey {
    /// The partition key's value.
    pub partition: Key,
    /// The sort key's value; `None` for a design whose key is its partition key alone.
    pub sort: Option<Key>,
}

/// How the keys of one schema are cut into DynamoDB item keys: see the [module](self).
#[derive(Clone, Debug)]
pub struct DynamoKeys {
    schema: &'static Schema,
    cut: Cut,
    /// The shard that ends each partition key, when the design has one.
    shard: Option<Shard>,
}

/// Where a design cuts its keys, and what its sort keys start with.
#[derive(Clone, Debug)]
pub(crate) struct Cut {
    /// The key fields (prefix and bucket included) of the partition key.
    lead_fields: usize,
    /// Whether any key field follows the partition key's.
    has_sort_fields: bool,
    /// What a sort key starts with: the sort prefix and a separator, or nothing.
    sort_lead: Key,
    ty: AttributeType,
    separator: &'static [u8],
}

impl DynamoKeys {
    /// The DynamoDB keys of `schema`'s keys: `partition` names the key's leading fields (by
    /// their key names, in order) that make the partition key, after the schema's prefix and
    /// salt bucket; the sort key is the other fields, after `sort_prefix` if given.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a format other than delimited text or ordered bytes, a
    /// `partition` that is not the leading fields, a flattened or `desc` partition field
    /// (a partition key is matched, never ordered), a design with neither sort fields nor
    /// sort prefix whose keys are all one partition, or a `sort_prefix` holding the delimiter.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::DynamoKeys;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Visit { site: String, page: String }
    ///
    /// assert!(DynamoKeys::new(&Visit::SCHEMA, &["site"], None).is_ok());
    /// let err = DynamoKeys::new(&Visit::SCHEMA, &["page"], None).unwrap_err();
    /// assert!(err.to_string().contains("the key's leading fields"), "{err}");
    /// ```
    pub fn new(schema: &'static Schema, partition: &[&str], sort_prefix: Option<&'static str>) -> Result<DynamoKeys> {
        let cut = check(schema, partition, sort_prefix).map_err(|e| Error::argument("DynamoDB keys", e))?;
        Ok(DynamoKeys { schema, cut, shard: None })
    }

    /// These keys with each partition key spread over shards, its last part (write sharding
    /// as a suffix: `acme#07`): computed from key fields as a salt bucket is
    /// ([`DynamoShards::Computed`]), or drawn at random on every [`item`](Self::item)
    /// ([`DynamoShards::Random`]). A scan then queries each shard, and readers merge them.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a schema with a salt (whose bucket already shards the
    /// partition key), a bucket count a salt cannot have, or sources that are not the key's
    /// own fields or are partition fields only (which would put a partition key's every item in
    /// one shard).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::DynamoKeys;
    /// use rowkey::schema::DynamoShards;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Event { day: u32, #[rowkey(width = 6)] seq: u32 }
    ///
    /// let keys = DynamoKeys::new(&Event::SCHEMA, &["day"], None)?.with_shards(DynamoShards::Random { buckets: 4 })?;
    /// let item = keys.item(&Event { day: 20240501, seq: 7 }.to_key()?)?;
    /// let partition = item.partition.to_readable();
    /// assert!(["0020240501#0", "0020240501#1", "0020240501#2", "0020240501#3"].contains(&partition.as_str()));
    /// assert_eq!(item.sort.as_ref().unwrap(), "000007");
    /// // A day of events: one query a shard.
    /// assert_eq!(keys.queries(&Event::scan().day(20240501).ranges()?)?.len(), 4);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn with_shards(mut self, shards: DynamoShards) -> Result<DynamoKeys> {
        let partition: Vec<&str> = self.partition_fields().iter().map(KeyField::name).collect();
        let shard = shard::check(self.schema, &partition, shards).map_err(|e| Error::argument("DynamoDB keys", e))?;
        self.shard = Some(shard);
        Ok(self)
    }

    /// The DynamoDB keys the schema declares (`#[rowkey(dynamodb(...))]`, or the schema
    /// file's `dynamodb`).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a schema that declares none, and as [`new`](Self::new).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::DynamoKeys;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", dynamodb(partition = [site], sort_prefix = "VISIT"))]
    /// struct Visit { site: String, page: String }
    ///
    /// let keys = DynamoKeys::of(&Visit::SCHEMA)?;
    /// let item = keys.item(&Visit { site: "a.io".into(), page: "/".into() }.to_key()?)?;
    /// assert_eq!((item.partition.to_readable(), item.sort.unwrap().to_readable()), ("a.io".into(), "VISIT#/".into()));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn of(schema: &'static Schema) -> Result<DynamoKeys> {
        let Some(design) = schema.dynamodb else {
            return Err(Error::argument(
                "DynamoDB keys",
                format!(
                    "`{}` declares no DynamoDB keys: add `#[rowkey(dynamodb(partition = [...]))]` to the type, or \
                     `\"dynamodb\": {{\"partition\": [...]}}` to its schema file",
                    schema.type_name
                ),
            ));
        };
        let keys = Self::new(schema, design.partition, design.sort_prefix)?;
        match design.shards {
            Some(shards) => keys.with_shards(shards),
            None => Ok(keys),
        }
    }

    /// The schema whose keys these are.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::DynamoKeys;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(dynamodb(partition = [owner]))]
    /// struct Blob { owner: String, id: Vec<u8> }
    /// assert_eq!(DynamoKeys::of(&Blob::SCHEMA)?.schema().type_name, "Blob");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn schema(&self) -> &'static Schema {
        self.schema
    }

    /// The type of both key attributes: strings for delimited keys, binary for ordered ones.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::{AttributeType, DynamoKeys};
    ///
    /// #[derive(RowKey)]
    /// struct Blob { owner: String, id: Vec<u8> }
    /// assert_eq!(DynamoKeys::new(&Blob::SCHEMA, &["owner"], None)?.attribute_type(), AttributeType::Binary);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn attribute_type(&self) -> AttributeType {
        self.cut.ty
    }

    /// Whether items have a sort key: the design has sort fields or a sort prefix.
    #[must_use]
    pub fn has_sort_key(&self) -> bool {
        self.cut.has_sort_fields || !self.cut.sort_lead.is_empty()
    }

    /// The item key of one key of the schema. With [shards](Self::with_shards), its partition
    /// key ends with the key's shard: the one its source fields give, or for random shards a
    /// new draw on every call.
    ///
    /// # Errors
    ///
    /// What [`Schema::inspect`] returns for bytes that are not a key of the schema; and
    /// [`Error::InvalidArgument`] for a key whose partition or sort key DynamoDB refuses: empty
    /// (give the sort key a prefix), longer than its limit (2,048 and 1,024 bytes), or, for a
    /// string, not UTF-8 (a byte field in a delimited key).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::DynamoKeys;
    ///
    /// #[derive(RowKey)]
    /// struct Blob { owner: String, id: Vec<u8> }
    /// let keys = DynamoKeys::new(&Blob::SCHEMA, &["owner"], None)?;
    /// let item = keys.item(&Blob { owner: "ann".into(), id: vec![0, 0xff] }.to_key()?)?;
    /// assert_eq!((item.partition.as_bytes(), item.sort.unwrap().as_bytes()), (&b"ann"[..], &[0, 0xff, 0xff][..]));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn item(&self, key: &[u8]) -> Result<ItemKey> {
        let inspection = self.schema.inspect(key)?;
        let item = self.unsharded(key)?;
        let Some(shard) = &self.shard else { return Ok(item) };
        let bucket = shard.of(self.schema, &inspection)?;
        let partition = shard.append(item.partition.as_bytes(), self.cut.separator, bucket)?;
        Ok(ItemKey { partition: self.checked(&partition, "partition", PARTITION_MAX)?, sort: item.sort })
    }

    /// A key's item key without the shard: its parts, checked against DynamoDB's rules.
    fn unsharded(&self, key: &[u8]) -> Result<ItemKey> {
        let (partition, rest) =
            self.cut(key).ok_or_else(|| self.refused("its partition fields do not end where the key's fields say"))?;
        let partition = self.checked(partition, "partition", PARTITION_MAX)?;
        if !self.has_sort_key() {
            return Ok(ItemKey { partition, sort: None });
        }
        let mut sort = self.cut.sort_lead.clone();
        sort.extend_from_slice(rest);
        let sort = self.checked(&sort, "sort", SORT_MAX)?;
        Ok(ItemKey { partition, sort: Some(sort) })
    }

    /// The key of the schema whose item key this is: [`item`](Self::item) backwards.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for an item key that no key of the schema gives (a sort key
    /// without the sort prefix, a sort key where the design has none, parts that are not a
    /// key's, a partition key without the design's shard or with a shard other than the one
    /// its source fields give).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::DynamoKeys;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Visit { site: String, page: String }
    /// let keys = DynamoKeys::new(&Visit::SCHEMA, &["site"], Some("VISIT"))?;
    /// let key = Visit { site: "a.io".into(), page: "/".into() }.to_key()?;
    /// assert_eq!(keys.key(&keys.item(&key)?)?, key);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn key(&self, item: &ItemKey) -> Result<Key> {
        let Some(shard) = &self.shard else { return self.joined(item.partition.as_bytes(), item.sort.as_ref()) };
        let (partition, tail) = self
            .cut(item.partition.as_bytes())
            .filter(|(_, tail)| !tail.is_empty())
            .ok_or_else(|| self.refused("the partition key does not end with a shard"))?;
        let bucket = shard.read(tail).map_err(|e| self.refused(&format!("the partition key's shard: {e}")))?;
        let key = self.joined(partition, item.sort.as_ref())?;
        if !shard.holds(self.schema, &self.schema.inspect(&key)?, bucket)? {
            return Err(self.refused(&format!(
                "the partition key's shard {bucket} is not the one its source fields give: the item was written by \
                 another design"
            )));
        }
        Ok(key)
    }

    /// The key whose unsharded parts are `partition` and `sort`.
    fn joined(&self, partition: &[u8], sort: Option<&Key>) -> Result<Key> {
        let rest = match (sort, self.has_sort_key()) {
            (Some(sort), true) => sort
                .as_bytes()
                .strip_prefix(self.cut.sort_lead.as_bytes())
                .ok_or_else(|| self.refused("the sort key does not start with the design's sort prefix"))?,
            (None, false) => &[],
            (Some(_), false) => return Err(self.refused("the item has a sort key, and the design none")),
            (None, true) => return Err(self.refused("the item has no sort key, and the design has one")),
        };
        let mut key = Key::from(partition);
        // An ordered key whose sort fields are all empty ends with its partition fields.
        if self.cut.has_sort_fields && (self.cut.ty == AttributeType::String || !rest.is_empty()) {
            key.extend_from_slice(self.cut.separator);
            key.extend_from_slice(rest);
        }
        let parts = self.schema.inspect(&key).ok().and_then(|_| self.unsharded(&key).ok());
        if parts.as_ref().is_none_or(|p| p.partition.as_bytes() != partition || p.sort.as_ref() != sort) {
            return Err(self.refused("the partition and sort key are not the parts of a key of this design"));
        }
        Ok(key)
    }

    /// The queries that read exactly the keys in `ranges` (a scan's, whose fixed fields
    /// include every partition field; a salt's buckets give a query each): one a non-empty
    /// range, in the ranges' order. No range, no query.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a range that is not within one partition key: the scan
    /// must fix every partition field.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::dynamodb::{DynamoKeys, SortCondition};
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", salt(buckets = 4, from = [seq]))]
    /// struct Reading { meter: String, day: u32, seq: u32 }
    ///
    /// let keys = DynamoKeys::new(&Reading::SCHEMA, &["meter"], None)?;
    /// // The bucket comes from `seq`, a sort field: a day of one meter is in all four.
    /// let queries = keys.queries(&Reading::scan().meter("m-7").day(20240501).ranges()?)?;
    /// let partitions: Vec<_> = queries.iter().map(|q| q.partition.to_readable()).collect();
    /// assert_eq!(partitions, ["0#m-7", "1#m-7", "2#m-7", "3#m-7"]);
    /// assert_eq!(queries[0].sort, Some(SortCondition::BeginsWith("0020240501#".into())));
    ///
    /// let err = keys.queries(&Reading::scan().ranges()?).unwrap_err();
    /// assert!(err.to_string().contains("fix every partition field"), "{err}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn queries(&self, ranges: &KeyRanges) -> Result<Vec<KeyQuery>> {
        let mut out = Vec::with_capacity(ranges.len());
        for range in ranges.iter().filter(|r| !r.is_empty()) {
            let (start, end) = range.bounds();
            let unfixed = || self.refused_scan();
            let s = match start {
                Bound::Included(s) | Bound::Excluded(s) => s,
                Bound::Unbounded => return Err(unfixed()),
            };
            let (partition, _) = self.cut(s).ok_or_else(unfixed)?;
            let mut within = partition.to_vec();
            within.extend_from_slice(self.cut.separator);
            let past = prefix_successor(&within);
            let lo = match self.lower(partition, &within, start) {
                Some(lo) => lo,
                None => continue,
            };
            let hi = match end {
                Bound::Unbounded => return Err(unfixed()),
                Bound::Included(e) | Bound::Excluded(e) if past.as_ref().is_some_and(|p| e > p.as_bytes()) => {
                    return Err(unfixed());
                }
                _ => match self.upper(partition, &within, past.as_ref(), end) {
                    Some(hi) => hi,
                    None => continue,
                },
            };
            let lo = self.aligned(partition, lo, &hi);
            match &self.shard {
                Some(shard) => {
                    for bucket in shard.all() {
                        let sharded = shard.append(partition, self.cut.separator, bucket)?;
                        let sharded = self.checked(&sharded, "partition", PARTITION_MAX)?;
                        out.extend(KeyQuery::new(sharded, lo.clone(), hi.clone(), self.cut.ty));
                    }
                }
                None => {
                    let partition = self.checked(partition, "partition", PARTITION_MAX)?;
                    out.extend(KeyQuery::new(partition, lo, hi, self.cut.ty));
                }
            }
        }
        Ok(out)
    }

    /// A key's (or a scan bound's) partition key and what follows it after the separator:
    /// `None` when the bytes hold fewer than the partition's fields, or something other than
    /// a separator or the end after them.
    fn cut<'k>(&self, bytes: &'k [u8]) -> Option<(&'k [u8], &'k [u8])> {
        let end = match self.schema.format {
            Format::Delimited(delimiter) => {
                let delimiter = delimiter.as_bytes();
                let mut at = 0;
                for index in 0..self.cut.lead_fields {
                    let rest = &bytes[at..];
                    match rest.windows(delimiter.len()).position(|w| w == delimiter) {
                        Some(end) if index + 1 < self.cut.lead_fields => at += end + delimiter.len(),
                        Some(end) => at += end,
                        None if index + 1 == self.cut.lead_fields => at = bytes.len(),
                        None => return None,
                    }
                }
                at
            }
            _ => {
                let mut reader = OrderedReader::new(bytes, usize::MAX);
                for _ in 0..self.cut.lead_fields {
                    reader.field::<Vec<u8>>().ok()?;
                }
                let at = reader.position();
                // The field's separator was read with it.
                if bytes[..at].ends_with(&SEPARATOR) { at - SEPARATOR.len() } else { at }
            }
        };
        let (partition, after) = bytes.split_at(end);
        match after.strip_prefix(self.cut.separator) {
            Some(rest) => Some((partition, rest)),
            None if after.is_empty() => Some((partition, after)),
            None => None,
        }
    }

    /// A range of the keys that go on from sort key `a` (`[a, a#)` with its fields fixed), as
    /// the scan of a fixed field gives it, starts at `a#` when `a` itself is no key: then the
    /// range is one prefix's, which `begins_with` says without reading an item too many.
    fn aligned(&self, partition: &[u8], lo: Bound<Key>, hi: &Bound<Key>) -> Bound<Key> {
        let (Bound::Included(a), Bound::Excluded(b)) = (&lo, hi) else { return lo };
        let mut on = a.clone();
        on.extend_from_slice(self.cut.separator);
        if prefix_successor(on.as_bytes()).as_ref() == Some(b) && self.joined(partition, Some(a)).is_err() {
            Bound::Included(on)
        } else {
            lo
        }
    }

    /// A range's start in sort keys: `None` when no key of the partition is at or after it.
    fn lower(&self, partition: &[u8], within: &[u8], start: Bound<&[u8]>) -> Option<Bound<Key>> {
        let (s, included) = match start {
            Bound::Included(s) => (s, true),
            Bound::Excluded(s) => (s, false),
            Bound::Unbounded => return Some(self.floor()),
        };
        Some(if let Some(rest) = s.strip_prefix(within) {
            let mut sort = self.cut.sort_lead.clone();
            sort.extend_from_slice(rest);
            if included { Bound::Included(sort) } else { Bound::Excluded(sort) }
        } else if s < partition || (s == partition && included) {
            self.floor()
        } else {
            // Past the key that is the partition fields alone, before any with sort fields.
            Bound::Excluded(self.cut.sort_lead.clone())
        })
    }

    /// A range's end in sort keys: `None` when no key of the partition is before it.
    fn upper(&self, partition: &[u8], within: &[u8], past: Option<&Key>, end: Bound<&[u8]>) -> Option<Bound<Key>> {
        let (e, included) = match end {
            Bound::Included(e) => (e, true),
            Bound::Excluded(e) => (e, false),
            Bound::Unbounded => return Some(self.ceiling()),
        };
        Some(if let Some(rest) = e.strip_prefix(within) {
            let mut sort = self.cut.sort_lead.clone();
            sort.extend_from_slice(rest);
            if included { Bound::Included(sort) } else { Bound::Excluded(sort) }
        } else if past.is_none_or(|p| e >= p.as_bytes()) {
            self.ceiling()
        } else if e > partition || (e == partition && included) {
            Bound::Included(self.cut.sort_lead.clone())
        } else {
            return None;
        })
    }

    /// The least sort key of the design's items: from its sort prefix on.
    fn floor(&self) -> Bound<Key> {
        if self.cut.sort_lead.is_empty() { Bound::Unbounded } else { Bound::Included(self.cut.sort_lead.clone()) }
    }

    /// Past the greatest sort key of the design's items: the end of its sort prefix.
    fn ceiling(&self) -> Bound<Key> {
        match prefix_successor(self.cut.sort_lead.as_bytes()) {
            Some(past) if !self.cut.sort_lead.is_empty() => Bound::Excluded(past),
            _ => Bound::Unbounded,
        }
    }

    fn checked(&self, bytes: &[u8], part: &'static str, max: usize) -> Result<Key> {
        let refuse = |why: String| Err(self.refused(&format!("its {part} key {why}")));
        if bytes.is_empty() {
            return refuse("is empty, which DynamoDB refuses: give the sort key a prefix (`sort_prefix`)".to_owned());
        }
        if bytes.len() > max {
            return refuse(format!("is {} bytes, over DynamoDB's {max}: shorten the key's fields", bytes.len()));
        }
        if self.cut.ty == AttributeType::String && std::str::from_utf8(bytes).is_err() {
            return refuse("is not UTF-8, which a string key must be: use the ordered format (binary keys)".to_owned());
        }
        Ok(Key::from(bytes))
    }

    fn refused(&self, why: &str) -> Error {
        Error::argument("DynamoDB keys", format!("a key of `{}`: {why}", self.schema.type_name))
    }

    /// The fields of the partition key (its prefix and salt bucket left out).
    fn partition_fields(&self) -> Vec<KeyField> {
        let mut fields = self.schema.key_fields();
        let first = usize::from(self.schema.prefix.is_some()) + usize::from(self.schema.salt.is_some());
        fields.truncate(self.cut.lead_fields);
        fields.drain(..first);
        fields
    }

    fn refused_scan(&self) -> Error {
        let names: Vec<String> = self.partition_fields().iter().map(|f| format!("`{}`", f.name())).collect();
        Error::argument(
            "DynamoDB query",
            format!(
                "a query reads one partition key, so the scan of `{}` must fix every partition field ({})",
                self.schema.type_name,
                names.join(", ")
            ),
        )
    }
}
