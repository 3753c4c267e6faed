//! [`AsField`] and the `as_field` adapter: a field of any [field type](crate::field) through
//! serde, with exactly the bytes `#[derive(RowKey)]` and tuple keys write for it.
//!
//! A type's own `Serialize` impl is written for JSON and the like, not for sorted keys:
//! chrono's `DateTime` serializes as RFC 3339 text whose fraction has a variable width, time's
//! `OffsetDateTime` as its local date and time plus the offset, `Ipv4Addr` as four integers.
//! The adapter skips it: it serializes the value's key field bytes, which the key serializer
//! writes as one field, and reads them back with the type's field decoder.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};
use smallvec::SmallVec;

use crate::field::{FieldBytes, ReadField, WriteField};
use crate::format::Ordered;

/// A value written as its key field encoding when it goes through `rowkey::to_key`: the bytes
/// the derive writes for a field of type `T`, so a serde struct and a derived key agree byte
/// for byte. It composes with the other wrappers (`Desc<AsField<T>>`,
/// `Option<AsField<T>>`); for a plain field, `#[serde(with = "rowkey::serde::as_field")]`
/// does the same without changing the field's type.
///
/// Other serializers see the field bytes as a byte string: use it on types meant as keys.
///
/// ```
/// use rowkey::serde::AsField;
/// use rowkey::{Desc, RowKey};
///
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Visit {
///     user: AsField<uuid::Uuid>,
///     at: Desc<AsField<chrono::DateTime<chrono::Utc>>>,
/// }
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct VisitKey {
///     user: uuid::Uuid,
///     #[rowkey(desc)]
///     at: chrono::DateTime<chrono::Utc>,
/// }
///
/// let (user, at) = (uuid::Uuid::nil(), "2020-05-01T00:00:00.5Z".parse().unwrap());
/// let visit = Visit { user: AsField(user), at: Desc(AsField(at)) };
/// let key = rowkey::to_key(&visit)?;
/// assert_eq!(key, VisitKey { user, at }.to_key()?);
/// assert_eq!(rowkey::from_key::<Visit>(&key)?, visit);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AsField<T>(pub T);

impl<T: WriteField<Ordered>> Serialize for AsField<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(&self.0, serializer)
    }
}

impl<'de, T: ReadField<'de, Ordered>> serde::Deserialize<'de> for AsField<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer).map(AsField)
    }
}

/// Serializes `value` as its key field bytes: for `#[serde(with = "rowkey::serde::as_field")]`.
///
/// # Errors
///
/// The field encoder's error (a value it refuses, such as a sub-microsecond instant), as the
/// serializer's error.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Login {
///     #[serde(with = "rowkey::serde::as_field")]
///     ip: std::net::Ipv4Addr,
///     #[serde(with = "rowkey::serde::as_field")]
///     at: jiff::Timestamp,
/// }
///
/// let login = Login { ip: [10, 0, 0, 1].into(), at: jiff::Timestamp::UNIX_EPOCH };
/// let key = rowkey::to_key(&login)?;
/// assert_eq!(key, (login.ip, login.at).to_key()?);
/// assert_eq!(rowkey::from_key::<Login>(&key)?, login);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn serialize<T: WriteField<Ordered>, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    let mut bytes = SmallVec::<[u8; 32]>::new();
    value.write(&mut bytes).map_err(serde::ser::Error::custom)?;
    serializer.serialize_bytes(&bytes)
}

/// Reads a value serialized by [`serialize`] back with the type's field decoder.
///
/// # Errors
///
/// The field decoder's error, as the deserializer's error.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Session {
///     #[serde(with = "rowkey::serde::as_field")]
///     id: ulid::Ulid,
/// }
///
/// let session = Session { id: ulid::Ulid::from_parts(1_588_291_200_000, 7) };
/// assert_eq!(rowkey::from_key::<Session>(&rowkey::to_key(&session)?)?, session);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub fn deserialize<'de, T: ReadField<'de, Ordered>, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_bytes(FieldVisitor(PhantomData))
}

struct FieldVisitor<T>(PhantomData<T>);

impl<'de, T: ReadField<'de, Ordered>> Visitor<'de> for FieldVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the bytes of a key field")
    }

    fn visit_borrowed_bytes<E: de::Error>(self, bytes: &'de [u8]) -> Result<T, E> {
        T::read(FieldBytes::borrowed(bytes)).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<T, E> {
        T::read(FieldBytes::owned(bytes.to_vec())).map_err(E::custom)
    }

    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<T, E> {
        T::read(FieldBytes::owned(bytes)).map_err(E::custom)
    }
}
