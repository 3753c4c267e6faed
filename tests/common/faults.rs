//! Keys whose values can be wrong in several fields at once, one per built-in format, and
//! values for them that are wrong in any number of fields: what holds the schema path to the
//! first fault the derived type reports.

use proptest::prelude::*;
use rowkey::RowKey;

/// The delimited format: a station that may hold the delimiter, a channel that may be wider
/// than its width, a reversed time that may be negative, a host that may not be a domain.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct FaultText {
    pub station: String,
    #[rowkey(width = 6)]
    pub channel: u32,
    #[rowkey(reverse)]
    pub at: i64,
    #[rowkey(reverse_domain)]
    pub host: String,
}

/// The ordered format: reversed numbers and a reversed domain are what it can refuse.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct FaultOrdered {
    pub name: String,
    #[rowkey(reverse)]
    pub at: i64,
    #[rowkey(reverse_domain)]
    pub host: String,
    #[rowkey(reverse)]
    pub seq: i64,
}

/// HBase: text may hold U+0000, which `OrderedString` cannot.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase)]
pub struct FaultHBase {
    pub name: String,
    #[rowkey(reverse)]
    pub at: i64,
    #[rowkey(reverse_domain)]
    pub host: String,
    pub note: String,
}

/// FoundationDB tuples.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(fdb_tuple)]
pub struct FaultTuple {
    pub name: String,
    #[rowkey(reverse)]
    pub at: i64,
    #[rowkey(reverse_domain)]
    pub host: String,
    #[rowkey(reverse)]
    pub seq: i64,
}

/// Memcomparable.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable)]
pub struct FaultMc {
    pub name: String,
    #[rowkey(reverse)]
    pub at: i64,
    #[rowkey(reverse_domain)]
    pub host: String,
    #[rowkey(reverse)]
    pub seq: i64,
}

/// Text, at times holding `bad` (the delimiter, U+0000).
pub fn text_with(bad: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![3 => "[a-z]{0,4}", 1 => "[a-z]{0,2}".prop_map(move |s| format!("{s}{bad}x"))]
}

/// A reversed field's value: at times negative, which no reversal holds.
pub fn reversible() -> impl Strategy<Value = i64> {
    prop_oneof![3 => 0..=i64::MAX, 1 => i64::MIN..0]
}

/// A host, at times one that is no domain name (an empty label, an empty name, a space).
pub fn host_or_not() -> impl Strategy<Value = String> {
    prop_oneof![3 => "([a-z0-9]{1,6}\\.){0,2}[a-z]{1,6}", 1 => Just(String::new()), 1 => Just("a..b".to_owned()), 1 => Just("a b".to_owned())]
}

/// A channel, at times wider than its six digits.
pub fn channel() -> impl Strategy<Value = u32> {
    prop_oneof![3 => 0..=999_999u32, 1 => 1_000_000..=u32::MAX]
}

/// A narrow integer before a field that can fault, delimited: a value beyond the integer's
/// type reaches only the schema path (the type cannot hold it), and is its first fault.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#")]
pub struct NarrowText {
    pub n: u16,
    pub station: String,
}

/// The same in the ordered format, a reversed field after it.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct NarrowOrdered {
    pub n: u16,
    #[rowkey(reverse)]
    pub at: i64,
}
