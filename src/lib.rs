//! Order-preserving row keys for range-partitioned stores: Bigtable, HBase, Spanner,
//! Tablestore, TiKV, and embedded ordered stores such as redb.
//!
//! Such a store sorts rows by the raw bytes of their keys, and serves one key, one prefix or
//! one range fast; anything else is a full scan. So the row key is the schema. `rowkey`
//! encodes values so that their bytes sort as the values do, and decodes them back.
//!
//! # Keys from tuples
//!
//! A tuple of [field types](field) is a [`RowKey`] in the ordered format, byte-compatible
//! with Bigtable's structured row keys (`Struct.OrderedCodeBytes`):
//!
//! ```
//! use rowkey::{Desc, RowKey};
//!
//! let key = ("phone", "4c410523", Desc(1_588_291_200_000i64)).to_key()?;
//! let (kind, id, ts) = <(String, String, Desc<i64>)>::from_key(&key)?;
//! assert_eq!((kind.as_str(), id.as_str(), ts.0), ("phone", "4c410523", 1_588_291_200_000));
//!
//! // Byte order is value order, field by field; `Desc` reverses one field.
//! let later = ("phone", "4c410523", Desc(1_588_291_200_001i64)).to_key()?;
//! assert!(later < key);
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! # Keys from serde types
//!
//! With the default `serde` feature, any `Serialize` type is a key in the same format, and the
//! same bytes as the tuple of its fields ([`serde`](mod@serde) has the layout of sequences,
//! maps and enums):
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Reading {
//!     device: String,
//!     at: rowkey::Desc<i64>,
//! }
//!
//! let reading = Reading { device: "4c410523".into(), at: rowkey::Desc(1_588_291_200_000) };
//! let key = rowkey::to_key(&reading)?;
//! # use rowkey::RowKey;
//! assert_eq!(key, ("4c410523", rowkey::Desc(1_588_291_200_000i64)).to_key()?);
//! assert_eq!(rowkey::from_key::<Reading>(&key)?, reading);
//! # }
//! # Ok::<(), rowkey::Error>(())
//! ```
//!
//! # What sorts how
//!
//! - Strings and bytes sort bytewise, a prefix before its extensions (`"ab" < "abc"`), with
//!   `\0` and `\xFF` bytes allowed anywhere.
//! - Integers sort numerically over their whole range, negatives first; floats like
//!   [`f64::total_cmp`] with both zeros equal.
//! - `None` sorts before every `Some`; [`Desc`] reverses a field.
//! - Fields compare left to right: a key sorts by its first field, then its second, ...
//!
//! # Errors
//!
//! Decoding accepts any bytes and never panics: bytes that are not a key of the type give an
//! [`Error`] that names the field and the byte offset. Encoding refuses values that would
//! break order (a negative [`BigEndian`]) instead of writing a mis-sorted key.
//!
//! # Features
//!
//! | feature | default | adds |
//! |---|---|---|
//! | `derive` | yes | `#[derive(RowKey)]`: composite keys, typed scan builders, `SCHEMA` |
//! | `serde` | yes | [`to_key`] / [`from_key`] for any `Serialize` / `Deserialize` type |
//! | `proptest` | no | `rowkey::testing`: strategies and assertions that a key type sorts as its values do |
//! | `bigtable-schema` | no | `Schema::to_bigtable_json`: the row key schema Bigtable's Admin API and GoogleSQL read (serde_json) |
//! | `bigtable` | no | `rowkey::bigtable`: ranges as `RowSet`s, merged fan-out reads and batched writes on the Bigtable Data API (`bigtable_rs`, tokio) |
//! | `uuid` | no | `uuid::Uuid` fields: 16 bytes, or hyphenated text; `field::uuid_v7_range` |
//! | `ulid` | no | `ulid::Ulid` fields: 16 bytes, or Crockford base32; `field::ulid_range` |
//! | `chrono` | no | chrono's `DateTime<Utc>`, `DateTime<FixedOffset>`, `NaiveDateTime` and `NaiveDate` fields |
//! | `time` | no | time's `OffsetDateTime`, `UtcDateTime`, `PrimitiveDateTime` and `Date` fields |
//! | `jiff` | no | jiff's `Timestamp`, `civil::DateTime` and `civil::Date` fields |
//! | `md5` | no | `SaltHash::Md5Hex`: Tablestore's MD5 hex-prefix salt (RustCrypto's md-5) |
//!
//! Without a feature, IP addresses (with [`field::Cidr`] blocks as ranges), `Duration`,
//! `u128`, `i128` and the `NonZero` integers are field types too.

// `unsafe` is denied everywhere but in `field::utf8`, where a bench showed the gain and a
// test reaches each block.
#![deny(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "bigtable")]
pub mod bigtable;
pub mod dynamodb;
mod error;
pub mod field;
pub mod format;
pub mod hotspot;
pub mod key;
mod key_buf;
pub mod key_text;
mod merge;
pub mod range;
pub mod rekey;
mod row_key;
pub mod salt;
pub mod scan;
pub mod schema;
#[cfg(feature = "serde")]
pub mod serde;
pub mod splits;
#[cfg(feature = "proptest")]
pub mod testing;
pub mod transform;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use error::{Error, Location, Result};
pub use field::{BigEndian, Desc};
pub use key::Key;
pub use merge::{Merge, TryMerge, merge, try_merge};
pub use range::{KeyRange, KeyRanges, key_after, prefix_successor};
pub use row_key::{RowKey, RowKeyOwned};
#[cfg(feature = "serde")]
pub use serde::{from_key, to_key, to_key_into};

/// Derives [`RowKey`](trait@RowKey) for a struct with named fields.
#[cfg(feature = "derive")]
pub use rowkey_derive::RowKey;

/// The README's code blocks, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
