//! Where a field's bytes go: [`Sink`], implemented by the buffers a key is written into.

use smallvec::SmallVec;

use crate::key::Key;

/// Where a field encoder writes its bytes. The key format behind it escapes and frames them.
///
/// ```
/// use rowkey::field::{Sink, WriteField};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// WriteField::<Ordered>::write(&64i64, &mut bytes)?;
/// assert_eq!(bytes, [0xc0, 0x40]);
/// # Ok::<(), rowkey::Error>(())
/// ```
pub trait Sink {
    /// Appends bytes.
    fn write(&mut self, bytes: &[u8]);

    /// Appends one byte.
    fn write_byte(&mut self, byte: u8) {
        self.write(&[byte]);
    }

    /// Whether what is written next ends the key: a format that frames its last field apart
    /// (HBase writes a last byte string as it is, with no length) asks the sink. Only a key
    /// writer knows; any other sink says no.
    fn ends_key(&self) -> bool {
        false
    }

    /// Whether the field being written sorts in descending order ([`Desc`](crate::Desc)),
    /// for a format whose descending bytes are not its ascending bytes inverted (CockroachDB
    /// writes a descending unsigned 0 as `88`, its ascending 0 as `88` too, and 1 as `87 fe`
    /// against `89`). Its key writer passes each field a [`Directed`] sink; the built-in
    /// formats invert a descending field's bytes after writing them and need not ask. Any
    /// other sink says no.
    ///
    /// ```
    /// use rowkey::field::{Directed, Sink};
    ///
    /// let mut out = Vec::new();
    /// assert!(!out.descending());
    /// let mut field = Directed::new(&mut out, true);
    /// assert!(field.descending());
    /// field.write(&[0x88]);
    /// assert_eq!(out, [0x88]);
    /// ```
    fn descending(&self) -> bool {
        false
    }

    /// Appends `head`, `bytes` and `tail`: a field between a header byte and a terminator.
    /// A key's sink does it with one capacity check rather than three.
    #[doc(hidden)]
    #[inline(always)]
    fn write_framed(&mut self, head: u8, bytes: &[u8], tail: u8) {
        self.write_byte(head);
        self.write(bytes);
        self.write_byte(tail);
    }
}

/// A sink that knows which way its field sorts: what a format's key writer hands a field's
/// encoder when the format writes a descending field otherwise than as the complement of its
/// ascending bytes. The encoder asks [`Sink::descending`]; the field type's
/// [`FieldType::DESCENDING`](crate::field::FieldType::DESCENDING), which
/// [`Desc`](crate::Desc) sets, says what to pass.
///
/// The same holds for reading: a format's reader is the input of its fields' decoders, so its
/// [`KeyReader::field`](crate::format::KeyReader::field) keeps `T::DESCENDING` where they
/// look (`tests/custom_format_desc.rs` in the repository does both).
///
/// ```
/// use rowkey::Desc;
/// use rowkey::field::{Directed, FieldType, Sink};
///
/// fn write_field<T: FieldType>(out: &mut Vec<u8>, value: u8) {
///     let mut sink = Directed::new(out, T::DESCENDING);
///     // The format's own rule for a descending byte, not `!value`.
///     if sink.descending() { sink.write(&[0x80, value]) } else { sink.write(&[value]) }
/// }
/// let mut out = Vec::new();
/// write_field::<Desc<u8>>(&mut out, 7);
/// write_field::<u8>(&mut out, 7);
/// assert_eq!(out, [0x80, 7, 7]);
/// ```
pub struct Directed<'a, S: Sink + ?Sized> {
    out: &'a mut S,
    descending: bool,
}

impl<'a, S: Sink + ?Sized> Directed<'a, S> {
    /// A sink writing to `out` for a field that sorts descending when `descending` is true.
    pub fn new(out: &'a mut S, descending: bool) -> Self {
        Directed { out, descending }
    }
}

impl<S: Sink + ?Sized> Sink for Directed<'_, S> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.out.write(bytes);
    }

    #[inline]
    fn write_byte(&mut self, byte: u8) {
        self.out.write_byte(byte);
    }

    fn ends_key(&self) -> bool {
        self.out.ends_key()
    }

    fn descending(&self) -> bool {
        self.descending
    }
}

/// The key as a key writer's sink for its fields. `Key`'s own `Sink` methods stay calls, about
/// 20 instructions each; these are inlined into the field's encoder, where a write of a known
/// length (a double's 9 bytes) becomes a fixed move. The store formats' writers use it.
pub(crate) struct KeySink<'a>(pub(crate) &'a mut Key);

impl Sink for KeySink<'_> {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    #[inline(always)]
    fn write_byte(&mut self, byte: u8) {
        self.0.push(byte);
    }

    #[inline(always)]
    fn write_framed(&mut self, head: u8, bytes: &[u8], tail: u8) {
        self.0.extend_framed(head, bytes, tail);
    }
}

impl Sink for Vec<u8> {
    fn write(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    fn write_byte(&mut self, byte: u8) {
        self.push(byte);
    }
}

impl Sink for Key {
    fn write(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    fn write_byte(&mut self, byte: u8) {
        self.push(byte);
    }

    #[inline(always)]
    fn write_framed(&mut self, head: u8, bytes: &[u8], tail: u8) {
        self.extend_framed(head, bytes, tail);
    }
}

impl<const N: usize> Sink for SmallVec<[u8; N]> {
    fn write(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    fn write_byte(&mut self, byte: u8) {
        self.push(byte);
    }
}
