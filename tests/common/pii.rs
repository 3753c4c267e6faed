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

/// What the redaction tests put in a sensitive field, and look for in every output.
pub const MARKER: &str = "MARKER-7f3a";

/// Logins by tenant and email address, the address marked sensitive: ordered format.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct Login {
    pub tenant: String,
    #[rowkey(sensitive)]
    pub email: String,
    pub at: u32,
}

/// The same in the delimited format, behind a salt whose buckets the split planner knows.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", salt(buckets = 4, from = [tenant], hash = "modulo"))]
pub struct LoginText {
    pub tenant: u32,
    #[rowkey(sensitive)]
    pub email: String,
    pub at: u32,
    #[rowkey(sensitive)]
    pub pin: u16,
}

/// The sensitive field first, so that labels that show a key's leading fields reach it.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct LoginByEmail {
    #[rowkey(sensitive)]
    pub email: String,
    pub at: u32,
}
