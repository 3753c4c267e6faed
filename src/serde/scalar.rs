//! Scalars with the core's field encodings, through whatever wrapper (transform) holds them.
//! Both directions delegate to the core types, so a serde scalar and the core field are the
//! same bytes by construction.

use crate::error::Result;
use crate::field::{BigEndian, FieldBytes, FieldType, ReadField, Reversed, Sink, WriteField};
use crate::format::Ordered;
use crate::transform::{BitReversed, ReversedDomain, ReversedUrl};

use super::Transform;

/// One scalar as serde hands it over.
#[derive(Clone, Copy)]
pub(super) enum Scalar<'a> {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(&'a str),
    Bytes(&'a [u8]),
}

/// A scalar and the transform to store it with: one field's bytes.
pub(super) struct Leaf<'a> {
    pub value: Scalar<'a>,
    pub transform: Transform,
}

impl FieldType for Leaf<'_> {}

impl WriteField<Ordered> for Leaf<'_> {
    #[inline]
    fn write<S: Sink>(&self, out: &mut S) -> Result<()> {
        let t = self.transform;
        match self.value {
            Scalar::I8(v) => v.encode_with(t, out),
            Scalar::I16(v) => v.encode_with(t, out),
            Scalar::I32(v) => v.encode_with(t, out),
            Scalar::I64(v) => v.encode_with(t, out),
            Scalar::U8(v) => v.encode_with(t, out),
            Scalar::U16(v) => v.encode_with(t, out),
            Scalar::U32(v) => v.encode_with(t, out),
            Scalar::U64(v) => v.encode_with(t, out),
            Scalar::Str(s) => match t {
                Transform::None => put(&s, out),
                Transform::ReversedDomain => put(&ReversedDomain(s), out),
                Transform::ReversedUrl => put(&ReversedUrl(s), out),
                _ => Err(t.encode_error("a string")),
            },
            Scalar::Bool(v) => t.check_encode("a bool").and_then(|()| put(&v, out)),
            Scalar::F32(v) => t.check_encode("an f32").and_then(|()| put(&v, out)),
            Scalar::F64(v) => t.check_encode("an f64").and_then(|()| put(&v, out)),
            Scalar::Char(v) => t.check_encode("a char").and_then(|()| put(&v, out)),
            Scalar::Bytes(v) => t.check_encode("a byte string").and_then(|()| put(&v, out)),
            Scalar::I128(v) => t.check_encode("an i128").and_then(|()| put(&v, out)),
            Scalar::U128(v) => t.check_encode("a u128").and_then(|()| put(&v, out)),
        }
    }
}

/// Writes a value in the ordered format.
#[inline(always)]
fn put<T: WriteField<Ordered> + ?Sized, S: Sink>(value: &T, out: &mut S) -> Result<()> {
    value.write(out)
}

/// Reads a value in the ordered format.
#[inline(always)]
fn get<'de, T: ReadField<'de, Ordered>>(bytes: FieldBytes<'de>) -> Result<T> {
    T::read(bytes)
}

/// An integer type with every transform that applies to it.
pub(super) trait Int: Sized {
    fn encode_with<S: Sink>(self, t: Transform, out: &mut S) -> Result<()>;
    fn decode_with(bytes: FieldBytes<'_>, t: Transform) -> Result<Self>;
}

macro_rules! int {
    ($ty:ty, $name:literal $(, bits: $bits:ty)?) => {
        impl Int for $ty {
            #[inline]
            fn encode_with<S: Sink>(self, t: Transform, out: &mut S) -> Result<()> {
                match t {
                    Transform::None => put(&self, out),
                    Transform::BigEndian => put(&BigEndian(self), out),
                    Transform::Reversed => put(&Reversed(self), out),
                    $(Transform::BitReversed => put(&BitReversed::<$bits>(self), out),)?
                    _ => Err(t.encode_error($name)),
                }
            }

            #[inline]
            fn decode_with(bytes: FieldBytes<'_>, t: Transform) -> Result<Self> {
                match t {
                    Transform::None => get::<$ty>(bytes),
                    Transform::BigEndian => get::<BigEndian<$ty>>(bytes).map(|v| v.0),
                    Transform::Reversed => get::<Reversed<$ty>>(bytes).map(|v| v.0),
                    $(Transform::BitReversed => get::<BitReversed<$bits>>(bytes).map(|v| v.0),)?
                    _ => Err(t.decode_error($name)),
                }
            }
        }
    };
}

int!(i8, "an i8");
int!(i16, "an i16");
int!(i32, "an i32");
int!(i64, "an i64", bits: i64);
int!(u8, "a u8");
int!(u16, "a u16");
int!(u32, "a u32");
int!(u64, "a u64", bits: u64);

/// Scalar methods: the value goes to the field encoder as it is when no wrapper waits for
/// it (the tuple path, which the compiler inlines), and through [`Leaf`] otherwise.
macro_rules! scalars {
    ($($method:ident($ty:ty) => $variant:ident),* $(,)?) => {$(
        #[inline]
        fn $method(self, v: $ty) -> Result<()> {
            if self.transform == Transform::None {
                self.plain(&v)
            } else {
                self.scalar(Scalar::$variant(v))
            }
        }
    )*};
}
pub(super) use scalars;
