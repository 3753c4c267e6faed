//! Where the serializers put a finished value: a field of the key being written (descending
//! or not, named in errors when its name is known), or the bytes of a field being built.

use crate::error::{Error, Location, Result};
use crate::field::{Desc, FieldType, Sink, WriteField};
use crate::format::Ordered;
use crate::format::OrderedWriter;
use crate::key::Key;

use super::boxed_error::relocate;

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

pub(super) fn locate(w: &mut OrderedWriter<'_>, desc: bool, name: Option<&'static str>, err: Error) -> Error {
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
