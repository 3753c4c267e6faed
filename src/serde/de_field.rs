//! Deserializing a value from the bytes of one field: scalars through the core's decoders,
//! `Option`s by the `escape_nulls` marker, sequences element by element, and compound values
//! from the ordered key they hold.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::de::value::SeqDeserializer;
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::boxed_error::{BoxedError, Result};
use crate::error::{Error, Location};
use crate::field::int::decode_i64;
use crate::field::{FieldBytes, ReadField};
use crate::format::Ordered;
use crate::format::ordered::EMPTY_FIELD;
use crate::transform::{ReversedDomain, ReversedUrl};

use super::de::{ANY, FlatAccess, IDENTIFIER, IGNORED, OneField, nested_key};
use super::is_system_time;
use super::scalar::Int;
use super::source::{Source, with_source};
use super::{Marker, Transform, deeper, unsupported};

const DESC_PLACE: &str = "a descending part must be a whole key field or a whole sequence element: read \
     Desc<Option<T>>, not Option<Desc<T>>";

/// Bytes from `from` on, still borrowed when they were.
fn tail<'de>(bytes: &FieldBytes<'de>, from: usize) -> FieldBytes<'de> {
    match bytes.as_borrowed() {
        Some(borrowed) => FieldBytes::borrowed(&borrowed[from..]),
        None => FieldBytes::copied(&bytes.as_slice()[from..]),
    }
}

/// The core's error for bytes that are not UTF-8, off the hot path.
#[cold]
fn not_utf8(bytes: &[u8]) -> Error {
    match <&str as ReadField<'_, Ordered>>::read(FieldBytes::borrowed(bytes)) {
        Err(e) => e,
        Ok(_) => Error::invalid("string", "invalid UTF-8"),
    }
}

/// Deserializes a value from one field's bytes.
pub(super) struct FieldDe<'de> {
    bytes: FieldBytes<'de>,
    transform: Transform,
    depth: u16,
}

impl<'de> OneField<'de> for FieldDe<'de> {
    fn new(bytes: FieldBytes<'de>, transform: Transform, depth: u16) -> Self {
        FieldDe { bytes, transform, depth }
    }

    /// A key field holding a variant index.
    fn variant_index(self) -> Result<u32> {
        let wide = decode_i64(self.bytes.as_slice())?;
        Ok(u32::try_from(wide)
            .map_err(|_| Error::invalid("variant index", format!("{wide} is not a variant index")))?)
    }
}

impl<'de> FieldDe<'de> {
    fn enter(&self, found: &str) -> Result<u16> {
        self.transform.check_decode(found)?;
        Ok(deeper(self.depth)?)
    }

    fn scalar<T: ReadField<'de, Ordered>>(self, found: &str) -> Result<T> {
        self.transform.check_decode(found)?;
        Ok(T::read(self.bytes)?)
    }

    /// An enum inside a field: its index's int64 bytes (they end themselves), then the rest.
    fn split_index(self) -> Result<(u32, FieldBytes<'de>)> {
        let slice = self.bytes.as_slice();
        // An index is an int64 in 0..2^32: its first byte has the top bit set, and its
        // leading ones count its bytes, at most 5.
        let len = slice.first().map_or(0, |b| b.leading_ones() as usize);
        if !(1..=5).contains(&len) || slice.len() < len {
            return Err(Error::invalid("enum", "the field does not start with a variant index").into());
        }
        let wide = decode_i64(&slice[..len])?;
        let index =
            u32::try_from(wide).map_err(|_| Error::invalid("enum", format!("{wide} is not a variant index")))?;
        Ok((index, tail(&self.bytes, len)))
    }
}

macro_rules! ints {
    ($($method:ident => $visit:ident($ty:ty)),* $(,)?) => {$(
        #[inline(always)]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(<$ty as Int>::decode_with(self.bytes, self.transform)?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for FieldDe<'de> {
    type Error = BoxedError;

    fn is_human_readable(&self) -> bool {
        false
    }

    ints! {
        deserialize_i8 => visit_i8(i8), deserialize_i16 => visit_i16(i16), deserialize_i32 => visit_i32(i32),
        deserialize_i64 => visit_i64(i64), deserialize_u8 => visit_u8(u8), deserialize_u16 => visit_u16(u16),
        deserialize_u32 => visit_u32(u32), deserialize_u64 => visit_u64(u64),
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_bool(self.scalar("a bool")?)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i128(self.scalar::<i128>("an i128")?)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u128(self.scalar::<u128>("a u128")?)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f32(self.scalar("an f32")?)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.scalar("an f64")?)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_char(self.scalar("a char")?)
    }

    #[inline(always)]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.transform {
            Transform::None => match self.bytes.as_borrowed() {
                Some(borrowed) => match crate::field::utf8::to_str(borrowed) {
                    Ok(text) => visitor.visit_borrowed_str(text),
                    Err(_) => Err(not_utf8(borrowed).into()),
                },
                None => visitor.visit_string(<String as ReadField<'_, Ordered>>::read(self.bytes)?),
            },
            Transform::ReversedDomain => {
                visitor.visit_string(<ReversedDomain<String> as ReadField<'_, Ordered>>::read(self.bytes)?.0)
            }
            Transform::ReversedUrl => {
                visitor.visit_string(<ReversedUrl<String> as ReadField<'_, Ordered>>::read(self.bytes)?.0)
            }
            t => Err(t.decode_error("a string").into()),
        }
    }

    #[inline(always)]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.transform.check_decode("a byte string")?;
        match self.bytes.as_borrowed() {
            Some(borrowed) => visitor.visit_borrowed_bytes(borrowed),
            None => visitor.visit_byte_buf(self.bytes.into_vec()),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let depth = self.enter("an Option")?;
        let slice = self.bytes.as_slice();
        if slice.is_empty() {
            return visitor.visit_none();
        }
        // The writer appended one 00 to a payload that was empty or all 00.
        let payload = if slice.iter().all(|&b| b == 0) { tail(&self.bytes, 1) } else { self.bytes };
        visitor.visit_some(FieldDe::new(payload, Transform::None, depth))
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.transform.check_decode("()")?;
        if !self.bytes.is_empty() {
            return Err(Error::invalid("()", "a unit value has no bytes, but the field has some").into());
        }
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        match Marker::of(name) {
            None => {
                let depth = deeper(self.depth)?;
                visitor.visit_newtype_struct(FieldDe { depth, ..self })
            }
            Some(Marker::Desc) => Err(Error::invalid("Desc", DESC_PLACE).into()),
            Some(Marker::Transform(t)) => {
                let depth = self.enter(t.wrapper())?;
                visitor.visit_newtype_struct(FieldDe { transform: t, depth, ..self })
            }
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let depth = self.enter("a sequence")?;
        elements(&self.bytes, depth, |access| visitor.visit_seq(access))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let depth = self.enter("a map")?;
        elements(&self.bytes, depth, |access| visitor.visit_map(access))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        let depth = self.enter("a tuple")?;
        nested_key::<FieldDe<'de>, _>(&self.bytes, depth, |de| visitor.visit_seq(FlatAccess::new(de, len, None)))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _: &'static str, len: usize, visitor: V) -> Result<V::Value> {
        let depth = self.enter("a tuple struct")?;
        nested_key::<FieldDe<'de>, _>(&self.bytes, depth, |de| visitor.visit_seq(FlatAccess::new(de, len, None)))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if is_system_time(name, fields.len()) && fields == super::SYSTEM_TIME_FIELDS {
            let time: SystemTime = self.scalar("a SystemTime")?;
            let since = time.duration_since(UNIX_EPOCH).map_err(|_| {
                Error::invalid(
                    "SystemTime",
                    "the time is before 1970, which serde's SystemTime cannot represent; \
                     decode the field into i64 microseconds or rowkey's own SystemTime field instead",
                )
            })?;
            let mut parts =
                SeqDeserializer::<_, Error>::new([since.as_secs(), u64::from(since.subsec_nanos())].into_iter());
            let value = visitor.visit_seq(&mut parts)?;
            parts.end()?;
            return Ok(value);
        }
        let depth = self.enter("a struct")?;
        nested_key::<FieldDe<'de>, _>(&self.bytes, depth, |de| {
            visitor.visit_seq(FlatAccess::new(de, fields.len(), Some(fields)))
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let depth = self.enter("an enum")?;
        let (index, rest) = self.split_index()?;
        visitor.visit_enum(FieldEnum { index, rest, depth })
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(unsupported(ANY).into())
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(unsupported(IGNORED).into())
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(unsupported(IDENTIFIER).into())
    }
}

/// Reads a sequence's or map's elements, then checks that the visitor took all of them.
fn elements<'de, R>(
    bytes: &FieldBytes<'de>,
    depth: u16,
    visit: impl FnOnce(&mut Elements<'_, dyn Source<'de> + '_>) -> Result<R>,
) -> Result<R> {
    // Elements always end in a separator, so `00 00` (which a key reader takes for "no
    // fields") is no sequence.
    if bytes.as_slice() == EMPTY_FIELD {
        return Err(Error::NonCanonical { at: Location::UNKNOWN, detail: "a sequence field is never 00 00" }.into());
    }
    with_source(bytes, |source| {
        let mut access = Elements { src: source, depth, last_key: None };
        let value = visit(&mut access)?;
        if !access.src.at_end() {
            return Err(Error::Malformed {
                at: Location::UNKNOWN,
                detail: "the sequence holds more elements than the type took",
            }
            .into());
        }
        Ok(value)
    })
}

/// The elements of a sequence or map.
struct Elements<'a, S: ?Sized> {
    src: &'a mut S,
    depth: u16,
    /// For a map: where the previous key's framed bytes are, to check the order.
    last_key: Option<(usize, usize)>,
}

impl<'de, S: Source<'de> + ?Sized> Elements<'_, S> {
    fn element(&mut self) -> ElemDe<'_, S> {
        ElemDe { src: &mut *self.src, desc: false, depth: self.depth }
    }
}

impl<'de, S: Source<'de> + ?Sized> de::SeqAccess<'de> for &mut Elements<'_, S> {
    type Error = BoxedError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.src.at_end() {
            return Ok(None);
        }
        seed.deserialize(self.element()).map(Some)
    }
}

impl<'de, S: Source<'de> + ?Sized> de::MapAccess<'de> for &mut Elements<'_, S> {
    type Error = BoxedError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.src.at_end() {
            return Ok(None);
        }
        let start = self.src.position();
        let key = seed.deserialize(self.element())?;
        let end = self.src.position();
        if let Some((last_start, last_end)) = self.last_key {
            let encoded = self.src.encoded();
            if encoded[last_start..last_end] >= encoded[start..end] {
                return Err(Error::NonCanonical {
                    at: Location::UNKNOWN,
                    detail: "map keys must be in ascending order without duplicates, as the encoder writes them",
                }
                .into());
            }
        }
        self.last_key = Some((start, end));
        Ok(Some(key))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        if self.src.at_end() {
            return Err(
                Error::Truncated { at: Location::UNKNOWN, detail: "a map key is not followed by its value" }.into()
            );
        }
        seed.deserialize(self.element())
    }
}

/// One sequence element. Its bytes are read on first use, once any `Desc` around it has said
/// how they are framed.
struct ElemDe<'a, S: ?Sized> {
    src: &'a mut S,
    desc: bool,
    depth: u16,
}

impl<'de, S: Source<'de> + ?Sized> ElemDe<'_, S> {
    fn read(self) -> Result<FieldDe<'de>> {
        let bytes = self.src.field(self.desc, None)?;
        // Unlike a key's last field, a sequence's last element keeps its separator.
        if !self.src.terminated() {
            return Err(Error::Truncated {
                at: Location::UNKNOWN,
                detail: "a sequence element ends in a separator (00 01), which is missing",
            }
            .into());
        }
        Ok(FieldDe::new(bytes, Transform::None, self.depth))
    }
}

macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.read()?.$method(visitor)
        }
    )*};
}

impl<'de, S: Source<'de> + ?Sized> de::Deserializer<'de> for ElemDe<'_, S> {
    type Error = BoxedError;

    fn is_human_readable(&self) -> bool {
        false
    }

    forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if let Some(Marker::Desc) = Marker::of(name) {
            let depth = deeper(self.depth)?;
            return visitor.visit_newtype_struct(ElemDe { desc: !self.desc, depth, ..self });
        }
        self.read()?.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        self.read()?.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.read()?.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, name: &'static str, len: usize, visitor: V) -> Result<V::Value> {
        self.read()?.deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.read()?.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.read()?.deserialize_enum(name, variants, visitor)
    }
}

/// An enum inside a field: the index, then for a variant with data its payload's ordered key.
struct FieldEnum<'de> {
    index: u32,
    rest: FieldBytes<'de>,
    depth: u16,
}

impl<'de> de::EnumAccess<'de> for FieldEnum<'de> {
    type Error = BoxedError;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self)> {
        let value = seed.deserialize(self.index.into_deserializer()).map_err(|e: Error| BoxedError::from(e))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for FieldEnum<'de> {
    type Error = BoxedError;

    fn unit_variant(self) -> Result<()> {
        if !self.rest.is_empty() {
            return Err(Error::invalid("enum", "bytes follow the index of a variant that holds no data").into());
        }
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        nested_key::<FieldDe<'de>, _>(&self.rest, self.depth, |de| seed.deserialize(de))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        nested_key::<FieldDe<'de>, _>(&self.rest, self.depth, |de| visitor.visit_seq(FlatAccess::new(de, len, None)))
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        nested_key::<FieldDe<'de>, _>(&self.rest, self.depth, |de| {
            visitor.visit_seq(FlatAccess::new(de, fields.len(), Some(fields)))
        })
    }
}
