//! What generated code calls. Not public API: it changes without notice.

pub use crate::error::{Error, Location, Result};
pub use crate::format::delimited::{Delimited, DelimitedKey, DelimitedReader, DelimitedWriter};
pub use crate::format::ordered::{OrderedKey, OrderedReader, OrderedWriter};
pub use crate::key::Key;
pub use crate::row_key::RowKey;
