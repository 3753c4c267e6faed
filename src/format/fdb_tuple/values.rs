//! The tuple layer's bytes for each value family: the capabilities of [`FdbTuple`].

use std::borrow::Cow;

use super::codes::{
    BYTES, DOUBLE, FALSE, FLOAT, NEG_BIG, NESTED, NULL, POS_BIG, STRING, TRUE, UUID, VERSIONSTAMP, ZERO, code_name,
};
use super::{FdbTuple, TupleReader};
use crate::error::{Error, Location, Result};
use crate::field::option::write_some;
use crate::field::{
    Addrs, Bools, ByteStrings, Durations, Floats, Instants, Ints, Nested, Options, ReadField, Sink, Strings,
    SystemTimes, Uuids, Versionstamps, WriteField, utf8,
};
use crate::key_buf::{copy_short, find_byte};

// ---- Integers ----

/// Writes an integer of up to 64 bits given as its sign and magnitude: `14` for zero, else a
/// code `14 ± n` and the magnitude's `n` big-endian bytes (inverted when negative), where `n`
/// comes from the leading-zero count, in one write.
#[inline(always)]
fn write_int64<S: Sink>(negative: bool, magnitude: u64, out: &mut S) {
    let n = (71 - magnitude.leading_zeros()) / 8;
    let mut buf = [0u8; 9];
    buf[0] = if negative { ZERO - n as u8 } else { ZERO + n as u8 };
    let body = if negative { !magnitude } else { magnitude };
    // The `n` bytes to the top; for zero (`n` = 0) the shift wraps, and no byte is written.
    buf[1..].copy_from_slice(&body.wrapping_shl(64 - 8 * n).to_be_bytes());
    out.write(&buf[..=n as usize]);
}

/// [`write_int64`] for 128 bits: past 8 bytes the arbitrary-precision codes `1d n` / `0b !n`.
/// Exactly ±(2^64−1) takes 8 bytes, so `1c`/`0c`.
fn write_integer<S: Sink>(negative: bool, magnitude: u128, out: &mut S) {
    if let Ok(small) = u64::try_from(magnitude) {
        return write_int64(negative, small, out);
    }
    let n = (u128::BITS - magnitude.leading_zeros()).div_ceil(8) as usize;
    let be = magnitude.to_be_bytes();
    let mut buf = [0u8; 18];
    buf[0] = if negative { NEG_BIG } else { POS_BIG };
    buf[1] = if negative { !(n as u8) } else { n as u8 };
    buf[2..2 + n].copy_from_slice(&be[16 - n..]);
    if negative {
        buf[2..2 + n].iter_mut().for_each(|b| *b = !*b);
    }
    out.write(&buf[..2 + n]);
}

/// Reads an integer field as its sign and magnitude, refusing every form the encoder does not
/// write.
#[inline]
fn read_integer(r: &mut TupleReader<'_>, ty: &'static str) -> Result<(bool, u128)> {
    let code = r.code(ty, "an integer (type codes 0b..1d)", |c| (NEG_BIG..=POS_BIG).contains(&c))?;
    let negative = code < ZERO;
    let len = match code {
        ZERO => return Ok((false, 0)),
        NEG_BIG | POS_BIG => {
            let raw = r.take(1, ty)?[0];
            let len = if negative { !raw } else { raw };
            if len <= 8 {
                return Err(noncanonical_big(r, len, negative));
            }
            if len > 16 {
                return Err(Error::invalid(
                    ty,
                    format!("the integer has {len} bytes, more than any Rust integer holds (u128 and i128 hold 16)"),
                ));
            }
            usize::from(len)
        }
        _ => usize::from(code.abs_diff(ZERO)),
    };
    let digits = r.take(len, ty)?;
    let lead = if negative { !digits[0] } else { digits[0] };
    if lead == 0 {
        return Err(Error::NonCanonical {
            at: Location::UNKNOWN,
            detail: "the integer has a leading zero byte; its canonical form uses the type code of one byte fewer",
        });
    }
    if len <= 8 {
        // Up to 8 bytes (every integer up to 64 bits): one load of a u64 instead of a
        // byte-at-a-time loop over u128. A negative's bytes are its magnitude's complement,
        // over the `len` bytes only.
        let mut be = [0u8; 8];
        copy_short(&mut be[8 - len..], digits);
        let value = u64::from_be_bytes(be);
        let magnitude = if negative { !value & (u64::MAX >> (64 - 8 * len)) } else { value };
        return Ok((negative, u128::from(magnitude)));
    }
    let magnitude = digits.iter().fold(0u128, |acc, &b| acc << 8 | u128::from(if negative { !b } else { b }));
    Ok((negative, magnitude))
}

/// The error for an integer of 8 bytes or fewer under an arbitrary-precision code.
fn noncanonical_big(r: &TupleReader<'_>, len: u8, negative: bool) -> Error {
    let at = Location::at(r.pos - 2);
    let python = len == 8
        && r.key.get(r.pos..r.pos + 8).is_some_and(|d| d.iter().all(|&b| b == if negative { 0 } else { 0xff }));
    let detail = match (python, negative) {
        (true, false) => {
            "2^64-1 written as 1d 08 ff ff ff ff ff ff ff ff (FoundationDB's Python binding writes this form); the \
             canonical form, which the tuple spec and the Java and Go bindings write, is 1c ff ff ff ff ff ff ff ff"
        }
        (true, true) => {
            "-(2^64-1) written as 0b f7 00 00 00 00 00 00 00 00 (FoundationDB's Python binding writes this form); \
             the canonical form, which the tuple spec and the Java and Go bindings write, is 0c 00 00 00 00 00 00 00 00"
        }
        _ => {
            "an integer of 8 bytes or fewer under an arbitrary-precision type code (1d or 0b); its canonical form \
             is the type code of its length (0c..1c) followed by its bytes"
        }
    };
    Error::NonCanonical { at, detail }
}

/// The error for an integer that does not fit the requested type.
fn out_of_range(negative: bool, magnitude: u128, ty: &'static str) -> Error {
    let value = if negative { 0i128.checked_sub_unsigned(magnitude) } else { i128::try_from(magnitude).ok() };
    match value {
        Some(value) => Error::out_of_range(value, ty),
        None => Error::invalid(
            ty,
            format!(
                "the value {}{magnitude} does not fit in {ty}; decode into a wider type (the key was written from one)",
                if negative { "-" } else { "" }
            ),
        ),
    }
}

/// The full reader for a 64-bit-or-narrower type: an arbitrary-precision code (too big for
/// it) or bytes that are not an integer, for the error `read_integer` gives.
#[cold]
#[inline(never)]
fn read_int_slow<T: TryFrom<i128>>(r: &mut TupleReader<'_>, ty: &'static str) -> Result<T> {
    let (negative, magnitude) = read_integer(r, ty)?;
    let wide = if negative { 0i128.checked_sub_unsigned(magnitude) } else { i128::try_from(magnitude).ok() };
    wide.and_then(|w| T::try_from(w).ok()).ok_or_else(|| out_of_range(negative, magnitude, ty))
}

#[cold]
#[inline(never)]
fn small_out_of_range(negative: bool, magnitude: u64, ty: &'static str) -> Error {
    out_of_range(negative, magnitude.into(), ty)
}

macro_rules! fdb_signed {
    ($($ty:ty),*) => {$(
        impl Ints<$ty> for FdbTuple {
            #[inline]
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                #[allow(clippy::cast_lossless)]
                let wide = value as i64;
                write_int64(wide < 0, wide.unsigned_abs(), out);
                Ok(())
            }

            #[inline(always)]
            fn read_int(input: &mut TupleReader<'_>) -> Result<$ty> {
                let ty = stringify!($ty);
                let Some((negative, magnitude)) = input.small_integer() else {
                    return read_int_slow(input, ty);
                };
                let wide = if negative { 0i64.checked_sub_unsigned(magnitude) } else { i64::try_from(magnitude).ok() };
                wide.and_then(|w| <$ty>::try_from(w).ok()).ok_or_else(|| small_out_of_range(negative, magnitude, ty))
            }
        }
    )*};
}

macro_rules! fdb_unsigned {
    ($($ty:ty),*) => {$(
        impl Ints<$ty> for FdbTuple {
            #[inline]
            fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                #[allow(clippy::cast_lossless)]
                write_int64(false, value as u64, out);
                Ok(())
            }

            #[inline(always)]
            fn read_int(input: &mut TupleReader<'_>) -> Result<$ty> {
                let ty = stringify!($ty);
                let Some((negative, magnitude)) = input.small_integer() else {
                    return read_int_slow(input, ty);
                };
                let value = if negative { None } else { <$ty>::try_from(magnitude).ok() };
                value.ok_or_else(|| small_out_of_range(negative, magnitude, ty))
            }
        }
    )*};
}

fdb_signed!(i8, i16, i32, i64, isize);
fdb_unsigned!(u8, u16, u32, u64, usize);

impl Ints<i128> for FdbTuple {
    #[inline]
    fn write_int<S: Sink>(value: i128, out: &mut S) -> Result<()> {
        write_integer(value < 0, value.unsigned_abs(), out);
        Ok(())
    }

    #[inline]
    fn read_int(input: &mut TupleReader<'_>) -> Result<i128> {
        let (negative, magnitude) = read_integer(input, "i128")?;
        let wide = if negative { 0i128.checked_sub_unsigned(magnitude) } else { i128::try_from(magnitude).ok() };
        wide.ok_or_else(|| out_of_range(negative, magnitude, "i128"))
    }
}

impl Ints<u128> for FdbTuple {
    #[inline]
    fn write_int<S: Sink>(value: u128, out: &mut S) -> Result<()> {
        write_integer(false, value, out);
        Ok(())
    }

    #[inline]
    fn read_int(input: &mut TupleReader<'_>) -> Result<u128> {
        let (negative, magnitude) = read_integer(input, "u128")?;
        if negative {
            return Err(out_of_range(negative, magnitude, "u128"));
        }
        Ok(magnitude)
    }
}

// ---- Floats ----

// The tuple layer's float transform: a positive float gets its sign bit set, a negative one
// has every bit inverted, so the bytes sort as the floats' total order (-NaN < -inf < ... <
// -0.0 < 0.0 < ... < inf < NaN). Every bit pattern is a float, so decoding takes any bytes
// and gives back the same bits. The two impls are written out (not made by a macro) so that
// a compile error listing the formats with floats shows them plainly.
const fn sortable_bits(bits: u64, sign: u64) -> u64 {
    if bits & sign != 0 { !bits } else { bits | sign }
}

const fn float_bits(sortable: u64, sign: u64) -> u64 {
    if sortable & sign != 0 { sortable & !sign } else { !sortable }
}

impl Floats<f32> for FdbTuple {
    #[inline]
    fn write_float<S: Sink>(value: f32, out: &mut S) -> Result<()> {
        let bits = sortable_bits(value.to_bits().into(), 1 << 31) as u32;
        let mut buf = [FLOAT; 5];
        buf[1..].copy_from_slice(&bits.to_be_bytes());
        out.write(&buf);
        Ok(())
    }

    #[inline]
    fn read_float(input: &mut TupleReader<'_>) -> Result<f32> {
        input.code("f32", "a float (type code 20)", |c| c == FLOAT)?;
        let sortable = u32::from_be_bytes(input.take_array("f32")?);
        Ok(f32::from_bits(float_bits(sortable.into(), 1 << 31) as u32))
    }
}

impl Floats<f64> for FdbTuple {
    #[inline]
    fn write_float<S: Sink>(value: f64, out: &mut S) -> Result<()> {
        let mut buf = [DOUBLE; 9];
        buf[1..].copy_from_slice(&sortable_bits(value.to_bits(), 1 << 63).to_be_bytes());
        out.write(&buf);
        Ok(())
    }

    #[inline(always)]
    fn read_float(input: &mut TupleReader<'_>) -> Result<f64> {
        input.code("f64", "a double (type code 21)", |c| c == DOUBLE)?;
        let sortable = u64::from_be_bytes(input.take_array("f64")?);
        Ok(f64::from_bits(float_bits(sortable, 1 << 63)))
    }
}

// ---- Bools ----

impl Bools for FdbTuple {
    #[inline]
    fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()> {
        out.write_byte(if value { TRUE } else { FALSE });
        Ok(())
    }

    #[inline(always)]
    fn read_bool(input: &mut TupleReader<'_>) -> Result<bool> {
        Ok(input.code("bool", "a bool (type code 26 or 27)", |c| c == FALSE || c == TRUE)? == TRUE)
    }
}

// ---- Strings and byte strings ----

/// Writes a type code, the bytes with every `00` as `00 ff`, and the `00` end.
#[inline(always)]
fn write_escaped<S: Sink>(code: u8, bytes: &[u8], out: &mut S) {
    match find_byte(bytes, 0) {
        None => out.write_framed(code, bytes, 0x00),
        Some(first) => write_with_escapes(code, bytes, first, out),
    }
}

/// [`write_escaped`] for bytes whose first `00` is at `first`: the runs between the `00`s are
/// copied whole, each `00` followed by its `ff`.
#[inline(never)]
fn write_with_escapes<S: Sink>(code: u8, bytes: &[u8], first: usize, out: &mut S) {
    out.write_byte(code);
    let (mut run, mut rest) = bytes.split_at(first + 1);
    loop {
        out.write(run);
        out.write_byte(0xff);
        match find_byte(rest, 0) {
            Some(at) => (run, rest) = rest.split_at(at + 1),
            None => break,
        }
    }
    out.write(rest);
    out.write_byte(0x00);
}

// The readers of the common fields are `inline(always)`: left to the compiler they stayed calls
// that hand their `Result` back through memory, 35 to 60 instructions a key on the peer bench.
#[inline(always)]
fn read_text<'de>(r: &mut TupleReader<'de>, ty: &'static str) -> Result<Cow<'de, str>> {
    r.code(ty, "a string (type code 02)", |c| c == STRING)?;
    // The crate's validator: the standard one's answers, with a short ASCII fast path.
    match r.escaped(ty)? {
        Cow::Borrowed(b) => utf8::to_str(b).map(Cow::Borrowed).map_err(|e| not_utf8(ty, &e)),
        Cow::Owned(v) => utf8::into_string(v).map(Cow::Owned).map_err(|e| not_utf8(ty, &e)),
    }
}

fn not_utf8(ty: &'static str, e: &std::str::Utf8Error) -> Error {
    Error::invalid(ty, format!("the string is not UTF-8 ({e}); a tuple string (type code 02) always is"))
}

impl Strings for FdbTuple {
    #[inline(always)]
    fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()> {
        write_escaped(STRING, value.as_bytes(), out);
        Ok(())
    }

    #[inline]
    fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()> {
        write_escaped(STRING, value.encode_utf8(&mut [0; 4]).as_bytes(), out);
        Ok(())
    }

    #[inline(always)]
    fn read_str<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, str>> {
        read_text(input, ty)
    }

    fn read_char(input: &mut TupleReader<'_>) -> Result<char> {
        let text = read_text(input, "char")?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Error::invalid(
                "char",
                format!("the string holds {} characters, not exactly one", text.chars().count()),
            )),
        }
    }
}

impl ByteStrings for FdbTuple {
    #[inline(always)]
    fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()> {
        write_escaped(BYTES, value, out);
        Ok(())
    }

    #[inline(always)]
    fn read_bytes<'r, 'de: 'r>(input: Self::Input<'r, 'de>, ty: &'static str) -> Result<Cow<'de, [u8]>> {
        input.code(ty, "a byte string (type code 01)", |c| c == BYTES)?;
        input.escaped(ty)
    }
}

// ---- Null ----

impl Options for FdbTuple {
    #[inline]
    fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()> {
        match value {
            // Inside a nested tuple, the element's sink turns this into `00 ff`.
            None => {
                out.write_byte(NULL);
                Ok(())
            }
            Some(value) => write_some(value, out, NULL, "The tuple layer"),
        }
    }

    #[inline]
    fn read_option<'de, T: ReadField<'de, Self>>(input: Self::Input<'_, 'de>) -> Result<Option<T>> {
        if input.peek() != Some(NULL) || input.at_nested_end() {
            // A value, or the end of a nested tuple, which the value's reader reports.
            return T::read(input).map(Some);
        }
        input.pos += if input.depth > 0 { 2 } else { 1 };
        Ok(None)
    }
}

// ---- UUIDs ----

impl Uuids for FdbTuple {
    #[inline]
    fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
        let mut buf = [UUID; 17];
        buf[1..].copy_from_slice(value);
        out.write(&buf);
        Ok(())
    }

    #[inline(always)]
    fn read_id(input: Self::Input<'_, '_>, ty: &'static str) -> Result<[u8; 16]> {
        input.code(ty, "a UUID (type code 30)", |c| c == UUID)?;
        input.take_array(ty)
    }
}

// ---- Types the tuple layer has no code for ----

// Written as the model's defaults, which keep their order under the tuple layer's codes:
// instants as integer microseconds (nanoseconds for `Nanos`) since 1970, dates as integer
// days, `SystemTime` as integer microseconds, a `Duration` as a 12-byte byte string (seconds,
// then nanoseconds, big-endian), an address as a byte string of its octets (an `IpAddr` with
// `04` or `06` before them).
impl Instants for FdbTuple {}
impl SystemTimes for FdbTuple {}
impl Durations for FdbTuple {}
#[cfg(feature = "hashed")]
impl crate::field::Digests for FdbTuple {}
impl crate::field::ReversedInts for FdbTuple {}
impl Addrs for FdbTuple {}

// ---- Nested tuples ----

/// A sink for one element of a nested tuple. Inside a nested tuple a null is `00 ff`, since a
/// lone `00` ends the tuple; an element's bytes are exactly `00` only when it is a null (every
/// other element starts with a non-zero type code), so a lone `00` is held back and, if
/// nothing follows it, written as `00 ff`.
struct ElementSink<'a, S> {
    out: &'a mut S,
    state: Element,
}

#[derive(Clone, Copy, PartialEq)]
enum Element {
    Empty,
    HeldNull,
    Written,
}

impl<S: Sink> ElementSink<'_, S> {
    fn finish(self) {
        if self.state == Element::HeldNull {
            self.out.write(&[0x00, 0xff]);
        }
    }
}

impl<S: Sink> Sink for ElementSink<'_, S> {
    fn ends_key(&self) -> bool {
        self.out.ends_key()
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        match self.state {
            Element::Empty if bytes == [NULL] => {
                self.state = Element::HeldNull;
                return;
            }
            Element::HeldNull => self.out.write_byte(NULL),
            _ => {}
        }
        self.state = Element::Written;
        self.out.write(bytes);
    }

    // Framed bytes start with a type code, never a lone null: they pass on in one write.
    #[inline]
    fn write_framed(&mut self, head: u8, bytes: &[u8], tail: u8) {
        if head == NULL || self.state == Element::HeldNull {
            self.write(&[head]);
            self.write(bytes);
            self.write(&[tail]);
            return;
        }
        self.state = Element::Written;
        self.out.write_framed(head, bytes, tail);
    }
}

impl Nested for FdbTuple {
    fn write_nested_start<S: Sink>(out: &mut S) -> Result<()> {
        out.write_byte(NESTED);
        Ok(())
    }

    fn write_element<T: WriteField<Self> + ?Sized, S: Sink>(value: &T, out: &mut S) -> Result<()> {
        let mut sink = ElementSink { out, state: Element::Empty };
        value.write(&mut sink)?;
        sink.finish();
        Ok(())
    }

    fn write_nested_end<S: Sink>(out: &mut S) -> Result<()> {
        out.write_byte(0x00);
        Ok(())
    }

    fn reborrow<'a, 'r: 'a, 'de: 'r>(input: &'a mut Self::Input<'r, 'de>) -> Self::Input<'a, 'de> {
        input
    }

    fn read_nested_start(input: &mut TupleReader<'_>, ty: &'static str) -> Result<()> {
        input.code(ty, "a nested tuple (type code 05)", |c| c == NESTED)?;
        input.depth += 1;
        Ok(())
    }

    fn read_nested_end(input: &mut TupleReader<'_>, ty: &'static str) -> Result<()> {
        if !input.at_nested_end() {
            let found = match input.peek() {
                None => "the end of the key",
                Some(c) => code_name(c),
            };
            return Err(Error::invalid(
                ty,
                format!(
                    "found {found} where the nested tuple's 00 end was expected; it has more elements than the type"
                ),
            ));
        }
        input.pos += 1;
        input.depth -= 1;
        Ok(())
    }
}

// ---- Versionstamps ----

impl Versionstamps for FdbTuple {
    fn write_versionstamp<S: Sink>(value: &[u8; 12], out: &mut S) -> Result<()> {
        out.write_byte(VERSIONSTAMP);
        out.write(value);
        Ok(())
    }

    fn read_versionstamp(input: &mut TupleReader<'_>) -> Result<[u8; 12]> {
        let ty = "Versionstamp";
        input.code(ty, "a versionstamp (type code 33)", |c| c == VERSIONSTAMP)?;
        input.take_array(ty)
    }
}
