//! Every keyword of `#[rowkey(...)]`, defined once as a [`Symbol`], the lists each place
//! takes, and the words people reach for instead (for "did you mean").

use std::fmt;

/// One keyword of the attribute language.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Symbol(&'static str);

impl Symbol {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<Symbol> for syn::Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

/// The attribute's own name.
pub const ROWKEY: Symbol = Symbol("rowkey");

// On the struct.
pub const ORDERED: Symbol = Symbol("ordered");
pub const DELIMITED: Symbol = Symbol("delimited");
pub const FDB_TUPLE: Symbol = Symbol("fdb_tuple");
pub const MEMCOMPARABLE: Symbol = Symbol("memcomparable");
pub const HBASE: Symbol = Symbol("hbase");
pub const FORMAT: Symbol = Symbol("format");
pub const PREFIX: Symbol = Symbol("prefix");
pub const SALT: Symbol = Symbol("salt");
pub const MAX_LEN: Symbol = Symbol("max_len");
pub const ALLOW_HOTSPOT: Symbol = Symbol("allow_hotspot");
pub const CRATE: Symbol = Symbol("crate");
pub const DYNAMODB: Symbol = Symbol("dynamodb");

// Inside `salt(...)`.
pub const BUCKETS: Symbol = Symbol("buckets");
pub const FROM: Symbol = Symbol("from");
pub const HASH: Symbol = Symbol("hash");

// Inside `dynamodb(...)`.
pub const PARTITION: Symbol = Symbol("partition");
pub const SORT_PREFIX: Symbol = Symbol("sort_prefix");
pub const SHARDS: Symbol = Symbol("shards");

// Inside `shards(...)`, beside the salt's words.
pub const RANDOM: Symbol = Symbol("random");

// The values of `hash = "..."`.
pub const FARMHASH: Symbol = Symbol("farmhash");
pub const MODULO: Symbol = Symbol("modulo");
pub const MD5: Symbol = Symbol("md5");

// On a field.
pub const DESC: Symbol = Symbol("desc");
pub const REVERSE: Symbol = Symbol("reverse");
pub const BIT_REVERSE: Symbol = Symbol("bit_reverse");
pub const REVERSE_DOMAIN: Symbol = Symbol("reverse_domain");
pub const HEX: Symbol = Symbol("hex");
pub const WIDTH: Symbol = Symbol("width");
pub const BIG_ENDIAN: Symbol = Symbol("big_endian");
pub const FLATTEN: Symbol = Symbol("flatten");
pub const RENAME: Symbol = Symbol("rename");
pub const SKIP: Symbol = Symbol("skip");
pub const MONOTONIC: Symbol = Symbol("monotonic");
pub const NANOS: Symbol = Symbol("nanos");
pub const NUMERIC: Symbol = Symbol("numeric");
pub const SENSITIVE: Symbol = Symbol("sensitive");
pub const ALLOW_PERSONAL_DATA: Symbol = Symbol("allow_personal_data");

pub(crate) const CONTAINER_WORDS: &[Symbol] = &[
    ORDERED,
    DELIMITED,
    FDB_TUPLE,
    MEMCOMPARABLE,
    HBASE,
    FORMAT,
    PREFIX,
    SALT,
    MAX_LEN,
    ALLOW_HOTSPOT,
    CRATE,
    DYNAMODB,
];
pub(crate) const SALT_WORDS: &[Symbol] = &[BUCKETS, FROM, HASH];
pub(crate) const DYNAMODB_WORDS: &[Symbol] = &[PARTITION, SORT_PREFIX, SHARDS];
pub(crate) const SHARD_WORDS: &[Symbol] = &[BUCKETS, FROM, HASH, RANDOM];
pub(crate) const FIELD_WORDS: &[Symbol] = &[
    DESC,
    REVERSE,
    BIT_REVERSE,
    REVERSE_DOMAIN,
    HEX,
    WIDTH,
    BIG_ENDIAN,
    FLATTEN,
    RENAME,
    SKIP,
    MONOTONIC,
    NANOS,
    NUMERIC,
    SENSITIVE,
    ALLOW_PERSONAL_DATA,
];

/// Words people reach for that mean one of ours.
const SYNONYMS: &[(&str, Symbol)] = &[
    ("name", RENAME),
    ("descending", DESC),
    ("reversed", REVERSE),
    ("rev", REVERSE),
    ("delimiter", DELIMITED),
    ("separator", DELIMITED),
    ("bit_reversed", BIT_REVERSE),
    ("reversed_domain", REVERSE_DOMAIN),
    ("domain", REVERSE_DOMAIN),
    ("padded", WIDTH),
    ("pad", WIDTH),
    ("be", BIG_ENDIAN),
    ("bigendian", BIG_ENDIAN),
    ("ignore", SKIP),
    ("default", SKIP),
    ("max_length", MAX_LEN),
    ("maxlen", MAX_LEN),
    ("hotspot", ALLOW_HOTSPOT),
    ("buckets", SALT),
    ("nanoseconds", NANOS),
    ("precision", NANOS),
    ("tuple", FDB_TUPLE),
    ("fdb", FDB_TUPLE),
    ("foundationdb", FDB_TUPLE),
    ("hbase_ordered", HBASE),
    ("ordered_bytes", HBASE),
    ("orderedbytes", HBASE),
    ("decimal", NUMERIC),
    ("pii", SENSITIVE),
    ("secret", SENSITIVE),
    ("redact", SENSITIVE),
    ("redacted", SENSITIVE),
    ("personal_data", ALLOW_PERSONAL_DATA),
    ("allow_pii", ALLOW_PERSONAL_DATA),
    ("dynamo", DYNAMODB),
    ("dynamo_db", DYNAMODB),
    ("partition_key", PARTITION),
    ("hash_key", PARTITION),
    ("pk", PARTITION),
    ("sort_key", SORT_PREFIX),
    ("sort_key_prefix", SORT_PREFIX),
    ("entity", SORT_PREFIX),
];

/// A keyword close to `found`: a known synonym, or one a typo away.
pub(crate) fn suggestion(found: &str, words: &[Symbol]) -> Option<Symbol> {
    let synonym = SYNONYMS.iter().find(|(alias, _)| *alias == found).map(|&(_, word)| word);
    synonym.filter(|w| words.contains(w)).or_else(|| {
        words
            .iter()
            .map(|&w| (edit_distance(found, w.as_str()), w))
            .filter(|&(d, w)| d <= 2 && d < w.as_str().len())
            .min_by_key(|&(d, _)| d)
            .map(|(_, w)| w)
    })
}

/// Levenshtein distance, for typo suggestions on short keywords.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
