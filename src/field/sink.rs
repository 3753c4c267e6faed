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
