//! [`Schema::inspect`]: reads a raw key with nothing but its [`Schema`], for logs, debugging
//! sessions and tools that never see the Rust type.

use crate::error::{Error, Result};
use crate::schema::format_ops::key_ops;
use crate::schema::inspection::Inspection;
use crate::schema::reading::{Reading, SaltCheck};
use crate::schema::{Encoding, Schema};

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
    /// Each field's [`value_text`](crate::schema::InspectedField::value_text) is text that
    /// [`encode`](Self::encode) reads back to the same key, for every field type: a float's
    /// NaN keeps its sign and payload (`NaN`, `-NaN`, or `NaN:0x` and its 16 hex digits of
    /// bits, see [`Value`](crate::schema::Value)), integers their full width, instants and dates their whole range
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
        let read = key_ops(self).and_then(|ops| ops.read_key(self, &fields, key, &mut reading));
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
        key_ops(self)?.unsalted(self, &salt, key)
    }
}
