//! Keys behind a byte-string prefix (`#[rowkey(prefix = b"...")]`), one per built-in format:
//! table and index ids as CockroachDB writes them (`/Table/53/1/` is `bd 89`), a FoundationDB
//! subspace, a Phoenix-style salt byte. Each prefix holds bytes that are not UTF-8, and the
//! ordered and store ones the `00` and `ff` that escaping and framing must carry.

use proptest::prelude::*;
use rowkey::RowKey;
use rowkey::testing::{edge_i64, edge_strings};

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(prefix = b"\x00\xbd\xff")]
pub struct OrderedTableRow {
    pub tenant: String,
    #[rowkey(desc)]
    pub seq: i64,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "#", prefix = b"\xbd\x89", salt(buckets = 4, from = [tenant]))]
pub struct DelimitedTableRow {
    pub tenant: String,
    pub seq: i64,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(fdb_tuple, prefix = b"\x15\x35\x00\xff")]
pub struct FdbTableRow {
    pub tenant: String,
    pub seq: i64,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(memcomparable, prefix = b"\xbd\x89\x00")]
pub struct McTableRow {
    pub tenant: String,
    #[rowkey(desc)]
    pub seq: i64,
}

#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(hbase, prefix = b"\x80", salt(buckets = 8, from = [tenant]))]
pub struct HBaseTableRow {
    pub tenant: String,
    pub seq: i64,
}

/// Edge texts the format holds: the delimited key's alphabet is above `#`, HBase's strings
/// end at `\0`; the others hold any text.
pub fn tenants(delimited: bool, nul: bool) -> impl Strategy<Value = String> {
    edge_strings().prop_map(move |t| {
        t.chars()
            .map(|c| match c {
                c if delimited && c <= '#' => 'a',
                '\0' if !nul => 'b',
                c => c,
            })
            .collect()
    })
}

pub fn seqs() -> impl Strategy<Value = i64> {
    edge_i64()
}
