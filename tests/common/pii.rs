//! Keys that hold personal data: hashed (`Hashed`) and marked `sensitive`.

use rowkey::RowKey;
use rowkey::field::Hashed;

/// Accounts found by a hashed email address, ordered format.
#[derive(RowKey, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AccountKey {
    pub email: Hashed,
    pub since: u32,
}

/// The same in the delimited format, with a short hash and a field after it.
#[derive(RowKey, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(delimited = "#")]
pub struct AccountKeyText {
    pub tenant: String,
    pub email: Hashed<8>,
    pub since: u32,
}

/// The widest hash, optional, behind a string: the ordered format's `Option` and escapes.
#[derive(RowKey, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WideHash {
    pub tenant: String,
    pub email: Option<Hashed<32>>,
}
