//! The transforms as field types, for both key formats: the key holds the transformed
//! value, and decoding undoes the transform.

use std::cmp::Ordering;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::{FieldType, Ints, ReadField, Sink, Strings, WriteField};
use crate::transform::{bit_reverse, bit_reverse_u64, reverse_domain, reverse_url, unreverse_domain, unreverse_url};

/// A sequential id stored bit-reversed, so consecutive ids land far apart in the key space:
/// Spanner's bit-reversed sequences. `BitReversed<i64>` keeps the sign bit
/// ([`bit_reverse`]`(x, true)`), `BitReversed<u64>` reverses all 64 bits.
///
/// It orders by the stored (reversed) value, which is the key's order; range scans over
/// the original ids are given up for write spread.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::transform::BitReversed;
///
/// let one = (BitReversed(1i64),).to_key()?;
/// let two = (BitReversed(2i64),).to_key()?;
/// assert!(two < one);   // 2 reverses to 2^61, 1 to 2^62
/// assert_eq!(<(BitReversed<i64>,)>::from_key(&one)?.0, BitReversed(1));
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitReversed<T>(pub T);

macro_rules! bit_reversed {
    ($($ty:ty => $reverse:expr),*) => {$(
        impl BitReversed<$ty> {
            /// The value the key stores.
            #[must_use]
            pub fn stored(self) -> $ty {
                $reverse(self.0)
            }
        }

        impl PartialOrd for BitReversed<$ty> {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for BitReversed<$ty> {
            fn cmp(&self, other: &Self) -> Ordering {
                self.stored().cmp(&other.stored())
            }
        }

        impl FieldType for BitReversed<$ty> {}

        impl<F: Ints<$ty>> WriteField<F> for BitReversed<$ty> {
            const ALPHABET: Option<Alphabet> = <F as Ints<$ty>>::ALPHABET;

            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                F::write_int(self.stored(), out)
            }
        }

        impl<'de, F: Ints<$ty>> ReadField<'de, F> for BitReversed<$ty> {
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                // The reversal is its own inverse.
                F::read_int(input).map(|v| BitReversed($reverse(v)))
            }
        }

    )*};
}

bit_reversed!(i64 => |x| bit_reverse(x, true), u64 => bit_reverse_u64);

/// Shared by the host and URL wrappers: the key stores the reversed text.
macro_rules! reversed_text {
    ($(#[$doc:meta])* $name:ident, $reverse:path, $unreverse:path) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name<S>(pub S);

        impl<S> FieldType for $name<S> {}

        impl<F: Strings, S: AsRef<str>> WriteField<F> for $name<S> {
            fn write<W: Sink>(&self, out: &mut W) -> Result<()> {
                F::write_str(&$reverse(self.0.as_ref())?, out)
            }
        }

        impl<'de, F: Strings> ReadField<'de, F> for $name<String> {
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                Self::from_stored(&F::read_str(input, stringify!($name))?)
            }
        }

        impl $name<String> {
            fn from_stored(text: &str) -> Result<Self> {
                // The check's error is about an argument, which has no place in a key: make it
                // one about this field, which the key reader locates.
                $unreverse(text).map($name).map_err(|e| match e {
                    Error::InvalidArgument { detail, .. } => Error::invalid(stringify!($name), detail),
                    other => other,
                })
            }
        }

        /// The key holds the reversed text, so the original cannot be borrowed from it:
        /// decoding into `&str` is an error that says to decode into `String`. It exists so
        /// that tuples of borrowed values can be encoded.
        impl<'de, 'a, F: Strings> ReadField<'de, F> for $name<&'a str> {
            fn read(_: F::Input<'_, 'de>) -> Result<Self> {
                Err(Self::not_borrowable())
            }
        }

        impl $name<&str> {
            fn not_borrowable() -> Error {
                Error::invalid(
                    concat!(stringify!($name), "<&str>"),
                    concat!("the key holds the reversed text, so it cannot be borrowed; decode into ", stringify!($name), "<String>"),
                )
            }
        }
    };
}

reversed_text!(
    /// A host name stored reversed (`maps.google.com` as `com.google.maps`), so a domain's
    /// sub-domains sort together, right after names that continue it with a byte below `.`
    /// (`com.google-analytics`): the domain and its sub-domains are the field's value and the
    /// prefix `com.google.` of it, two ranges. Decodes into `ReversedDomain<String>` with the
    /// host as written (lowercased).
    ///
    /// ```
    /// use rowkey::format::Delimited;
    /// use rowkey::transform::ReversedDomain;
    ///
    /// let hash = Delimited::default();
    /// let key = hash.to_key(&(ReversedDomain("maps.google.com"), "index"))?;
    /// assert_eq!(key, "com.google.maps#index");
    /// let (host, _): (ReversedDomain<String>, String) = hash.from_key(&key)?;
    /// assert_eq!(host.0, "maps.google.com");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    ReversedDomain,
    reverse_domain,
    unreverse_domain
);

reversed_text!(
    /// A URL stored with its host reversed (see [`reverse_url`]), so all pages of a domain
    /// share a key range.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::transform::ReversedUrl;
    ///
    /// let key = (ReversedUrl("https://maps.google.com/index.html"),).to_key()?;
    /// assert_eq!(key, "com.google.maps/https/index.html");
    /// assert_eq!(<(ReversedUrl<String>,)>::from_key(&key)?.0.0, "https://maps.google.com/index.html");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    ReversedUrl,
    reverse_url,
    unreverse_url
);
