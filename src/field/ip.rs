//! IP addresses as key fields, and [`Cidr`] blocks as key ranges.
//!
//! | type | ordered bytes | delimited text |
//! |---|---|---|
//! | [`Ipv4Addr`] | the 4 bytes | `010.000.000.001`: each part zero-padded to 3 digits |
//! | [`Ipv6Addr`] | the 16 bytes | `2001:0db8:0000:0000:0000:0000:0000:0001`: every group 4 digits |
//! | [`IpAddr`] | `04` then the 4 bytes, or `06` then the 16 | `4-010.000.000.001`, `6-2001:0db8:…` |
//!
//! Fixed widths make both forms sort as the addresses do; an [`IpAddr`] sorts every V4 before
//! every V6, as its own `Ord` does. The padded text is what a sorted text key needs: plain
//! `10.0.0.9` would sort after `10.0.0.10`. A [`Cidr`] block is one key range over an address
//! field (Tablestore's advice on a hot `10.10.0.0/16` segment starts with reading it).
//!
//! ```
//! use std::net::Ipv4Addr;
//! use rowkey::format::Delimited;
//! use rowkey::RowKey;
//!
//! let ip = Ipv4Addr::new(10, 0, 0, 9);
//! let text = Delimited::default().to_key(&(ip, "cpu"))?;
//! assert_eq!(text.as_bytes(), b"010.000.000.009#cpu");
//! assert!(text < Delimited::default().to_key(&(Ipv4Addr::new(10, 0, 0, 10), "cpu"))?);
//! assert_eq!(<(Ipv4Addr, String)>::from_key(&(ip, "cpu").to_key()?)?.0, ip);
//! # Ok::<(), rowkey::Error>(())
//! ```

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::ops::{Bound, RangeBounds, RangeInclusive};
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::field::alphabet::Alphabet;
use crate::field::field_bytes::array_from;
use crate::field::{Addrs, Encoding, FieldType, ReadField, Sink, WriteField};

const V4_TEXT_LEN: usize = 15;
const V6_TEXT_LEN: usize = 39;
const V4_TAG: u8 = 4;
const V6_TAG: u8 = 6;
const HEX: &[u8; 16] = b"0123456789abcdef";

pub(crate) const V4_ALPHABET: Alphabet = Alphabet { lowest: b'.', name: "decimal digits and '.'" };
pub(crate) const V6_ALPHABET: Alphabet = Alphabet { lowest: b'0', name: "lowercase hex digits and ':'" };
pub(crate) const IP_ALPHABET: Alphabet = Alphabet { lowest: b'-', name: "'4-' or '6-', then an address's text" };

pub(crate) fn write_v4(ip: Ipv4Addr) -> [u8; V4_TEXT_LEN] {
    let mut text = [b'.'; V4_TEXT_LEN];
    for (i, octet) in ip.octets().into_iter().enumerate() {
        text[4 * i] = b'0' + octet / 100;
        text[4 * i + 1] = b'0' + octet / 10 % 10;
        text[4 * i + 2] = b'0' + octet % 10;
    }
    text
}

pub(crate) fn parse_v4(text: &[u8], ty: &'static str) -> Result<Ipv4Addr> {
    if text.len() != V4_TEXT_LEN {
        return Err(Error::invalid(
            ty,
            format!(
                "an IPv4 address is {V4_TEXT_LEN} bytes of zero-padded text (010.000.000.001), the field has {}",
                text.len()
            ),
        ));
    }
    let mut octets = [0u8; 4];
    for (i, octet) in octets.iter_mut().enumerate() {
        let part = &text[4 * i..4 * i + 3];
        if i < 3 && text[4 * i + 3] != b'.' {
            return Err(Error::invalid(ty, format!("byte {} of the address is not '.'", 4 * i + 3)));
        }
        let value = part.iter().try_fold(0u16, |acc, &d| d.is_ascii_digit().then(|| acc * 10 + u16::from(d - b'0')));
        *octet = value.and_then(|v| u8::try_from(v).ok()).ok_or_else(|| {
            Error::invalid(ty, format!("part {} of the address is not 3 digits from 000 to 255", i + 1))
        })?;
    }
    Ok(Ipv4Addr::from(octets))
}

pub(crate) fn write_v6(ip: Ipv6Addr) -> [u8; V6_TEXT_LEN] {
    let mut text = [b':'; V6_TEXT_LEN];
    for (i, segment) in ip.segments().into_iter().enumerate() {
        for (j, slot) in text[5 * i..5 * i + 4].iter_mut().enumerate() {
            *slot = HEX[usize::from(segment >> (12 - 4 * j) & 0xf)];
        }
    }
    text
}

pub(crate) fn parse_v6(text: &[u8], ty: &'static str) -> Result<Ipv6Addr> {
    if text.len() != V6_TEXT_LEN {
        return Err(Error::invalid(
            ty,
            format!(
                "an IPv6 address is {V6_TEXT_LEN} bytes of full lowercase text (2001:0db8:…), the field has {}",
                text.len()
            ),
        ));
    }
    let mut segments = [0u16; 8];
    for (at, &c) in text.iter().enumerate() {
        if at % 5 == 4 {
            if c != b':' {
                return Err(Error::invalid(ty, format!("byte {at} of the address is {:?}, not ':'", char::from(c))));
            }
            continue;
        }
        let digit = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => {
                return Err(Error::invalid(
                    ty,
                    format!("byte {at} of the address is {:?}, not a lowercase hex digit", char::from(c)),
                ));
            }
        };
        segments[at / 5] = segments[at / 5] << 4 | u16::from(digit);
    }
    Ok(Ipv6Addr::from(segments))
}

/// An `IpAddr` as its family's tag (`04` or `06`) and octets, in `out`; returns the length.
pub(crate) fn tagged(ip: IpAddr, out: &mut [u8; 17]) -> usize {
    match ip {
        IpAddr::V4(ip) => {
            out[0] = V4_TAG;
            out[1..5].copy_from_slice(&ip.octets());
            5
        }
        IpAddr::V6(ip) => {
            out[0] = V6_TAG;
            out[1..].copy_from_slice(&ip.octets());
            17
        }
    }
}

/// The `IpAddr` of the bytes [`tagged`] writes.
pub(crate) fn untagged(bytes: &[u8]) -> Result<IpAddr> {
    match bytes.split_first() {
        Some((&V4_TAG, rest)) => array_from::<4>(rest, "IpAddr").map(|b| IpAddr::V4(b.into())),
        Some((&V6_TAG, rest)) => array_from::<16>(rest, "IpAddr").map(|b| IpAddr::V6(b.into())),
        _ => Err(Error::invalid("IpAddr", "an IpAddr field starts with 04 (IPv4) or 06 (IPv6)")),
    }
}

macro_rules! ip_fields {
    ($($ty:ty => $encoding:ident, $alphabet:ident, $write:ident, $read:ident;)*) => {$(
        impl FieldType for $ty {
            const ENCODING: Encoding = Encoding::$encoding;
            const BYTE_STRING: bool = true;
        }

        impl<F: Addrs> WriteField<F> for $ty {
            const ALPHABET: Option<Alphabet> = F::$alphabet;

            #[inline]
            fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
                F::$write(*self, out)
            }
        }

        impl<'de, F: Addrs> ReadField<'de, F> for $ty {
            fn read(input: F::Input<'_, 'de>) -> Result<Self> {
                F::$read(input)
            }
        }
    )*};
}

ip_fields! {
    Ipv4Addr => Ipv4, IPV4_ALPHABET, write_ipv4, read_ipv4;
    Ipv6Addr => Ipv6, IPV6_ALPHABET, write_ipv6, read_ipv6;
    IpAddr => IpAddr, IP_ALPHABET, write_ip, read_ip;
}

/// An `IpAddr`'s text: `4-` or `6-`, then the address's.
pub(crate) fn write_ip_text<S: Sink>(ip: IpAddr, out: &mut S) {
    match ip {
        IpAddr::V4(ip) => {
            out.write(b"4-");
            out.write(&write_v4(ip));
        }
        IpAddr::V6(ip) => {
            out.write(b"6-");
            out.write(&write_v6(ip));
        }
    }
}

/// Reads what [`write_ip_text`] writes, exactly.
pub(crate) fn parse_ip_text(text: &[u8]) -> Result<IpAddr> {
    match text {
        [b'4', b'-', rest @ ..] => parse_v4(rest, "IpAddr").map(IpAddr::V4),
        [b'6', b'-', rest @ ..] => parse_v6(rest, "IpAddr").map(IpAddr::V6),
        _ => Err(Error::invalid("IpAddr", "an IpAddr field starts with '4-' (IPv4) or '6-' (IPv6)")),
    }
}

/// A CIDR block, such as `10.10.0.0/16`: the addresses that share its first `prefix_len`
/// bits. It is a [`RangeBounds`] over the address type, so it goes straight into a scan
/// builder's `..._range` (or [`KeyRange`](crate::KeyRange)s built by hand) as one key range.
///
/// `A` is [`Ipv4Addr`], [`Ipv6Addr`] or [`IpAddr`]. The block's address must have no bits set
/// past the prefix: `10.10.1.0/16` is refused rather than read as `10.10.0.0/16`.
///
/// ```
/// use std::net::Ipv4Addr;
/// use rowkey::field::Cidr;
///
/// let block: Cidr<Ipv4Addr> = "10.10.0.0/16".parse()?;
/// assert_eq!(block.first(), Ipv4Addr::new(10, 10, 0, 0));
/// assert_eq!(block.last(), Ipv4Addr::new(10, 10, 255, 255));
/// assert!(block.contains(&Ipv4Addr::new(10, 10, 3, 7)));
/// assert!(!block.contains(&Ipv4Addr::new(10, 11, 0, 0)));
/// assert!("10.10.1.0/16".parse::<Cidr<Ipv4Addr>>().is_err());
/// # Ok::<(), rowkey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cidr<A> {
    first: A,
    last: A,
    prefix_len: u8,
}

/// The first and last addresses of a block of `width`-bit addresses.
fn block(bits: u128, width: u8, prefix_len: u8, shown: &dyn fmt::Display) -> Result<(u128, u128)> {
    if prefix_len > width {
        return Err(Error::argument(
            "CIDR block",
            format!("{shown}/{prefix_len}: the prefix length is at most {width} for this address"),
        ));
    }
    let host_bits = u32::from(width - prefix_len);
    let host_mask = if host_bits == 128 { u128::MAX } else { (1u128 << host_bits) - 1 };
    if bits & host_mask != 0 {
        return Err(Error::argument(
            "CIDR block",
            format!("{shown}/{prefix_len} has bits set after its first {prefix_len}: give the block's first address"),
        ));
    }
    Ok((bits, bits | host_mask))
}

impl<A: Copy> Cidr<A> {
    /// The block's first address.
    ///
    /// ```
    /// let block: rowkey::field::Cidr<std::net::Ipv6Addr> = "2001:db8::/32".parse()?;
    /// assert_eq!(block.first().to_string(), "2001:db8::");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn first(&self) -> A {
        self.first
    }

    /// The block's last address.
    ///
    /// ```
    /// let block: rowkey::field::Cidr<std::net::Ipv4Addr> = "192.168.0.0/24".parse()?;
    /// assert_eq!(block.last().to_string(), "192.168.0.255");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn last(&self) -> A {
        self.last
    }

    /// The number of leading bits the block's addresses share.
    ///
    /// ```
    /// let block: rowkey::field::Cidr<std::net::IpAddr> = "10.10.0.0/16".parse()?;
    /// assert_eq!(block.prefix_len(), 16);
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn prefix_len(&self) -> u8 {
        self.prefix_len
    }

    /// The block as an inclusive range of addresses.
    ///
    /// ```
    /// use std::net::Ipv4Addr;
    /// let block: rowkey::field::Cidr<Ipv4Addr> = "10.0.0.0/31".parse()?;
    /// assert_eq!(block.range(), Ipv4Addr::new(10, 0, 0, 0)..=Ipv4Addr::new(10, 0, 0, 1));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn range(&self) -> RangeInclusive<A> {
        self.first..=self.last
    }

    /// Whether `addr` is in the block (an address of the other IP version never is).
    ///
    /// ```
    /// use std::net::IpAddr;
    /// let block: rowkey::field::Cidr<IpAddr> = "10.10.0.0/16".parse()?;
    /// assert!(block.contains(&"10.10.200.1".parse().unwrap()));
    /// assert!(!block.contains(&"::ffff:10.10.200.1".parse().unwrap()));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn contains(&self, addr: &A) -> bool
    where
        A: PartialOrd,
    {
        self.first <= *addr && *addr <= self.last
    }
}

impl Cidr<Ipv4Addr> {
    /// The block of `addr` and the `prefix_len` bits after which hosts differ.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a prefix longer than 32 bits, or an address with host
    /// bits set.
    ///
    /// ```
    /// use std::net::Ipv4Addr;
    /// use rowkey::field::Cidr;
    ///
    /// assert!(Cidr::<Ipv4Addr>::new(Ipv4Addr::new(10, 10, 0, 0), 16).is_ok());
    /// assert!(Cidr::<Ipv4Addr>::new(Ipv4Addr::new(10, 10, 0, 0), 33).is_err());
    /// ```
    pub fn new(addr: Ipv4Addr, prefix_len: u8) -> Result<Self> {
        let (first, last) = block(u32::from(addr).into(), 32, prefix_len, &addr)?;
        // Both within 32 bits.
        Ok(Cidr { first: Ipv4Addr::from(first as u32), last: Ipv4Addr::from(last as u32), prefix_len })
    }
}

impl Cidr<Ipv6Addr> {
    /// The block of `addr` and the `prefix_len` bits after which hosts differ.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a prefix longer than 128 bits, or an address with host
    /// bits set.
    ///
    /// ```
    /// use std::net::Ipv6Addr;
    /// use rowkey::field::Cidr;
    ///
    /// let block = Cidr::<Ipv6Addr>::new("fd00::".parse().unwrap(), 8)?;
    /// assert_eq!(block.last().to_string(), "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn new(addr: Ipv6Addr, prefix_len: u8) -> Result<Self> {
        let (first, last) = block(u128::from(addr), 128, prefix_len, &addr)?;
        Ok(Cidr { first: Ipv6Addr::from(first), last: Ipv6Addr::from(last), prefix_len })
    }
}

impl Cidr<IpAddr> {
    /// The block of `addr` and the `prefix_len` bits after which hosts differ, within its
    /// version.
    ///
    /// # Errors
    ///
    /// As `Cidr::<Ipv4Addr>::new` and `Cidr::<Ipv6Addr>::new`.
    ///
    /// ```
    /// use std::net::{IpAddr, Ipv4Addr};
    /// use rowkey::field::Cidr;
    ///
    /// let block = Cidr::<IpAddr>::new(IpAddr::V4(Ipv4Addr::new(10, 10, 0, 0)), 16)?;
    /// assert!(block.contains(&IpAddr::V4(Ipv4Addr::new(10, 10, 9, 9))));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn new(addr: IpAddr, prefix_len: u8) -> Result<Self> {
        Ok(match addr {
            IpAddr::V4(v4) => {
                let block = Cidr::<Ipv4Addr>::new(v4, prefix_len)?;
                Cidr { first: IpAddr::V4(block.first), last: IpAddr::V4(block.last), prefix_len }
            }
            IpAddr::V6(v6) => {
                let block = Cidr::<Ipv6Addr>::new(v6, prefix_len)?;
                Cidr { first: IpAddr::V6(block.first), last: IpAddr::V6(block.last), prefix_len }
            }
        })
    }
}

impl<A> RangeBounds<A> for Cidr<A> {
    fn start_bound(&self) -> Bound<&A> {
        Bound::Included(&self.first)
    }

    fn end_bound(&self) -> Bound<&A> {
        Bound::Included(&self.last)
    }
}

/// `a.b.c.d/len` (or an IPv6 address and its length).
fn split_block<A: FromStr>(text: &str) -> Result<(A, u8)> {
    let bad = |why: &str| {
        Error::argument(
            "CIDR block",
            format!("{text:?}: {why}; expected an address, '/', and a prefix length, such as 10.10.0.0/16"),
        )
    };
    let (addr, len) = text.split_once('/').ok_or_else(|| bad("no '/'"))?;
    let addr = addr.parse().map_err(|_| bad("the address does not parse"))?;
    let len = len.parse().map_err(|_| bad("the prefix length is not a number from 0 to 128"))?;
    Ok((addr, len))
}

macro_rules! cidr_from_str {
    ($($ty:ty),*) => {$(
        impl FromStr for Cidr<$ty> {
            type Err = Error;

            fn from_str(text: &str) -> Result<Self> {
                let (addr, len) = split_block::<$ty>(text)?;
                Cidr::<$ty>::new(addr, len)
            }
        }
    )*};
}

cidr_from_str!(Ipv4Addr, Ipv6Addr, IpAddr);

impl<A: fmt::Display> fmt::Display for Cidr<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.first, self.prefix_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_is_strict() {
        let v4 = Ipv4Addr::new(192, 168, 0, 255);
        assert_eq!(&write_v4(v4), b"192.168.000.255");
        assert_eq!(parse_v4(&write_v4(v4), "ip").unwrap(), v4);
        assert!(parse_v4(b"256.000.000.000", "ip").is_err());
        assert!(parse_v4(b"192.168.000,255", "ip").is_err());
        let v6: Ipv6Addr = "2001:db8::1".parse().unwrap();
        assert_eq!(&write_v6(v6), b"2001:0db8:0000:0000:0000:0000:0000:0001");
        assert_eq!(parse_v6(&write_v6(v6), "ip").unwrap(), v6);
        assert!(parse_v6(b"2001:0DB8:0000:0000:0000:0000:0000:0001", "ip").is_err());
    }

    #[test]
    fn blocks() {
        let all: Cidr<Ipv6Addr> = "::/0".parse().unwrap();
        assert_eq!(all.last(), Ipv6Addr::from(u128::MAX));
        let one: Cidr<Ipv4Addr> = "10.0.0.1/32".parse().unwrap();
        assert_eq!(one.range(), one.first()..=one.first());
        assert_eq!(one.to_string(), "10.0.0.1/32");
        assert!("10.0.0.0".parse::<Cidr<Ipv4Addr>>().is_err());
    }
}
