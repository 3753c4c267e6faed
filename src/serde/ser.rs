//! The key-level serializer: a value's scalars, options and sequences become the key's
//! fields, in order, through [`OrderedWriter`]; structs, tuples and variants only group them.

use serde::ser::{self, Serialize};

use crate::error::{Error, Location, Result};
use crate::field::{Desc, FieldType, Sink, WriteField};
use crate::format::Ordered;
use crate::format::OrderedWriter;
use crate::key::Key;

use super::is_system_time;
use super::scalar::{Leaf, Scalar};
use super::ser_field::{SeqSer, TimeSer, write_some};
use super::{Marker, Transform, deeper, relocate};

/// Writes one key field, descending when `desc`, naming it in errors when `name` is known.
#[inline]
pub(super) fn write_field<T: WriteField<Ordered> + ?Sized>(
    w: &mut OrderedWriter<'_>,
    desc: bool,
    name: Option<&'static str>,
    value: &T,
) -> Result<()> {
    match (desc, name) {
        (false, None) => w.field(value),
        (false, Some(name)) => w.named_field(name, value),
        (true, None) => w.field(&Desc(value)),
        (true, Some(name)) => w.named_field(name, &Desc(value)),
    }
    .map(|_| ())
}

/// Stands in for a field whose value failed before it reached the writer, so that the writer
/// gives the error the field's position, name and offset like any encoding error.
struct Failed(Error);

impl FieldType for Failed {}

impl WriteField<Ordered> for Failed {
    fn write<S: Sink>(&self, _: &mut S) -> Result<()> {
        Err(self.0.clone())
    }
}

fn locate(w: &mut OrderedWriter<'_>, desc: bool, name: Option<&'static str>, err: Error) -> Error {
    let err = relocate(err, Location::UNKNOWN);
    let fallback = err.clone();
    write_field(w, desc, name, &Failed(err)).err().unwrap_or(fallback)
}

/// Where a value that is built up in pieces (a sequence, a `SystemTime`) goes once complete:
/// a key field, or the bytes of a field being built.
pub(super) enum Target<'a, 'k> {
    Field { w: &'a mut OrderedWriter<'k>, desc: bool, name: Option<&'static str> },
    Raw(&'a mut Key),
}

impl Target<'_, '_> {
    pub(super) fn put<T: WriteField<Ordered> + ?Sized>(&mut self, value: &T) -> Result<()> {
        match self {
            Target::Field { w, desc, name } => write_field(w, *desc, *name, value),
            Target::Raw(out) => value.write(&mut **out),
        }
    }

    /// Locates an error raised while the value was being built.
    pub(super) fn fail(&mut self, err: Error) -> Error {
        match self {
            Target::Field { w, desc, name } => locate(w, *desc, *name, err),
            Target::Raw(_) => relocate(err, Location::UNKNOWN),
        }
    }
}

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
        Flatten { w: self.w, desc: self.desc, name: self.name, depth }
    }

    fn target(self) -> Target<'a, 'k> {
        Target::Field { w: self.w, desc: self.desc, name: self.name }
    }
}

/// Scalar methods: the value goes to the field encoder as it is when no wrapper waits for
/// it (the tuple path, which the compiler inlines), and through [`Leaf`] otherwise.
macro_rules! scalars {
    ($($method:ident($ty:ty) => $variant:ident),* $(,)?) => {$(
        #[inline]
        fn $method(self, v: $ty) -> Result<()> {
            if self.transform == Transform::None {
                self.plain(&v)
            } else {
                self.scalar(Scalar::$variant(v))
            }
        }
    )*};
}
pub(super) use scalars;

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

/// Writes the fields of a struct, tuple or variant payload in place, as if they stood in the
/// enclosing value: the key-level writer borrowed, or an owned writer building a nested key
/// inside one field.
pub(super) trait Fields {
    fn put_field<T: Serialize + ?Sized>(
        &mut self,
        desc: bool,
        name: Option<&'static str>,
        depth: u16,
        value: &T,
    ) -> Result<()>;

    fn done(self);
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

/// The fields of a struct, tuple or variant: each goes into the enclosing field sequence.
pub(super) struct Flatten<W> {
    w: W,
    desc: bool,
    /// The enclosing field's name, kept for a tuple's elements.
    name: Option<&'static str>,
    depth: u16,
}

impl<W: Fields> Flatten<W> {
    pub(super) fn new(w: W, depth: u16) -> Self {
        Flatten { w, desc: false, name: None, depth }
    }
}

impl<W: Fields> ser::SerializeTuple for Flatten<W> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.w.put_field(self.desc, self.name, self.depth, value)
    }

    fn end(self) -> Result<()> {
        self.w.done();
        Ok(())
    }
}

impl<W: Fields> ser::SerializeTupleStruct for Flatten<W> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.w.put_field(self.desc, self.name, self.depth, value)
    }

    fn end(self) -> Result<()> {
        self.w.done();
        Ok(())
    }
}

impl<W: Fields> ser::SerializeTupleVariant for Flatten<W> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.w.put_field(self.desc, self.name, self.depth, value)
    }

    fn end(self) -> Result<()> {
        self.w.done();
        Ok(())
    }
}

impl<W: Fields> ser::SerializeStruct for Flatten<W> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.w.put_field(self.desc, Some(key), self.depth, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        Err(skipped(key))
    }

    fn end(self) -> Result<()> {
        self.w.done();
        Ok(())
    }
}

impl<W: Fields> ser::SerializeStructVariant for Flatten<W> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.w.put_field(self.desc, Some(key), self.depth, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        Err(skipped(key))
    }

    fn end(self) -> Result<()> {
        self.w.done();
        Ok(())
    }
}

/// A field left out by `#[serde(skip_serializing_if)]` would shift every later field, and the
/// decoder could not tell.
fn skipped(key: &'static str) -> Error {
    Error::unencodable(
        "struct",
        format!(
            "field `{key}` was skipped (#[serde(skip_serializing_if)]), but a key has every field of its type \
             in place, or the fields after it would be read wrongly; drop the attribute (an Option field \
             encodes None as an empty field) or use #[serde(skip)], which skips on both sides"
        ),
    )
}

/// A struct's fields, or a `SystemTime` that becomes one field.
pub(super) enum StructSer<'a, 'k, W> {
    Fields(Flatten<W>),
    Time(TimeSer<'a, 'k>),
}

impl<W: Fields> ser::SerializeStruct for StructSer<'_, '_, W> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        match self {
            StructSer::Fields(fields) => ser::SerializeStruct::serialize_field(fields, key, value),
            StructSer::Time(time) => time.field(key, value),
        }
    }

    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        Err(skipped(key))
    }

    fn end(self) -> Result<()> {
        match self {
            StructSer::Fields(fields) => ser::SerializeStruct::end(fields),
            StructSer::Time(time) => time.end(),
        }
    }
}
