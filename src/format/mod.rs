//! Key formats: how field bytes are framed into one key.
//!
//! - [`ordered`]: the default binary format, Bigtable's `Struct.OrderedCodeBytes`; every
//!   field type, any bytes, ascending or descending.
//! - [`delimited`]: readable text keys, Bigtable's `Struct.DelimitedBytes`
//!   (`phone#4c410523#20200501`).

pub mod delimited;
pub(crate) mod flatten;
pub mod ordered;
pub(crate) mod prefix;
mod tuple;

pub use delimited::{Delimited, DelimitedKey, DelimitedReader, DelimitedWriter};
pub use ordered::{OrderedKey, OrderedReader, OrderedWriter};
