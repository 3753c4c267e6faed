//! [`Schema::inspect`]: reads a raw key with nothing but its [`Schema`], for logs, debugging
//! sessions and tools that never see the Rust type.

use std::fmt;

use crate::error::{Error, Location, Result};
use crate::field::Desc;
use crate::format::ordered::{OrderedReader, OrderedWriter};
use crate::format::prefix::check_prefix;
use crate::format::{Delimited, FdbTuple, HBase, Memcomparable};
use crate::key::Key;
use crate::salt::SaltHash;
use crate::salt::bucket::{check_bucket, read_bucket};
use crate::schema::decode::{self, Encoded};
use crate::schema::store;
use crate::schema::{Encoding, FieldSchema, Format, KeyField, Redacted, SaltSchema, Schema, Transform, Value};

impl Schema {
    /// Decodes `key` field by field from this description alone, undoing transforms, and
    /// checks it the way the key type's `from_key` does: framing, prefix, each field's
    /// encoding, and the salt bucket against the fields it is computed from, in the order
    /// `from_key` checks them, so that both name the same first fault. In the store formats
    /// (FoundationDB tuples, memcomparable, HBase) each field is read as the Rust type the
    /// derive gives it, through the format's own reader. A field of a type the schema cannot
    /// see into ([`Encoding::Custom`]) is taken as its bytes, unchecked, in the Bigtable
    /// formats; a store format does not delimit its fields, so there it is an error naming
    /// the field (but for an `i128`, which it reads); a
    /// borrowed field (`&str`, `&[u8]`) is read whole even where `from_key` cannot borrow it
    /// (it needed unescaping): the key is well formed, and the owned type reads it.
    ///
    /// Each field's [`value_text`](InspectedField::value_text) is text that
    /// [`encode`](Self::encode) reads back to the same key, for every field type: a float's
    /// NaN keeps its sign and payload (`NaN`, `-NaN`, or `NaN:0x` and its 16 hex digits of
    /// bits, see [`Value`]), integers their full width, instants and dates their whole range
    /// (years beyond 9999 with a sign), text its escapes.
    ///
    /// # Errors
    ///
    /// The first place where the bytes stop matching the schema, as the error `from_key`
    /// gives there: its [`location`](Error::location) names the field and the byte offset,
    /// and its message says what was expected.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(salt(buckets = 16, from = [device_id]))]
    /// struct Reading {
    ///     device_type: String,
    ///     device_id: String,
    ///     #[rowkey(desc)]
    ///     ts_millis: i64,
    /// }
    ///
    /// let key = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 }
    ///     .to_key()?;
    /// let fields = Reading::SCHEMA.inspect(&key)?;
    /// assert_eq!(fields.to_string(), "bucket=1 device_type=phone device_id=4c410523 ts_millis=1588291200000 (desc)");
    /// assert_eq!(fields.value("ts_millis").and_then(|v| v.as_int()), Some(1_588_291_200_000));
    ///
    /// // Cut short: the error names the field and the byte, and says what is missing.
    /// let err = Reading::SCHEMA.inspect(&key[..key.len() - 2]).unwrap_err();
    /// assert_eq!(err.location().name(), Some("ts_millis"));
    /// assert_eq!(err.location().offset(), Some(key.len() - 2));
    /// assert!(err.to_string().contains("a descending field ends in ff fe"), "{err}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn inspect(&self, key: &[u8]) -> Result<Inspection> {
        // In `from_key`'s order: the length, then field by field, each salt once the fields of
        // its struct are read, then the end of the key; so that both name the same first fault.
        if key.len() > self.max_len {
            return Err(Error::TooLong { len: key.len(), max: self.max_len });
        }
        let fields = self.key_fields();
        let mut checks = Vec::new();
        self.push_salt_checks(&mut 0, &mut checks);
        // Inner structs' salts first where they end on the same field, as their reads return first.
        checks.sort_by_key(|check| (check.last, std::cmp::Reverse(check.bucket)));
        let mut reading = Reading { out: Vec::with_capacity(fields.len()), buckets: Vec::new(), checks };
        let read = match self.format {
            Format::Ordered => read_ordered(&fields, key, &mut reading),
            Format::Delimited(delimiter) => read_delimited(delimiter, &fields, key, &mut reading),
            Format::FdbTuple => store::read_key::<FdbTuple>(self, &fields, key, &mut reading),
            Format::Memcomparable => store::read_key::<Memcomparable>(self, &fields, key, &mut reading),
            Format::HBase => store::read_key::<HBase>(self, &fields, key, &mut reading),
        };
        read.map_err(|e| self.redact_error(e))?;
        Ok(Inspection { type_name: self.type_name, fields: reading.out })
    }

    /// For this schema's salt and those of the structs flattened into it: the index (among
    /// [`key_fields`](Self::key_fields)) of the bucket and of the struct's last field, after
    /// which the derived `read_fields` checks the bucket. `next` is the index of the
    /// schema's first field.
    fn push_salt_checks(&self, next: &mut usize, out: &mut Vec<SaltCheck>) {
        *next += usize::from(self.prefix.is_some());
        let bucket = *next;
        *next += usize::from(self.salt.is_some());
        for field in self.fields {
            match field.encoding {
                Encoding::Flattened(inner) => inner.push_salt_checks(next, out),
                _ => *next += 1,
            }
        }
        if self.salt.is_some() {
            out.push(SaltCheck { bucket, last: next.saturating_sub(1).max(bucket) });
        }
    }
}

/// Where a salt's bucket is, and the field after which its struct's decoder checks it.
struct SaltCheck {
    bucket: usize,
    last: usize,
}

/// What [`Schema::inspect`] has read so far, and the salt checks still to make.
pub(super) struct Reading {
    out: Vec<InspectedField>,
    pub(super) buckets: Vec<FoundBucket>,
    checks: Vec<SaltCheck>,
}

impl Reading {
    /// Adds a field, then checks every salt whose struct ends with it.
    pub(super) fn push(&mut self, field: InspectedField, delimited: bool) -> Result<()> {
        self.out.push(field);
        let index = self.out.len() - 1;
        for check in self.checks.iter().filter(|check| check.last == index) {
            if let Some(found) = self.buckets.iter().find(|found| found.position == check.bucket) {
                check_salt(found, &self.out, delimited)?;
            }
        }
        Ok(())
    }
}

impl Schema {
    /// The bytes of `key` after its salt bucket (and the prefix before it): the order that
    /// fan-out reads over every bucket merge back into, the order unsalted keys sort in. A
    /// schema without a salt returns the key whole. The prefix must be the type's and the
    /// bucket one of the salt's (its source fields are not read, so not whether it is
    /// theirs); the rest of the key is not read.
    ///
    /// # Errors
    ///
    /// A framing error located at the prefix or bucket field, a prefix of another type, or a
    /// bucket the salt does not have, for bytes that do not start as a key of this type does.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
    /// struct Reading { device_type: String, device_id: String, ts: u32 }
    ///
    /// let key = Reading { device_type: "meter".into(), device_id: "4c410523".into(), ts: 7 }.to_key()?;
    /// assert_eq!(key, "01#meter#4c410523#0000000007");
    /// assert_eq!(Reading::SCHEMA.unsalted(&key)?, b"meter#4c410523#0000000007");
    ///
    /// // The merge of a fan-out read, by the unsalted key.
    /// let buckets = vec![vec![key.clone()], vec![]];
    /// let merged: Vec<_> = rowkey::merge(buckets, |key| Reading::SCHEMA.unsalted(key).ok().map(<[u8]>::to_vec)).collect();
    /// assert_eq!(merged, [key]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn unsalted<'k>(&self, key: &'k [u8]) -> Result<&'k [u8]> {
        let Some(salt) = self.salt else { return Ok(key) };
        let salt = salt.salt()?;
        let skip = usize::from(self.prefix.is_some()) + 1;
        match self.format {
            Format::FdbTuple => store::unsalted::<FdbTuple>(self, &salt, key),
            Format::Memcomparable => store::unsalted::<Memcomparable>(self, &salt, key),
            Format::HBase => store::unsalted::<HBase>(self, &salt, key),
            Format::Ordered => {
                let mut r = OrderedReader::new(key, self.field_count());
                if let Some(prefix) = self.prefix {
                    check_prefix(&r.named_field::<std::borrow::Cow<'_, [u8]>>(Schema::PREFIX_FIELD)?, prefix, 0, 0)?;
                }
                let offset = r.position();
                let bucket = r.named_field::<std::borrow::Cow<'_, [u8]>>(Schema::BUCKET_FIELD)?;
                read_bucket(&salt, &bucket, false, skip - 1, offset)?;
                Ok(&key[r.position()..])
            }
            Format::Delimited(delimiter) => {
                let mut at = 0;
                for index in 0..skip {
                    let name = if index + 1 == skip { Schema::BUCKET_FIELD } else { Schema::PREFIX_FIELD };
                    let Some(end) = key[at..].windows(delimiter.len()).position(|w| w == delimiter.as_bytes()) else {
                        return Err(Error::Truncated {
                            at: Location::at(key.len()),
                            detail: "the field's delimiter is missing",
                        }
                        .in_field(index, Some(name), at));
                    };
                    let text = &key[at..at + end];
                    if index + 1 == skip {
                        read_bucket(&salt, text, true, index, at)?;
                    } else if let Some(prefix) = self.prefix {
                        check_prefix(text, prefix, index, at)?;
                    }
                    at += end + delimiter.len();
                }
                Ok(&key[at..])
            }
        }
    }
}

/// A key decoded by [`Schema::inspect`]: its fields in key order, the prefix and bucket
/// included. `Display` writes them as `name=value` pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    type_name: &'static str,
    fields: Vec<InspectedField>,
}

impl Inspection {
    /// The name of the key type whose schema decoded the key.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// Every field in key order.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::schema::Value;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#", prefix = "dev")]
    /// struct Device { kind: String, #[rowkey(hex)] id: u32 }
    ///
    /// let key = Device { kind: "phone".into(), id: 0x4c41_0523 }.to_key()?;
    /// let inspection = Device::SCHEMA.inspect(&key)?;
    /// let pairs: Vec<_> = inspection.fields().iter().map(|f| (f.name(), f.value().clone())).collect();
    /// assert_eq!(pairs, [
    ///     ("prefix", Value::Str("dev".into())),
    ///     ("kind", Value::Str("phone".into())),
    ///     ("id", Value::Int(0x4c41_0523)),
    /// ]);
    /// assert_eq!(inspection.to_string(), "prefix=dev kind=phone id=4c410523");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn fields(&self) -> &[InspectedField] {
        &self.fields
    }

    /// The value of the field named `name` (the first one, should two share it).
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|f| f.name == name).map(|f| &f.value)
    }
}

impl Inspection {
    /// The fields as `Display` writes them, but with the values of sensitive fields shown:
    /// for the one who asked to see them (the `rowkey` command's `--reveal`).
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Login { #[rowkey(sensitive)] email: String, at: u32 }
    ///
    /// let key = Login { email: "alice@example.com".into(), at: 7 }.to_key()?;
    /// let inspection = Login::SCHEMA.inspect(&key)?;
    /// assert_eq!(inspection.to_string(), "email=<redacted, 17 bytes> at=7");
    /// assert_eq!(inspection.revealed().to_string(), "email=alice@example.com at=7");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn revealed(&self) -> Revealed<'_> {
        Revealed(self)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, reveal: bool) -> fmt::Result {
        for (i, field) in self.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            field.write(f, reveal)?;
        }
        Ok(())
    }
}

/// A sensitive field's value is shown as its length: `email=<redacted, 17 bytes>`.
impl fmt::Display for Inspection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

/// An [`Inspection`] shown with the values of its sensitive fields ([`Inspection::revealed`]).
#[derive(Clone, Copy, Debug)]
pub struct Revealed<'a>(&'a Inspection);

impl fmt::Display for Revealed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, true)
    }
}

/// One field of an [`Inspection`]: where it starts in the key, what the schema says it is,
/// and its value. `Debug` and `Display` show a sensitive field's value as its length.
#[derive(Clone, PartialEq)]
pub struct InspectedField {
    pub(super) name: &'static str,
    pub(super) value: Value,
    pub(super) offset: usize,
    /// The field's bytes (unescaped, in the Bigtable formats): what a sensitive field shows in
    /// place of its value.
    pub(super) len: usize,
    pub(super) field: KeyField,
}

impl fmt::Debug for InspectedField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("InspectedField");
        out.field("name", &self.name);
        if self.is_sensitive() {
            out.field("value", &format_args!("{}", self.redacted()));
        } else {
            out.field("value", &self.value);
        }
        out.field("offset", &self.offset).field("field", &self.field).finish()
    }
}

impl InspectedField {
    /// The field's name: its key name, or [`Schema::PREFIX_FIELD`] / [`Schema::BUCKET_FIELD`].
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The value, with any transform undone.
    #[must_use]
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The byte offset in the key where the field starts.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What the schema says the field is.
    #[must_use]
    pub fn key_field(&self) -> KeyField {
        self.field
    }

    /// Whether the field is marked `sensitive`, so that its value is not shown.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Login { #[rowkey(sensitive)] email: String, at: u32 }
    ///
    /// let key = Login { email: "alice@example.com".into(), at: 7 }.to_key()?;
    /// let inspection = Login::SCHEMA.inspect(&key)?;
    /// let shown: Vec<bool> = inspection.fields().iter().map(|f| f.is_sensitive()).collect();
    /// assert_eq!(shown, [true, false]);
    /// assert_eq!(inspection.fields()[0].redacted().len, 17);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn is_sensitive(&self) -> bool {
        matches!(self.field, KeyField::Value(schema) if schema.sensitive)
    }

    /// What is shown in place of the value when the field is sensitive: its length.
    #[must_use]
    pub fn redacted(&self) -> Redacted {
        Redacted { len: self.len }
    }

    /// The value as text, in the form [`Schema::encode`] reads back to the same key: as
    /// `Display` shows it, without the name and the notes on how the key stores it. A float
    /// keeps its sign and NaN payload ([`Value`]'s `Display`: `NaN`, `-NaN`,
    /// `NaN:0x7ff0000000000001`); `-0.0` and `0.0` share one key, which prints as `0.0`.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Device { #[rowkey(hex)] id: u32, #[rowkey(reverse)] ts: i64 }
    ///
    /// let key = Device { id: 0x4c41_0523, ts: 7 }.to_key()?;
    /// let inspection = Device::SCHEMA.inspect(&key)?;
    /// let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
    /// assert_eq!(texts, [("id", "4c410523".to_owned()), ("ts", "7".to_owned())]);
    /// let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
    /// assert_eq!(Device::SCHEMA.encode(&pairs)?, key);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn value_text(&self) -> String {
        ValueText(self.field, &self.value).to_string()
    }
}

/// A value as `InspectedField`'s `Display` writes it for a field, hex fields in hex: the text
/// [`Schema::encode`] reads back for that field.
pub(crate) struct ValueText<'a>(pub(crate) KeyField, pub(crate) &'a Value);

impl fmt::Display for ValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let KeyField::Value(schema) = self.0 else { return self.1.fmt(f) };
        match (self.1, schema.encoding) {
            (Value::Int(n), Encoding::Hex { digits }) => {
                write!(f, "{n:0width$x}", width = digits.map_or(0, usize::from))
            }
            (Value::Bytes(bytes), Encoding::Hex { .. }) => bytes.iter().try_for_each(|b| write!(f, "{b:02x}")),
            (value, _) => value.fmt(f),
        }
    }
}

/// `name=value`, hex fields in hex, then what the bytes hold instead of the value:
/// `(desc)`, `(reversed)`, `(bit-reversed)` or `(reversed domain)`.
impl fmt::Display for InspectedField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

impl InspectedField {
    fn write(&self, f: &mut fmt::Formatter<'_>, reveal: bool) -> fmt::Result {
        if self.is_sensitive() && !reveal {
            write!(f, "{}={}", self.name, self.redacted())?;
        } else {
            write!(f, "{}={}", self.name, ValueText(self.field, &self.value))?;
        }
        let KeyField::Value(schema) = self.field else { return Ok(()) };
        if schema.descending {
            f.write_str(" (desc)")?;
        }
        match schema.transform {
            Transform::None => Ok(()),
            Transform::Reverse { .. } => f.write_str(" (reversed)"),
            Transform::BitReverse { .. } => f.write_str(" (bit-reversed)"),
            Transform::ReverseDomain => f.write_str(" (reversed domain)"),
        }
    }
}

/// A salt bucket as read, checked once every field is known.
pub(super) struct FoundBucket {
    /// Where it is among the key's fields ([`Schema::key_fields`]).
    pub(super) position: usize,
    /// Its field index in errors: the position, but for a store format's raw prefix, which
    /// is no field.
    pub(super) index: usize,
    pub(super) offset: usize,
    pub(super) salt: SaltSchema,
    pub(super) value: u32,
}

fn read_ordered(fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()> {
    let mut r = OrderedReader::new(key, fields.len());
    for (index, &field) in fields.iter().enumerate() {
        let offset = r.position();
        let name = field.name();
        let located = |e: Error| e.in_field(index, Some(name), offset);
        // Shown only for a sensitive field, which is always a value field.
        let mut len = 0;
        let value = match field {
            KeyField::Prefix(prefix) => {
                check_prefix(&r.named_field::<Vec<u8>>(name)?, prefix, index, offset)?;
                Value::Str(prefix.to_owned())
            }
            KeyField::Bucket(salt) => {
                let bytes = r.named_field::<Vec<u8>>(name)?;
                let value = read_bucket(&salt.salt().map_err(located)?, &bytes, false, index, offset)?;
                reading.buckets.push(FoundBucket { position: index, index, offset, salt, value });
                bucket_value(&salt, value)
            }
            KeyField::Value(schema) => {
                let bytes: Vec<u8> =
                    if schema.descending { r.named_field::<Desc<Vec<u8>>>(name)?.0 } else { r.named_field(name)? };
                len = bytes.len();
                decode::binary(schema, bytes).map_err(located)?
            }
        };
        reading.push(InspectedField { name, value, offset, len, field }, false)?;
    }
    r.finish()
}

fn read_delimited(delimiter: &'static str, fields: &[KeyField], key: &[u8], reading: &mut Reading) -> Result<()> {
    let format = Delimited::new(delimiter)?;
    let mut r = crate::format::DelimitedReader::new(&format, key, fields.len());
    let mut offset = 0;
    for (index, &field) in fields.iter().enumerate() {
        let name = field.name();
        let located = |e: Error| e.in_field(index, Some(name), offset);
        let text: &[u8] = r.named_field(name)?;
        let value = match field {
            KeyField::Prefix(prefix) => {
                check_prefix(text, prefix, index, offset)?;
                Value::Str(prefix.to_owned())
            }
            KeyField::Bucket(salt) => {
                let value = read_bucket(&salt.salt().map_err(located)?, text, true, index, offset)?;
                reading.buckets.push(FoundBucket { position: index, index, offset, salt, value });
                bucket_value(&salt, value)
            }
            KeyField::Value(schema) => decode::text(schema, text).map_err(located)?,
        };
        reading.push(InspectedField { name, value, offset, len: text.len(), field }, true)?;
        offset += text.len() + delimiter.len();
    }
    r.finish()
}

/// Checks a bucket the way the derived `from_key` does: its width, then the bucket its salt
/// source fields give. When a source's hashed bytes cannot be known from the schema (a custom
/// type in a delimited key), only that the bucket is below the bucket count.
fn check_salt(found: &FoundBucket, fields: &[InspectedField], delimited: bool) -> Result<()> {
    let salt = found.salt.salt()?;
    if salt.hash() == SaltHash::Modulo {
        // The value itself, as the derive computes it: a `u64`'s bytes can read as an `i64`.
        let value = source_values(found, fields).and_then(|values| match values.as_slice() {
            [Value::Int(v)] => Some(*v),
            _ => None,
        });
        return match value {
            Some(v) => check_bucket(&salt, found.value, salt.modulo_bucket(v), found.index, found.offset),
            None => Ok(()),
        };
    }
    let expected = match source_bytes(found, fields, delimited) {
        Some(sources) => {
            let mut encoded = Key::new();
            // No finish(): a salt hashes the source fields as written, without the `00 00` of a
            // key whose fields were all empty.
            let mut w = OrderedWriter::new(&mut encoded);
            for bytes in &sources {
                w.field(&Encoded(bytes))?;
            }
            Some(salt.bucket_of_encoded(&encoded)?)
        }
        None => None,
    };
    // Reading the bucket checked its form and range; with the source fields known, their
    // bucket too.
    match expected {
        Some(expected) => check_bucket(&salt, found.value, expected, found.index, found.offset),
        None => Ok(()),
    }
}

/// How a bucket shows: its number, or an MD5 salt's hex digits.
pub(super) fn bucket_value(salt: &SaltSchema, value: u32) -> Value {
    match salt.salt().map(|s| s.hex_digits()) {
        Ok(digits) if digits > 0 => Value::Str(format!("{value:0digits$x}")),
        _ => Value::Int(value.into()),
    }
}

/// Each salt source field's schema and value, found by name among the fields after the
/// bucket; `None` when one is missing.
fn sources<'f>(found: &FoundBucket, fields: &'f [InspectedField]) -> Option<Vec<(&'static FieldSchema, &'f Value)>> {
    found
        .salt
        .from
        .iter()
        .map(|&source| {
            fields[found.position + 1..].iter().find_map(|f| match f.field {
                KeyField::Value(schema) if schema.name == source => Some((schema, &f.value)),
                _ => None,
            })
        })
        .collect()
}

/// The value of each salt source field.
fn source_values<'f>(found: &FoundBucket, fields: &'f [InspectedField]) -> Option<Vec<&'f Value>> {
    Some(sources(found, fields)?.into_iter().map(|(_, value)| value).collect())
}

/// The hashed bytes of each salt source field.
fn source_bytes(found: &FoundBucket, fields: &[InspectedField], delimited: bool) -> Option<Vec<Vec<u8>>> {
    sources(found, fields)?.into_iter().map(|(schema, value)| decode::natural_bytes(schema, value, delimited)).collect()
}
