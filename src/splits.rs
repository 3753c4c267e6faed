//! Split points for a table created before its first write, and the forms stores take them in.
//!
//! A table written from its first minute holds one tablet (one region) until the store splits
//! it by size, so a salted key's buckets all land on that tablet at first. Creating the table
//! with initial splits at the bucket boundaries spreads the writes from the start, as Apache
//! Phoenix does for a `SALT_BUCKETS` table. [`SplitPlanner`] finds the points from a key's
//! [`Schema`]:
//!
//! - a salted key splits at each bucket's first key: 16 buckets give 15 splits;
//! - [`per_bucket(k)`](SplitPlanner::per_bucket) adds `k` splits inside each bucket, evenly
//!   over the values of the field after the bucket, when those values are spread over a space
//!   the schema knows: hex text, zero-padded decimal, fixed-width bytes and UUIDs;
//! - [`Splits::from_sample`] splits any key design at the quantiles of a sample of real keys.
//!
//! [`Splits`] writes a list of points in each store's form: the Bigtable Admin API's JSON,
//! the `cbt createtable` argument, the HBase shell's `SPLITS`, Terraform's `split_keys`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
//! struct Reading {
//!     device_type: String,
//!     device_id: String,
//!     #[rowkey(reverse)]
//!     ts_millis: i64,
//! }
//!
//! let splits = Reading::SCHEMA.split_planner().plan()?;
//! assert_eq!(splits.len(), 15);
//! assert_eq!(splits.points()[0], "01#");
//! assert_eq!(splits.to_cbt_arg()?, "splits=01#,02#,03#,04#,05#,06#,07#,08#,09#,10#,11#,12#,13#,14#,15#");
//! # Ok::<(), rowkey::Error>(())
//! ```

use std::fmt::Write;

use crate::error::{Error, Result};
use crate::schema::{Format, Schema, format_ops};

pub(crate) mod forms;
mod inner;

pub use forms::Splits;
use inner::{SEPARATOR, first_field, inner_digits, inner_points, join};

/// Plans a key design's initial splits from its [`Schema`]: see the [module](self) docs.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// #[rowkey(delimited = "#", salt(buckets = 4, from = [device_id]))]
/// struct Reading {
///     #[rowkey(hex)]
///     device_id: u32,
///     ts: u64,
/// }
///
/// // Three more splits in each bucket, at a quarter, a half and three quarters of the ids.
/// let splits = Reading::SCHEMA.split_planner().per_bucket(3).plan()?;
/// assert_eq!(splits.len(), 3 + 4 * 3);
/// let first: Vec<String> = splits.points()[..5].iter().map(|p| p.to_string()).collect();
/// assert_eq!(first, ["0#4", "0#8", "0#c", "1#", "1#4"]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SplitPlanner<'s> {
    schema: &'s Schema,
    per_bucket: u32,
    tablets: Option<u32>,
}

impl Schema {
    /// A [`SplitPlanner`] for keys of this schema: at the salt's bucket boundaries, no more.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(salt(buckets = 4, from = [id], hash = "modulo"))]
    /// struct Job { id: i64 }
    ///
    /// let splits = Job::SCHEMA.split_planner().plan()?;
    /// assert_eq!(splits.points(), [b"\x81", b"\x82", b"\x83"]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn split_planner(&self) -> SplitPlanner<'_> {
        SplitPlanner { schema: self, per_bucket: 0, tablets: None }
    }
}

impl SplitPlanner<'_> {
    /// `k` more splits inside each bucket (or, for a key without a salt, `k` splits in all),
    /// evenly over the values of the field after the bucket, which cut each bucket into
    /// `k + 1` tablets. The field's value space must be known: hex text, zero-padded decimal
    /// without a transform, fixed-width bytes (`[u8; N]`), or a UUID; otherwise
    /// [`plan`](Self::plan) says why not.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Order {
    ///     #[rowkey(width = 6)]
    ///     number: u32,
    /// }
    ///
    /// let splits = Order::SCHEMA.split_planner().per_bucket(4).plan()?;
    /// assert_eq!(splits.points(), ["2", "4", "6", "8"]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn per_bucket(mut self, k: u32) -> Self {
        self.per_bucket = k;
        self
    }

    /// Groups the buckets into `tablets` tablets of consecutive buckets rather than one tablet
    /// each: for salts with many buckets, such as an MD5 prefix of 4 hex digits (65,536
    /// buckets), whose table starts with a few tablets at round hex boundaries.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", salt(buckets = 65536, from = [ip], hash = "md5"))]
    /// struct Metric { ip: String, at: u64 }
    ///
    /// let splits = Metric::SCHEMA.split_planner().tablets(4).plan()?;
    /// assert_eq!(splits.points(), ["4000#", "8000#", "c000#"]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn tablets(mut self, tablets: u32) -> Self {
        self.tablets = Some(tablets);
        self
    }

    /// The split points, sorted.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] saying what to change: a key without a salt and no
    /// `per_bucket` (its points can only come from a sample), a field after the bucket whose
    /// value space is not known, `tablets` outside 1 to the bucket count or combined with
    /// `per_bucket`, more splits than the field's width can tell apart.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
    /// struct Reading { device_type: String, device_id: String }
    ///
    /// let err = Reading::SCHEMA.split_planner().per_bucket(2).plan().unwrap_err();
    /// assert!(err.to_string().contains("`device_type` is text"), "{err}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn plan(&self) -> Result<Splits> {
        let schema = self.schema;
        let inner = if self.per_bucket > 0 { inner_points(schema, self.per_bucket)? } else { Vec::new() };
        let Some(salt) = schema.salt else {
            if inner.is_empty() {
                return Err(Error::argument(
                    "splits",
                    format!(
                        "`{}` has no salt, so it has no bucket boundaries: split it along its first field with \
                         `per_bucket`, or at the quantiles of a sample of its keys (`Splits::from_sample`)",
                        schema.type_name
                    ),
                ));
            }
            let lead = format_ops::lead(schema, None)?;
            return Ok(Splits::new(inner.iter().map(|body| join(schema, &lead, body))));
        };
        let salt = salt.salt()?;
        let buckets = salt.buckets();
        let tablets = self.tablets.unwrap_or(buckets);
        if tablets == 0 || tablets > buckets {
            return Err(Error::argument(
                "splits",
                format!("{tablets} tablets for {buckets} buckets: the tablets are groups of buckets, 1 to {buckets}"),
            ));
        }
        if tablets != buckets && self.per_bucket > 0 {
            return Err(Error::argument(
                "splits",
                "splits inside buckets need one tablet a bucket: use `tablets` or `per_bucket`, not both",
            ));
        }
        let mut points = Vec::new();
        for tablet in 0..tablets {
            let first = u32::try_from(u64::from(tablet) * u64::from(buckets) / u64::from(tablets)).unwrap_or(0);
            let lead = format_ops::lead(schema, Some((&salt, first)))?;
            // Every key of the bucket starts with its lead, which sorts before them all.
            if tablet > 0 {
                points.push(lead.clone());
            }
            points.extend(inner.iter().map(|body| join(schema, &lead, body)));
        }
        Ok(Splits::new(points))
    }
}

/// A split point as the planner writes it, readably: `bucket=3` for a bucket's first key,
/// `bucket=3 device_id≥4…` for a point inside one (`≤` for a descending field), `device_id≥4…`
/// for a point of an unsalted key; `None` for a key that is neither.
pub(crate) fn point_label(schema: &Schema, key: &[u8]) -> Option<String> {
    let salt = schema.salt.and_then(|s| s.salt().ok());
    let buckets: Vec<Option<u32>> = match &salt {
        Some(salt) => (0..salt.buckets()).map(Some).collect(),
        None => vec![None],
    };
    for bucket in buckets {
        let lead = format_ops::lead(schema, salt.as_ref().zip(bucket)).ok()?;
        let Some(rest) = key.strip_prefix(&lead[..]) else { continue };
        let mut label = String::new();
        if let (Some(salt), Some(bucket)) = (&salt, bucket) {
            // As `inspect` prints the bucket: hex digits for a salt that writes them.
            match salt.hex_digits() {
                0 => write!(label, "bucket={bucket}").ok()?,
                digits => write!(label, "bucket={bucket:0digits$x}").ok()?,
            }
        }
        if rest.is_empty() {
            return bucket.is_some().then_some(label);
        }
        let body = match schema.format {
            Format::Ordered if !lead.is_empty() => rest.strip_prefix(&SEPARATOR)?,
            _ => rest,
        };
        let field = first_field(schema)?;
        // A store format's point holds a whole value of the field, the others its leading digits.
        let (value, more) = match schema.format {
            Format::Ordered | Format::Delimited(_) => (inner_digits(schema, field, body)?, "…"),
            _ => (format_ops::first_field_value(schema, field, key)?.to_string(), ""),
        };
        if !label.is_empty() {
            label.push(' ');
        }
        let (name, at) = (field.name, if field.descending { '≤' } else { '≥' });
        if field.sensitive {
            // A point holds a value of the field or its leading digits: shown for no sensitive field.
            write!(label, "{name}{at}<redacted>{more}").ok()?;
        } else {
            write!(label, "{name}{at}{value}{more}").ok()?;
        }
        return Some(label);
    }
    None
}
