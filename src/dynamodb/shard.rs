//! Write sharding as the partition key's last part: `acme#07` where the key's salt would make
//! it `07#acme`. DynamoDB hashes the whole partition key, so either place spreads one hot
//! partition key's writes over the shards; the suffix keeps the partition key readable from
//! its start, and lets the shard be random, which a salt (part of the key itself) cannot be.
//!
//! The shard is written as a salt bucket is (zero-padded decimal in text, the ordered integer
//! in binary, an MD5 salt's hex digits in both), after the key's separator.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use crate::error::Result;
use crate::field::{EncodeText, WriteField};
use crate::format::Ordered;
use crate::key::Key;
use crate::salt::{Salt, SaltHash};
use crate::schema::{DynamoShards, Encoding, Format, Inspection, Schema, salt_bucket};

/// A design's shards, checked against its schema.
#[derive(Clone, Debug)]
pub(crate) struct Shard {
    design: DynamoShards,
    /// The bucket writer and parser: a random shard is written as a FarmHash salt's bucket.
    salt: Salt,
    delimited: bool,
}

/// The shards `design` describes for keys of `schema` whose partition fields are `partition`,
/// or why they cannot be.
pub(crate) fn check(schema: &Schema, partition: &[&str], design: DynamoShards) -> std::result::Result<Shard, String> {
    if let Some(salt) = schema.salt {
        return Err(format!(
            "`{}` has a salt ({salt}), whose bucket already leads and shards each partition key: keep the salt or \
             `shards`, not both",
            schema.type_name
        ));
    }
    let hash = match design {
        DynamoShards::Random { .. } => SaltHash::FarmHash,
        DynamoShards::Computed(salt) => salt.hash,
    };
    let salt = Salt::new(design.buckets(), hash).map_err(|e| format!("shards: {e}"))?;
    if let DynamoShards::Computed(salt) = design {
        if salt.from.is_empty() {
            return Err("the shards name no source fields: list them (`from = [order]`), or make them `random`".into());
        }
        for (index, name) in salt.from.iter().enumerate() {
            if salt.from[..index].contains(name) {
                return Err(format!("the shard source `{name}` is listed twice: list each field once"));
            }
            match schema.fields.iter().find(|f| f.name == *name) {
                None => {
                    return Err(format!(
                        "the shard source `{name}` is not a field of `{}`: name the key fields the shard is computed \
                         from",
                        schema.type_name
                    ));
                }
                Some(field) if matches!(field.encoding, Encoding::Flattened(_)) => {
                    return Err(format!("the shard source `{name}` is flattened: name plain key fields"));
                }
                Some(_) => {}
            }
        }
        if salt.from.iter().all(|name| partition.contains(name)) {
            return Err(format!(
                "the shards come from partition fields only ({}), so every item of a partition key gets the same \
                 shard: take them from sort fields, or make them `random`",
                salt.from.join(", ")
            ));
        }
    }
    Ok(Shard { design, salt, delimited: matches!(schema.format, Format::Delimited(_)) })
}

impl Shard {
    /// Every shard a read queries.
    pub(crate) fn all(&self) -> std::ops::Range<u32> {
        0..self.design.buckets()
    }

    /// The shard of the key `inspection` describes: computed from its source fields, or drawn
    /// at random.
    pub(crate) fn of(&self, schema: &Schema, inspection: &Inspection) -> Result<u32> {
        match &self.design {
            DynamoShards::Random { buckets } => {
                // Each `RandomState` has fresh keys, so this is a new draw on every call.
                let draw = RandomState::new().build_hasher().finish();
                Ok(u32::try_from(draw % u64::from(*buckets)).unwrap_or(0))
            }
            DynamoShards::Computed(salt) => salt_bucket(schema, salt, |name| {
                Some((schema.fields.iter().find(|f| f.name == name)?, inspection.value(name)?))
            }),
        }
    }

    /// Whether `bucket` is the one shard the key `inspection` describes may be in: any shard
    /// for random ones.
    pub(crate) fn holds(&self, schema: &Schema, inspection: &Inspection, bucket: u32) -> Result<bool> {
        match self.design {
            DynamoShards::Random { buckets } => Ok(bucket < buckets),
            DynamoShards::Computed(_) => Ok(self.of(schema, inspection)? == bucket),
        }
    }

    /// `partition`, then the separator and the shard: a sharded partition key.
    pub(crate) fn append(&self, partition: &[u8], separator: &[u8], bucket: u32) -> Result<Key> {
        let mut out = Key::from(partition);
        out.extend_from_slice(separator);
        let field = self.salt.bucket_field(bucket);
        let mut written = Vec::new();
        if self.delimited {
            field.encode_text(&mut written)?;
        } else {
            WriteField::<Ordered>::write(&field, &mut written)?;
        }
        out.extend_from_slice(&written);
        Ok(out)
    }

    /// The shard a partition key ends with: [`append`](Self::append)'s bytes after the
    /// separator, read back.
    pub(crate) fn read(&self, bytes: &[u8]) -> Result<u32> {
        self.salt.read_bucket(bytes, self.delimited)
    }
}
