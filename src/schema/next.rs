//! A query on the field after a scan's fixed ones: [`ScanNext`] as it is given, `Next` with
//! its values parsed for the field.

use std::ops::Bound;

use crate::error::{Error, Result};
use crate::schema::parse::parse_value;
use crate::schema::{Encoding, FieldSchema, Format, Transform, Value};

/// What a query asks of the field after the fixed ones, in [`Schema::scan_query`](crate::schema::Schema::scan_query).
///
/// ```
/// use rowkey::schema::ScanNext;
/// use std::ops::Bound;
///
/// // `ts=1588291200000..` and `name^=ph` of the `rowkey scan` command.
/// let from = ScanNext::Range(Bound::Included("1588291200000"), Bound::Unbounded);
/// let phones = ScanNext::StartsWith("ph");
/// assert_ne!(from, phones);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanNext<'a> {
    /// Values within bounds, in the field's value order (a reversed field's later bound is
    /// the start of its keys; the ranges turn them round).
    Range(Bound<&'a str>, Bound<&'a str>),
    /// Text values that start with this text: an ascending `String` field without a transform.
    StartsWith(&'a str),
    /// A host stored reversed (`reverse_domain`) and all its sub-domains: `google.com` finds
    /// `google.com` and `maps.google.com`, not `google-analytics.com`.
    HostAndSubdomains(&'a str),
}

/// A [`ScanNext`] with its values parsed for the field.
pub(super) enum Next<'a> {
    Range(Bound<Value>, Bound<Value>),
    StartsWith(&'a str),
    Host(&'a str),
}

impl<'a> Next<'a> {
    pub(super) fn parse(format: Format, field: &FieldSchema, query: ScanNext<'a>) -> Result<Next<'a>> {
        let name = field.name;
        let plain_text = field.encoding == Encoding::Utf8 && !field.optional && !field.descending;
        match query {
            ScanNext::Range(..)
                if matches!(field.transform, Transform::BitReverse { .. } | Transform::ReverseDomain) =>
            {
                Err(Error::argument(
                    "scan",
                    format!(
                        "`{name}` is stored {}, so its values do not order its keys: fix it instead",
                        field.transform
                    ),
                ))
            }
            ScanNext::Range(lo, hi) => {
                let parse = |b: Bound<&str>| -> Result<Bound<Value>> {
                    Ok(match b {
                        Bound::Included(t) => Bound::Included(parse_value(format, field, t)?),
                        Bound::Excluded(t) => Bound::Excluded(parse_value(format, field, t)?),
                        Bound::Unbounded => Bound::Unbounded,
                    })
                };
                Ok(Next::Range(parse(lo)?, parse(hi)?))
            }
            ScanNext::StartsWith(prefix) if plain_text && field.transform == Transform::None => {
                Ok(Next::StartsWith(prefix))
            }
            ScanNext::StartsWith(_) if field.transform == Transform::ReverseDomain => Err(Error::argument(
                "scan",
                format!(
                    "`{name}` is stored reversed (reverse_domain), so a text prefix is not a key prefix: ask for \
                     the host and its sub-domains instead"
                ),
            )),
            ScanNext::StartsWith(_) => Err(Error::argument(
                "scan",
                format!(
                    "`{name}` is {field}: a prefix of its values is a prefix of its keys only for an ascending \
                     `String` without a transform or `Option`"
                ),
            )),
            ScanNext::HostAndSubdomains(host) if plain_text && field.transform == Transform::ReverseDomain => {
                Ok(Next::Host(host))
            }
            ScanNext::HostAndSubdomains(_) => Err(Error::argument(
                "scan",
                format!(
                    "`{name}` is {field}: sub-domains are found for an ascending `String` host stored \
                     reverse_domain, which keeps a domain's hosts together"
                ),
            )),
        }
    }
}

impl FieldSchema {
    /// Whether keys run against the field's values (`reverse` or `desc`, not both).
    pub(super) fn reverses_order(&self) -> bool {
        matches!(self.transform, Transform::Reverse { .. }) != self.descending
    }
}
