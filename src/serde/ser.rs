//! The key-level serializer: a value's scalars, options and sequences become the key's
//! fields, in order, through [`OrderedWriter`]; structs, tuples and variants only group them.

use serde::ser::{self, Serialize};

use crate::error::{Error, Location, Result};
use crate::field::{FieldType, Sink, WriteField};
use crate::format::Ordered;
use crate::format::OrderedWriter;
use crate::key::Key;

use super::boxed_error::relocate;
use super::flatten::{Fields, Flatten};
use super::is_system_time;
use super::scalar::{Leaf, Scalar, scalars};
use super::ser_field::{SeqSer, StructSer, TimeSer, write_some};
use super::target::{Target, locate, write_field};
use super::{Marker, Transform, deeper};

/// An `Option`'s `Some` as one field: its payload's field bytes, with the core's
/// `escape_nulls` marker.
struct SomeValue<'v, T: ?Sized> {
    value: &'v T,
    depth: u16,
}

impl<T: ?Sized> FieldType for SomeValue<'_, T> {}

impl<T: Serialize + ?Sized> WriteField<Ordered> for SomeValue<'_, T> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        let mut staged = Key::new();
        write_some(&mut staged, self.value, self.depth)?;
        out.write(&staged);
        Ok(())
    }
}

const EMPTY: &[u8] = &[];

/// Serializes a value into the key's fields.
pub(super) struct FlatSer<'a, 'k> {
    w: &'a mut OrderedWriter<'k>,
    desc: bool,
    transform: Transform,
    name: Option<&'static str>,
    depth: u16,
}

impl<'a, 'k> FlatSer<'a, 'k> {
    pub(super) fn new(w: &'a mut OrderedWriter<'k>) -> Self {
        FlatSer::nested(w, false, None, 0)
    }

    fn nested(w: &'a mut OrderedWriter<'k>, desc: bool, name: Option<&'static str>, depth: u16) -> Self {
        FlatSer { w, desc, transform: Transform::None, name, depth }
    }

    #[inline]
    fn scalar(self, value: Scalar<'_>) -> Result<()> {
        write_field(self.w, self.desc, self.name, &Leaf { value, transform: self.transform })
    }

    #[inline]
    fn plain<T: WriteField<Ordered> + ?Sized>(self, value: &T) -> Result<()> {
        write_field(self.w, self.desc, self.name, value)
    }

    fn fail(&mut self, err: Error) -> Error {
        locate(self.w, self.desc, self.name, err)
    }

    /// Entering anything but a scalar: no wrapper may be waiting for one, and the nesting
    /// is limited. Returns the depth inside.
    #[inline]
    fn enter(&mut self, found: &str) -> Result<u16> {
        if self.transform == Transform::None && self.depth < super::MAX_DEPTH {
            return Ok(self.depth + 1);
        }
        self.refuse_entry(found)
    }

    /// [`enter`](Self::enter)'s errors, out of line.
    #[cold]
    #[inline(never)]
    fn refuse_entry(&mut self, found: &str) -> Result<u16> {
        match self.transform.check_encode(found).and_then(|()| deeper(self.depth)) {
            Ok(depth) => Ok(depth),
            Err(e) => Err(self.fail(e)),
        }
    }

    fn index(&mut self, index: u32) -> Result<()> {
        write_field(self.w, self.desc, self.name, &i64::from(index))
    }

    fn flatten(self, depth: u16) -> Flatten<&'a mut OrderedWriter<'k>> {
        Flatten::new(self.w, self.desc, self.name, depth)
    }

    fn target(self) -> Target<'a, 'k> {
        Target::Field { w: self.w, desc: self.desc, name: self.name }
    }
}

impl<'a, 'k> ser::Serializer for FlatSer<'a, 'k> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSer<'a, 'k>;
    type SerializeTuple = Flatten<&'a mut OrderedWriter<'k>>;
    type SerializeTupleStruct = Flatten<&'a mut OrderedWriter<'k>>;
    type SerializeTupleVariant = Flatten<&'a mut OrderedWriter<'k>>;
    type SerializeMap = SeqSer<'a, 'k>;
    type SerializeStruct = StructSer<'a, 'k, &'a mut OrderedWriter<'k>>;
    type SerializeStructVariant = Flatten<&'a mut OrderedWriter<'k>>;

    fn is_human_readable(&self) -> bool {
        false
    }

    scalars! {
        serialize_bool(bool) => Bool, serialize_i8(i8) => I8, serialize_i16(i16) => I16,
        serialize_i32(i32) => I32, serialize_i64(i64) => I64, serialize_u8(u8) => U8,
        serialize_u16(u16) => U16, serialize_u32(u32) => U32, serialize_u64(u64) => U64,
        serialize_f32(f32) => F32, serialize_f64(f64) => F64, serialize_char(char) => Char,
        serialize_str(&str) => Str, serialize_bytes(&[u8]) => Bytes,
    }

    fn serialize_i128(self, v: i128) -> Result<()> {
        self.scalar(Scalar::I128(v))
    }

    /// Display text rarely sorts as its value does, and the serializer cannot tell when it
    /// would: refused, with the way to the value's own key encoding.
    fn collect_str<T: std::fmt::Display + ?Sized>(mut self, _: &T) -> Result<()> {
        let err = super::display_text_refused();
        Err(self.fail(err))
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        self.scalar(Scalar::U128(v))
    }

    fn serialize_none(mut self) -> Result<()> {
        self.enter("an Option")?;
        write_field(self.w, self.desc, self.name, EMPTY)
    }

    fn serialize_some<T: Serialize + ?Sized>(mut self, value: &T) -> Result<()> {
        let depth = self.enter("an Option")?;
        write_field(self.w, self.desc, self.name, &SomeValue { value, depth })
    }

    fn serialize_unit(mut self) -> Result<()> {
        self.enter("()").map(drop)
    }

    fn serialize_unit_struct(mut self, _: &'static str) -> Result<()> {
        self.enter("a unit struct").map(drop)
    }

    fn serialize_unit_variant(mut self, _: &'static str, index: u32, _: &'static str) -> Result<()> {
        self.enter("an enum")?;
        self.index(index)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(mut self, name: &'static str, value: &T) -> Result<()> {
        match Marker::of(name) {
            // A wrapper waiting for a scalar passes through plain newtypes (`BigEndian<UserId>`).
            None => match deeper(self.depth) {
                Ok(depth) => self.depth = depth,
                Err(e) => return Err(self.fail(e)),
            },
            Some(Marker::Desc) => {
                self.depth = self.enter("a Desc")?;
                self.desc = !self.desc;
            }
            Some(Marker::Transform(t)) => {
                self.depth = self.enter(t.wrapper())?;
                self.transform = t;
            }
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        self.depth = self.enter("an enum")?;
        self.index(index)?;
        value.serialize(self)
    }

    fn serialize_seq(mut self, _: Option<usize>) -> Result<SeqSer<'a, 'k>> {
        let depth = self.enter("a sequence")?;
        Ok(SeqSer::new(self.target(), depth))
    }

    fn serialize_tuple(mut self, _: usize) -> Result<Self::SerializeTuple> {
        let depth = self.enter("a tuple")?;
        Ok(self.flatten(depth))
    }

    fn serialize_tuple_struct(mut self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct> {
        let depth = self.enter("a tuple struct")?;
        Ok(self.flatten(depth))
    }

    fn serialize_tuple_variant(
        mut self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        let depth = self.enter("an enum")?;
        self.index(index)?;
        Ok(self.flatten(depth))
    }

    fn serialize_map(mut self, _: Option<usize>) -> Result<SeqSer<'a, 'k>> {
        let depth = self.enter("a map")?;
        Ok(SeqSer::new(self.target(), depth))
    }

    #[inline]
    fn serialize_struct(mut self, name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        let depth = self.enter("a struct")?;
        if is_system_time(name, len) {
            return Ok(StructSer::Time(TimeSer::new(self.target())));
        }
        Ok(StructSer::Fields(self.flatten(depth)))
    }

    fn serialize_struct_variant(
        mut self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        let depth = self.enter("an enum")?;
        self.index(index)?;
        Ok(self.flatten(depth))
    }
}

impl Fields for &mut OrderedWriter<'_> {
    #[inline(always)]
    fn put_field<T: Serialize + ?Sized>(
        &mut self,
        desc: bool,
        name: Option<&'static str>,
        depth: u16,
        value: &T,
    ) -> Result<()> {
        value.serialize(FlatSer::nested(self, desc, name, depth))
    }

    fn done(self) {}
}

impl Fields for OrderedWriter<'_> {
    fn put_field<T: Serialize + ?Sized>(
        &mut self,
        desc: bool,
        name: Option<&'static str>,
        depth: u16,
        value: &T,
    ) -> Result<()> {
        // Positions inside the nested key mean nothing outside it; the outer field is named
        // by whoever writes or locates it.
        value.serialize(FlatSer::nested(self, desc, name, depth)).map_err(|e| relocate(e, Location::UNKNOWN))
    }

    fn done(self) {
        self.finish();
    }
}
