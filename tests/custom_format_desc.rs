//! A format from outside rowkey whose descending bytes are not the complement of its
//! ascending ones, and whose signed and unsigned integers differ: CockroachDB's integer key
//! encoding (`pkg/util/encoding`). Its field encoders learn a field's direction from the sink
//! the key writer hands them (`Sink::descending`, through `field::Directed`) and from the
//! reader, which keeps the field type's `DESCENDING`; they tell `u64` from `i64` by the
//! capability's type parameter (`field::Integer::SIGNED` for an impl over every integer).
//!
//! | value | ascending | descending |
//! |---|---|---|
//! | unsigned `v` ≤ 109 | `88 + v` | `88` for 0, else as below |
//! | unsigned `v` of `n` bytes | `f5 + n`, `v` big-endian | `88 − n`, `!v` big-endian |
//! | signed `v` ≥ 0 | as unsigned | ascending of `!v` |
//! | signed `v` < 0, `|v|` of `n` bytes | `88 − n`, `v`'s low `n` bytes | ascending of `!v` |
//!
//! Cases per property: 256, or `PROPTEST_CASES`.

mod common;

use std::cmp::Ordering;

use proptest::prelude::*;
use rowkey::Desc;
use rowkey::format::KeyFormat;

use crdb::Crdb;

/// The format, as a user's crate would write it.
mod crdb {
    use rowkey::field::{Descending, Directed, Integer, Ints, ReadField, Sink, ValueFormat, WriteField};
    use rowkey::format::{KeyFormat, KeyReader, KeyWriter};
    use rowkey::{Error, Key, Result};

    /// Where the one-byte small integers start: unsigned 0.
    const ZERO: u8 = 0x88;
    /// The largest integer written in its header byte alone.
    const SMALL: u64 = 109;

    #[derive(Clone, Copy, Debug, Default)]
    pub struct Crdb;

    impl ValueFormat for Crdb {
        type Input<'r, 'de>
            = &'r mut CrdbReader<'de>
        where
            'de: 'r;
    }

    impl Descending for Crdb {}

    impl KeyFormat for Crdb {
        type Values = Crdb;
        type Writer<'a> = CrdbWriter<'a>;
        type Reader<'a, 'de> = CrdbReader<'de>;
        const NAME: &'static str = "crdb";

        fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> CrdbWriter<'a> {
            CrdbWriter { out, index: 0 }
        }

        fn reader<'de>(&self, key: &'de [u8], _: usize) -> CrdbReader<'de> {
            CrdbReader { key, pos: 0, index: 0, descending: false }
        }
    }

    pub struct CrdbWriter<'a> {
        out: &'a mut Key,
        index: usize,
    }

    impl CrdbWriter<'_> {
        fn push<T: WriteField<Crdb> + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
            let (index, start) = (self.index, self.out.len());
            self.index += 1;
            // The field's direction goes with its sink.
            value
                .write(&mut Directed::new(&mut *self.out, T::DESCENDING))
                .map_err(|e| e.in_field(index, name, start))?;
            Ok(self)
        }
    }

    impl KeyWriter<Crdb> for CrdbWriter<'_> {
        fn field<T: WriteField<Crdb> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
            self.push(None, value)
        }

        fn named_field<T: WriteField<Crdb> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
            self.push(Some(name), value)
        }

        fn prefix(&mut self, prefix: &'static [u8]) -> Result<&mut Self> {
            self.out.extend_from_slice(prefix);
            Ok(self)
        }
    }

    pub struct CrdbReader<'de> {
        key: &'de [u8],
        pos: usize,
        index: usize,
        /// The direction of the field being read, for its decoder.
        descending: bool,
    }

    impl<'de> CrdbReader<'de> {
        fn pull<T: ReadField<'de, Crdb>>(&mut self, name: Option<&'static str>) -> Result<T> {
            let (index, start) = (self.index, self.pos);
            self.index += 1;
            self.descending = T::DESCENDING;
            T::read(self).map_err(|e| e.in_field(index, name, start))
        }

        fn take(&mut self, n: usize, ty: &'static str) -> Result<&'de [u8]> {
            let bytes = self.key.get(self.pos..self.pos + n).ok_or_else(|| Error::invalid(ty, "the key ends in it"))?;
            self.pos += n;
            Ok(bytes)
        }
    }

    impl<'de> KeyReader<'de, Crdb> for CrdbReader<'de> {
        fn field<T: ReadField<'de, Crdb>>(&mut self) -> Result<T> {
            self.pull(None)
        }

        fn named_field<T: ReadField<'de, Crdb>>(&mut self, name: &'static str) -> Result<T> {
            self.pull(Some(name))
        }

        fn prefix(&mut self, prefix: &'static [u8]) -> Result<()> {
            if !self.key[self.pos..].starts_with(prefix) {
                return Err(Error::invalid("prefix", "another prefix"));
            }
            self.pos += prefix.len();
            Ok(())
        }

        fn position(&self) -> usize {
            self.pos
        }

        fn field_index(&self) -> usize {
            self.index
        }

        fn finish(self) -> Result<()> {
            match self.key.len() - self.pos {
                0 => Ok(()),
                len => Err(Error::TrailingBytes { offset: self.pos, len }),
            }
        }
    }

    /// How many bytes `v` takes, big-endian without leading zeros.
    fn byte_len(v: u64) -> usize {
        (8 - v.leading_zeros() as usize / 8).max(1)
    }

    fn be(v: u64, n: usize) -> Vec<u8> {
        v.to_be_bytes()[8 - n..].to_vec()
    }

    fn unsigned_ascending(v: u64) -> Vec<u8> {
        if v <= SMALL {
            return vec![ZERO + v as u8];
        }
        let n = byte_len(v);
        [&[ZERO + SMALL as u8 + n as u8][..], &be(v, n)].concat()
    }

    fn unsigned_descending(v: u64) -> Vec<u8> {
        if v == 0 {
            return vec![ZERO];
        }
        let n = byte_len(v);
        [&[ZERO - n as u8][..], &be(!v, n)].concat()
    }

    fn signed_ascending(v: i64) -> Vec<u8> {
        if v >= 0 {
            return unsigned_ascending(v as u64);
        }
        let n = byte_len(v.unsigned_abs());
        [&[ZERO - n as u8][..], &be(v as u64, n)].concat()
    }

    fn malformed(ty: &'static str) -> Error {
        Error::invalid(ty, "not an integer's bytes as CockroachDB writes them")
    }

    /// Reads the bytes of one integer (a header and what it says follows): the header and
    /// the big-endian value after it.
    fn read_parts(r: &mut CrdbReader<'_>, ty: &'static str) -> Result<(u8, u64)> {
        let header = r.take(1, ty)?[0];
        let n = match header {
            0x80..=0x87 => usize::from(ZERO - header),
            0xf6..=0xfd => usize::from(header - ZERO - SMALL as u8),
            _ => 0,
        };
        let mut value = 0u64;
        for &b in r.take(n, ty)? {
            value = value << 8 | u64::from(b);
        }
        Ok((header, value))
    }

    /// The value the parts stand for, checked to be the one form the writer gives it.
    fn unsigned_of(header: u8, rest: u64, descending: bool, ty: &'static str) -> Result<u64> {
        let v = match (descending, header) {
            (_, ZERO) => 0,
            (false, 0x89..=0xf5) => u64::from(header - ZERO),
            (false, 0xf6..=0xfd) => rest,
            (true, 0x80..=0x87) => {
                let n = usize::from(ZERO - header);
                !rest & (u64::MAX >> (64 - 8 * n))
            }
            _ => return Err(malformed(ty)),
        };
        let again = if descending { unsigned_descending(v) } else { unsigned_ascending(v) };
        if again.first() != Some(&header) {
            return Err(malformed(ty));
        }
        Ok(v)
    }

    fn signed_of(header: u8, rest: u64, ty: &'static str) -> Result<i64> {
        let v = match header {
            0x80..=0x87 => {
                let n = usize::from(ZERO - header);
                // The low n bytes, with ones above them: the value is below -(256^(n-1)).
                let ones = if n == 8 { 0 } else { u64::MAX << (8 * n) };
                (ones | rest) as i64
            }
            _ => i64::try_from(unsigned_of(header, rest, false, ty)?).map_err(|_| malformed(ty))?,
        };
        if signed_ascending(v).first() != Some(&header) || (header < ZERO && v >= 0) {
            return Err(malformed(ty));
        }
        Ok(v)
    }

    impl Ints<u64> for Crdb {
        fn write_int<S: Sink>(value: u64, out: &mut S) -> Result<()> {
            out.write(&if out.descending() { unsigned_descending(value) } else { unsigned_ascending(value) });
            Ok(())
        }

        fn read_int(r: &mut CrdbReader<'_>) -> Result<u64> {
            let (header, rest) = read_parts(r, "u64")?;
            unsigned_of(header, rest, r.descending, "u64")
        }
    }

    impl Ints<i64> for Crdb {
        fn write_int<S: Sink>(value: i64, out: &mut S) -> Result<()> {
            out.write(&signed_ascending(if out.descending() { !value } else { value }));
            Ok(())
        }

        fn read_int(r: &mut CrdbReader<'_>) -> Result<i64> {
            let (header, rest) = read_parts(r, "i64")?;
            let v = signed_of(header, rest, "i64")?;
            Ok(if r.descending { !v } else { v })
        }
    }

    /// The narrower integers through the 64-bit ones of their sign: `Integer::SIGNED` tells
    /// them apart in one impl.
    macro_rules! narrow {
        ($($ty:ty),*) => {$(
            impl Ints<$ty> for Crdb {
                fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                    if <$ty as Integer>::SIGNED {
                        <Crdb as Ints<i64>>::write_int(value.to_i128() as i64, out)
                    } else {
                        <Crdb as Ints<u64>>::write_int(value.to_i128() as u64, out)
                    }
                }

                fn read_int(r: &mut CrdbReader<'_>) -> Result<$ty> {
                    let wide = if <$ty as Integer>::SIGNED {
                        i128::from(<Crdb as Ints<i64>>::read_int(r)?)
                    } else {
                        i128::from(<Crdb as Ints<u64>>::read_int(r)?)
                    };
                    <$ty as Integer>::from_i128(wide).ok_or_else(|| Error::out_of_range(wide, stringify!($ty)))
                }
            }
        )*};
    }
    narrow!(u8, u16, u32, i8, i16, i32);
}

/// The bytes of the table above, where the complement would have given others.
#[test]
fn descending_bytes_are_cockroachdbs() {
    let key = |k: &dyn Fn() -> rowkey::Result<rowkey::Key>| k().unwrap().as_bytes().to_vec();
    assert_eq!(key(&|| Crdb.to_key(&(0u64,))), [0x88]);
    assert_eq!(key(&|| Crdb.to_key(&(Desc(0u64),))), [0x88]);
    assert_eq!(key(&|| Crdb.to_key(&(1u64,))), [0x89]);
    assert_eq!(key(&|| Crdb.to_key(&(Desc(1u64),))), [0x87, 0xfe]);
    assert_eq!(key(&|| Crdb.to_key(&(0i64,))), [0x88]);
    assert_eq!(key(&|| Crdb.to_key(&(Desc(0i64),))), [0x87, 0xff]);
    assert_eq!(key(&|| Crdb.to_key(&(-1i64,))), [0x87, 0xff]);
    assert_eq!(key(&|| Crdb.to_key(&(Desc(-1i64),))), [0x88]);
    // 1000 in two bytes; a descending 7 is `87`, then `!7`.
    assert_eq!(key(&|| Crdb.to_key(&(1000u64, Desc(7u16)))), [0xf7, 0x03, 0xe8, 0x87, 0xf8]);
    // Read back in the direction they were written.
    let (a, Desc(b), Desc(c)): (u64, Desc<i64>, Desc<u16>) =
        Crdb.from_key(Crdb.to_key(&(5u64, Desc(-3i64), Desc(300u16))).unwrap().as_bytes()).unwrap();
    assert_eq!((a, b, c), (5, -3, 300));
    // The ascending bytes of 1 are no descending field's.
    assert!(Crdb.from_key::<(Desc<u64>,)>(&[0x89]).is_err());
}

/// Values at the edges of each length of the encoding.
fn edge_u64() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(109),
        Just(110),
        Just(255),
        Just(256),
        Just(65_535),
        Just(65_536),
        Just(u64::MAX),
        (0u32..64).prop_map(|b| 1u64 << b),
        any::<u64>(),
    ]
}

fn edge_i64() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        Just(0i64),
        Just(-1),
        Just(-255),
        Just(-256),
        Just(109),
        Just(110),
        Just(i64::MIN),
        Just(i64::MAX),
        (0u32..63).prop_map(|b| -(1i64 << b)),
        any::<i64>(),
    ]
}

type Row = (u64, Desc<i64>, Desc<u64>, i64, Desc<i16>);

fn row() -> impl Strategy<Value = Row> {
    (edge_u64(), edge_i64(), edge_u64(), edge_i64(), any::<i16>())
        .prop_map(|(a, b, c, d, e)| (a, Desc(b), Desc(c), d, Desc(e)))
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    /// Keys sort as the rows do (`Desc` fields reversed), and read back as the row.
    #[test]
    fn order_and_round_trip(a in row(), b in row()) {
        let (ka, kb) = (Crdb.to_key(&a).unwrap(), Crdb.to_key(&b).unwrap());
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b), "{:?} {:?}", ka, kb);
        prop_assert_eq!(Crdb.from_key::<Row>(ka.as_bytes()).unwrap(), a);
        if a != b {
            prop_assert_ne!(ka.cmp(&kb), Ordering::Equal);
        }
    }

    /// Any bytes that read as a row are that row's key: one key per row.
    #[test]
    fn one_key_per_row(bytes in prop::collection::vec(prop_oneof![Just(0x88u8), Just(0x87), Just(0xf6), Just(0xff), any::<u8>()], 0..24)) {
        if let Ok(row) = Crdb.from_key::<(Desc<u64>, i64, Desc<i8>)>(&bytes) {
            let again = Crdb.to_key(&row).unwrap();
            prop_assert_eq!(again.as_bytes(), &bytes[..]);
        }
    }
}
