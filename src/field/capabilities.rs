//! The capabilities: one trait per family of values a key format can hold (integers, floats,
//! text, byte strings, options, instants, addresses, ...). A format implements those it
//! holds; a field type's `WriteField<F>` and `ReadField<'de, F>` ask for the one it needs, so
//! that a format without it is a compile error naming the format, the type and what to
//! hold instead.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use crate::error::Result;
use crate::field::alphabet::Alphabet;
use crate::field::instant::{self, CalendarDate, Timestamp};
use crate::field::{ReadField, Sink, ValueFormat, WriteField};

/// A format that holds the integer type `I` (any primitive integer, `u128` and `i128`
/// included).
///
/// ```
/// use rowkey::field::{FieldBytes, Ints};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// <Ordered as Ints<u32>>::write_int(7, &mut bytes)?;
/// assert_eq!(<Ordered as Ints<u32>>::read_int(FieldBytes::borrowed(&bytes))?, 7);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold the integer type `{I}`",
    label = "`{Self}` has no `{I}` fields",
    note = "store the value in an integer type the `{Self}` format holds, such as `i64`"
)]
pub trait Ints<I>: ValueFormat {
    /// The bytes the format writes for an `I`, when known in advance (see
    /// [`WriteField::ALPHABET`]).
    const ALPHABET: Option<Alphabet> = None;

    /// Writes an integer's bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format has no bytes for it.
    fn write_int<S: Sink>(value: I, out: &mut S) -> Result<()>;

    /// Reads an integer back; a value that does not fit `I` is an
    /// [`Error::OutOfRange`](crate::Error::OutOfRange), never a wrap.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not an integer.
    fn read_int(input: Self::Input<'_, '_>) -> Result<I>;
}

/// A format that holds the float type `T` (`f32` or `f64`).
///
/// ```
/// use rowkey::field::{FieldBytes, Floats};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// <Ordered as Floats<f64>>::write_float(-1.5, &mut bytes)?;
/// assert_eq!(<Ordered as Floats<f64>>::read_float(FieldBytes::borrowed(&bytes))?, -1.5);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold the float type `{T}`",
    label = "`{Self}` has no float fields",
    note = "store a scaled integer (such as `i64` thousandths), or use a format with floats (`Ordered`, `FdbTuple`, `Memcomparable`, `HBase`)"
)]
pub trait Floats<T>: ValueFormat {
    /// Writes a float's bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format has no bytes for it.
    fn write_float<S: Sink>(value: T, out: &mut S) -> Result<()>;

    /// Reads a float back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not a `T`.
    fn read_float(input: Self::Input<'_, '_>) -> Result<T>;
}

/// A format that holds `bool`.
///
/// ```
/// use rowkey::field::{Bools, FieldBytes};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// Ordered::write_bool(true, &mut bytes)?;
/// assert!(Ordered::read_bool(FieldBytes::borrowed(&bytes))?);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold `bool`",
    label = "`{Self}` has no bool fields",
    note = "store it as an integer type the `{Self}` format holds (`0` or `1`)"
)]
pub trait Bools: ValueFormat {
    /// The bytes the format writes for a bool, when known in advance (see
    /// [`WriteField::ALPHABET`]).
    const ALPHABET: Option<Alphabet> = None;

    /// Writes a bool's bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format has no bytes for it.
    fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()>;

    /// Reads a bool back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not a bool.
    fn read_bool(input: Self::Input<'_, '_>) -> Result<bool>;
}

/// A format that holds text: `str`, `String`, `Cow<str>` and `char` all write and read
/// through it.
///
/// ```
/// use rowkey::field::{FieldBytes, Strings};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// Ordered::write_str("phone", &mut bytes)?;
/// assert_eq!(Ordered::read_str(FieldBytes::borrowed(&bytes), "String")?, "phone");
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold text",
    label = "`{Self}` has no text fields",
    note = "store the text's UTF-8 bytes as `Vec<u8>`"
)]
pub trait Strings: ValueFormat {
    /// Writes text's bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format cannot hold this text.
    fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()>;

    /// Writes one character's bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format cannot hold it.
    fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()>;

    /// Reads text back, borrowed from the key when the format allows; `ty` is the field
    /// type's name, for the error.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not UTF-8 text.
    fn read_str<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, str>>;

    /// Reads text back into a `String`. A format overrides it when it can build the `String`
    /// without going through a [`Cow`].
    ///
    /// # Errors
    ///
    /// As [`read_str`](Self::read_str).
    #[inline(always)]
    fn read_string(input: Self::Input<'_, '_>, ty: &'static str) -> Result<String> {
        Self::read_str(input, ty).map(Cow::into_owned)
    }

    /// Reads one character back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not exactly one
    /// character.
    fn read_char(input: Self::Input<'_, '_>) -> Result<char>;
}

/// A format that holds byte strings: `[u8]`, `Vec<u8>`, `[u8; N]` and `Cow<[u8]>` all write
/// and read through it.
///
/// ```
/// use rowkey::field::{ByteStrings, FieldBytes};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// Ordered::write_bytes(&[0x4c, 0x41], &mut bytes)?;
/// assert_eq!(&*Ordered::read_bytes(FieldBytes::borrowed(&bytes), "Vec<u8>")?, [0x4c, 0x41]);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold byte strings",
    label = "`{Self}` has no byte-string fields",
    note = "store the bytes as text the `{Self}` format holds, such as `Hex`"
)]
pub trait ByteStrings: ValueFormat {
    /// Writes a byte string.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format cannot hold these bytes.
    fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()>;

    /// Reads a byte string back, borrowed from the key when the format allows; `ty` is the
    /// field type's name, for the error.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not a byte string.
    fn read_bytes<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, [u8]>>;

    /// Reads a byte string of exactly `N` bytes; `ty` names the field type in the error. A
    /// format overrides it when it can do so
    /// without going through a [`Cow`] (which allocates for a field that is not in the key as
    /// it is).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not `N` bytes long.
    fn read_array<const N: usize>(input: Self::Input<'_, '_>, ty: &'static str) -> Result<[u8; N]> {
        crate::field::field_bytes::array_from(&Self::read_bytes(input, ty)?, ty)
    }
}

/// A format that holds optional fields: `Option<T>` writes and reads through it, for every
/// `T` the format holds.
///
/// ```
/// use rowkey::field::{FieldBytes, Options};
/// use rowkey::format::Ordered;
///
/// // The ordered format's None is the empty field.
/// let mut bytes = Vec::new();
/// Ordered::write_option::<u32, _>(None, &mut bytes)?;
/// assert!(bytes.is_empty());
/// assert_eq!(Ordered::read_option::<u32>(FieldBytes::borrowed(&bytes))?, None);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format has no optional fields",
    label = "`{Self}` cannot write `None`",
    note = "give the field a value that stands for \"none\" (such as an empty string or 0)"
)]
pub trait Options: ValueFormat {
    /// Whether `None` is no bytes at all and `Some(v)` is `v`'s bytes as they are, so that an
    /// optional field has its value's [alphabet](WriteField::ALPHABET). `false` by default.
    const NONE_IS_EMPTY: bool = false;

    /// Writes `None`, or the value.
    ///
    /// # Errors
    ///
    /// As the value's [`WriteField::write`].
    fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()>;

    /// Reads `None`, or the value.
    ///
    /// # Errors
    ///
    /// As the value's [`ReadField::read`].
    fn read_option<'de, T: ReadField<'de, Self>>(input: Self::Input<'_, 'de>) -> Result<Option<T>>;
}

/// A format with descending fields: [`Desc<T>`](crate::Desc) is a field of every format that
/// implements it, which frames a field whose [`FieldType::DESCENDING`] is set in reverse
/// order.
///
/// ```
/// use rowkey::field::Descending;
/// use rowkey::format::Ordered;
///
/// fn has_desc<F: Descending>() {}
/// has_desc::<Ordered>();
/// ```
///
/// [`FieldType::DESCENDING`]: crate::field::FieldType::DESCENDING
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format has no descending fields",
    label = "`{Self}` cannot write `Desc`",
    note = "store the value reversed instead (`#[rowkey(reverse)]`, or `Reversed<T>`): the largest value \
            then has the smallest key"
)]
pub trait Descending: ValueFormat {}

/// A format that holds 16-byte identifiers (`uuid::Uuid`, `ulid::Ulid`), ordered as their
/// big-endian bytes.
///
/// ```
/// use rowkey::field::{FieldBytes, Uuids};
/// use rowkey::format::Ordered;
///
/// let id = [0x67, 0xe5, 0x50, 0x44, 0x10, 0xb1, 0x42, 0x6f, 0x92, 0x47, 0xbb, 0x68, 0x0e, 0x5f, 0xe0, 0xc8];
/// let mut bytes = Vec::new();
/// Ordered::write_id(&id, &mut bytes)?;
/// assert_eq!(bytes, id); // the ordered format writes the bytes as they are
/// assert_eq!(Ordered::read_id(FieldBytes::borrowed(&bytes), "Uuid")?, id);
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold a 16-byte identifier",
    label = "`{Self}` has no UUID fields",
    note = "store the identifier as `u128` (`Uuid::as_u128`) or as `[u8; 16]`"
)]
pub trait Uuids: ValueFormat {
    /// The bytes a `uuid::Uuid`'s field holds, when known in advance (see
    /// [`WriteField::ALPHABET`]).
    const UUID_ALPHABET: Option<Alphabet> = None;
    /// The bytes a `ulid::Ulid`'s field holds, when known in advance.
    const ULID_ALPHABET: Option<Alphabet> = None;

    /// Writes an identifier's 16 bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) when the format has no bytes for it.
    fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()>;

    /// Reads an identifier's 16 bytes back; `ty` names the field type in the error.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not an identifier.
    fn read_id(input: Self::Input<'_, '_>, ty: &'static str) -> Result<[u8; 16]>;

    /// Writes a ULID's 16 bytes: by default as any identifier's; a format that writes a ULID
    /// in a form of its own (its text, say) overrides it.
    ///
    /// # Errors
    ///
    /// As [`write_id`](Self::write_id).
    #[inline(always)]
    fn write_ulid<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        Self::write_id(value, out)
    }

    /// Reads a ULID's 16 bytes back.
    ///
    /// # Errors
    ///
    /// As [`read_id`](Self::read_id).
    #[inline(always)]
    fn read_ulid(input: Self::Input<'_, '_>) -> Result<[u8; 16]> {
        Self::read_id(input, "Ulid")
    }
}

/// A format that holds instants and dates: every [`Timestamp`] type (at microseconds, or at
/// nanoseconds through [`Nanos`](crate::field::Nanos)) and every [`CalendarDate`] type.
///
/// The provided methods store an instant as the integer count of microseconds (an `i64`) or
/// nanoseconds (an `i128`) from 1970-01-01 UTC, and a date as its days from then (an `i64`), in
/// the format's own integer bytes; a format with another form for them (text, say) overrides
/// them.
///
/// ```
/// use rowkey::field::{FieldBytes, Instants};
/// use rowkey::format::Ordered;
///
/// let t = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_micros(64);
/// let mut bytes = Vec::new();
/// Ordered::write_instant(&t, &mut bytes)?;
/// assert_eq!(bytes, [0xc0, 0x40]); // the ordered int64 64
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold instants or dates",
    label = "`{Self}` has no time fields",
    note = "store the microseconds from 1970 as an `i64`"
)]
pub trait Instants: Ints<i64> + Ints<i128> {
    /// The bytes an instant's or a date's field holds, when known in advance (see
    /// [`WriteField::ALPHABET`]).
    const TIME_ALPHABET: Option<Alphabet> = None;
    /// The bytes a [`Reversed`](crate::field::Reversed) instant's or date's field holds.
    const REVERSED_TIME_ALPHABET: Option<Alphabet> = None;

    /// Writes an instant at microsecond precision.
    ///
    /// # Errors
    ///
    /// [`Error::Unencodable`](crate::Error::Unencodable) for an instant with a fraction finer
    /// than a microsecond, or one outside the `i64` microseconds from 1970.
    #[inline(always)]
    fn write_instant<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        Self::write_int(instant::to_micros(value)?, out)
    }

    /// Reads an instant written by [`write_instant`](Self::write_instant).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the value is outside `T`'s range.
    #[inline(always)]
    fn read_instant<T: Timestamp>(input: Self::Input<'_, '_>) -> Result<T> {
        instant::from_micros(<Self as Ints<i64>>::read_int(input)?)
    }

    /// Writes an instant at nanosecond precision.
    ///
    /// # Errors
    ///
    /// As [`write_instant`](Self::write_instant), for nanoseconds.
    fn write_nanos<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        Self::write_int(instant::to_nanos(value)?, out)
    }

    /// Reads an instant written by [`write_nanos`](Self::write_nanos).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the value is outside `T`'s range.
    fn read_nanos<T: Timestamp>(input: Self::Input<'_, '_>) -> Result<T> {
        instant::from_nanos(<Self as Ints<i128>>::read_int(input)?)
    }

    /// Writes a date.
    ///
    /// # Errors
    ///
    /// As the format's `i64`.
    fn write_date<T: CalendarDate, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        Self::write_int(value.to_days(), out)
    }

    /// Reads a date written by [`write_date`](Self::write_date).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the day is outside `T`'s range.
    fn read_date<T: CalendarDate>(input: Self::Input<'_, '_>) -> Result<T> {
        instant::from_days_checked(<Self as Ints<i64>>::read_int(input)?)
    }

    /// Writes a [`Reversed`](crate::field::Reversed) instant: `i64::MAX` minus its
    /// microseconds, as the format's `i64`.
    ///
    /// # Errors
    ///
    /// As [`write_instant`](Self::write_instant), and for an instant before 1970.
    fn write_reversed_instant<T: Timestamp, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        Self::write_int(instant::reversed_micros(value)?, out)
    }

    /// Reads an instant written by [`write_reversed_instant`](Self::write_reversed_instant).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the value is outside `T`'s range.
    fn read_reversed_instant<T: Timestamp>(input: Self::Input<'_, '_>) -> Result<T> {
        instant::unreversed_micros(<Self as Ints<i64>>::read_int(input)?.into())
    }

    /// Writes a [`Reversed`](crate::field::Reversed) date: `i32::MAX` minus its days, as the
    /// format's `i64`.
    ///
    /// # Errors
    ///
    /// For a date before 1970.
    fn write_reversed_date<T: CalendarDate, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        Self::write_int(instant::reversed_days(value)?, out)
    }

    /// Reads a date written by [`write_reversed_date`](Self::write_reversed_date).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the day is outside `T`'s range.
    fn read_reversed_date<T: CalendarDate>(input: Self::Input<'_, '_>) -> Result<T> {
        instant::unreversed_days(<Self as Ints<i64>>::read_int(input)?.into())
    }
}

/// A format that holds `std::time::SystemTime`, floored to whole microseconds (so a decoded
/// time can be earlier than the one written, never later, and order is kept).
///
/// ```
/// use rowkey::field::SystemTimes;
/// use rowkey::format::Ordered;
///
/// fn holds_system_time<F: SystemTimes>() {}
/// holds_system_time::<Ordered>();
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold `SystemTime`",
    label = "`{Self}` has no `SystemTime` fields",
    note = "use a time type that keeps its precision (`chrono::DateTime<Utc>`, `time::OffsetDateTime`, \
            `jiff::Timestamp`), or store the microseconds from 1970 as an `i64`"
)]
pub trait SystemTimes: Ints<i64> {}

/// A format that holds `std::time::Duration`.
///
/// By default a duration is a 12-byte string: the whole seconds as 8 big-endian bytes, then
/// the nanoseconds as 4, which sort as the durations do.
///
/// ```
/// use std::time::Duration;
/// use rowkey::field::{Durations, FieldBytes};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// Ordered::write_duration(Duration::new(1, 5), &mut bytes)?;
/// assert_eq!(bytes, [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5]);
/// assert_eq!(Ordered::read_duration(FieldBytes::borrowed(&bytes))?, Duration::new(1, 5));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold `Duration`",
    label = "`{Self}` has no `Duration` fields",
    note = "store the nanoseconds as a `u64` or `u128`"
)]
pub trait Durations: ByteStrings {
    /// The bytes a duration's field holds, when known in advance (see
    /// [`WriteField::ALPHABET`]).
    const DURATION_ALPHABET: Option<Alphabet> = None;

    /// Writes a duration.
    ///
    /// # Errors
    ///
    /// As the format's byte strings.
    fn write_duration<S: Sink>(value: Duration, out: &mut S) -> Result<()> {
        Self::write_bytes(&crate::field::duration::to_bytes(value), out)
    }

    /// Reads a duration back.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not 12 bytes or
    /// its nanoseconds are a second or more.
    fn read_duration(input: Self::Input<'_, '_>) -> Result<Duration> {
        crate::field::duration::from_bytes(Self::read_array(input, "Duration")?)
    }
}

/// A format that holds IP addresses: `Ipv4Addr`, `Ipv6Addr` and `IpAddr`.
///
/// By default an address is a byte string of its octets (4 or 16), and an `IpAddr` is the byte
/// `04` or `06` followed by them, so IPv4 addresses sort before IPv6 ones.
///
/// ```
/// use std::net::{IpAddr, Ipv4Addr};
/// use rowkey::field::{Addrs, FieldBytes};
/// use rowkey::format::Ordered;
///
/// let mut bytes = Vec::new();
/// Ordered::write_ip(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)), &mut bytes)?;
/// assert_eq!(bytes, [4, 10, 0, 0, 1]);
/// assert_eq!(Ordered::read_ip(FieldBytes::borrowed(&bytes))?, Ipv4Addr::new(10, 0, 0, 1));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "the `{Self}` key format cannot hold IP addresses",
    label = "`{Self}` has no address fields",
    note = "store an IPv4 address as a `u32` and an IPv6 one as a `u128` (`u32::from(ip)`)"
)]
pub trait Addrs: ByteStrings {
    /// The bytes an `Ipv4Addr`'s field holds, when known in advance (see
    /// [`WriteField::ALPHABET`]).
    const IPV4_ALPHABET: Option<Alphabet> = None;
    /// The bytes an `Ipv6Addr`'s field holds, when known in advance.
    const IPV6_ALPHABET: Option<Alphabet> = None;
    /// The bytes an `IpAddr`'s field holds, when known in advance.
    const IP_ALPHABET: Option<Alphabet> = None;

    /// Writes an IPv4 address.
    ///
    /// # Errors
    ///
    /// As the format's byte strings.
    fn write_ipv4<S: Sink>(value: Ipv4Addr, out: &mut S) -> Result<()> {
        Self::write_bytes(&value.octets(), out)
    }

    /// Reads an IPv4 address.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not 4 bytes.
    fn read_ipv4(input: Self::Input<'_, '_>) -> Result<Ipv4Addr> {
        Self::read_array::<4>(input, "Ipv4Addr").map(Ipv4Addr::from)
    }

    /// Writes an IPv6 address.
    ///
    /// # Errors
    ///
    /// As the format's byte strings.
    fn write_ipv6<S: Sink>(value: Ipv6Addr, out: &mut S) -> Result<()> {
        Self::write_bytes(&value.octets(), out)
    }

    /// Reads an IPv6 address.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not 16 bytes.
    fn read_ipv6(input: Self::Input<'_, '_>) -> Result<Ipv6Addr> {
        Self::read_array::<16>(input, "Ipv6Addr").map(Ipv6Addr::from)
    }

    /// Writes an address of either family.
    ///
    /// # Errors
    ///
    /// As the format's byte strings.
    fn write_ip<S: Sink>(value: IpAddr, out: &mut S) -> Result<()> {
        let mut bytes = [0u8; 17];
        let len = crate::field::ip::tagged(value, &mut bytes);
        Self::write_bytes(&bytes[..len], out)
    }

    /// Reads an address of either family.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidField`](crate::Error::InvalidField) when the field is not `04` and 4
    /// bytes or `06` and 16.
    fn read_ip(input: Self::Input<'_, '_>) -> Result<IpAddr> {
        crate::field::ip::untagged(&Self::read_bytes(input, "IpAddr")?)
    }
}
