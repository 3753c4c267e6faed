//! [`Numeric<T>`]: a number stored in a format's variable-length decimal encoding (HBase's
//! `OrderedNumeric`), for the formats that have one ([`Numerics`]).

use crate::error::{Error, Result};
use crate::field::{Encoding, FieldType, ReadField, Sink, ValueFormat, WriteField};

/// A number written in the format's arbitrary-precision decimal encoding rather than its
/// fixed-width one: what HBase's `OrderedNumeric` data type writes (`#[rowkey(numeric)]` on a
/// field of an HBase key).
///
/// Any integer type (`u128` and `i128` included) and `f32`/`f64` can be wrapped. Integers
/// round trip exactly; a float round trips through its shortest decimal form, except that
/// `-0.0` is written as zero and every NaN as the one NaN.
///
/// ```
/// use rowkey::field::Numeric;
/// use rowkey::format::HBase;
///
/// let key = HBase.to_key(&(Numeric(1234i64),))?;
/// assert_eq!(key.as_bytes(), [0x19, 0x19, 0x44]);
/// let (Numeric(n),): (Numeric<i64>,) = HBase.from_key(&key)?;
/// assert_eq!(n, 1234);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Numeric<T>(pub T);

/// A format with a decimal number encoding of any precision.
///
/// ```
/// use rowkey::field::Numerics;
/// use rowkey::format::HBase;
///
/// let mut bytes = Vec::new();
/// HBase::write_decimal_int(false, 10_001, &mut bytes)?;
/// assert_eq!(bytes, [0x1a, 0x03, 0x01, 0x02]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format has no arbitrary-precision numbers",
    label = "`{Self}` cannot write `Numeric`",
    note = "write the number itself: the format's integer or float encoding"
)]
pub trait Numerics: ValueFormat {
    /// Writes the integer `-magnitude` (when `negative`) or `magnitude`.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format cannot write it.
    fn write_decimal_int<S: Sink>(negative: bool, magnitude: u128, out: &mut S) -> Result<()>;

    /// Writes a float in decimal.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format cannot write it.
    fn write_decimal_float<S: Sink>(value: f64, out: &mut S) -> Result<()>;

    /// Reads an integer back as its sign and magnitude; `ty` names the field type in errors.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the number has a fraction or
    /// is beyond 128 bits.
    fn read_decimal_int(input: Self::Input<'_, '_>, ty: &'static str) -> Result<(bool, u128)>;

    /// Reads a float back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not a number.
    fn read_decimal_float(input: Self::Input<'_, '_>) -> Result<f64>;
}

macro_rules! numeric_ints {
    ($($ty:ty),*) => {$(
        impl FieldType for Numeric<$ty> {
            const ENCODING: Encoding = Encoding::Numeric;
        }

        impl<F: Numerics> WriteField<F> for Numeric<$ty> {
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                #[allow(unused_comparisons)]
                let negative = self.0 < 0;
                F::write_decimal_int(negative, self.0.unsigned_abs_u128(), out)
            }
        }

        impl<'de, F: Numerics> ReadField<'de, F> for Numeric<$ty> {
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                const NAME: &str = concat!("Numeric<", stringify!($ty), ">");
                let (negative, magnitude) = F::read_decimal_int(input, NAME)?;
                let value = if negative {
                    0i128.checked_sub_unsigned(magnitude).and_then(|v| <$ty>::try_from(v).ok())
                } else {
                    <$ty>::try_from(magnitude).ok()
                };
                value.map(Numeric).ok_or_else(|| {
                    let shown = i128::try_from(magnitude).map_or(i128::MAX, |m| if negative { -m } else { m });
                    Error::out_of_range(shown, stringify!($ty))
                })
            }
        }
    )*};
}

/// `unsigned_abs` as a `u128`, for every integer type.
trait Magnitude {
    fn unsigned_abs_u128(self) -> u128;
}

macro_rules! magnitude {
    (signed $($ty:ty),*; unsigned $($uty:ty),*) => {
        $(impl Magnitude for $ty {
            fn unsigned_abs_u128(self) -> u128 {
                self.unsigned_abs() as u128
            }
        })*
        $(impl Magnitude for $uty {
            fn unsigned_abs_u128(self) -> u128 {
                self as u128
            }
        })*
    };
}

magnitude!(signed i8, i16, i32, i64, isize, i128; unsigned u8, u16, u32, u64, usize, u128);
numeric_ints!(i8, i16, i32, i64, isize, i128, u8, u16, u32, u64, usize, u128);

impl FieldType for Numeric<f64> {
    const ENCODING: Encoding = Encoding::Numeric;
}

impl<F: Numerics> WriteField<F> for Numeric<f64> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_decimal_float(self.0, out)
    }
}

impl<'de, F: Numerics> ReadField<'de, F> for Numeric<f64> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        F::read_decimal_float(input).map(Numeric)
    }
}

impl FieldType for Numeric<f32> {
    const ENCODING: Encoding = Encoding::Numeric;
}

// Widened to the f64 of the same value first, as HBase's `OrderedNumeric` does with a float.
impl<F: Numerics> WriteField<F> for Numeric<f32> {
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        F::write_decimal_float(f64::from(self.0), out)
    }
}

impl<'de, F: Numerics> ReadField<'de, F> for Numeric<f32> {
    fn read(input: F::Input<'_, 'de>) -> Result<Self> {
        let wide = F::read_decimal_float(input)?;
        #[allow(clippy::cast_possible_truncation)]
        let narrow = wide as f32;
        if wide.is_nan() || f64::from(narrow) == wide {
            Ok(Numeric(narrow))
        } else {
            Err(Error::invalid("Numeric<f32>", format!("{wide:e} is not exactly representable as f32")))
        }
    }
}
