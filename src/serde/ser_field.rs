//! Serializing a value into the bytes of one field: an `Option`'s payload, a sequence's
//! element. Scalars are their field encoding; compound values become an ordered key of their
//! own (see the module docs), so that order holds inside the field too.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::ser::{self, Serialize};

use crate::error::{Error, Location, Result};
use crate::field::{Desc, FieldBytes, WriteField};
use crate::format::Ordered;
use crate::format::OrderedScalar;
use crate::format::OrderedWriter;
use crate::format::ordered::append_terminated;
use crate::key::Key;

use super::boxed_error::relocate;
use super::flatten::{Fields, Flatten, skipped};
use super::is_system_time;
use super::scalar::{Leaf, Scalar, scalars};
use super::target::Target;
use super::{Marker, Transform, deeper};

const DESC_PLACE: &str = "a descending part must be a whole key field or a whole sequence element: write \
     Desc<Option<T>>, not Option<Desc<T>>";

/// `Some(value)`: the value's field bytes, then one `00` when those are empty or all `00`, so
/// that `None < Some("") < Some("\0")` (the core's `Option`).
pub(super) fn write_some<T: Serialize + ?Sized>(out: &mut Key, value: &T, depth: u16) -> Result<()> {
    let start = out.len();
    value.serialize(FieldSer::new(out, None, depth)).map_err(|e| relocate(e, Location::UNKNOWN))?;
    if out[start..].iter().all(|&b| b == 0) {
        out.push(0);
    }
    Ok(())
}

/// Serializes one value into a field's bytes.
pub(super) struct FieldSer<'a> {
    out: &'a mut Key,
    transform: Transform,
    /// For a sequence element, whose framing is chosen after its bytes are known: set when
    /// the element is a `Desc`. `None` where a `Desc` cannot go.
    desc: Option<&'a mut bool>,
    depth: u16,
}

impl<'a> FieldSer<'a> {
    pub(super) fn new(out: &'a mut Key, desc: Option<&'a mut bool>, depth: u16) -> Self {
        FieldSer { out, transform: Transform::None, desc, depth }
    }

    #[inline]
    fn scalar(self, value: Scalar<'_>) -> Result<()> {
        Leaf { value, transform: self.transform }.write(self.out)
    }

    #[inline]
    fn plain<T: WriteField<Ordered> + ?Sized>(self, value: &T) -> Result<()> {
        value.write(self.out)
    }

    fn enter(&self, found: &str) -> Result<u16> {
        self.transform.check_encode(found)?;
        deeper(self.depth)
    }

    /// An enum inside a field starts with its index as bare int64 bytes: they end themselves,
    /// so a unit variant is exactly the core's int64 field.
    fn index(&mut self, index: u32) -> Result<()> {
        i64::from(index).encode_field(self.out)
    }

    fn nested_key(self, depth: u16) -> Flatten<OrderedWriter<'a>> {
        Flatten::new(OrderedWriter::new(self.out), false, None, depth)
    }
}

impl<'a> ser::Serializer for FieldSer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSer<'a, 'a>;
    type SerializeTuple = Flatten<OrderedWriter<'a>>;
    type SerializeTupleStruct = Flatten<OrderedWriter<'a>>;
    type SerializeTupleVariant = Flatten<OrderedWriter<'a>>;
    type SerializeMap = SeqSer<'a, 'a>;
    type SerializeStruct = StructSer<'a, 'a, OrderedWriter<'a>>;
    type SerializeStructVariant = Flatten<OrderedWriter<'a>>;

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

    /// As the key-level serializer: Display text is refused.
    fn collect_str<T: std::fmt::Display + ?Sized>(self, _: &T) -> Result<()> {
        Err(super::display_text_refused())
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        self.scalar(Scalar::U128(v))
    }

    fn serialize_none(self) -> Result<()> {
        self.enter("an Option").map(drop)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        let depth = self.enter("an Option")?;
        write_some(self.out, value, depth)
    }

    fn serialize_unit(self) -> Result<()> {
        self.transform.check_encode("()")
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.transform.check_encode("a unit struct")
    }

    fn serialize_unit_variant(mut self, _: &'static str, index: u32, _: &'static str) -> Result<()> {
        self.enter("an enum")?;
        self.index(index)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(mut self, name: &'static str, value: &T) -> Result<()> {
        match Marker::of(name) {
            None => self.depth = deeper(self.depth)?,
            Some(Marker::Desc) => {
                self.depth = self.enter("a Desc")?;
                let Some(desc) = self.desc.as_deref_mut() else {
                    return Err(Error::unencodable("Desc", DESC_PLACE));
                };
                *desc = !*desc;
            }
            Some(Marker::Transform(t)) => {
                self.depth = self.enter(t.wrapper())?;
                self.transform = t;
                self.desc = None;
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
        let depth = self.enter("an enum")?;
        self.index(index)?;
        let mut payload = self.nested_key(depth);
        ser::SerializeTuple::serialize_element(&mut payload, value)?;
        ser::SerializeTuple::end(payload)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<SeqSer<'a, 'a>> {
        let depth = self.enter("a sequence")?;
        Ok(SeqSer::new(Target::Raw(self.out), depth))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        let depth = self.enter("a tuple")?;
        Ok(self.nested_key(depth))
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct> {
        let depth = self.enter("a tuple struct")?;
        Ok(self.nested_key(depth))
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
        Ok(self.nested_key(depth))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<SeqSer<'a, 'a>> {
        let depth = self.enter("a map")?;
        Ok(SeqSer::new(Target::Raw(self.out), depth))
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        let depth = self.enter("a struct")?;
        if is_system_time(name, len) {
            return Ok(StructSer::Time(TimeSer::new(Target::Raw(self.out))));
        }
        Ok(StructSer::Fields(self.nested_key(depth)))
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
        Ok(self.nested_key(depth))
    }
}

/// A sequence or map: its elements framed one after another, then written as one field.
pub(super) struct SeqSer<'a, 'k> {
    target: Target<'a, 'k>,
    /// The framed elements so far.
    bytes: Key,
    /// The field bytes of the element being written.
    scratch: Key,
    /// For a map: where the previous key's framed bytes are, to check the order.
    last_key: Option<(usize, usize)>,
    depth: u16,
}

impl<'a, 'k> SeqSer<'a, 'k> {
    pub(super) fn new(target: Target<'a, 'k>, depth: u16) -> Self {
        SeqSer { target, bytes: Key::new(), scratch: Key::new(), last_key: None, depth }
    }

    /// Frames one element exactly as a key field with more fields after it; returns where
    /// its framed bytes are.
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(usize, usize)> {
        self.scratch.clear();
        let start = self.bytes.len();
        let mut desc = false;
        let framed = value.serialize(FieldSer::new(&mut self.scratch, Some(&mut desc), self.depth)).and_then(|()| {
            let body = &self.scratch[..];
            if desc {
                append_terminated(&mut self.bytes, &Desc(body))
            } else {
                append_terminated(&mut self.bytes, body)
            }
        });
        match framed {
            Ok(_) => Ok((start, self.bytes.len())),
            Err(e) => Err(self.target.fail(e)),
        }
    }
}

impl ser::SerializeSeq for SeqSer<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value).map(drop)
    }

    fn end(mut self) -> Result<()> {
        self.target.put(&self.bytes[..])
    }
}

impl ser::SerializeMap for SeqSer<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        let (start, end) = self.element(key)?;
        if let Some((last_start, last_end)) = self.last_key
            && self.bytes[last_start..last_end] >= self.bytes[start..end]
        {
            let err = Error::unencodable(
                "map",
                "its keys do not come in ascending key order without duplicates, so equal maps could get \
                 different keys; serialize a BTreeMap (or entries sorted by key)",
            );
            return Err(self.target.fail(err));
        }
        self.last_key = Some((start, end));
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value).map(drop)
    }

    fn end(mut self) -> Result<()> {
        self.target.put(&self.bytes[..])
    }
}

/// A `SystemTime` as serde writes it (seconds and nanoseconds since the epoch), collected
/// into the core's `SystemTime` field.
pub(super) struct TimeSer<'a, 'k> {
    target: Target<'a, 'k>,
    secs: Option<u64>,
    nanos: Option<u32>,
}

impl<'a, 'k> TimeSer<'a, 'k> {
    pub(super) fn new(target: Target<'a, 'k>) -> Self {
        TimeSer { target, secs: None, nanos: None }
    }

    pub(super) fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        let mut bytes = Key::new();
        let read = value.serialize(FieldSer::new(&mut bytes, None, 0)).and_then(|()| {
            let bytes = FieldBytes::borrowed(&bytes);
            match key {
                "secs_since_epoch" => u64::decode_field(bytes).map(|v| self.secs = Some(v)),
                "nanos_since_epoch" => u32::decode_field(bytes).map(|v| self.nanos = Some(v)),
                _ => Err(time_error()),
            }
        });
        read.map_err(|e| self.target.fail(e))
    }

    pub(super) fn end(mut self) -> Result<()> {
        let time = match (self.secs, self.nanos) {
            (Some(secs), Some(nanos)) if nanos < 1_000_000_000 => UNIX_EPOCH.checked_add(Duration::new(secs, nanos)),
            _ => None,
        };
        match time {
            Some(time) => self.target.put::<SystemTime>(&time),
            None => Err(self.target.fail(time_error())),
        }
    }
}

fn time_error() -> Error {
    Error::unencodable(
        "SystemTime",
        "expected the fields secs_since_epoch and nanos_since_epoch (below 10^9) of a time this platform holds, \
         as serde writes a SystemTime",
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
