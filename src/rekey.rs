//! Re-keying: the key a row gets under a new key design, from its key under the old one.
//!
//! A [`Rekey`] is built from the two designs' [`Schema`]s (two derived key types, or two
//! schema files, so that a tool that never sees the Rust types can do it) and a mapping of
//! fields:
//!
//! - a field of the new design takes the old field of the same name, or the one a
//!   [`rename`](RekeyBuilder::rename) names;
//! - a field the old design lacks takes a [`default`](RekeyBuilder::default) value, or is
//!   [`computed`](RekeyBuilder::compute) from the old key's values;
//! - an old field that no new field takes is refused, since two old keys that differ only in
//!   it would become one row, unless [`merge_rows`](RekeyBuilder::merge_rows) says that such
//!   rows may merge, or [`drop_derived`](RekeyBuilder::drop_derived) says that the kept
//!   fields decide it (so no two rows merge; a verify of the copy finds any that did).
//!
//! Values move, not bytes: each old key is decoded to its values (any transform undone, so a
//! `reverse`d time is the instant itself) and the new key is encoded from them, with its own
//! prefix, salt bucket, transforms and format. So any format goes to any format: a delimited
//! key to an ordered one, or a Bigtable ordered key to a FoundationDB tuple.
//!
//! ```
//! use rowkey::RowKey;
//! use rowkey::rekey::Rekey;
//!
//! // The old design: timestamp first, so every write went to one tablet.
//! #[derive(RowKey)]
//! #[rowkey(delimited = "#", allow_hotspot)]
//! struct ByTime {
//!     ts_millis: i64,
//!     device_type: String,
//!     device_id: String,
//! }
//!
//! // The new one: salted by device, newest reading first.
//! #[derive(RowKey)]
//! #[rowkey(salt(buckets = 16, from = [device]))]
//! struct Reading {
//!     device: String,
//!     kind: String,
//!     #[rowkey(reverse)]
//!     ts_millis: i64,
//! }
//!
//! let rekey = Rekey::between::<ByTime, Reading>()
//!     .rename("device_id", "device")
//!     .rename("device_type", "kind")
//!     .build()?;
//! let old = ByTime { ts_millis: 1_588_291_200_000, device_type: "phone".into(), device_id: "4c410523".into() };
//! let new = Reading { device: "4c410523".into(), kind: "phone".into(), ts_millis: 1_588_291_200_000 };
//! assert_eq!(rekey.rekey(&old.to_key()?)?, new.to_key()?);
//! # Ok::<(), rowkey::Error>(())
//! ```

use std::fmt;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::key::Key;
use crate::schema::{FieldSchema, Inspection, KeyField, KeySchema, Schema, Value, ValueText};

mod fit;
mod kind;
mod planned;

use kind::mismatch;

/// A function of an old key's values that gives a new field's value.
type Compute = Arc<dyn Fn(&Inspection) -> Result<Value> + Send + Sync>;

/// Where a field of the new design gets its value.
#[derive(Clone)]
pub enum Source {
    /// The old field of this name.
    Field(&'static str),
    /// A fixed value, as text in the forms [`Schema::encode`] reads (a
    /// [`default`](RekeyBuilder::default)). Not named `Default`: a public item of that name
    /// would make rustc print `std::default::Default` in full in every user's errors.
    Fixed(String),
    /// A function of the old key's values.
    Computed(Compute),
}

/// A fixed value is shown as its length alone: a `Source` does not know its field, which may
/// be marked `sensitive` ([`Rekey`]'s `Debug`, which does, shows the others).
impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Field(name) => f.debug_tuple("Field").field(name).finish(),
            Source::Fixed(text) => f.debug_tuple("Fixed").field(&format_args!("{}", redacted(text))).finish(),
            Source::Computed(_) => f.write_str("Computed(..)"),
        }
    }
}

/// `old_name`, `= value` or `= f(old key)`, as a plan prints it. A fixed value is shown as
/// given: for a field that may be marked `sensitive`, show the mapping through [`Rekey`]'s
/// `Display`, which redacts it.
impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Field(name) => f.write_str(name),
            Source::Fixed(text) => write!(f, "= {text}"),
            Source::Computed(_) => f.write_str("= f(old key)"),
        }
    }
}

/// What is shown in place of a fixed value that may be sensitive: its length.
fn redacted(text: &str) -> String {
    format!("<redacted, {} characters>", text.chars().count())
}

/// A field's source as it may be shown: a fixed value of a field marked `sensitive` redacted.
struct Shown<'a>(&'a FieldSchema, &'a Source);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Source::Fixed(text) if self.0.sensitive => write!(f, "= {}", redacted(text)),
            source => write!(f, "{source}"),
        }
    }
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Source::Fixed(text) if !self.0.sensitive => f.debug_tuple("Fixed").field(text).finish(),
            source => write!(f, "{source:?}"),
        }
    }
}

/// A re-keying from one key design to another; see the [module docs](self).
#[derive(Clone)]
pub struct Rekey {
    from: &'static Schema,
    to: &'static Schema,
    /// One per value field of the new design, in key order.
    targets: Vec<(&'static FieldSchema, Source)>,
    /// Old fields no new field takes (only with `merge_rows`, or declared derived).
    dropped: Vec<&'static str>,
    /// Whether rows may merge (`merge_rows`).
    merges: bool,
    /// Both designs compiled, shared by the clones a pipeline's workers hold.
    plans: Arc<planned::Plans>,
}

/// The designs and each new field's source; a fixed value of a field marked `sensitive` is
/// shown as its length.
impl fmt::Debug for Rekey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let targets: Vec<_> = self.targets.iter().map(|(field, source)| (field.name, Shown(field, source))).collect();
        f.debug_struct("Rekey")
            .field("from", &self.from.type_name)
            .field("to", &self.to.type_name)
            .field("targets", &targets)
            .field("dropped", &self.dropped)
            .finish()
    }
}

/// The mapping, a line for each field of the new design: `field <- source`, a fixed value of
/// a field marked `sensitive` shown as its length.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::rekey::Rekey;
///
/// #[derive(RowKey)]
/// struct Old { user: String }
/// #[derive(RowKey)]
/// struct New { region: String, account: String, #[rowkey(sensitive)] recovery: String }
///
/// let rekey = Rekey::between::<Old, New>()
///     .rename("user", "account")
///     .default("region", "eu")
///     .default("recovery", "ann@example.com")
///     .build()?;
/// assert_eq!(rekey.to_string(), "region <- = eu\naccount <- user\nrecovery <- = <redacted, 15 characters>");
/// assert!(!format!("{rekey:?}").contains("ann@"));
/// # Ok::<(), rowkey::Error>(())
/// ```
impl fmt::Display for Rekey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (field, source)) in self.targets.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{} <- {}", field.name, Shown(field, source))?;
        }
        Ok(())
    }
}

/// The mapping to be built: see [`Rekey::builder`].
#[must_use = "a builder does nothing until `build` is called"]
pub struct RekeyBuilder {
    from: &'static Schema,
    to: &'static Schema,
    renames: Vec<(String, String)>,
    sources: Vec<(String, Source)>,
    merge: bool,
    derived: Vec<String>,
}

impl Rekey {
    /// A re-keying between two designs given by their schemas (a derived type's `SCHEMA`, or
    /// `Schema::from_json` (feature `schema-json`) of a schema file).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::rekey::Rekey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Old { user: String, day: u32 }
    ///
    /// #[derive(RowKey)]
    /// struct New { user: String, day: u32 }
    ///
    /// let rekey = Rekey::builder(&Old::SCHEMA, &New::SCHEMA).build()?;
    /// let old = Old { user: "ann".into(), day: 7 }.to_key()?;
    /// assert_eq!(old.as_bytes(), b"ann#0000000007");
    /// assert_eq!(rekey.rekey(&old)?, New { user: "ann".into(), day: 7 }.to_key()?);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn builder(from: &'static Schema, to: &'static Schema) -> RekeyBuilder {
        RekeyBuilder { from, to, renames: Vec::new(), sources: Vec::new(), merge: false, derived: Vec::new() }
    }

    /// A re-keying between two derived key types: [`builder`](Self::builder) of their
    /// schemas.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::rekey::Rekey;
    ///
    /// #[derive(RowKey)]
    /// struct Old { user: String }
    /// #[derive(RowKey)]
    /// #[rowkey(fdb_tuple)]
    /// struct New { user: String }
    ///
    /// let rekey = Rekey::between::<Old, New>().build()?;
    /// assert_eq!(rekey.rekey(&Old { user: "ann".into() }.to_key()?)?.as_bytes(), b"\x02ann\x00");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn between<A: KeySchema, B: KeySchema>() -> RekeyBuilder {
        Rekey::builder(&<A as KeySchema>::SCHEMA, &<B as KeySchema>::SCHEMA)
    }

    /// The old design.
    #[must_use]
    pub fn from_schema(&self) -> &'static Schema {
        self.from
    }

    /// The new design.
    #[must_use]
    pub fn to_schema(&self) -> &'static Schema {
        self.to
    }

    /// Each field of the new design with where its value comes from, in key order.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::rekey::{Rekey, Source};
    ///
    /// #[derive(RowKey)]
    /// struct Old { user: String }
    /// #[derive(RowKey)]
    /// struct New { region: String, account: String }
    ///
    /// let rekey = Rekey::between::<Old, New>().rename("user", "account").default("region", "eu").build()?;
    /// let plan: Vec<String> = rekey.mapping().map(|(field, source)| format!("{} <- {source}", field.name)).collect();
    /// assert_eq!(plan, ["region <- = eu", "account <- user"]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn mapping(&self) -> impl Iterator<Item = (&'static FieldSchema, &Source)> {
        self.targets.iter().map(|(field, source)| (*field, source))
    }

    /// The old fields no new field takes.
    #[must_use]
    pub fn dropped(&self) -> &[&'static str] {
        &self.dropped
    }

    /// Whether rows that differ only in a dropped field merge ([`merge_rows`](RekeyBuilder::merge_rows));
    /// `false` when every dropped field was declared [derived](RekeyBuilder::drop_derived).
    #[must_use]
    pub fn merges_rows(&self) -> bool {
        self.merges
    }

    /// The new key of the row whose old key is `old`.
    ///
    /// # Errors
    ///
    /// What [`Schema::inspect`] returns for a key that is not one of the old design's; what
    /// [`Schema::encode`] returns when a value does not fit the new field (`null` in a field
    /// that is not optional, a byte below the delimiter), except that an integer beyond the
    /// new field's type is an [`Error::Unencodable`] saying so, with the type's range and
    /// the fix; and a computed field's own error. Each names the field. A sensitive field's
    /// bytes are never quoted.
    pub fn rekey(&self, old: &[u8]) -> Result<Key> {
        let inspection = self.plans.from.inspect(old)?;
        self.rekey_inspected(&inspection)
    }

    /// [`rekey`](Self::rekey) of a key already inspected under the old design.
    ///
    /// # Errors
    ///
    /// As for [`rekey`](Self::rekey).
    pub fn rekey_inspected(&self, old: &Inspection) -> Result<Key> {
        match self.rekey_planned(old) {
            Some(key) => Ok(key),
            None => self.rekey_text(old),
        }
    }

    /// The new key of `old`'s values given as text to [`Schema::encode`] for the new design:
    /// the reference way, which names every fault.
    fn rekey_text(&self, old: &Inspection) -> Result<Key> {
        let mut texts = Vec::with_capacity(self.targets.len());
        let mut computed = Vec::new();
        for (field, source) in &self.targets {
            let text = match source {
                Source::Field(name) => {
                    let value = old.value(name).expect("the builder checked that the old design has the field");
                    ValueText(KeyField::Value(field), value).to_string()
                }
                Source::Fixed(text) => text.clone(),
                Source::Computed(compute) => {
                    let value = compute(old).map_err(|e| self.to.redact_error(e))?;
                    let text = ValueText(KeyField::Value(field), &value).to_string();
                    computed.push(value);
                    text
                }
            };
            texts.push(text);
        }
        let pairs: Vec<(&str, &str)> =
            self.targets.iter().zip(&texts).map(|((field, _), text)| (field.name, text.as_str())).collect();
        self.to.encode(&pairs).map_err(|e| self.encode_fault(old, &computed, e))
    }

    /// The re-keying back, from the new design to the old, when the new key holds every old
    /// field (so that each new key comes from one old key); `None` when some old field was
    /// dropped. Verifying a copy and reading across both designs use it to find a new row's
    /// old key.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::rekey::Rekey;
    ///
    /// #[derive(RowKey)]
    /// struct Old { user: String }
    /// #[derive(RowKey)]
    /// struct New { region: String, account: String }
    ///
    /// let rekey = Rekey::between::<Old, New>().rename("user", "account").default("region", "eu").build()?;
    /// let back = rekey.inverse().expect("every old field is in the new key");
    /// let new = New { region: "eu".into(), account: "ann".into() }.to_key()?;
    /// assert_eq!(back.rekey(&new)?, Old { user: "ann".into() }.to_key()?);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn inverse(&self) -> Option<Rekey> {
        if !self.dropped.is_empty() {
            return None;
        }
        let targets = value_fields(self.from)
            .into_iter()
            .map(|old| {
                let (new, _) = self
                    .targets
                    .iter()
                    .find(|(_, source)| matches!(source, Source::Field(name) if *name == old.name))?;
                Some((old, Source::Field(new.name)))
            })
            .collect::<Option<Vec<_>>>()?;
        // The new design's other fields are defaults or functions of the old values: dropping
        // them merges no rows.
        let plans = planned::Plans::new(self.to, self.from, &targets);
        Some(Rekey { from: self.to, to: self.from, targets, dropped: Vec::new(), merges: false, plans })
    }
}

impl RekeyBuilder {
    /// The old field `old` is the new field `new`.
    pub fn rename(mut self, old: &str, new: &str) -> Self {
        self.renames.push((old.to_owned(), new.to_owned()));
        self
    }

    /// The new field `field` holds `value` in every row: text in the forms
    /// [`Schema::encode`] reads (`eu`, `42`, `2020-05-01T00:00:00Z`, `null`).
    pub fn default(mut self, field: &str, value: &str) -> Self {
        self.sources.push((field.to_owned(), Source::Fixed(value.to_owned())));
        self
    }

    /// The new field `field` is computed from the old key's values.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::rekey::Rekey;
    /// use rowkey::schema::Value;
    ///
    /// #[derive(RowKey)]
    /// struct Old { user: String, ts_millis: i64 }
    /// #[derive(RowKey)]
    /// struct New { day: i64, user: String, ts_millis: i64 }
    ///
    /// let rekey = Rekey::between::<Old, New>()
    ///     .compute("day", |old| {
    ///         let millis = old.value("ts_millis").and_then(Value::as_int).unwrap_or_default();
    ///         Ok(Value::Int(millis.div_euclid(86_400_000)))
    ///     })
    ///     .build()?;
    /// let old = Old { user: "ann".into(), ts_millis: 86_400_000 * 3 + 5 }.to_key()?;
    /// assert_eq!(rekey.rekey(&old)?, New { day: 3, user: "ann".into(), ts_millis: 86_400_000 * 3 + 5 }.to_key()?);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn compute(
        mut self,
        field: &str,
        compute: impl Fn(&Inspection) -> Result<Value> + Send + Sync + 'static,
    ) -> Self {
        self.sources.push((field.to_owned(), Source::Computed(Arc::new(compute))));
        self
    }

    /// Lets old fields that no new field takes go, merging the rows that differ only in them.
    ///
    /// The merged row holds the cells of every old row that maps to it. Where two of them hold
    /// a cell in the same family and column with the same timestamp, one value survives: the
    /// one written last, which a copy that runs shards at the same time does not fix. Keep
    /// the field if that matters.
    pub fn merge_rows(mut self) -> Self {
        self.merge = true;
        self
    }

    /// Lets the old field `field` go because the fields the new key keeps decide its value (a
    /// device's type, given its id): then no two old keys become one, and no rows merge.
    /// rowkey cannot see that from the schemas, so it is your word; a
    /// verify (`bigtable::migrate::Migration::verify`, feature `bigtable`) of the copy reports the rows of
    /// any two old keys that met as differing.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::rekey::Rekey;
    ///
    /// #[derive(RowKey)]
    /// struct Old { device_type: String, device_id: String }
    /// #[derive(RowKey)]
    /// struct New { device_id: String }
    ///
    /// let rekey = Rekey::between::<Old, New>().drop_derived("device_type").build()?;
    /// assert!(!rekey.merges_rows());
    /// assert!(Rekey::between::<Old, New>().drop_derived("device_id").build().is_err()); // the new key takes it
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn drop_derived(mut self, field: &str) -> Self {
        self.derived.push(field.to_owned());
        self
    }

    /// The re-keying.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] listing every fault at once, each with its fix: a rename
    /// or value for a field the design does not have, a new field with no source, an old
    /// field no new field takes (without [`merge_rows`](Self::merge_rows)), two fields whose
    /// values are of different kinds (text into an integer), a field given two sources.
    pub fn build(self) -> Result<Rekey> {
        let old_fields = value_fields(self.from);
        let new_fields = value_fields(self.to);
        let (from_name, to_name) = (self.from.type_name, self.to.type_name);
        let mut faults = Vec::new();
        for (old, new) in &self.renames {
            if !old_fields.iter().any(|f| f.name == old) {
                faults.push(format!("the rename of `{old}` names no field of the old key `{from_name}`"));
            }
            if !new_fields.iter().any(|f| f.name == new) {
                faults.push(format!("the rename to `{new}` names no field of the new key `{to_name}`"));
            }
        }
        for (name, _) in &self.sources {
            if !new_fields.iter().any(|f| f.name == name) {
                faults.push(format!("a value is given for `{name}`, which is no field of the new key `{to_name}`"));
            }
            if self.sources.iter().filter(|(other, _)| other == name).count() > 1 {
                faults.push(format!("`{name}` is given two values; give one"));
            }
        }
        let mut targets = Vec::new();
        let mut taken = Vec::new();
        for &new in &new_fields {
            let renamed: Vec<&str> =
                self.renames.iter().filter(|(_, to)| to == new.name).map(|(from, _)| from.as_str()).collect();
            let given = self.sources.iter().find(|(name, _)| name == new.name).map(|(_, source)| source.clone());
            let old_name = match renamed.as_slice() {
                [one] => Some(*one),
                [] if self.renames.iter().any(|(from, _)| from == new.name) => None,
                [] => Some(new.name),
                _ => {
                    faults.push(format!("`{}` is the rename of {} old fields; rename one", new.name, renamed.len()));
                    None
                }
            };
            let old = old_name.and_then(|name| old_fields.iter().find(|f| f.name == name).copied());
            let source = match (given, old) {
                // A value given for a field both designs have replaces the old value, which
                // is then dropped.
                (Some(source), Some(_)) if renamed.is_empty() => source,
                (Some(_), Some(old)) => {
                    faults.push(format!(
                        "`{}` is both the rename of `{}` and given a value; drop one",
                        new.name, old.name
                    ));
                    continue;
                }
                (Some(source), None) => source,
                (None, Some(old)) => {
                    if let Some(why) = mismatch(old, new) {
                        faults.push(format!(
                            "`{}` of `{from_name}` cannot become `{}` of `{to_name}`: {why}; compute the new field \
                             (`compute`) instead",
                            old.name, new.name
                        ));
                    }
                    taken.push(old.name);
                    Source::Field(old.name)
                }
                // A rename from a field that does not exist is reported above.
                (None, None) if !renamed.is_empty() => continue,
                (None, None) => {
                    faults.push(format!(
                        "the new field `{}` has no source: `{from_name}` has no field of that name; rename an old \
                         field to it, give it a default, or compute it",
                        new.name
                    ));
                    continue;
                }
            };
            targets.push((new, source));
        }
        let dropped: Vec<&'static str> =
            old_fields.iter().map(|f| f.name).filter(|name| !taken.contains(name)).collect();
        for name in &self.derived {
            if !dropped.contains(&name.as_str()) {
                faults.push(format!(
                    "`{name}` is declared derived, but it is no field of `{from_name}` that the new key drops"
                ));
            }
        }
        let merging: Vec<&'static str> =
            dropped.iter().copied().filter(|name| !self.derived.iter().any(|d| d == name)).collect();
        if !merging.is_empty() && !self.merge {
            faults.push(format!(
                "no field of `{to_name}` takes {} of `{from_name}`, so rows that differ only there would become one \
                 row; rename {} to a new field, declare that the kept fields decide {} (`drop_derived`, \
                 `--drop-derived`), or allow such rows to merge (`merge_rows`, `--merge-rows`)",
                list(&merging),
                if merging.len() == 1 { "it" } else { "each" },
                if merging.len() == 1 { "it" } else { "them" },
            ));
        }
        if !faults.is_empty() {
            return Err(Error::argument("key mapping", faults.join("; ")));
        }
        let merges = !merging.is_empty();
        let plans = planned::Plans::new(self.from, self.to, &targets);
        Ok(Rekey { from: self.from, to: self.to, targets, dropped, merges, plans })
    }
}

/// `` `a` ``, `` `a` and `b` ``, `` `a`, `b` and `c` ``.
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => format!("`{one}`"),
        [init @ .., last] => {
            format!("{} and `{last}`", init.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "))
        }
    }
}

/// A schema's value fields (flattened ones by their own names), in key order.
fn value_fields(schema: &'static Schema) -> Vec<&'static FieldSchema> {
    schema
        .key_fields()
        .into_iter()
        .filter_map(|field| match field {
            KeyField::Value(field) => Some(field),
            KeyField::Prefix(_) | KeyField::Bucket(_) => None,
        })
        .collect()
}
