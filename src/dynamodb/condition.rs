//! The sort-key condition of one DynamoDB `Query`, made from a range of sort keys: the one
//! condition DynamoDB accepts that reads exactly that range, and the item (at most one) the
//! reader drops where no condition says the range exactly.

use std::fmt;
use std::ops::Bound;

use crate::key::Key;
use crate::range::{key_after, prefix_successor};

/// How DynamoDB compares a key attribute: strings by their UTF-8 bytes, binary by its bytes,
/// so both as bytes; a string must also be valid UTF-8, which bounds must be too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttributeType {
    /// `S`: the delimited text format's keys, readable in the console.
    String,
    /// `B`: the binary formats' keys.
    Binary,
}

impl AttributeType {
    /// The letter DynamoDB's API names the type by (`AttributeType` in `KeySchema`).
    ///
    /// ```
    /// assert_eq!(rowkey::dynamodb::AttributeType::Binary.letter(), "B");
    /// ```
    #[must_use]
    pub fn letter(self) -> &'static str {
        match self {
            AttributeType::String => "S",
            AttributeType::Binary => "B",
        }
    }
}

/// One sort-key condition of a DynamoDB `Query` (`KeyConditionExpression`), in the forms DynamoDB
/// takes: the comparisons, `BETWEEN` (inclusive at both ends) and `begins_with`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortCondition {
    /// `sk = :v`
    Eq(Key),
    /// `sk < :v`
    Lt(Key),
    /// `sk <= :v`
    Le(Key),
    /// `sk > :v`
    Gt(Key),
    /// `sk >= :v`
    Ge(Key),
    /// `sk BETWEEN :lo AND :hi`, both ends included.
    Between(Key, Key),
    /// `begins_with(sk, :v)`
    BeginsWith(Key),
}

impl SortCondition {
    /// Whether DynamoDB's condition holds for a sort key of these bytes.
    ///
    /// ```
    /// use rowkey::dynamodb::SortCondition;
    ///
    /// let between = SortCondition::Between("a".into(), "b".into());
    /// assert!(between.holds(b"a") && between.holds(b"ab") && between.holds(b"b") && !between.holds(b"ba"));
    /// assert!(SortCondition::BeginsWith("ab".into()).holds(b"abc"));
    /// ```
    #[must_use]
    pub fn holds(&self, sort: &[u8]) -> bool {
        match self {
            SortCondition::Eq(v) => sort == v.as_bytes(),
            SortCondition::Lt(v) => sort < v.as_bytes(),
            SortCondition::Le(v) => sort <= v.as_bytes(),
            SortCondition::Gt(v) => sort > v.as_bytes(),
            SortCondition::Ge(v) => sort >= v.as_bytes(),
            SortCondition::Between(lo, hi) => lo.as_bytes() <= sort && sort <= hi.as_bytes(),
            SortCondition::BeginsWith(v) => sort.starts_with(v.as_bytes()),
        }
    }

    /// The operator as `KeyConditionExpression` writes it, over attribute `sk` and values
    /// `:lo` and `:hi`.
    ///
    /// ```
    /// use rowkey::dynamodb::SortCondition;
    ///
    /// assert_eq!(SortCondition::Between("a".into(), "b".into()).expression("sk"), "sk BETWEEN :lo AND :hi");
    /// assert_eq!(SortCondition::BeginsWith("a".into()).expression("sk"), "begins_with(sk, :lo)");
    /// ```
    #[must_use]
    pub fn expression(&self, attribute: &str) -> String {
        match self {
            SortCondition::Eq(_) => format!("{attribute} = :lo"),
            SortCondition::Lt(_) => format!("{attribute} < :lo"),
            SortCondition::Le(_) => format!("{attribute} <= :lo"),
            SortCondition::Gt(_) => format!("{attribute} > :lo"),
            SortCondition::Ge(_) => format!("{attribute} >= :lo"),
            SortCondition::Between(..) => format!("{attribute} BETWEEN :lo AND :hi"),
            SortCondition::BeginsWith(_) => format!("begins_with({attribute}, :lo)"),
        }
    }

    /// The condition's values: `:lo`, and `:hi` for `BETWEEN`.
    ///
    /// ```
    /// use rowkey::dynamodb::SortCondition;
    ///
    /// let below = SortCondition::Lt("b".into());
    /// assert_eq!(below.values(), (&"b".into(), None));
    /// ```
    #[must_use]
    pub fn values(&self) -> (&Key, Option<&Key>) {
        match self {
            SortCondition::Between(lo, hi) => (lo, Some(hi)),
            SortCondition::Eq(v)
            | SortCondition::Lt(v)
            | SortCondition::Le(v)
            | SortCondition::Gt(v)
            | SortCondition::Ge(v)
            | SortCondition::BeginsWith(v) => (v, None),
        }
    }
}

impl fmt::Display for SortCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |k: &Key| k.to_readable();
        match self {
            SortCondition::Eq(v) => write!(f, "= {}", text(v)),
            SortCondition::Lt(v) => write!(f, "< {}", text(v)),
            SortCondition::Le(v) => write!(f, "<= {}", text(v)),
            SortCondition::Gt(v) => write!(f, "> {}", text(v)),
            SortCondition::Ge(v) => write!(f, ">= {}", text(v)),
            SortCondition::Between(lo, hi) => write!(f, "BETWEEN {} AND {}", text(lo), text(hi)),
            SortCondition::BeginsWith(v) => write!(f, "begins_with {}", text(v)),
        }
    }
}

/// One DynamoDB `Query`: a partition key, the sort-key condition (none reads the partition
/// whole), and the sort key of the one item the condition reads beyond the range (a `BETWEEN`
/// standing for a half-open range), which [`keeps`](Self::keeps) drops.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeyQuery {
    /// The partition key's value.
    pub partition: Key,
    /// The sort-key condition, if any.
    pub sort: Option<SortCondition>,
    /// The sort key of the item to drop from what the query returns.
    pub drop: Option<Key>,
}

impl KeyQuery {
    /// The query of partition key `partition` that reads exactly the sort keys of type `ty`
    /// between `lo` and `hi`; `None` when no key of the type lies between them. A text bound
    /// that is not UTF-8 moves to the first text at or above it, which no key lies between.
    ///
    /// ```
    /// use std::ops::Bound;
    /// use rowkey::dynamodb::{AttributeType, KeyQuery, SortCondition};
    ///
    /// let q = KeyQuery::new("p".into(), Bound::Included("a".into()), Bound::Excluded("b".into()), AttributeType::String).unwrap();
    /// assert_eq!(q.sort, Some(SortCondition::BeginsWith("a".into())));
    /// // A text end past U+007F: the least text at or above it is U+0080.
    /// let q = KeyQuery::new("p".into(), Bound::Unbounded, Bound::Excluded(b"a\x80".as_slice().into()), AttributeType::String).unwrap();
    /// assert_eq!(q.sort, Some(SortCondition::Lt("a\u{80}".into())));
    /// assert!(KeyQuery::new("p".into(), Bound::Included("b".into()), Bound::Excluded("a".into()), AttributeType::Binary).is_none());
    /// ```
    #[must_use]
    pub fn new(partition: Key, lo: Bound<Key>, hi: Bound<Key>, ty: AttributeType) -> Option<KeyQuery> {
        let (sort, drop) = condition(lo, hi, ty).ok()?;
        Some(KeyQuery { partition, sort, drop })
    }

    /// The query's `KeyConditionExpression` over the attribute names `#pk` and `#sk` (the
    /// latter only with a sort condition), and its values by placeholder: `:pk`, then `:lo`
    /// and `:hi` as the condition has them.
    ///
    /// ```
    /// use rowkey::dynamodb::{KeyQuery, SortCondition};
    ///
    /// let query = KeyQuery { partition: "p".into(), sort: Some(SortCondition::Ge("a".into())), drop: None };
    /// let (expression, values) = query.key_condition();
    /// assert_eq!(expression, "#pk = :pk AND #sk >= :lo");
    /// assert_eq!(values, [(":pk", &"p".into()), (":lo", &"a".into())]);
    /// ```
    #[must_use]
    pub fn key_condition(&self) -> (String, Vec<(&'static str, &Key)>) {
        let mut values = vec![(":pk", &self.partition)];
        let Some(sort) = &self.sort else { return ("#pk = :pk".to_owned(), values) };
        let (lo, hi) = sort.values();
        values.push((":lo", lo));
        values.extend(hi.map(|hi| (":hi", hi)));
        (format!("#pk = :pk AND {}", sort.expression("#sk")), values)
    }

    /// Whether an item of this partition whose sort key is `sort` is one the scan asked for:
    /// the condition holds and it is not the dropped item.
    ///
    /// ```
    /// use rowkey::dynamodb::{KeyQuery, SortCondition};
    ///
    /// // The half-open range [a, b): `BETWEEN a AND b`, dropping `b`.
    /// let query = KeyQuery { partition: "p".into(), sort: Some(SortCondition::Between("a".into(), "b".into())), drop: Some("b".into()) };
    /// assert!(query.keeps(b"a") && query.keeps(b"az") && !query.keeps(b"b"));
    /// ```
    #[must_use]
    pub fn keeps(&self, sort: &[u8]) -> bool {
        self.sort.as_ref().is_none_or(|c| c.holds(sort)) && self.drop.as_ref().is_none_or(|d| d.as_bytes() != sort)
    }
}

/// The condition that reads exactly the sort keys in `(lo, hi)` of type `ty` (an empty
/// range is `Err(())`: no query), and the item to drop.
pub(super) fn condition(
    lo: Bound<Key>,
    hi: Bound<Key>,
    ty: AttributeType,
) -> Result<(Option<SortCondition>, Option<Key>), ()> {
    // A prefix range says itself exactly, whatever the type: the prefix is a key's leading
    // bytes, so valid text where keys are.
    if let (Bound::Included(a), Bound::Excluded(b)) = (&lo, &hi)
        && !a.is_empty()
        && (ty == AttributeType::Binary || std::str::from_utf8(a.as_bytes()).is_ok())
        && prefix_successor(a.as_bytes()).as_ref() == Some(b)
    {
        return Ok((Some(SortCondition::BeginsWith(a.clone())), None));
    }
    // One form of each bound: a start included, nothing below the empty key, and text bounds
    // moved to the first valid text at or above them (no key lies between).
    let lo = match lo {
        Bound::Excluded(a) => Bound::Included(key_after(a.as_bytes())),
        other => other,
    };
    let lo = match lo {
        Bound::Included(a) if a.is_empty() => Bound::Unbounded,
        Bound::Included(a) => match valid_at_least(a, ty) {
            Some(a) => Bound::Included(a),
            None => return Err(()),
        },
        other => other,
    };
    let hi = match hi {
        Bound::Included(b) if ty == AttributeType::String && std::str::from_utf8(b.as_bytes()).is_err() => {
            match valid_at_least(b, ty) {
                Some(b) => Bound::Excluded(b),
                None => Bound::Unbounded,
            }
        }
        Bound::Excluded(b) => match valid_at_least(b, ty) {
            Some(b) => Bound::Excluded(b),
            None => Bound::Unbounded,
        },
        other => other,
    };
    Ok(match (lo, hi) {
        (Bound::Unbounded, Bound::Unbounded) => (None, None),
        (Bound::Included(a), Bound::Unbounded) => (Some(SortCondition::Ge(a)), None),
        (Bound::Unbounded, Bound::Included(b)) => (Some(SortCondition::Le(b)), None),
        (Bound::Unbounded, Bound::Excluded(b)) if b.is_empty() => return Err(()),
        (Bound::Unbounded, Bound::Excluded(b)) => (Some(SortCondition::Lt(b)), None),
        (Bound::Included(a), Bound::Included(b)) if a == b => (Some(SortCondition::Eq(a)), None),
        (Bound::Included(a), Bound::Included(b)) if a < b => (Some(SortCondition::Between(a, b)), None),
        (Bound::Included(a), Bound::Excluded(b)) if a < b => {
            // No condition says a half-open range: `BETWEEN` reads `b` too, and the reader drops it.
            (Some(SortCondition::Between(a, b.clone())), Some(b))
        }
        _ => return Err(()),
    })
}

/// The least key of type `ty` at or above `bytes`: `bytes` itself unless it is text that is
/// not UTF-8; `None` when no text lies at or above it.
fn valid_at_least(bytes: Key, ty: AttributeType) -> Option<Key> {
    if ty == AttributeType::Binary {
        return Some(bytes);
    }
    let raw = bytes.as_bytes();
    let valid = match std::str::from_utf8(raw) {
        Ok(_) => return Some(bytes),
        Err(e) => e.valid_up_to(),
    };
    // The text keeps its valid head and continues with the least character whose encoding
    // is at or above the bytes that follow; past U+10FFFF, the head's last character steps up.
    let mut head = String::from_utf8(raw[..valid].to_vec()).ok()?;
    let mut tail = raw[valid..].to_vec();
    loop {
        if let Some(c) = least_char_at_least(&tail) {
            head.push(c);
            return Some(Key::from(head.as_str()));
        }
        let last = head.pop()?;
        let mut buf = [0u8; 4];
        tail = last.encode_utf8(&mut buf).as_bytes().to_vec();
        tail.push(0xff);
    }
}

/// The least character whose UTF-8 bytes are at or above `tail`, by binary search over the
/// code points (their encodings sort as they do).
fn least_char_at_least(tail: &[u8]) -> Option<char> {
    let encoded = |c: char| {
        let mut buf = [0u8; 4];
        c.encode_utf8(&mut buf).as_bytes().to_vec()
    };
    let (mut lo, mut hi) = (0u32, 0x11_0000u32);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        // A surrogate has no encoding: it sorts as the first character after the gap.
        let c = char::from_u32(mid).unwrap_or('\u{e000}');
        if encoded(c).as_slice() >= tail { hi = mid } else { lo = mid + 1 }
    }
    char::from_u32(lo).or(if lo < 0x11_0000 { Some('\u{e000}') } else { None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_bounds_move_to_the_least_text_at_or_above_them() {
        let at = |b: &[u8]| valid_at_least(Key::from(b), AttributeType::String).map(|k| k.into_vec());
        assert_eq!(at(b"ab"), Some(b"ab".to_vec()));
        // A lone continuation byte: U+0080 is the least character above it.
        assert_eq!(at(b"a\x80"), Some("a\u{80}".as_bytes().to_vec()));
        // The start of a two-byte character, cut short: its least completion.
        assert_eq!(at(b"a\xc3"), Some("a\u{c0}".as_bytes().to_vec()));
        // Beyond every encoding: the previous character steps up.
        assert_eq!(at(b"a\xff"), Some(b"b".to_vec()));
        assert_eq!(at(b"\xff"), None);
        // Just below the surrogates, and at them.
        assert_eq!(at(b"\xed\xa0"), Some("\u{e000}".as_bytes().to_vec()));
    }
}
