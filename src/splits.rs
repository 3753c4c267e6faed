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
use crate::field::EncodeText;
use crate::format::ordered::OrderedWriter;
use crate::hotspot::sample_split_points;
use crate::key::Key;
use crate::key_text::to_base64;
use crate::salt::Salt;
use crate::schema::{Encoding, FieldSchema, Format, KeyField, Schema, Transform, Value, store};

/// The ordered format's separator between two fields.
const SEPARATOR: [u8; 2] = [0x00, 0x01];

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
            let lead = lead(schema, None)?;
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
            let lead = lead(schema, Some((&salt, first)))?;
            // Every key of the bucket starts with its lead, which sorts before them all.
            if tablet > 0 {
                points.push(lead.clone());
            }
            points.extend(inner.iter().map(|body| join(schema, &lead, body)));
        }
        Ok(Splits::new(points))
    }
}

/// The prefix and bucket fields of a key, as written before its first field: the ordered
/// format's bytes without a trailing separator, the delimited format's with the delimiter.
pub(crate) fn lead(schema: &Schema, bucket: Option<(&Salt, u32)>) -> Result<Key> {
    let mut key = Key::new();
    match schema.format {
        Format::FdbTuple | Format::Memcomparable | Format::HBase => return store::lead(schema, bucket),
        Format::Ordered => {
            let mut w = OrderedWriter::new(&mut key);
            if let Some(prefix) = schema.prefix {
                w.named_field(Schema::PREFIX_FIELD, prefix)?;
            }
            if let Some((salt, bucket)) = bucket {
                w.named_field(Schema::BUCKET_FIELD, &salt.bucket_field(bucket))?;
            }
            // No `finish`: a key of no fields would become `00 00`, and the lead of an
            // unsalted key without a prefix is empty.
        }
        Format::Delimited(delimiter) => {
            if let Some(prefix) = schema.prefix {
                key.extend_from_slice(prefix.as_bytes());
                key.extend_from_slice(delimiter.as_bytes());
            }
            if let Some((salt, bucket)) = bucket {
                salt.bucket_field(bucket).encode_text(&mut key)?;
                key.extend_from_slice(delimiter.as_bytes());
            }
        }
    }
    Ok(key)
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
        let lead = lead(schema, salt.as_ref().zip(bucket)).ok()?;
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
            Format::FdbTuple | Format::Memcomparable | Format::HBase => {
                (store::first_field_value(schema, field, key)?.to_string(), "")
            }
            Format::Ordered | Format::Delimited(_) => (inner_digits(schema, field, body)?, "…"),
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

/// The first value field, which points inside a bucket split along.
fn first_field(schema: &Schema) -> Option<&FieldSchema> {
    schema.key_fields().into_iter().find_map(|f| match f {
        KeyField::Value(field) => Some(field),
        _ => None,
    })
}

/// The leading digits of `field` a point's body holds, as text (hex pairs for bytes), if the
/// body is one that [`inner_points`] writes.
fn inner_digits(schema: &Schema, field: &FieldSchema, body: &[u8]) -> Option<String> {
    match schema.format {
        Format::FdbTuple | Format::Memcomparable | Format::HBase => None,
        Format::Delimited(_) => {
            let text = std::str::from_utf8(body).ok()?;
            text.bytes().all(|b| b.is_ascii_alphanumeric()).then(|| text.to_owned())
        }
        Format::Ordered => {
            let mut bytes: Vec<u8> = body.to_vec();
            if field.descending {
                bytes.iter_mut().for_each(|b| *b = !*b);
            }
            let mut raw = Vec::with_capacity(bytes.len());
            let mut iter = bytes.iter();
            while let Some(&b) = iter.next() {
                raw.push(b);
                if b == 0x00 || b == 0xff {
                    iter.next()?;
                }
            }
            // Only what `ordered_body` writes for these digits: the escapes round-trip.
            (ordered_body(&raw, field.descending) == body).then(|| raw.iter().map(|b| format!("{b:02x}")).collect())
        }
    }
}

/// A point inside a bucket: its lead, then the start of the first field.
fn join(schema: &Schema, lead: &Key, body: &[u8]) -> Key {
    let mut key = lead.clone();
    if schema.format == Format::Ordered && !lead.is_empty() {
        key.extend_from_slice(&SEPARATOR);
    }
    key.extend_from_slice(body);
    key
}

/// The first field's value space: digits of a base, at most `max_digits` of them.
struct Space {
    base: u32,
    max_digits: u32,
}

/// `k` points that cut the first field's values into `k + 1` equal parts, as the bytes the
/// key holds for a value starting with them, in key order.
fn inner_points(schema: &Schema, k: u32) -> Result<Vec<Vec<u8>>> {
    let field = schema.key_fields().into_iter().find_map(|f| match f {
        KeyField::Value(field) => Some(field),
        _ => None,
    });
    let Some(field) = field else {
        return Err(Error::argument("splits", format!("`{}` has no field to split buckets along", schema.type_name)));
    };
    if !schema.format.is_bigtable() {
        return store_points(schema, field, k);
    }
    let space = value_space(schema, field)?;
    // Enough digits that the k + 1 parts start at distinct values.
    let mut digits = 1;
    while u128::from(space.base).pow(digits) <= u128::from(k) {
        digits += 1;
    }
    if digits > space.max_digits {
        return Err(Error::argument(
            "splits",
            format!(
                "{k} splits inside a bucket need {digits} digits of `{}`, which has {}: ask for fewer",
                field.name, space.max_digits
            ),
        ));
    }
    let size = u128::from(space.base).pow(digits);
    let mut points: Vec<Vec<u8>> = (1..=u128::from(k))
        .map(|i| {
            let value = i * size / (u128::from(k) + 1);
            let mut digits: Vec<u8> = (0..digits)
                .rev()
                .map(|d| (value / u128::from(space.base).pow(d) % u128::from(space.base)) as u8)
                .collect();
            // Trailing zero digits add nothing to an ascending boundary: `4` splits where
            // `40000000` does. Inverted, `4` would sort after every value starting with it.
            while !field.descending && digits.len() > 1 && digits.last() == Some(&0) {
                digits.pop();
            }
            match schema.format {
                Format::Ordered => ordered_body(&digits, field.descending),
                Format::Delimited(_) => digits.iter().map(|&d| b"0123456789abcdef"[usize::from(d)]).collect(),
                // `store_points` writes the store formats' points.
                Format::FdbTuple | Format::Memcomparable | Format::HBase => Vec::new(),
            }
        })
        .collect();
    points.sort();
    Ok(points)
}

/// Bytes as the ordered format writes them in a field: `00` and `ff` escaped, and every byte
/// inverted for a descending field.
fn ordered_body(bytes: &[u8], descending: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 2);
    for &b in bytes {
        match b {
            0x00 => out.extend_from_slice(&[0x00, 0xff]),
            0xff => out.extend_from_slice(&[0xff, 0x00]),
            b => out.push(b),
        }
    }
    if descending {
        out.iter_mut().for_each(|b| *b = !*b);
    }
    out
}

/// Where the values of the first field lie, if the schema says.
fn value_space(schema: &Schema, field: &FieldSchema) -> Result<Space> {
    let unknown = |why: &str| unknown_space(field, why);
    if field.transform != Transform::None || field.monotonic {
        return Err(unknown("transformed or monotonic"));
    }
    match (schema.format, field.encoding) {
        (Format::Ordered, Encoding::ByteArray { len }) => Ok(Space { base: 256, max_digits: len.min(8) as u32 }),
        (Format::Ordered, Encoding::Uuid) => Ok(Space { base: 256, max_digits: 8 }),
        (Format::Delimited(_), Encoding::Hex { digits }) => {
            Ok(Space { base: 16, max_digits: digits.map_or(16, |d| u32::from(d).min(16)) })
        }
        // A UUID's text starts with 8 hex digits.
        (Format::Delimited(_), Encoding::Uuid) => Ok(Space { base: 16, max_digits: 8 }),
        (Format::Delimited(_), Encoding::Decimal { width, signed: false }) => {
            Ok(Space { base: 10, max_digits: u32::from(width).min(19) })
        }
        (_, Encoding::Decimal { signed: true, .. }) => Err(unknown("a signed number")),
        (_, Encoding::Utf8 | Encoding::Char) => Err(unknown("text")),
        (_, Encoding::Flattened(_)) => Err(unknown("a flattened struct")),
        (_, encoding) => Err(unknown(&format!("of the {encoding} encoding"))),
    }
}

fn unknown_space(field: &FieldSchema, why: &str) -> Error {
    Error::argument(
        "splits",
        format!(
            "`{}` is {why}, so the schema does not say where its values lie: split inside buckets along a hex, \
             zero-padded decimal, fixed-width bytes, UUID (or, in a store format, integer) field, or at the \
             quantiles of a sample of keys (`Splits::from_sample`)",
            field.name
        ),
    )
}

/// `k` points inside a bucket of a store-format key, whose first field is an integer,
/// fixed-width bytes or a UUID: the field's whole bytes for `k` values that cut its values
/// into `k + 1` equal parts. The store formats frame a value as a whole (a length, a type
/// code, padding), so a point is a value rather than its leading digits.
fn store_points(schema: &Schema, field: &FieldSchema, k: u32) -> Result<Vec<Vec<u8>>> {
    let unknown = |why: &str| unknown_space(field, why);
    if field.transform != Transform::None || field.monotonic {
        return Err(unknown("transformed or monotonic"));
    }
    if matches!(schema.fields.first().map(|f| f.encoding), Some(Encoding::Flattened(_))) {
        return Err(unknown("in a flattened struct"));
    }
    let too_many = |digits: &str| {
        Error::argument(
            "splits",
            format!(
                "{k} splits inside a bucket cannot fall between distinct {digits} of `{}`: ask for fewer",
                field.name
            ),
        )
    };
    let parts = u128::from(k) + 1;
    let values: Vec<Value> = match field.encoding {
        Encoding::Int64 | Encoding::Uint64 => {
            let (signed, bits) = int_width(field.rust_type).ok_or_else(|| unknown("an integer of another type"))?;
            let size = 1u128 << bits;
            if parts > size {
                return Err(too_many("values"));
            }
            let min = if signed { -(1i128 << (bits - 1)) } else { 0 };
            (1..parts).map(|i| Value::Int(min + i128::try_from(i * size / parts).unwrap_or(0))).collect()
        }
        Encoding::ByteArray { .. } | Encoding::Uuid => {
            let len = match field.encoding {
                Encoding::ByteArray { len } => len,
                _ => 16,
            };
            let digits = len.min(8);
            let size = 1u128 << (8 * digits);
            if len == 0 || parts > size {
                return Err(too_many("leading bytes"));
            }
            (1..parts)
                .map(|i| {
                    let mut bytes = (i * size / parts).to_be_bytes()[16 - digits..].to_vec();
                    bytes.resize(len, 0);
                    match <[u8; 16]>::try_from(bytes.as_slice()) {
                        Ok(id) if field.encoding == Encoding::Uuid => Value::Uuid(id),
                        _ => Value::Bytes(bytes),
                    }
                })
                .collect()
        }
        Encoding::Utf8 | Encoding::Char => return Err(unknown("text")),
        encoding => return Err(unknown(&format!("of the {encoding} encoding"))),
    };
    values.iter().map(|value| store::first_field_bytes(schema, field, value)).collect()
}

/// Whether a primitive integer type is signed, and its bits.
fn int_width(rust_type: &str) -> Option<(bool, u32)> {
    let ty = rust_type.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(rust_type);
    Some(match ty.rsplit(':').next()? {
        "i8" => (true, 8),
        "i16" => (true, 16),
        "i32" => (true, 32),
        "i64" | "isize" => (true, 64),
        "u8" => (false, 8),
        "u16" => (false, 16),
        "u32" => (false, 32),
        "u64" | "usize" => (false, 64),
        _ => return None,
    })
}

/// A sorted list of split points, and its forms for each store.
///
/// ```
/// use rowkey::splits::Splits;
///
/// let splits = Splits::new(["m", "c", "m", ""]);
/// assert_eq!(splits.points(), ["c", "m"]); // sorted, without repeats or the empty key
/// assert_eq!(splits.to_hbase(), r#"SPLITS => ["c", "m"]"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Splits {
    points: Vec<Key>,
}

impl Splits {
    /// The given points, sorted, without repeats and without the empty key (where the first
    /// tablet starts anyway).
    #[must_use]
    pub fn new<I>(points: I) -> Splits
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let mut points: Vec<Key> = points.into_iter().map(|p| Key::from(p.as_ref())).collect();
        points.sort_unstable();
        points.dedup();
        points.retain(|p| !p.is_empty());
        Splits { points }
    }

    /// Points that cut `sample` into `tablets` tablets of equal numbers of its keys (its
    /// quantiles), for any key design: a sample from `SampleRowKeys`, a log, or a table of
    /// the same data elsewhere. Fewer points come back when the sample has fewer distinct keys.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// let sample: Vec<String> = (0..1_000).map(|i| format!("user{i:04}")).collect();
    /// let splits = Splits::from_sample(&sample, 4);
    /// assert_eq!(splits.points(), ["user0250", "user0500", "user0750"]);
    /// ```
    #[must_use]
    pub fn from_sample<I>(sample: I, tablets: usize) -> Splits
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        Splits { points: sample_split_points(sample, tablets) }
    }

    /// The points, sorted.
    #[must_use]
    pub fn points(&self) -> &[Key] {
        &self.points
    }

    /// The points, sorted, as a vector.
    pub(crate) fn into_points(self) -> Vec<Key> {
        self.points
    }

    /// The number of points: one fewer than the tablets they make.
    ///
    /// ```
    /// assert_eq!(rowkey::splits::Splits::new(["a", "b"]).len(), 2);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no points.
    ///
    /// ```
    /// assert!(rowkey::splits::Splits::new([""]).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The `initialSplits` of a Bigtable Admin API `CreateTableRequest` as JSON, each key in
    /// base64 as the proto3 JSON mapping writes bytes; merge it into the request's body with
    /// `tableId` and `table`.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// let json = Splits::new(["01#", "02#"]).to_bigtable_json();
    /// assert_eq!(json, "{\n  \"initialSplits\": [\n    {\"key\": \"MDEj\"},\n    {\"key\": \"MDIj\"}\n  ]\n}");
    /// ```
    #[must_use]
    pub fn to_bigtable_json(&self) -> String {
        let mut out = String::from("{\n  \"initialSplits\": [");
        for (i, point) in self.points.iter().enumerate() {
            let comma = if i + 1 < self.points.len() { "," } else { "" };
            // Base64 needs no JSON escapes.
            let _ = write!(out, "\n    {{\"key\": \"{}\"}}{comma}", to_base64(point));
        }
        out.push_str(if self.points.is_empty() { "]\n}" } else { "\n  ]\n}" });
        out
    }

    /// The `splits=a,b,c` argument of `cbt createtable TABLE`. Quote it for the shell when
    /// a point holds a character the shell reads (`$`, `*`, `;`, ...).
    ///
    /// cbt reads the list as one line of CSV: a point holding a comma or a double quote is
    /// written in double quotes, each of its own quotes doubled (`"a,b"`, `"say ""hi"""`),
    /// which cbt reads back as the point's bytes; any other point is written as it is.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when there are no points (cbt refuses an empty `splits=`:
    /// create the table without the argument), or naming the first point that `cbt` cannot
    /// take and why: a byte outside printable ASCII (cbt has no escapes, and an argument holds
    /// no `00`) or a space.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// assert_eq!(Splits::new(["01#", "02#"]).to_cbt_arg()?, "splits=01#,02#");
    /// assert_eq!(Splits::new(["a,b", "\"c\""]).to_cbt_arg()?, r#"splits="""c""","a,b""#);
    /// let err = Splits::new([b"\x81".as_slice()]).to_cbt_arg().unwrap_err();
    /// assert!(err.to_string().contains(r"split 0 (\x81) holds the byte 81"), "{err}");
    /// assert!(Splits::default().to_cbt_arg().is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_cbt_arg(&self) -> Result<String> {
        if self.points.is_empty() {
            return Err(Error::argument(
                "splits",
                "there are no split points, and cbt refuses an empty `splits=`: create the table without it",
            ));
        }
        let mut out = String::from("splits=");
        for (i, point) in self.points.iter().enumerate() {
            if let Some(&b) = point.iter().find(|&&b| !(0x21..0x7f).contains(&b)) {
                let why = match b {
                    b' ' => "a space, which cbt's argument cannot hold".to_owned(),
                    b => format!(
                        "the byte {b:02x}, and cbt takes splits as printable text without escapes; \
                         use the Admin API's JSON or the HBase shell form"
                    ),
                };
                return Err(Error::argument("splits", format!("split {i} ({point}) holds {why}")));
            }
            if i > 0 {
                out.push(',');
            }
            // Printable ASCII, checked above. cbt's CSV reader takes a comma as the end of a
            // point and a quote as quoting, unless the point is quoted.
            let text = String::from_utf8_lossy(point);
            if point.iter().any(|&b| b == b',' || b == b'"') {
                out.push('"');
                out.push_str(&text.replace('"', "\"\""));
                out.push('"');
            } else {
                out.push_str(&text);
            }
        }
        Ok(out)
    }

    /// The HBase shell's `SPLITS => [...]` for `create`, each point a Ruby double-quoted
    /// string with `\xNN` escapes for bytes outside printable ASCII.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// let splits = Splits::new([b"\x81".as_slice(), b"a\"#{b}"]);
    /// assert_eq!(splits.to_hbase(), r#"SPLITS => ["a\"\#{b}", "\x81"]"#);
    /// ```
    #[must_use]
    pub fn to_hbase(&self) -> String {
        let mut out = String::from("SPLITS => [");
        for (i, point) in self.points.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push('"');
            for (j, &b) in point.iter().enumerate() {
                match b {
                    b'"' | b'\\' => {
                        out.push('\\');
                        out.push(char::from(b));
                    }
                    // `#{`, `#$` and `#@` interpolate in a Ruby double-quoted string.
                    b'#' if matches!(point.get(j + 1), Some(b'{' | b'$' | b'@')) => out.push_str("\\#"),
                    0x20..0x7f => out.push(char::from(b)),
                    b => {
                        let _ = write!(out, "\\x{b:02x}");
                    }
                }
            }
            out.push('"');
        }
        out.push(']');
        out
    }

    /// Terraform's `split_keys = [...]` for a `google_bigtable_table`, each point an HCL
    /// string.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the first point that is not UTF-8 (Terraform strings
    /// are Unicode text, and the provider writes their UTF-8 bytes), or that holds a character
    /// Unicode normalization could touch: Terraform turns every string into NFC, so a combining
    /// accent, a Hangul jamo or a compatibility character could reach Bigtable as other bytes.
    /// Characters below U+0300 and the emoji and symbol blocks pass; the Admin API's JSON
    /// carries any other point as it is.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// assert_eq!(Splits::new(["01#", "${x}"]).to_terraform()?, r#"split_keys = ["$${x}", "01#"]"#);
    /// assert!(Splits::new([b"\x81".as_slice()]).to_terraform().is_err());
    /// // `e` and a combining acute accent: NFC would make it the one character `é`.
    /// assert!(Splits::new(["e\u{301}"]).to_terraform().is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_terraform(&self) -> Result<String> {
        let mut out = String::from("split_keys = [");
        for (i, point) in self.points.iter().enumerate() {
            let Ok(text) = std::str::from_utf8(point) else {
                return Err(Error::argument(
                    "splits",
                    format!(
                        "split {i} ({point}) is not UTF-8, and Terraform's split_keys are text; \
                         create the table with the Admin API's JSON or the HBase shell form"
                    ),
                ));
            };
            if let Some(c) = text.chars().find(|&c| !keeps_nfc(c)) {
                return Err(Error::argument(
                    "splits",
                    format!(
                        "split {i} ({point}) holds {c:?} (U+{:04X}); Terraform normalizes strings to Unicode \
                         NFC, which can change such a key's bytes; create the table with the Admin API's \
                         JSON or the HBase shell form",
                        u32::from(c)
                    ),
                ));
            }
            if i > 0 {
                out.push_str(", ");
            }
            out.push('"');
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    // `${` and `%{` start a template sequence; doubling the sign escapes it.
                    '$' | '%' if chars.peek() == Some(&'{') => {
                        out.push(c);
                        out.push(c);
                    }
                    c if c.is_control() => {
                        let _ = write!(out, "\\u{:04x}", u32::from(c));
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        out.push(']');
        Ok(out)
    }
}

/// Whether NFC leaves `c` as it is wherever it stands: nothing below U+0300 decomposes or
/// combines with what precedes it, nor does anything in the emoji and pictograph blocks.
/// Everything else is refused rather than looked up in Unicode's tables.
fn keeps_nfc(c: char) -> bool {
    u32::from(c) < 0x300 || ('\u{1F000}'..='\u{1FAFF}').contains(&c)
}
