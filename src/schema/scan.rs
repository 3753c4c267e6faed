//! [`Schema::scan_ranges`] and [`Schema::scan_query`]: the key ranges of a query given as
//! text, built by the format's own scan builder (the one the derived `T::scan()` uses), so that
//! a tool with only a schema reads exactly what `T::scan()` would.

use std::collections::HashMap;
use std::ops::Bound;

use crate::error::{Error, Result};
use crate::range::KeyRanges;
use crate::schema::format_ops::key_ops;
use crate::schema::given::bucket_of;
use crate::schema::next::{Next, ScanNext};
use crate::schema::parse::parse_value;
use crate::schema::redact::about_field;
use crate::schema::{Encoding, FieldSchema, Schema, Value};

/// Why no key can match a query, from [`Schema::empty_scan`]: the field whose range holds no
/// value, and the query on it as the `rowkey scan` command takes it (`scanned_ms=5..5`).
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::schema::ScanNext;
/// use std::ops::Bound;
///
/// #[derive(RowKey)]
/// #[rowkey(delimited = "#")]
/// struct Parcel { depot: String, carrier: String, scanned_ms: u64 }
///
/// let range = ScanNext::Range(Bound::Included("5"), Bound::Excluded("5"));
/// let why = Parcel::SCHEMA.empty_scan(&[("depot", "ab")], Some(("carrier", range)))?.unwrap();
/// assert_eq!(why.field(), "carrier");
/// assert_eq!(why.query(), "carrier=5..5");
/// assert_eq!(why.to_string(), "`carrier=5..5` is empty: no value of `carrier` lies in it");
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyScan {
    field: String,
    query: String,
}

impl EmptyScan {
    /// The field whose range holds no value.
    #[must_use]
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The query on that field as `rowkey scan` takes it: `name=lo..hi`, `name=lo..=hi`,
    /// `name=..hi` (an excluded start, which the command cannot take, is followed by
    /// ` (start excluded)`).
    #[must_use]
    pub fn query(&self) -> &str {
        &self.query
    }
}

impl std::fmt::Display for EmptyScan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is empty: no value of `{}` lies in it", self.query, self.field)
    }
}

impl std::error::Error for EmptyScan {}

/// A query on the field after the fixed ones, written as the `rowkey scan` command takes it.
fn query_text(name: &str, query: ScanNext<'_>) -> String {
    match query {
        ScanNext::Range(lo, hi) => {
            let (start, excluded) = match lo {
                Bound::Included(t) => (t, false),
                Bound::Excluded(t) => (t, true),
                Bound::Unbounded => ("", false),
            };
            let end = match hi {
                Bound::Included(t) => format!("..={t}"),
                Bound::Excluded(t) => format!("..{t}"),
                Bound::Unbounded => "..".to_owned(),
            };
            let note = if excluded { " (start excluded)" } else { "" };
            format!("{name}={start}{end}{note}")
        }
        ScanNext::StartsWith(prefix) => format!("{name}^={prefix}"),
        ScanNext::HostAndSubdomains(host) => format!("{name}~={host}"),
    }
}

impl Schema {
    /// The key ranges of a query given as text: the leading fields fixed to values (in the
    /// forms [`encode`](Self::encode) takes), and optionally the next field within bounds, in
    /// its value order. The same ranges the derived scan builder (`T::scan()...ranges()`)
    /// gives, through the same [`OrderedScan`] / [`DelimitedScan`]: so a tool with only the
    /// schema file reads exactly what the Rust code would.
    ///
    /// A salted key's bucket is computed when every salt source field is fixed; otherwise the
    /// bounds repeat in every bucket, one range (or two) per bucket. The prefix and bucket are
    /// not given. Fixing stops at a flattened field, as the scan builder's does.
    ///
    /// [`OrderedScan`]: crate::scan::OrderedScan
    /// [`DelimitedScan`]: crate::scan::DelimitedScan
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for an unknown field, a field given twice, fixed fields
    /// that are not the key's leading ones, a range on a field other than the next one or on
    /// one whose values do not order its keys (`bit_reverse`, `reverse_domain`), or a value
    /// that does not parse.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use std::ops::Bound;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
    /// struct Reading {
    ///     device_type: String,
    ///     device_id: String,
    ///     #[rowkey(reverse)]
    ///     ts_millis: i64,
    /// }
    ///
    /// let ranges = Reading::SCHEMA.scan_ranges(
    ///     &[("device_type", "phone"), ("device_id", "4c410523")],
    ///     Some(("ts_millis", Bound::Included("1588291200000"), Bound::Excluded("1588377600000"))),
    /// )?;
    /// let expected = Reading::scan().device_type("phone").device_id("4c410523").ts_millis_range(1588291200000..1588377600000).ranges()?;
    /// assert_eq!(ranges, expected);
    ///
    /// // Without the device id the bucket is unknown: one range in each of the 16.
    /// assert_eq!(Reading::SCHEMA.scan_ranges(&[("device_type", "phone")], None)?.len(), 16);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn scan_ranges(
        &self,
        fixed: &[(&str, &str)],
        range: Option<(&str, Bound<&str>, Bound<&str>)>,
    ) -> Result<KeyRanges> {
        self.scan_query(fixed, range.map(|(name, lo, hi)| (name, ScanNext::Range(lo, hi))))
    }

    /// Why no key can match the query of [`scan_query`](Self::scan_query), when none can:
    /// its ranges are all empty (`scanned_ms=5..5`, a range from a UUID to itself, `shard=7..7`
    /// in every salt bucket). `None` when some key can lie in them.
    ///
    /// A store reads an empty set of ranges as the whole table (Bigtable's empty `RowSet`,
    /// `rowkey::bigtable::row_set` returns `None` for it), so a tool that reads what
    /// a query gives should stop and say this instead. Fixed fields, a prefix and a host
    /// always leave keys to match: only a range on the field after the fixed ones can be
    /// empty, and that field is named.
    ///
    /// # Errors
    ///
    /// As [`scan_query`](Self::scan_query).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::ScanNext;
    /// use std::ops::Bound;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
    /// struct Reading { device_type: String, device_id: String, ts_millis: u64 }
    ///
    /// let fixed = [("device_type", "phone")];
    /// let none = ("device_id", ScanNext::Range(Bound::Included("b"), Bound::Excluded("a")));
    /// assert!(Reading::SCHEMA.scan_query(&fixed, Some(none))?.iter().all(|r| r.is_empty()));
    /// let why = Reading::SCHEMA.empty_scan(&fixed, Some(none))?.unwrap();
    /// assert_eq!(why.to_string(), "`device_id=b..a` is empty: no value of `device_id` lies in it");
    ///
    /// let some = ("device_id", ScanNext::Range(Bound::Included("a"), Bound::Included("a")));
    /// assert_eq!(Reading::SCHEMA.empty_scan(&fixed, Some(some))?, None);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn empty_scan(&self, fixed: &[(&str, &str)], next: Option<(&str, ScanNext<'_>)>) -> Result<Option<EmptyScan>> {
        if self.scan_query(fixed, next)?.iter().any(|range| !range.is_empty()) {
            return Ok(None);
        }
        let (field, query) = match next {
            Some((name, query)) => (name.to_owned(), query_text(name, query)),
            // Not reached (fixed fields leave the keys that start with them), but named all the same.
            None => {
                let (name, value) = fixed.last().copied().unwrap_or((self.type_name, ""));
                (name.to_owned(), format!("{name}={value}"))
            }
        };
        Ok(Some(EmptyScan { field, query }))
    }

    /// [`scan_ranges`](Self::scan_ranges) with any of the scan builder's queries on the field
    /// after the fixed ones: a range of values, a text prefix (the builder's
    /// `field_starts_with`), or a host and its sub-domains (`field_with_subdomains`).
    ///
    /// # Errors
    ///
    /// As [`scan_ranges`](Self::scan_ranges), and a prefix query on a field that is not an
    /// ascending `String` without a transform, or a sub-domain query on one that is not a
    /// `reverse_domain` host.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::ScanNext;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Page {
    ///     #[rowkey(reverse_domain)]
    ///     host: String,
    ///     path: String,
    /// }
    ///
    /// let subdomains = Page::SCHEMA.scan_query(&[], Some(("host", ScanNext::HostAndSubdomains("google.com"))))?;
    /// assert_eq!(subdomains, Page::scan().host_with_subdomains("google.com").ranges()?);
    /// let docs = Page::SCHEMA.scan_query(&[("host", "google.com")], Some(("path", ScanNext::StartsWith("/docs"))))?;
    /// assert_eq!(docs, Page::scan().host("google.com").path_starts_with("/docs").ranges()?);
    ///
    /// let err = Page::SCHEMA.scan_query(&[], Some(("host", ScanNext::StartsWith("com.goo")))).unwrap_err();
    /// assert!(err.to_string().contains("`host` is stored reversed"), "{err}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn scan_query(&self, fixed: &[(&str, &str)], next: Option<(&str, ScanNext<'_>)>) -> Result<KeyRanges> {
        self.query_ranges(fixed, next).map_err(|e| self.redact_error(e))
    }

    fn query_ranges(&self, fixed: &[(&str, &str)], next: Option<(&str, ScanNext<'_>)>) -> Result<KeyRanges> {
        // The fields a scan can fix: the key's own, up to the first flattened one.
        let steps: Vec<&FieldSchema> =
            self.fields.iter().take_while(|f| !matches!(f.encoding, Encoding::Flattened(_))).collect();
        let names: Vec<&str> = self.key_fields().iter().map(|f| f.name()).collect();
        let mut given: HashMap<&str, &str> = HashMap::new();
        for &(name, text) in fixed {
            // A schema read from Bigtable's has fields of these names, and no salt or prefix.
            let computed = (name == Schema::PREFIX_FIELD && self.prefix.is_some())
                || (name == Schema::BUCKET_FIELD && self.salt.is_some());
            if computed {
                return Err(Error::argument(
                    "scan",
                    format!("`{name}` is computed from the key's fields: leave it out"),
                ));
            }
            if !names.contains(&name) {
                return Err(Error::argument(
                    "scan",
                    format!("`{}` has no field `{name}`; its fields are {}", self.type_name, names.join(", ")),
                ));
            }
            if given.insert(name, text).is_some() {
                return Err(Error::argument("scan", format!("`{name}` is given twice")));
            }
        }
        let count = given.len();
        if let Some(gap) = steps.iter().take(count).find(|f| !given.contains_key(f.name)) {
            let later = fixed.iter().map(|(n, _)| *n).find(|n| steps.iter().position(|f| f.name == *n) >= Some(count));
            return Err(Error::argument(
                "scan",
                format!(
                    "a scan fixes the key's leading fields in order: `{}` is fixed but `{}` before it is not",
                    later.unwrap_or("a later field"),
                    gap.name
                ),
            ));
        }
        if count > steps.len() {
            let first = fixed.iter().map(|(n, _)| *n).find(|n| !steps.iter().any(|f| f.name == *n)).unwrap_or("?");
            return Err(Error::argument(
                "scan",
                format!("`{first}` is in or after a flattened field, which a scan cannot fix"),
            ));
        }
        let values: Vec<Option<Value>> = self
            .fields
            .iter()
            .map(|f| {
                given
                    .get(f.name)
                    .map(|text| parse_value(self.format, f, text).map_err(|e| about_field(f, e)))
                    .transpose()
            })
            .collect::<Result<_>>()?;
        let next = match next {
            None => None,
            Some((name, query)) => {
                let field = steps.get(count).filter(|f| f.name == name).ok_or_else(|| {
                    let next = steps.get(count).map_or_else(|| "none".to_owned(), |f| format!("`{}`", f.name));
                    Error::argument(
                        "scan",
                        format!("a range or prefix is on the field after the fixed ones, here {next}, not `{name}`"),
                    )
                })?;
                Some((*field, Next::parse(self.format, field, query).map_err(|e| about_field(field, e))?))
            }
        };
        let salt = self.salt.map(|s| s.salt()).transpose()?;
        let known = match self.salt {
            Some(salt_schema) if salt_schema.from.iter().all(|n| given.contains_key(n)) => {
                let values: Vec<_> = values.iter().map(|v| v.as_ref().map(std::borrow::Cow::Borrowed)).collect();
                bucket_of(self, &values, &HashMap::new(), false)?
            }
            _ => None,
        };
        let ops = key_ops(self)?;
        let per_bucket = |bucket: Option<u32>| -> Result<KeyRanges> {
            let mut fixed_fields = steps.iter().zip(&values).take(count);
            ops.ranges(self, steps.len(), salt.as_ref().zip(bucket), &mut fixed_fields, &next)
        };
        match (&salt, known) {
            (Some(salt), None) => salt.fan_out(|bucket| per_bucket(Some(bucket))),
            (_, bucket) => per_bucket(bucket),
        }
    }
}
