//! Salting and bucketing: [`Salt`] (which bucket a key goes to, and the bucket field), FarmHash
//! Fingerprint64, and HBase-era compatibility helpers.

pub(crate) mod bucket;
pub mod compat;
mod fan_out;
pub mod farmhash;

pub use bucket::{BucketField, Salt, SaltHash};
pub use farmhash::{farm_fingerprint, fingerprint64, spanner_shard};
