//! [`TupleWriter`]: a key's fields packed one after another.

use super::FdbTuple;
use crate::error::Result;
use crate::field::{KeySink, WriteField};
use crate::key::Key;

/// Writes a key's fields one after another, naming the field in any error.
///
/// ```
/// use rowkey::Key;
/// use rowkey::format::TupleWriter;
///
/// let mut key = Key::new();
/// let mut w = TupleWriter::new(&mut key);
/// w.field("a")?;
/// w.field(&-2i32)?;
/// assert_eq!(key.as_bytes(), b"\x02a\x00\x13\xfd");
/// # Ok::<(), rowkey::Error>(())
/// ```
pub struct TupleWriter<'a> {
    out: KeySink<'a>,
    index: usize,
}

impl<'a> TupleWriter<'a> {
    /// A writer that appends fields to `out` (after whatever it holds, such as a prefix).
    ///
    /// ```
    /// let mut key = rowkey::Key::from(&b"\xfe"[..]);
    /// rowkey::format::TupleWriter::new(&mut key).field(&true)?;
    /// assert_eq!(key.as_bytes(), b"\xfe\x27");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn new(out: &'a mut Key) -> Self {
        TupleWriter { out: KeySink(out), index: 0 }
    }

    /// A writer whose next field is field `index` of the key, for the scan builder.
    pub(crate) fn at_field(out: &'a mut Key, index: usize) -> Self {
        TupleWriter { out: KeySink(out), index }
    }

    /// Appends the next field.
    ///
    /// # Errors
    ///
    /// What the field's encoder returns, with the field's position and offset filled in.
    ///
    /// ```
    /// let mut key = rowkey::Key::new();
    /// rowkey::format::TupleWriter::new(&mut key).field(&0u64)?;
    /// assert_eq!(key.as_bytes(), [0x14]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn field<T: WriteField<FdbTuple> + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(None, value).map(|_| ())
    }

    /// Appends the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    ///
    /// ```
    /// let mut key = rowkey::Key::new();
    /// rowkey::format::TupleWriter::new(&mut key).named_field("id", &7u8)?.named_field("ok", &true)?;
    /// assert_eq!(key.as_bytes(), [0x15, 0x07, 0x27]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn named_field<T: WriteField<FdbTuple> + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<&mut Self> {
        self.push(Some(name), value)
    }

    /// Appends `bytes` as they are: a subspace's or a directory's raw prefix, which belongs
    /// before the first field. It is not a field: the next field's index is unchanged.
    ///
    /// ```
    /// let mut key = rowkey::Key::new();
    /// rowkey::format::TupleWriter::new(&mut key).raw_prefix(b"\x15\x02").field(&1u8)?;
    /// assert_eq!(key.as_bytes(), [0x15, 0x02, 0x15, 0x01]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn raw_prefix(&mut self, bytes: &[u8]) -> &mut Self {
        self.out.0.extend_from_slice(bytes);
        self
    }

    #[inline(always)]
    fn push<T: WriteField<FdbTuple> + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
        let start = self.out.0.len();
        value.write(&mut self.out).map_err(|e| e.in_field(self.index, name, start))?;
        self.index += 1;
        Ok(self)
    }
}
