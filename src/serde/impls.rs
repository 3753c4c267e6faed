//! `Serialize` and `Deserialize` for the field wrappers and for [`Key`].
//!
//! A wrapper serializes as a newtype struct under a reserved name: this crate's serializer
//! reads the name as a field option, and every other format sees the inner value.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::field::{BigEndian, Desc, Reversed};
use crate::key::Key;
use crate::transform::{BitReversed, ReversedDomain, ReversedUrl};

use super::names;

/// Reads a wrapper's inner value, as a newtype or as a one-element sequence (the formats
/// that write newtypes that way).
struct Inner<T, W> {
    wrap: fn(T) -> W,
    what: &'static str,
    _inner: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>, W> Visitor<'de> for Inner<T, W> {
    type Value = W;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} value", self.what)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<W, D::Error> {
        T::deserialize(deserializer).map(self.wrap)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<W, A::Error> {
        match seq.next_element()? {
            Some(value) => Ok((self.wrap)(value)),
            None => Err(de::Error::invalid_length(0, &self)),
        }
    }
}

macro_rules! wrappers {
    ($($ty:ident => $name:expr),* $(,)?) => {$(
        impl<T: Serialize> Serialize for $ty<T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_newtype_struct($name, &self.0)
            }
        }

        impl<'de, T: Deserialize<'de>> Deserialize<'de> for $ty<T> {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let inner = Inner { wrap: $ty, what: stringify!($ty), _inner: PhantomData };
                deserializer.deserialize_newtype_struct($name, inner)
            }
        }
    )*};
}

wrappers! {
    Desc => names::DESC,
    BigEndian => names::BIG_ENDIAN,
    Reversed => names::REVERSED,
    BitReversed => names::BIT_REVERSED,
    ReversedDomain => names::REVERSED_DOMAIN,
    ReversedUrl => names::REVERSED_URL,
}

/// Bytes in binary formats; the readable form of [`Key`]'s `Display` (`phone\x00\x01...`) in
/// human-readable ones such as JSON, parsed back with [`Key::from_readable`].
impl Serialize for Key {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() { serializer.collect_str(self) } else { serializer.serialize_bytes(self) }
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_str(KeyVisitor)
        } else {
            deserializer.deserialize_bytes(KeyVisitor)
        }
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row key: bytes, or its readable text such as phone\\x00\\x01id")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Key, E> {
        Key::from_readable(text).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Key, E> {
        Ok(Key::from(bytes))
    }

    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<Key, E> {
        Ok(Key::from(bytes))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Key, A::Error> {
        let mut key = Key::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(byte) = seq.next_element::<u8>()? {
            key.push(byte);
        }
        Ok(key)
    }
}
