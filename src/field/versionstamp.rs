//! [`Versionstamp`]: FoundationDB's complete versionstamp as a key field, and the capability
//! ([`Versionstamps`]) of the formats that hold one.

use std::fmt;

use crate::error::Result;
use crate::field::{FieldType, ReadField, Sink, ValueFormat, WriteField};

/// A complete FoundationDB versionstamp: the 10-byte transaction version the cluster assigned
/// at commit, then a 2-byte big-endian user version that orders the keys one transaction
/// writes. The tuple layer packs it as type code `33` and these 12 bytes.
///
/// Ordered as its bytes, which is commit order, then user order. An incomplete versionstamp
/// (one the cluster fills in at commit) has no bytes yet and is not a key field; a transaction
/// version of ten `ff` bytes is kept as it is.
///
/// ```
/// use rowkey::field::Versionstamp;
/// use rowkey::format::FdbTuple;
///
/// let stamp = Versionstamp::new([0, 0, 0, 0, 0, 0, 0x30, 0x39, 0, 1], 657);
/// assert_eq!(stamp.user_version(), 657);
/// let key = FdbTuple::default().to_key(&(stamp,))?;
/// assert_eq!(key.as_bytes(), b"\x33\x00\x00\x00\x00\x00\x00\x30\x39\x00\x01\x02\x91");
/// assert_eq!(FdbTuple::default().from_key::<(Versionstamp,)>(&key)?.0, stamp);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Versionstamp {
    bytes: [u8; 12],
}

impl Versionstamp {
    /// A versionstamp from the transaction version and the user version.
    ///
    /// ```
    /// let stamp = rowkey::field::Versionstamp::new([0xaa; 10], 3);
    /// assert_eq!(stamp.transaction_version(), [0xaa; 10]);
    /// assert_eq!(stamp.user_version(), 3);
    /// ```
    #[must_use]
    pub const fn new(transaction_version: [u8; 10], user_version: u16) -> Self {
        let mut bytes = [0u8; 12];
        let mut i = 0;
        while i < 10 {
            bytes[i] = transaction_version[i];
            i += 1;
        }
        let user = user_version.to_be_bytes();
        bytes[10] = user[0];
        bytes[11] = user[1];
        Versionstamp { bytes }
    }

    /// A versionstamp from its 12 bytes, as FoundationDB returns them (`get_versionstamp`
    /// gives the first 10; the user version follows, big-endian).
    ///
    /// ```
    /// use rowkey::field::Versionstamp;
    ///
    /// let stamp = Versionstamp::from_bytes([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 5]);
    /// assert_eq!(stamp, Versionstamp::new([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5));
    /// ```
    #[must_use]
    pub const fn from_bytes(bytes: [u8; 12]) -> Self {
        Versionstamp { bytes }
    }

    /// The 12 bytes: transaction version, then user version.
    ///
    /// ```
    /// let stamp = rowkey::field::Versionstamp::new([0; 10], 0x0102);
    /// assert_eq!(stamp.to_bytes()[10..], [1, 2]);
    /// ```
    #[must_use]
    pub const fn to_bytes(&self) -> [u8; 12] {
        self.bytes
    }

    /// The 10-byte transaction version.
    ///
    /// ```
    /// let stamp = rowkey::field::Versionstamp::new([7; 10], 0);
    /// assert_eq!(stamp.transaction_version(), [7; 10]);
    /// ```
    #[must_use]
    pub fn transaction_version(&self) -> [u8; 10] {
        let mut version = [0u8; 10];
        version.copy_from_slice(&self.bytes[..10]);
        version
    }

    /// The user version, which orders the versionstamps of one transaction.
    ///
    /// ```
    /// assert_eq!(rowkey::field::Versionstamp::new([0; 10], 9).user_version(), 9);
    /// ```
    #[must_use]
    pub const fn user_version(&self) -> u16 {
        u16::from_be_bytes([self.bytes[10], self.bytes[11]])
    }
}

impl fmt::Debug for Versionstamp {
    /// `Versionstamp(aabbccddeeff00010203, user 0)`: the transaction version in hex.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Versionstamp(")?;
        for b in &self.bytes[..10] {
            write!(f, "{b:02x}")?;
        }
        write!(f, ", user {})", self.user_version())
    }
}

/// A format that holds complete versionstamps (12 bytes).
///
/// ```
/// use rowkey::field::Versionstamps;
/// use rowkey::format::{FdbTuple, TupleReader};
///
/// let mut bytes = Vec::new();
/// FdbTuple::write_versionstamp(&[0xee; 12], &mut bytes)?;
/// assert_eq!(bytes[0], 0x33);
/// assert_eq!(FdbTuple::read_versionstamp(&mut TupleReader::new(&bytes))?, [0xee; 12]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold a versionstamp",
    label = "`{Self}` has no versionstamp fields",
    note = "store the 12 bytes as `[u8; 12]`, or use the `FdbTuple` format"
)]
pub trait Versionstamps: ValueFormat {
    /// Writes a versionstamp's 12 bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format has no bytes for it.
    fn write_versionstamp<S: Sink>(value: &[u8; 12], out: &mut S) -> Result<()>;

    /// Reads a versionstamp's 12 bytes back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not a versionstamp.
    fn read_versionstamp(input: Self::Input<'_, '_>) -> Result<[u8; 12]>;
}

impl FieldType for Versionstamp {}

impl<F: Versionstamps> WriteField<F> for Versionstamp {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_versionstamp(&self.bytes, out)
    }
}

impl<'de, F: Versionstamps> ReadField<'de, F> for Versionstamp {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_versionstamp(input).map(Versionstamp::from_bytes)
    }
}
