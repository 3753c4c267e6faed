//! The key-level deserializer: reads fields through [`OrderedReader`] as the type asks for
//! them, so the type's own shape says where each field ends.
//!
//! The reader is made for any number of fields and read lazily: a field asked for at the end
//! of the key is an empty ascending field the writer dropped (the reader checks that it may
//! be). What is left to check at the end is what only the last field knows: that the key
//! does not end in a separator.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::boxed_error::{BoxedError, Result};
use crate::error::{Error, Location};
use crate::field::FieldBytes;
use crate::format::OrderedReader;

use super::de_field::FieldDe;
use super::is_system_time;
use super::{Marker, Transform, deeper, relocate, unsupported};

/// Where fields come from: a key, or a sequence's elements (framed the same way).
pub(super) trait Source<'de> {
    /// Reads the next field.
    fn field(&mut self, desc: bool, name: Option<&'static str>) -> Result<FieldBytes<'de>>;
    /// Reads the next field when it is ascending, borrowed and needs no unescaping (most
    /// fields), without a `Result` to pass back; `None` reads nothing.
    fn plain_field(&mut self) -> Option<&'de [u8]>;
    /// Where the field read last is, to locate an error in its value.
    fn last(&self, name: Option<&'static str>) -> Location;
    /// Where the next field would start.
    fn here(&self, name: Option<&'static str>) -> Location;
    fn at_end(&self) -> bool;
    /// Whether the last field read ended in a separator (a descending one always does).
    fn terminated(&self) -> bool;
    fn position(&self) -> usize;
    fn encoded(&self) -> &[u8];
    /// Checks that the source was a whole key: no bytes left, no separator at the end.
    fn finish(&mut self) -> Result<()>;
}

/// The fields of ordered bytes, borrowed for `'x`. The reader counts the fields and knows
/// whether the last one ended in an ascending separator.
pub(super) struct KeySource<'x> {
    reader: OrderedReader<'x>,
    bytes: &'x [u8],
    /// Where the field read last starts.
    last_start: usize,
    /// The last field read is descending (so it ended in its own separator).
    last_desc: bool,
}

impl<'x> KeySource<'x> {
    pub(super) fn new(bytes: &'x [u8]) -> Self {
        KeySource { reader: OrderedReader::new(bytes, usize::MAX), bytes, last_start: 0, last_desc: false }
    }

    #[inline(always)]
    fn read(&mut self, desc: bool, name: Option<&'static str>) -> Result<FieldBytes<'x>> {
        self.last_start = self.reader.position();
        self.last_desc = desc;
        Ok(self.reader.raw_field(desc, name)?)
    }

    #[inline(always)]
    fn read_plain(&mut self) -> Option<&'x [u8]> {
        let start = self.reader.position();
        let bytes = self.reader.raw_plain_field()?;
        self.last_start = start;
        self.last_desc = false;
        Some(bytes)
    }

    /// The last field read is ascending and ended in a separator.
    fn ends_in_separator(&self) -> bool {
        self.reader.after_separator()
    }

    /// Checks that the key was read whole.
    #[inline]
    pub(super) fn finish(&self) -> Result<()> {
        self.check_end()
    }

    #[inline]
    fn check_end(&self) -> Result<()> {
        self.reader.check_finished()?;
        if self.ends_in_separator() {
            return Err(Error::NonCanonical {
                at: Location::at(self.bytes.len() - 2),
                detail: "the key ends in a separator, but the last field is written without one \
                         and empty trailing fields are dropped",
            }
            .into());
        }
        Ok(())
    }

    fn location(&self, name: Option<&'static str>) -> Location {
        Location::UNKNOWN.fill(self.reader.field_index(), name, self.reader.position())
    }

    fn last_location(&self, name: Option<&'static str>) -> Location {
        Location::UNKNOWN.fill(self.reader.field_index().saturating_sub(1), name, self.last_start)
    }
}

impl<'de> Source<'de> for KeySource<'de> {
    #[inline(always)]
    fn field(&mut self, desc: bool, name: Option<&'static str>) -> Result<FieldBytes<'de>> {
        self.read(desc, name)
    }
    #[inline(always)]
    fn plain_field(&mut self) -> Option<&'de [u8]> {
        self.read_plain()
    }
    fn last(&self, name: Option<&'static str>) -> Location {
        self.last_location(name)
    }
    fn here(&self, name: Option<&'static str>) -> Location {
        self.location(name)
    }
    fn at_end(&self) -> bool {
        self.reader.position() == self.bytes.len()
    }
    fn terminated(&self) -> bool {
        self.last_desc || self.ends_in_separator()
    }
    fn position(&self) -> usize {
        self.reader.position()
    }
    fn encoded(&self) -> &[u8] {
        self.bytes
    }
    fn finish(&mut self) -> Result<()> {
        self.check_end()
    }
}

/// Fields of bytes that do not live for `'de` (they were unescaped into a buffer): each
/// field is copied out, so values cannot borrow from them.
struct Copied<'x>(KeySource<'x>);

impl<'de> Source<'de> for Copied<'_> {
    fn field(&mut self, desc: bool, name: Option<&'static str>) -> Result<FieldBytes<'de>> {
        let bytes = self.0.read(desc, name)?;
        Ok(FieldBytes::copied(bytes.as_slice()))
    }
    fn plain_field(&mut self) -> Option<&'de [u8]> {
        None
    }
    fn last(&self, name: Option<&'static str>) -> Location {
        self.0.last_location(name)
    }
    fn here(&self, name: Option<&'static str>) -> Location {
        self.0.location(name)
    }
    fn at_end(&self) -> bool {
        self.0.reader.position() == self.0.bytes.len()
    }
    fn terminated(&self) -> bool {
        self.0.last_desc || self.0.ends_in_separator()
    }
    fn position(&self) -> usize {
        self.0.reader.position()
    }
    fn encoded(&self) -> &[u8] {
        self.0.bytes
    }
    fn finish(&mut self) -> Result<()> {
        self.0.check_end()
    }
}

/// Runs `f` over the fields framed in one field's bytes, borrowing them when they live for `'de`.
pub(super) fn with_source<'de, R>(
    bytes: &FieldBytes<'de>,
    f: impl FnOnce(&mut dyn Source<'de>) -> Result<R>,
) -> Result<R> {
    match bytes.as_borrowed() {
        Some(borrowed) => f(&mut KeySource::new(borrowed)),
        None => f(&mut Copied(KeySource::new(bytes.as_slice()))),
    }
}

/// Reads a value from one field's bytes that hold an ordered key of its own.
pub(super) fn nested_key<'de, R>(
    bytes: &FieldBytes<'de>,
    depth: u16,
    f: impl FnOnce(&mut FlatDe<'_, dyn Source<'de> + '_>) -> Result<R>,
) -> Result<R> {
    with_source(bytes, |source| {
        let value = f(&mut FlatDe::new(&mut *source, depth))?;
        source.finish()?;
        Ok(value)
    })
}

/// Deserializes a value from a sequence of key fields.
pub(super) struct FlatDe<'s, S: ?Sized> {
    src: &'s mut S,
    desc: bool,
    transform: Transform,
    /// The struct field being read, for errors.
    name: Option<&'static str>,
    depth: u16,
}

impl<'s, 'de, S: Source<'de> + ?Sized> FlatDe<'s, S> {
    pub(super) fn new(src: &'s mut S, depth: u16) -> Self {
        FlatDe { src, desc: false, transform: Transform::None, name: None, depth }
    }

    /// The next field, by the general path (the one-field methods try the common shape
    /// first; the rarer callers of this do not).
    #[inline]
    fn field(&mut self) -> Result<FieldDe<'de>> {
        let bytes = self.src.field(self.desc, self.name)?;
        Ok(FieldDe::new(bytes, self.transform, self.depth))
    }

    /// Reads the next field by the general path and runs `read` on it.
    #[inline(never)]
    fn with_field<V, R>(&mut self, visitor: V, read: impl FnOnce(FieldDe<'de>, V) -> Result<R>) -> Result<R> {
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
                let field = FieldDe::new(FieldBytes::borrowed(bytes), self.transform, self.depth);
                return field.$method(visitor).map_err(|e| self.in_last(e));
            }
            self.with_field(visitor, |field, visitor| field.$method(visitor))
        }
    )*};
}

impl<'de, S: Source<'de> + ?Sized> de::Deserializer<'de> for &mut FlatDe<'_, S> {
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
pub(super) struct FlatAccess<'a, 's, S: ?Sized> {
    de: &'a mut FlatDe<'s, S>,
    left: usize,
    names: Option<&'static [&'static str]>,
    index: usize,
}

impl<'a, 's, S: ?Sized> FlatAccess<'a, 's, S> {
    pub(super) fn new(de: &'a mut FlatDe<'s, S>, len: usize, names: Option<&'static [&'static str]>) -> Self {
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

impl<'de, S: Source<'de> + ?Sized> de::SeqAccess<'de> for FlatAccess<'_, '_, S> {
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
struct FlatEnum<'a, 's, S: ?Sized> {
    de: &'a mut FlatDe<'s, S>,
}

impl<'de, S: Source<'de> + ?Sized> de::EnumAccess<'de> for FlatEnum<'_, '_, S> {
    type Error = BoxedError;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self)> {
        let field = self.de.field()?;
        let index = field.variant_index().map_err(|e| self.de.in_last(e))?;
        let value = seed.deserialize(index.into_deserializer()).map_err(|e: Error| self.de.in_last(e.into()))?;
        Ok((value, self))
    }
}

impl<'de, S: Source<'de> + ?Sized> de::VariantAccess<'de> for FlatEnum<'_, '_, S> {
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
