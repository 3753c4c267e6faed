//! [`BucketField`]: a salt bucket as a key field, and [`Buckets`], the formats that hold one:
//! a numeric salt's bucket in the format's own form, an MD5 salt's as its hex digits.

use crate::error::Result;
use crate::field::alphabet::Alphabet;
use crate::field::decimal::encode_decimal;
use crate::field::{FieldType, Sink, ValueFormat, WriteField};
use crate::format::OrderedScalar;
use crate::format::{DelimitedText, Ordered};

/// What a bucket field's text is made of: decimal digits, or an MD5 salt's lowercase hex.
pub(super) const BUCKET_ALPHABET: Alphabet =
    Alphabet { lowest: b'0', name: "bucket digits (0-9, and a-f for an MD5 salt)" };

/// A salt bucket as a key field, in the form its salt writes it ([`Salt::bucket_field`]):
/// what a hand-built key or scan puts first so that it matches the salt's own keys.
///
/// [`Salt::bucket_field`]: crate::salt::Salt::bucket_field
///
/// ```
/// use rowkey::field::EncodeText;
/// use rowkey::salt::Salt;
///
/// // Tablestore's pre-split points for four tablets of a 4-digit MD5 salt.
/// let salt = Salt::md5_hex(65_536)?;
/// let splits: Vec<String> = [0x4000, 0x8000, 0xc000]
///     .map(|bucket| {
///         let mut text = Vec::new();
///         salt.bucket_field(bucket).encode_text(&mut text)?;
///         Ok(String::from_utf8(text).expect("hex digits"))
///     })
///     .into_iter()
///     .collect::<rowkey::Result<_>>()?;
/// assert_eq!(splits, ["4000", "8000", "c000"]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketField {
    pub(super) bucket: u32,
    /// The hex digits of an MD5 salt's bucket; 0 for a number.
    pub(super) hex_digits: usize,
    /// The decimal digits of a delimited numeric bucket.
    pub(super) width: usize,
}

impl BucketField {
    fn write_hex<S: Sink>(&self, out: &mut S) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        for i in (0..self.hex_digits).rev() {
            out.write_byte(HEX[(self.bucket >> (4 * i) & 0xf) as usize]);
        }
    }
}

impl FieldType for BucketField {}

/// A format that holds salt buckets ([`BucketField`]): the number of a numeric salt's
/// bucket in the format's own form. An MD5 salt's bucket is its hex digits in every format.
///
/// ```
/// use rowkey::format::{DelimitedText, Ordered};
/// use rowkey::salt::Buckets;
///
/// let mut text = Vec::new();
/// DelimitedText::write_bucket_number(7, 2, &mut text)?;
/// assert_eq!(text, b"07");
/// let mut bytes = Vec::new();
/// Ordered::write_bucket_number(7, 2, &mut bytes)?;
/// assert_eq!(bytes, [0x87]); // the ordered u32 7, whatever the width
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold salt buckets",
    label = "`{Self}` has no bucket fields",
    note = "salted keys are ordered or delimited keys"
)]
pub trait Buckets: ValueFormat {
    /// The bytes a bucket field holds, when known in advance (see
    /// [`WriteField::ALPHABET`]).
    const BUCKET_ALPHABET: Option<Alphabet> = None;

    /// Writes the number of a numeric salt's bucket; `width` is its decimal width, for a
    /// format that writes decimal text.
    ///
    /// # Errors
    ///
    /// As the format's integers.
    fn write_bucket_number<S: Sink>(bucket: u32, width: usize, out: &mut S) -> Result<()>;
}

// The orderedcode integer.
impl Buckets for Ordered {
    #[inline]
    fn write_bucket_number<S: Sink>(bucket: u32, _width: usize, out: &mut S) -> Result<()> {
        bucket.encode_field(out)
    }
}

// Zero-padded decimal of the salt's width: digits either way, decimal or an MD5 salt's hex.
impl Buckets for DelimitedText {
    const BUCKET_ALPHABET: Option<Alphabet> = Some(BUCKET_ALPHABET);

    #[inline]
    fn write_bucket_number<S: Sink>(bucket: u32, width: usize, out: &mut S) -> Result<()> {
        encode_decimal(out, i128::from(bucket), width, "bucket")
    }
}

impl<F: Buckets> WriteField<F> for BucketField {
    const ALPHABET: Option<Alphabet> = F::BUCKET_ALPHABET;

    #[inline]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        if self.hex_digits == 0 {
            return F::write_bucket_number(self.bucket, self.width, out);
        }
        self.write_hex(out);
        Ok(())
    }
}
