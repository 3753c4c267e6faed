//! Structs, tuples and enum payloads, which only group fields: each of their fields goes into
//! the enclosing sequence of fields (the key itself, or a nested key inside one field) as if
//! it stood there.

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};

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

/// The fields of a struct, tuple or variant: each goes into the enclosing field sequence.
pub(super) struct Flatten<W> {
    w: W,
    desc: bool,
    /// The enclosing field's name, kept for a tuple's elements.
    name: Option<&'static str>,
    depth: u16,
}

impl<W: Fields> Flatten<W> {
    /// `desc` and `name` are the enclosing field's: a tuple inside a `Desc` field is
    /// descending throughout, and its elements keep the field's name in errors.
    pub(super) fn new(w: W, desc: bool, name: Option<&'static str>, depth: u16) -> Self {
        Flatten { w, desc, name, depth }
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
pub(super) fn skipped(key: &'static str) -> Error {
    Error::unencodable(
        "struct",
        format!(
            "field `{key}` was skipped (#[serde(skip_serializing_if)]), but a key has every field of its type \
             in place, or the fields after it would be read wrongly; drop the attribute (an Option field \
             encodes None as an empty field) or use #[serde(skip)], which skips on both sides"
        ),
    )
}
