//! Key formats: how field bytes are framed into one key.
//!
//! - [`ordered`]: the default binary format, Bigtable's `Struct.OrderedCodeBytes`; every
//!   field type, any bytes, ascending or descending.

pub mod ordered;

pub use ordered::{OrderedReader, OrderedWriter};
