//! The key-level deserializer: reads fields from a [`Source`] as the type asks for them, so
//! the type's own shape says where each field ends.
//!
//! What one field's bytes become is the field deserializer's business, a type parameter here:
//! a field can hold a nested key of its own, which that deserializer reads with this one.

use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::boxed_error::{BoxedError, Result};
use crate::error::Error;
use crate::field::FieldBytes;

use super::boxed_error::relocate;
use super::is_system_time;
use super::source::{Source, with_source};
use super::{Marker, Transform, deeper, unsupported};

/// Reads one field's bytes as a value: what [`FlatDe`] hands each field to.
pub(super) trait OneField<'de>: de::Deserializer<'de, Error = BoxedError> {
    fn new(bytes: FieldBytes<'de>, transform: Transform, depth: u16) -> Self;

    /// Reads the field as an enum's variant index.
    fn variant_index(self) -> Result<u32>;
}

/// Reads a value from one field's bytes that hold an ordered key of its own.
pub(super) fn nested_key<'de, F: OneField<'de>, R>(
    bytes: &FieldBytes<'de>,
    depth: u16,
    f: impl FnOnce(&mut FlatDe<'_, dyn Source<'de> + '_, F>) -> Result<R>,
) -> Result<R> {
    with_source(bytes, |source| {
        let value = f(&mut FlatDe::new(&mut *source, depth))?;
        source.finish()?;
        Ok(value)
    })
}

/// Deserializes a value from a sequence of key fields, each read by `F`.
pub(super) struct FlatDe<'s, S: ?Sized, F> {
    src: &'s mut S,
    desc: bool,
    transform: Transform,
    /// The struct field being read, for errors.
    name: Option<&'static str>,
    depth: u16,
    field: PhantomData<fn() -> F>,
}

impl<'s, 'de, S: Source<'de> + ?Sized, F: OneField<'de>> FlatDe<'s, S, F> {
    pub(super) fn new(src: &'s mut S, depth: u16) -> Self {
        FlatDe { src, desc: false, transform: Transform::None, name: None, depth, field: PhantomData }
    }

    /// The next field, by the general path (the one-field methods try the common shape
    /// first; the rarer callers of this do not).
    #[inline]
    fn field(&mut self) -> Result<F> {
        let bytes = self.src.field(self.desc, self.name)?;
        Ok(F::new(bytes, self.transform, self.depth))
    }

    /// Reads the next field by the general path and runs `read` on it.
    #[inline(never)]
    fn with_field<V, R>(&mut self, visitor: V, read: impl FnOnce(F, V) -> Result<R>) -> Result<R> {
        let field = self.field()?;
        read(field, visitor).map_err(|e| self.in_last(e))
    }

    /// Locates an error in the value of the field read last.
    #[cold]
    fn in_last(&self, err: BoxedError) -> BoxedError {
        err.relocated(self.src.last(self.name))
    }

    #[cold]
    fn fail(&self, err: Error) -> BoxedError {
        relocate(err, self.src.here(self.name)).into()
    }

    /// Entering anything but a scalar; returns the depth inside.
    fn enter(&self, found: &str) -> Result<u16> {
        self.transform.check_decode(found).and_then(|()| deeper(self.depth)).map_err(|e| self.fail(e))
    }

    /// Runs `f` with the given state, restoring the current one after.
    fn within<R>(
        &mut self,
        depth: u16,
        desc: bool,
        transform: Transform,
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<R> {
        let saved = (self.depth, self.desc, self.transform, self.name);
        (self.depth, self.desc, self.transform) = (depth, desc, transform);
        let result = f(self);
        (self.depth, self.desc, self.transform, self.name) = saved;
        result
    }
}

/// Each one-field method reads the common shape (see [`Source::plain_field`]) inline, where
/// the compiler sees that the bytes are borrowed, and everything else in
/// [`FlatDe::with_field`], out of line, so that the method's body is inlined once.
macro_rules! one_field {
    ($($method:ident)*) => {$(
        #[inline(always)]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if !self.desc
                && let Some(bytes) = self.src.plain_field()
            {
                let field = F::new(FieldBytes::borrowed(bytes), self.transform, self.depth);
                return field.$method(visitor).map_err(|e| self.in_last(e));
            }
            self.with_field(visitor, |field, visitor| field.$method(visitor))
        }
    )*};
}

impl<'de, S: Source<'de> + ?Sized, F: OneField<'de>> de::Deserializer<'de> for &mut FlatDe<'_, S, F> {
    type Error = BoxedError;

    fn is_human_readable(&self) -> bool {
        false
    }

    one_field! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_option deserialize_seq deserialize_map
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.transform.check_decode("()").map_err(|e| self.fail(e))?;
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        self.transform.check_decode("a unit struct").map_err(|e| self.fail(e))?;
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        let (depth, desc, transform) = match Marker::of(name) {
            None => (deeper(self.depth).map_err(|e| self.fail(e))?, self.desc, self.transform),
            Some(Marker::Desc) => (self.enter("a Desc")?, !self.desc, Transform::None),
            Some(Marker::Transform(t)) => (self.enter(t.wrapper())?, self.desc, t),
        };
        self.within(depth, desc, transform, |de| visitor.visit_newtype_struct(de))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        let depth = self.enter("a tuple")?;
        self.within(depth, self.desc, Transform::None, |de| visitor.visit_seq(FlatAccess::new(de, len, None)))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _: &'static str, len: usize, visitor: V) -> Result<V::Value> {
        let depth = self.enter("a tuple struct")?;
        self.within(depth, self.desc, Transform::None, |de| visitor.visit_seq(FlatAccess::new(de, len, None)))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if is_system_time(name, fields.len()) && fields == super::SYSTEM_TIME_FIELDS {
            let field = self.field()?;
            return field.deserialize_struct(name, fields, visitor).map_err(|e| self.in_last(e));
        }
        let depth = self.enter("a struct")?;
        self.within(depth, self.desc, Transform::None, |de| {
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
        self.within(depth, self.desc, Transform::None, |de| visitor.visit_enum(FlatEnum { de }))
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(self.fail(unsupported(ANY)))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(self.fail(unsupported(IGNORED)))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(self.fail(unsupported(IDENTIFIER)))
    }
}

pub(super) const ANY: &str = "the key holds no type tags, so a value cannot be read by what it looks like \
     (deserialize_any: untagged or internally tagged enums, #[serde(flatten)], self-describing types such as \
     serde_json::Value); give the field a concrete type";
pub(super) const IGNORED: &str = "the key holds no type tags, so a value cannot be skipped without its type \
     (deserialize_ignored_any); decode the whole key into a type with all its fields";
pub(super) const IDENTIFIER: &str = "key fields have no names, only positions (deserialize_identifier); \
     structs and variants are read by position";

/// The fields of a struct, tuple or variant payload: `len` values in a row.
pub(super) struct FlatAccess<'a, 's, S: ?Sized, F> {
    de: &'a mut FlatDe<'s, S, F>,
    left: usize,
    names: Option<&'static [&'static str]>,
    index: usize,
}

impl<'a, 's, S: ?Sized, F> FlatAccess<'a, 's, S, F> {
    pub(super) fn new(de: &'a mut FlatDe<'s, S, F>, len: usize, names: Option<&'static [&'static str]>) -> Self {
        FlatAccess { de, left: len, names, index: 0 }
    }

    /// Moves to the next element, if there is one.
    #[inline(always)]
    fn advance(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        // A tuple's elements keep the name of the field that holds the tuple.
        if let Some(names) = self.names {
            self.de.name = names.get(self.index).copied();
        }
        self.index += 1;
        true
    }
}

impl<'de, S: Source<'de> + ?Sized, F: OneField<'de>> de::SeqAccess<'de> for FlatAccess<'_, '_, S, F> {
    type Error = BoxedError;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.advance() {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    // serde's default passes a `PhantomData` seed whose `deserialize` the compiler kept out
    // of line: a call, a prologue and an epilogue per field.
    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        if !self.advance() {
            return Ok(None);
        }
        T::deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// An enum in the key: its index field, then its payload's fields.
struct FlatEnum<'a, 's, S: ?Sized, F> {
    de: &'a mut FlatDe<'s, S, F>,
}

impl<'de, S: Source<'de> + ?Sized, F: OneField<'de>> de::EnumAccess<'de> for FlatEnum<'_, '_, S, F> {
    type Error = BoxedError;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self)> {
        let field = self.de.field()?;
        let index = field.variant_index().map_err(|e| self.de.in_last(e))?;
        let value = seed.deserialize(index.into_deserializer()).map_err(|e: Error| self.de.in_last(e.into()))?;
        Ok((value, self))
    }
}

impl<'de, S: Source<'de> + ?Sized, F: OneField<'de>> de::VariantAccess<'de> for FlatEnum<'_, '_, S, F> {
    type Error = BoxedError;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(FlatAccess::new(self.de, len, None))
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        visitor.visit_seq(FlatAccess::new(self.de, fields.len(), Some(fields)))
    }
}
