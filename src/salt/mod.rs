//! Salting and bucketing: FarmHash Fingerprint64 and HBase-era compatibility helpers.

pub mod compat;
pub mod farmhash;

pub use farmhash::{farm_fingerprint, fingerprint64, spanner_shard};
