//! Salting and bucketing: [`Salt`] (which bucket a key goes to, and the bucket field), FarmHash
//! Fingerprint64, and HBase-era compatibility helpers.
//!
//! A salt puts a bucket field in front of the key, computed from some of its fields, so that
//! writes which would all land on one tablet spread over the buckets. [`SaltHash`] picks the
//! bucket three ways:
//!
//! - [`FarmHash`](SaltHash::FarmHash): FarmHash Fingerprint64 of the source fields, the
//!   bucket GoogleSQL computes with `ABS(MOD(FARM_FINGERPRINT(...), buckets))`.
//! - [`Modulo`](SaltHash::Modulo): one integer field modulo the bucket count, Tablestore's
//!   `time % 16`.
//! - [`Md5Hex`](SaltHash::Md5Hex) (feature `md5`): Tablestore's MD5 prefix, the first 1 to 4
//!   hex characters of MD5 of the source fields ("the first 4 characters of MD5(ip)"). The
//!   bucket field is those lowercase hex digits in both formats, so the key space splits at
//!   round hex boundaries (`4000`, `8000`, `c000` for four tablets) and a table can be
//!   pre-split before any write.
//!
//! A read that knows every source field touches one bucket; one that does not reads every
//! bucket's prefix ([`Salt::fan_out`]) and merges the sorted streams back
//! ([`merge`](crate::merge::merge)).
//!
//! ```
//! use rowkey::salt::Salt;
//!
//! // Tablestore's monitoring key: md5(ip)[0..4] + ip + time.
//! let salt = Salt::md5_hex(65_536)?;
//! let key = salt.delimited_key(&Default::default(), &("10.10.0.1",), &("10.10.0.1", 1_588_291_200u32))?;
//! assert_eq!(key, "7e4a#10.10.0.1#1588291200");
//! # Ok::<(), rowkey::Error>(())
//! ```

pub(crate) mod bucket;
mod bucket_field;
pub mod compat;
mod fan_out;
pub mod farmhash;
pub(crate) mod store;

pub use bucket::{Salt, SaltHash};
pub use bucket_field::{BucketField, Buckets};
pub use farmhash::{farm_fingerprint, fingerprint64, spanner_shard};
pub use store::StoreBucket;
