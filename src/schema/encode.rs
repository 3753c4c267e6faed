//! [`Schema::encode`]: a key built from field values given as text, with nothing but its
//! [`Schema`]: the reverse of [`Schema::inspect`], for shells, tests in other languages and
//! tools that never see the Rust type.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::key::Key;
use crate::schema::Schema;
use crate::schema::format_ops::key_ops;
use crate::schema::given::Given;

impl Schema {
    /// The key of the given field values, each as text in the form [`Inspection`]'s
    /// `Display` prints it (`name=value` without the name): so `encode` of what `inspect`
    /// printed gives the key back. The prefix and bucket are computed; given, they must match.
    ///
    /// The forms: text as is, or quoted (`"two words"`) with Rust's escapes; `null` for the
    /// `None` of an optional field; integers in decimal (hex fields in hex); floats as Rust
    /// prints them (`1.5`, `-0.0`, `1e300`, `inf`, `-inf`), a NaN as `NaN` (`f64::NAN`),
    /// `-NaN` (its negation) or `NaN:0x` and the 16 hex digits of its `f64` bits, so that its
    /// sign and payload reach the key (an `f32` field takes the bits of the `f64` it widens
    /// to); bytes as `b"..."` with `\xNN` escapes, or as cbt prints them (hex fields in hex);
    /// instants in RFC 3339 UTC (`2020-05-01T00:00:00.5Z`), dates `YYYY-MM-DD`, years
    /// outside 0000 to 9999 with a sign (`+10000-01-01`); UUIDs hyphenated, ULIDs in
    /// Crockford base32, IP addresses as usual; a transformed field takes the value before
    /// its transform (the host, not the reversed domain).
    ///
    /// [`Inspection`]: crate::schema::Inspection
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the field and the form it takes, for a missing or
    /// unknown field or a value that does not parse; what encoding the value returns (a
    /// number out of its type's range, a byte below the delimiter).
    ///
    /// ```
    /// use rowkey::RowKey;
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
    /// let key = Reading::SCHEMA.encode(&[("device_type", "phone"), ("device_id", "4c410523"), ("ts_millis", "1588291200000")])?;
    /// assert_eq!(key, Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 }.to_key()?);
    ///
    /// let err = Reading::SCHEMA.encode(&[("device_type", "phone"), ("device_id", "4c410523"), ("ts_millis", "soon")]).unwrap_err();
    /// assert!(err.to_string().contains("`ts_millis`"), "{err}");
    ///
    /// // A NaN's payload, printed by `inspect`, reaches the key.
    /// #[derive(RowKey)]
    /// struct Sample { sensor: String, value: f64 }
    ///
    /// let nan = Sample { sensor: "t1".into(), value: f64::from_bits(0x7ff0_0000_0000_0001) }.to_key()?;
    /// assert_eq!(Sample::SCHEMA.inspect(&nan)?.to_string(), "sensor=t1 value=NaN:0x7ff0000000000001");
    /// assert_eq!(Sample::SCHEMA.encode(&[("sensor", "t1"), ("value", "NaN:0x7ff0000000000001")])?, nan);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn encode(&self, values: &[(&str, &str)]) -> Result<Key> {
        self.encode_texts(values).map_err(|e| self.redact_error(e))
    }

    fn encode_texts(&self, values: &[(&str, &str)]) -> Result<Key> {
        let mut given: HashMap<&str, &str> = HashMap::new();
        for &(name, text) in values {
            // A flattened struct's prefix and bucket repeat the names; computed, they are
            // checked only where given first, the key's own.
            let computed = name == Schema::PREFIX_FIELD || name == Schema::BUCKET_FIELD;
            if given.contains_key(name) && !computed {
                return Err(Error::argument("field value", format!("`{name}` is given twice")));
            }
            given.entry(name).or_insert(text);
        }
        let names: Vec<&str> = self.key_fields().iter().map(|f| f.name()).collect();
        if let Some((name, _)) = values.iter().find(|(name, _)| !names.contains(name)) {
            return Err(Error::argument(
                "field value",
                format!("`{}` has no field `{name}`; its fields are {}", self.type_name, names.join(", ")),
            ));
        }
        let key = write_key(self, &Given::Text(&given))?;
        // The decoder checks what the text forms cannot: a value of the Rust type's range.
        self.inspect(&key)?;
        Ok(key)
    }
}

/// The key of the given values in the schema's format, no longer than its maximum; not yet
/// checked against the Rust types' ranges.
pub(super) fn write_key(schema: &Schema, given: &Given<'_>) -> Result<Key> {
    let mut key = Key::new();
    if let Err(fault) = key_ops(schema)?.write_key(schema, given, &mut key) {
        return Err(earlier_fault(schema, &key, fault));
    }
    if key.len() > schema.max_len {
        return Err(Error::TooLong { len: key.len(), max: schema.max_len });
    }
    Ok(key)
}

/// The first fault in key order, where writing stopped at `fault`. A value beyond its field's
/// Rust type (a `u16` given 70000) is found by reading the key back once it is written (the
/// Bigtable formats write any integer), so a field before the one that stopped the writing may
/// hold one: the fields written so far are read back to report it first.
fn earlier_fault(schema: &Schema, written: &[u8], fault: Error) -> Error {
    let Some(stopped) = fault.location().field() else { return fault };
    match schema.inspect(written) {
        Err(earlier @ Error::OutOfRange { .. }) if earlier.location().field().is_some_and(|at| at < stopped) => earlier,
        _ => fault,
    }
}
