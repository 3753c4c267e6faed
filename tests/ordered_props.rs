//! Order and round trip of the ordered format, for every field type and for mixed tuples,
//! ascending and descending, over values weighted to the edges.

use std::cmp::Ordering;
use std::fmt::Debug;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::field::{FieldType, Floats, ReadField, Sink, WriteField};
use rowkey::testing::{
    edge_bytes as edgy_bytes, edge_f64 as edgy_f64, edge_i64 as edgy_i64, edge_strings as edgy_string,
    edge_u64 as edgy_u64,
};
use rowkey::{BigEndian, Desc, RowKey, RowKeyOwned};

/// Two values where one is often a prefix of the other.
fn prefix_pair<T: Clone + Debug, S: Strategy<Value = T>>(
    base: fn() -> S,
    join: fn(&T, &T) -> T,
) -> impl Strategy<Value = (T, T)> {
    (base(), base(), any::<bool>())
        .prop_map(move |(a, b, extend)| if extend { (a.clone(), join(&a, &b)) } else { (a, b) })
}

fn edgy_time() -> impl Strategy<Value = SystemTime> {
    // Whole microseconds: finer parts are dropped by design (see the SystemTime field docs).
    prop_oneof![Just(0i64), Just(-1), Just(1), -10_000_000_000_000_000i64..10_000_000_000_000_000].prop_map(|us| {
        if us >= 0 {
            UNIX_EPOCH + Duration::from_micros(us.unsigned_abs())
        } else {
            UNIX_EPOCH - Duration::from_micros(us.unsigned_abs())
        }
    })
}

/// A float whose `Ord` is the key order: `total_cmp` with the two zeros equal.
#[derive(Clone, Copy, Debug)]
struct Float(f64);

impl Ord for Float {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.0 == 0.0 && other.0 == 0.0 { Ordering::Equal } else { self.0.total_cmp(&other.0) }
    }
}
impl PartialOrd for Float {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for Float {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Float {}
// A field type of a user's own, on the field model: written once, for every format that
// holds an f64.
impl FieldType for Float {}
impl<F: Floats<f64>> WriteField<F> for Float {
    fn write<S: Sink>(&self, out: &mut S) -> rowkey::Result<()> {
        F::write_float(self.0, out)
    }
}
impl<'de, F: Floats<f64>> ReadField<'de, F> for Float {
    fn read(input: F::Input<'_, 'de>) -> rowkey::Result<Self> {
        F::read_float(input).map(Float)
    }
}

/// Byte order equals value order, and both keys decode back to their values.
fn check<T: RowKeyOwned + Ord + Debug>(a: &T, b: &T) -> Result<(), TestCaseError> {
    let (ka, kb) = (a.to_key().unwrap(), b.to_key().unwrap());
    prop_assert_eq!(ka.cmp(&kb), a.cmp(b), "values {:?} / {:?}\nkeys {} / {}", a, b, ka, kb);
    prop_assert_eq!(&T::from_key(&ka).unwrap(), a, "key {}", ka);
    prop_assert_eq!(&T::from_key(&kb).unwrap(), b, "key {}", kb);
    Ok(())
}

fn join_string(a: &String, b: &String) -> String {
    format!("{a}{b}")
}

fn join_bytes(a: &Vec<u8>, b: &Vec<u8>) -> Vec<u8> {
    [a.as_slice(), b.as_slice()].concat()
}

proptest! {
    #[test]
    fn strings((a, b) in prefix_pair(edgy_string, join_string)) {
        check(&(a.clone(),), &(b.clone(),))?;
        check(&(Desc(a.clone()),), &(Desc(b.clone()),))?;
        check(&(a.clone(), 7u8), &(b.clone(), 3u8))?;
        check(&(Desc(a), 7u8), &(Desc(b), 3u8))?;
    }

    #[test]
    fn byte_strings((a, b) in prefix_pair(edgy_bytes, join_bytes)) {
        check(&(a.clone(),), &(b.clone(),))?;
        check(&(Desc(a.clone()),), &(Desc(b.clone()),))?;
        check(&(a.clone(), a.clone()), &(b.clone(), a.clone()))?;
        check(&(Desc(a.clone()), b.clone()), &(Desc(b), a))?;
    }

    #[test]
    fn fixed_arrays(a in any::<[u8; 3]>(), b in any::<[u8; 3]>()) {
        check(&(a, 1i8), &(b, 0i8))?;
        check(&(Desc(a),), &(Desc(b),))?;
    }

    #[test]
    fn chars(a in any::<char>(), b in any::<char>()) {
        check(&(a, 'x'), &(b, 'y'))?;
        check(&(Desc(a),), &(Desc(b),))?;
    }

    #[test]
    fn signed(a in edgy_i64(), b in edgy_i64()) {
        check(&(a,), &(b,))?;
        check(&(Desc(a),), &(Desc(b),))?;
        check(&(a, "t".to_owned()), &(b, "s".to_owned()))?;
        if let (Ok(a), Ok(b)) = (i32::try_from(a), i32::try_from(b)) {
            check(&(a, Desc(a)), &(b, Desc(b)))?;
        }
        if let (Ok(a), Ok(b)) = (i8::try_from(a), i8::try_from(b)) {
            check(&(a,), &(b,))?;
        }
        if let (Ok(a), Ok(b)) = (u32::try_from(a), u32::try_from(b)) {
            check(&(a,), &(b,))?;
        }
        if a >= 0 && b >= 0 {
            check(&(BigEndian(a), 0u8), &(BigEndian(b), 0u8))?;
            check(&(Desc(BigEndian(a)),), &(Desc(BigEndian(b)),))?;
        }
    }

    #[test]
    fn narrow_types(a in any::<(i8, i16, u8, u16, isize, bool)>(), b in any::<(i8, i16, u8, u16, isize, bool)>()) {
        check(&a, &b)?;
    }

    #[test]
    fn unsigned(a in edgy_u64(), b in edgy_u64()) {
        check(&(a,), &(b,))?;
        check(&(Desc(a), a), &(Desc(b), b))?;
        check(&(usize::try_from(a).unwrap(),), &(usize::try_from(b).unwrap(),))?;
        check(&(BigEndian(a >> 1),), &(BigEndian(b >> 1),))?;
    }

    #[test]
    fn floats(a in edgy_f64(), b in edgy_f64()) {
        check(&(Float(a),), &(Float(b),))?;
        check(&(Desc(Float(a)), 'x'), &(Desc(Float(b)), 'x'))?;
        // NaN payloads and signs survive the round trip bit for bit.
        if a != 0.0 {
            prop_assert_eq!(<(f64,)>::from_key(&(a,).to_key().unwrap()).unwrap().0.to_bits(), a.to_bits());
        }
    }

    #[test]
    fn f32_widens_to_the_same_key(x in any::<u32>().prop_map(f32::from_bits), y in any::<u32>().prop_map(f32::from_bits)) {
        let (kx, ky) = ((x,).to_key().unwrap(), (y,).to_key().unwrap());
        prop_assert_eq!(kx.cmp(&ky), Float(f64::from(x)).cmp(&Float(f64::from(y))));
        if x != 0.0 {
            prop_assert_eq!(<(f32,)>::from_key(&kx).unwrap().0.to_bits(), x.to_bits());
            if !x.is_nan() {
                prop_assert_eq!(kx, (f64::from(x),).to_key().unwrap());
            }
        }
    }

    #[test]
    fn times(a in edgy_time(), b in edgy_time()) {
        check(&(a, 1u8), &(b, 0u8))?;
        check(&(Desc(a),), &(Desc(b),))?;
    }

    #[test]
    fn options(a in prop::option::of(edgy_bytes()), b in prop::option::of(edgy_bytes()), n in prop::option::of(edgy_u64())) {
        check(&(a.clone(), n), &(b.clone(), n))?;
        check(&(Desc(a.clone()), 'z'), &(Desc(b.clone()), 'z'))?;
        check(&(a.clone(), b.clone()), &(b, a))?;
        check(&(Some(n),), &(Some(None::<u64>),))?;
    }

    #[test]
    fn mixed_tuples(
        a in (edgy_string(), edgy_i64(), prop::option::of(edgy_bytes()), edgy_u64(), edgy_string(), any::<bool>()),
        b in (edgy_string(), edgy_i64(), prop::option::of(edgy_bytes()), edgy_u64(), edgy_string(), any::<bool>()),
    ) {
        check(&a, &b)?;
        let desc = |t: &(String, i64, Option<Vec<u8>>, u64, String, bool)| {
            (t.0.clone(), Desc(t.1), t.2.clone(), Desc(t.3), Desc(t.4.clone()), t.5)
        };
        check(&desc(&a), &desc(&b))?;
        // Fields that tie: only the later ones decide.
        let tie = (a.0.clone(), a.1, b.2.clone(), b.3, b.4.clone(), b.5);
        check(&a, &tie)?;
        check(&desc(&a), &desc(&tie))?;
    }

    #[test]
    fn twelve_fields(a in any::<[u8; 12]>(), b in any::<[u8; 12]>()) {
        let wide = |x: [u8; 12]| (x[0], Desc(x[1]), x[2].is_multiple_of(2), vec![x[3]], Desc(vec![x[4]; usize::from(x[4] % 3)]),
            u64::from(x[5]), Desc(i64::from(x[6]) - 128), x[7] as char, Some(x[8]), Desc(None::<u8>), [x[9], x[10]], i16::from(x[11]));
        check(&wide(a), &wide(b))?;
    }
}

/// Decoding arbitrary bytes never panics, and whatever decodes re-encodes to the same bytes:
/// one value, one key.
fn decode_is_total<T: RowKeyOwned + Debug>(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(value) = T::from_key(bytes) {
        let again = value.to_key().unwrap();
        prop_assert_eq!(again.as_bytes(), bytes, "{:?} decoded from {:?}", value, rowkey::Key::from(bytes));
    }
    Ok(())
}

fn framing_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![4 => Just(0x00u8), 3 => Just(0x01), 3 => Just(0xff), 2 => Just(0xfe), 1 => Just(0x80), 2 => any::<u8>()];
    prop::collection::vec(byte, 0..14)
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in framing_bytes()) {
        decode_is_total::<()>(&bytes)?;
        decode_is_total::<(String,)>(&bytes)?;
        decode_is_total::<(Vec<u8>, Vec<u8>)>(&bytes)?;
        decode_is_total::<(Vec<u8>, Vec<u8>, Vec<u8>)>(&bytes)?;
        decode_is_total::<(String, i64)>(&bytes)?;
        decode_is_total::<(Desc<Vec<u8>>, Option<Vec<u8>>)>(&bytes)?;
        decode_is_total::<(Option<Vec<u8>>, Desc<Vec<u8>>, u64)>(&bytes)?;
        decode_is_total::<(u64, Desc<i64>, bool, char)>(&bytes)?;
        decode_is_total::<(f64, [u8; 2], Desc<Option<u64>>)>(&bytes)?;
        decode_is_total::<(i8, BigEndian<u32>)>(&bytes)?;
        decode_is_total::<(Desc<String>, Desc<String>)>(&bytes)?;
        decode_is_total::<(SystemTime, f32)>(&bytes)?;
    }

    #[test]
    fn arbitrary_bytes_into_borrowing_types(bytes in framing_bytes()) {
        let _ = <(&str, &[u8])>::from_key(&bytes);
        let _ = <(std::borrow::Cow<str>, Desc<&[u8]>)>::from_key(&bytes);
    }
}

/// The ordered framing of byte-string fields written out by hand (docs/FORMAT.md#ordered-framing): `00` escaped as
/// `00 ff`, fields joined by `00 01`, an empty field `00 00`, trailing empty fields dropped.
fn framed_by_hand(fields: &[&[u8]]) -> Vec<u8> {
    let kept = fields.iter().rposition(|f| !f.is_empty()).map_or(0, |last| last + 1);
    if kept == 0 {
        return vec![0, 0];
    }
    let mut out = Vec::new();
    for (i, field) in fields[..kept].iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(&[0, 1]);
        }
        if field.is_empty() {
            out.extend_from_slice(&[0, 0]);
        }
        for &b in *field {
            out.push(b);
            if b == 0 {
                out.push(0xff);
            }
        }
    }
    out
}

/// Every field length around `Key`'s inline capacity, so that a field and the separator before
/// it are written both sides of the move to the heap, with and without `00` and `ff` bytes.
#[test]
fn keys_across_the_inline_capacity_are_framed_exactly() {
    let fill = |len: usize, byte: u8| -> Vec<u8> { (0..len).map(|i| if i % 7 == 3 { byte } else { b'a' }).collect() };
    for first in 0..70 {
        for second in [0, 1, 2, 3, 7, 8, 9, 16, 17] {
            for byte in [b'x', 0x00, 0xff] {
                let (a, b) = (fill(first, byte), fill(second, byte));
                for fields in [[&a[..], &b[..], b"z"], [&a[..], b"", &b[..]], [b"", &a[..], &b[..]]] {
                    let key = (fields[0], fields[1], fields[2]).to_key().unwrap();
                    assert_eq!(key.as_bytes(), framed_by_hand(&fields), "{first} {second} {byte:#x}");
                    let mut reused = rowkey::Key::from(&[7u8; 100][..]);
                    (fields[0], fields[1], fields[2]).encode_into(&mut reused).unwrap();
                    assert_eq!(reused, key, "a reused heap key: {first} {second} {byte:#x}");
                    let back = <(Vec<u8>, Vec<u8>, Vec<u8>)>::from_key(&key).unwrap();
                    assert_eq!((&back.0[..], &back.1[..], &back.2[..]), (fields[0], fields[1], fields[2]));
                }
            }
        }
    }
}
