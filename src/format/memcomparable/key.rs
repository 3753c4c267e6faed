//! Memcomparable keys: the format's [`KeyFormat`], its writer and reader.

use super::Memcomparable;
use super::cursor::Cursor;
use crate::error::{Error, Result};
use crate::field::{KeySink, ReadField, WriteField};
use crate::format::key_format::{KeyFormat, store_key_io};
use crate::format::prefix::check_raw_prefix;
use crate::key::Key;

impl KeyFormat for Memcomparable {
    type Values = Memcomparable;
    const NAME: &'static str = "memcomparable";
    type Writer<'a> = MemcomparableWriter<'a>;
    type Reader<'a, 'de> = MemcomparableReader<'de>;

    #[inline]
    fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> MemcomparableWriter<'a> {
        MemcomparableWriter::new(out)
    }

    #[inline]
    fn reader<'de>(&self, key: &'de [u8], _: usize) -> MemcomparableReader<'de> {
        MemcomparableReader::new(key)
    }
}

store_key_io!(Memcomparable, MemcomparableWriter, MemcomparableReader);

/// Appends memcomparable fields to a key.
///
/// ```
/// use rowkey::Desc;
/// use rowkey::format::MemcomparableWriter;
///
/// let mut key = rowkey::Key::new();
/// MemcomparableWriter::new(&mut key).field(&1u8)?.named_field("rank", &Desc(1u8))?;
/// assert_eq!(key.as_bytes(), [0x01, 0xfe]);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub struct MemcomparableWriter<'a> {
    out: &'a mut Key,
    fields: usize,
}

impl<'a> MemcomparableWriter<'a> {
    /// A writer that appends to `out`, which may already hold a prefix.
    ///
    /// ```
    /// let mut key = rowkey::Key::from("t/");
    /// rowkey::format::MemcomparableWriter::new(&mut key).field(&true)?;
    /// assert_eq!(key.as_bytes(), b"t/\x01");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn new(out: &'a mut Key) -> Self {
        MemcomparableWriter { out, fields: 0 }
    }

    /// A writer whose next field is field `index` of the key, for the scan builder.
    pub(crate) fn at_field(out: &'a mut Key, index: usize) -> Self {
        MemcomparableWriter { out, fields: index }
    }

    /// Appends the next field.
    ///
    /// # Errors
    ///
    /// What the field's encoder returns, located at the field.
    ///
    /// ```
    /// let mut key = rowkey::Key::new();
    /// rowkey::format::MemcomparableWriter::new(&mut key).field("ab")?;
    /// assert_eq!(key.as_bytes(), b"\x01ab\x00\x00\x00\x00\x00\x00\x02");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn field<T: WriteField<Memcomparable> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
        self.push(None, value)
    }

    /// Appends the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    ///
    /// ```
    /// let mut key = rowkey::Key::new();
    /// rowkey::format::MemcomparableWriter::new(&mut key).named_field("id", &7u8)?;
    /// assert_eq!(key.as_bytes(), [7]);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn named_field<T: WriteField<Memcomparable> + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<&mut Self> {
        self.push(Some(name), value)
    }

    /// Appends `bytes` as they are: a table's or a keyspace's raw prefix, which belongs before
    /// the first field. It is not a field: the next field's index is unchanged.
    ///
    /// ```
    /// let mut key = rowkey::Key::new();
    /// rowkey::format::MemcomparableWriter::new(&mut key).raw_prefix(b"t1_").field(&1u8)?;
    /// assert_eq!(key.as_bytes(), b"t1_\x01");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn raw_prefix(&mut self, bytes: &[u8]) -> &mut Self {
        self.out.extend_from_slice(bytes);
        self
    }

    #[inline(always)]
    fn push<T: WriteField<Memcomparable> + ?Sized>(
        &mut self,
        name: Option<&'static str>,
        value: &T,
    ) -> Result<&mut Self> {
        let index = self.fields;
        self.fields += 1;
        let start = self.out.len();
        value.write(&mut KeySink(self.out)).map_err(|e| e.in_field(index, name, start))?;
        if T::DESCENDING {
            // The crate's reverse mode, for this field alone.
            for b in &mut self.out.as_mut_bytes()[start..] {
                *b = !*b;
            }
        }
        Ok(self)
    }
}

/// Reads the fields of a memcomparable key, in order.
///
/// ```
/// use rowkey::format::MemcomparableReader;
///
/// let mut r = MemcomparableReader::new(&[0x01, 0xfe]);
/// let a: u8 = r.field()?;
/// let b: rowkey::Desc<u8> = r.named_field("rank")?;
/// r.finish()?;
/// assert_eq!((a, b.0), (1, 1));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub struct MemcomparableReader<'de> {
    cursor: Cursor<'de>,
    next_field: usize,
}

impl<'de> MemcomparableReader<'de> {
    /// A reader at the start of `bytes`.
    ///
    /// ```
    /// let r = rowkey::format::MemcomparableReader::new(b"");
    /// assert_eq!(r.position(), 0);
    /// ```
    #[must_use]
    pub fn new(bytes: &'de [u8]) -> Self {
        MemcomparableReader { cursor: Cursor::new(bytes), next_field: 0 }
    }

    /// The offset of the next field in the key.
    ///
    /// ```
    /// let mut r = rowkey::format::MemcomparableReader::new(&[0, 7, 1]);
    /// let _: u16 = r.field()?;
    /// assert_eq!(r.position(), 2);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn position(&self) -> usize {
        self.cursor.position()
    }

    /// The 0-based index of the next field to read.
    ///
    /// ```
    /// let mut r = rowkey::format::MemcomparableReader::new(&[0, 7, 1]);
    /// let _: u16 = r.field()?;
    /// assert_eq!(r.field_index(), 1);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn field_index(&self) -> usize {
        self.next_field
    }

    /// Reads the next field.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the key ends inside the field, or what the field's decoder
    /// returns, located at the field.
    ///
    /// ```
    /// let mut r = rowkey::format::MemcomparableReader::new(&[0, 7]);
    /// let err = r.field::<u32>().unwrap_err();
    /// assert_eq!(err.location().field(), Some(0));
    /// ```
    #[inline]
    pub fn field<T: ReadField<'de, Memcomparable>>(&mut self) -> Result<T> {
        self.take_field(None)
    }

    /// Reads the next field, naming it in errors.
    ///
    /// # Errors
    ///
    /// As [`field`](Self::field).
    ///
    /// ```
    /// let mut r = rowkey::format::MemcomparableReader::new(&[2]);
    /// let err = r.named_field::<bool>("active").unwrap_err();
    /// assert_eq!(err.location().name(), Some("active"));
    /// ```
    #[inline]
    pub fn named_field<T: ReadField<'de, Memcomparable>>(&mut self, name: &'static str) -> Result<T> {
        self.take_field(Some(name))
    }

    #[inline(always)]
    fn take_field<T: ReadField<'de, Memcomparable>>(&mut self, name: Option<&'static str>) -> Result<T> {
        let index = self.next_field;
        self.next_field += 1;
        let start = self.cursor.position();
        self.cursor.set_descending(T::DESCENDING);
        T::read(&mut self.cursor).map_err(|e| e.in_field(index, name, start))
    }

    /// Reads the raw prefix `expected` that [`MemcomparableWriter::raw_prefix`] wrote.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`] naming the prefix when the key does not hold it here.
    ///
    /// ```
    /// let mut r = rowkey::format::MemcomparableReader::new(b"t1_\x01");
    /// r.raw_prefix(b"t1_")?;
    /// assert_eq!(r.field::<u8>()?, 1);
    /// assert!(rowkey::format::MemcomparableReader::new(b"t2_").raw_prefix(b"t1_").is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn raw_prefix(&mut self, expected: &[u8]) -> Result<()> {
        check_raw_prefix(self.cursor.remaining(), self.cursor.position(), expected)?;
        self.cursor.skip(expected.len());
        Ok(())
    }

    /// Checks that the key ends after the last field read.
    ///
    /// # Errors
    ///
    /// [`Error::TrailingBytes`] when bytes follow it.
    ///
    /// ```
    /// let mut r = rowkey::format::MemcomparableReader::new(&[1, 9]);
    /// let _: bool = r.field()?;
    /// assert!(r.finish().is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[inline]
    pub fn finish(&self) -> Result<()> {
        match self.cursor.remaining().len() {
            0 => Ok(()),
            len => Err(Error::TrailingBytes { offset: self.cursor.position(), len }),
        }
    }
}
