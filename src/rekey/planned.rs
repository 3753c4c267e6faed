//! A re-keying run on the two designs' compiled plans: the old key read by the old plan,
//! its values handed as they are to the new plan's writer, no text in between. What the
//! plans do not take (a value the new field's type may not hold, a key the old plan leaves
//! to the interpreter, a fixed value that does not parse) goes the way through text that
//! [`Schema::encode`] reads, which is the reference and names every fault.
//!
//! [`Schema::encode`]: crate::schema::Schema::encode

use std::sync::Arc;

use crate::key::Key;
use crate::schema::{Inspection, KeyPlan, Schema, Value, parse_value};

use super::{Rekey, Source};

/// Both designs compiled, and each fixed value of the new design parsed once.
#[derive(Debug)]
pub(super) struct Plans {
    pub(super) from: KeyPlan,
    to: KeyPlan,
    /// By target: the value of a fixed source that parses; `None` for the others.
    fixed: Vec<Option<Value>>,
}

impl Plans {
    pub(super) fn new(
        from: &Schema,
        to: &Schema,
        targets: &[(&'static crate::schema::FieldSchema, Source)],
    ) -> Arc<Plans> {
        let fixed = targets
            .iter()
            .map(|(field, source)| match source {
                Source::Fixed(text) => parse_value(to.format, field, text).ok(),
                _ => None,
            })
            .collect();
        Arc::new(Plans { from: KeyPlan::new(from), to: KeyPlan::new(to), fixed })
    }
}

impl Rekey {
    /// The new key of `old`'s values through the new plan, when it takes every one of them
    /// as it is; `None` sends the key the way through text.
    pub(super) fn rekey_planned(&self, old: &Inspection) -> Option<Key> {
        let mut values = Vec::with_capacity(self.targets.len());
        for ((_, source), fixed) in self.targets.iter().zip(&self.plans.fixed) {
            values.push(match (source, fixed) {
                (Source::Field(name), _) => old.value(name)?,
                (Source::Fixed(_), Some(value)) => value,
                // A computed value may fail or need its field's checks: the text way.
                _ => return None,
            });
        }
        let mut key = Key::new();
        self.plans.to.write_trusted(&values, &mut key).then_some(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Encoding, FieldSchema, Format};

    static OLD_FIELDS: [FieldSchema; 2] = [
        FieldSchema::new("user", "String", Encoding::Utf8),
        FieldSchema::new("day", "u32", Encoding::Decimal { width: 10, signed: false }),
    ];
    static NEW_FIELDS: [FieldSchema; 3] = [
        FieldSchema::new("region", "String", Encoding::Utf8),
        FieldSchema::new("day", "u32", Encoding::Int64),
        FieldSchema::new("account", "String", Encoding::Utf8),
    ];
    static OLD: Schema = Schema {
        type_name: "Old",
        format: Format::Delimited("#"),
        prefix: None,
        salt: None,
        max_len: 64,
        fields: &OLD_FIELDS,
        dynamodb: None,
    };
    static NEW: Schema = Schema {
        type_name: "New",
        format: Format::FdbTuple,
        prefix: None,
        salt: None,
        max_len: 64,
        fields: &NEW_FIELDS,
        dynamodb: None,
    };
    /// The new design with keys of at most four bytes, which no key of it fits in.
    static SHORT: Schema = Schema { max_len: 4, ..NEW };

    /// Renamed and fixed values go through the plans, to the key the text way gives; a
    /// value the new field cannot hold is left to the text way, which names it.
    #[test]
    fn the_plans_give_the_text_ways_key() {
        let rekey = Rekey::builder(&OLD, &NEW).rename("user", "account").default("region", "eu").build().unwrap();
        let old = OLD.encode(&[("user", "ann"), ("day", "7")]).unwrap();
        let inspection = OLD.inspect(&old).unwrap();
        let planned = rekey.rekey_planned(&inspection).expect("the plans take every value");
        assert_eq!(planned, rekey.rekey_text(&inspection).unwrap());
        assert_eq!(rekey.rekey(&old).unwrap(), planned);

        let short = Rekey::builder(&OLD, &SHORT).rename("user", "account").default("region", "eu").build().unwrap();
        assert!(short.rekey_planned(&inspection).is_none());
        let err = short.rekey(&old).unwrap_err();
        assert_eq!(err.to_string(), short.rekey_text(&inspection).unwrap_err().to_string());
        assert!(err.to_string().contains("over the limit of 4 bytes"), "{err}");
    }
}
