//! Where the key-level deserializer's fields come from: the fields of a key, or of a sequence
//! field's elements, which are framed the same way. A source hands out each field's bytes and
//! knows where it is, for errors; what the bytes mean is the deserializers' business.
//!
//! A key's reader is made for any number of fields and read lazily: a field asked for at the
//! end of the key is an empty ascending field the writer dropped (the reader checks that it
//! may be). What is left to check at the end is what only the last field knows: that the key
//! does not end in a separator.

use super::boxed_error::Result;
use crate::error::{Error, Location};
use crate::field::FieldBytes;
use crate::format::OrderedReader;

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
