//! Keys that hold personal data: hashed (`Hashed`) and marked `sensitive`.

use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::field::Hashed;
use rowkey::testing::hashes;

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

/// `AccountKey`s with every kind of hash byte and the ends of `since`.
pub fn account() -> impl Strategy<Value = AccountKey> {
    (hashes(), prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()])
        .prop_map(|(email, since)| AccountKey { email, since })
}

/// `AccountKeyText`s, tenants that share prefixes.
pub fn account_text() -> impl Strategy<Value = AccountKeyText> {
    ("[a-c]{0,2}", hashes(), any::<u32>()).prop_map(|(tenant, email, since)| AccountKeyText { tenant, email, since })
}

/// `WideHash`es, a `\0` in the tenant and the hash absent.
pub fn wide() -> impl Strategy<Value = WideHash> {
    ("[a-c\\x00]{0,2}", prop::option::of(hashes())).prop_map(|(tenant, email)| WideHash { tenant, email })
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

/// What the redaction tests put in a sensitive number field, and look for (in pieces too) in
/// every output: large enough to fit no field it is given to, so that it reaches the errors of
/// values that parse but do not fit.
pub const NUMBER_MARKER: &str = "103490972925679";

/// A sensitive `i64` in a FoundationDB tuple key.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(fdb_tuple)]
pub struct SsnTuple {
    pub tenant: String,
    #[rowkey(sensitive)]
    pub ssn: i64,
}

/// A sensitive `u64` and `f32` in a memcomparable key.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable)]
pub struct MeterMemcomparable {
    pub tenant: String,
    #[rowkey(sensitive)]
    pub account: u64,
    #[rowkey(sensitive)]
    pub reading: f32,
}

/// A sensitive `i64` in an HBase key.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase)]
pub struct SsnHBase {
    pub tenant: String,
    #[rowkey(sensitive)]
    pub ssn: i64,
}

/// A sensitive `Option<u64>` in an ordered key.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct CardOrdered {
    pub tenant: String,
    #[rowkey(sensitive)]
    pub card: Option<u64>,
}

/// Sensitive fixed-width numbers and text in a delimited key: a value over the width is the
/// typed path's error as well as the schema's.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct Pinned {
    pub user: String,
    #[rowkey(sensitive, width = 6)]
    pub pin: u32,
    #[rowkey(sensitive, width = 5)]
    pub code: u16,
    #[rowkey(sensitive)]
    pub email: String,
}

/// A sensitive reversed time: the command's `--time-unit` would print it as an instant.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct Birthday {
    pub tenant: String,
    #[rowkey(sensitive, reverse)]
    pub born_ms: i64,
}

/// Tide-gauge readings by station and channel, with an optional sensitive note: a delimited
/// key whose values can be wrong in two fields at once (a station holding the delimiter, a
/// channel wider than its width) while the sensitive field is absent.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct Tide {
    pub station: String,
    #[rowkey(width = 6)]
    pub channel: u32,
    #[rowkey(sensitive)]
    pub note: Option<String>,
}
