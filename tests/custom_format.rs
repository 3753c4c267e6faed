//! A key format defined outside rowkey, with nothing inside rowkey changed for it: a
//! big-endian layout where each field is one tag byte (what the field is) then its bytes,
//! integers at a fixed width and text escaped and ended. Keys derive in it with
//! `#[rowkey(format = tagged::Tagged)]` and get `to_key`, `from_key`, the scan builder, their
//! schema (`inspect`, `encode`, schema scans) and the order property tests, as a built-in
//! format's keys do.
//!
//! | field | bytes |
//! |---|---|
//! | `None` | `00` |
//! | unsigned integer `n` up to 64 bits | `10`, `n` as 8 bytes big-endian |
//! | signed integer `n` up to 64 bits | `11`, `n` as 8 bytes big-endian with the sign bit flipped |
//! | `u128`, `i128` | `12`, `13`, then 16 bytes as above |
//! | `f64`, `f32` | `14`, `15`, then the bits, flipped to sort in IEEE total order |
//! | `bool` | `20`, `00` or `01` |
//! | text or bytes | `30`, the bytes with each `00` as `00 ff`, then `00 00` |
//! | UUID | `40`, its 16 bytes |
//!
//! Cases per property: 256, or `PROPTEST_CASES`.

mod common;

use std::cmp::Ordering;

use common::schema_checks::{agrees_with_from_key, check, mutations, texts};

use proptest::prelude::*;
use rowkey::format::{FormatKey, KeyFormat};
use rowkey::scan::{KeyScan, ScanFormat};
use rowkey::schema::{KeySchema, Value};
use rowkey::testing::{assert_decode_total, assert_order_preserving_with, edge_i64, edge_strings};
use rowkey::{Key, RowKey};
use tagged::Tagged;

/// The format, as a user's crate would write it: the format type, its writer and reader, the
/// values it holds, and how a scan bounds its keys.
mod tagged {
    use std::borrow::Cow;
    use std::ops::Bound;

    use rowkey::field::{
        Addrs, Bools, ByteStrings, Floats, Instants, Ints, Options, ReadField, Sink, Strings, Uuids, ValueFormat,
        WriteField,
    };
    use rowkey::format::{KeyFormat, KeyReader, KeyWriter};
    use rowkey::range::KeyRange;
    use rowkey::scan::StoreFormat;
    use rowkey::schema::{CustomFormat, SchemaFormat};
    use rowkey::{Error, Key, Location, Result};

    const NONE: u8 = 0x00;
    const UNSIGNED: u8 = 0x10;
    const SIGNED: u8 = 0x11;
    const UNSIGNED_WIDE: u8 = 0x12;
    const SIGNED_WIDE: u8 = 0x13;
    const DOUBLE: u8 = 0x14;
    const SINGLE: u8 = 0x15;
    const UUID: u8 = 0x40;
    const BOOL: u8 = 0x20;
    const TEXT: u8 = 0x30;

    /// The format: no settings, so a unit type.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Tagged;

    impl ValueFormat for Tagged {
        // A field's length is known only from its tag, so readers take the cursor.
        type Input<'r, 'de>
            = &'r mut TaggedReader<'de>
        where
            'de: 'r;
    }

    impl KeyFormat for Tagged {
        type Values = Tagged;
        type Writer<'a> = TaggedWriter<'a>;
        type Reader<'a, 'de> = TaggedReader<'de>;
        const NAME: &'static str = "tagged";
        // The schema reads and writes its keys too.
        const SCHEMA_FORMAT: CustomFormat = CustomFormat::of::<Self>();

        fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> TaggedWriter<'a> {
            TaggedWriter { out, index: 0 }
        }

        fn reader<'de>(&self, key: &'de [u8], _: usize) -> TaggedReader<'de> {
            TaggedReader { key, pos: 0, index: 0 }
        }
    }

    pub struct TaggedWriter<'a> {
        out: &'a mut Key,
        index: usize,
    }

    impl TaggedWriter<'_> {
        fn push<T: WriteField<Tagged> + ?Sized>(&mut self, name: Option<&'static str>, value: &T) -> Result<&mut Self> {
            let (index, start) = (self.index, self.out.len());
            self.index += 1;
            value.write(self.out).map_err(|e| e.in_field(index, name, start))?;
            Ok(self)
        }
    }

    impl KeyWriter<Tagged> for TaggedWriter<'_> {
        fn field<T: WriteField<Tagged> + ?Sized>(&mut self, value: &T) -> Result<&mut Self> {
            self.push(None, value)
        }

        fn named_field<T: WriteField<Tagged> + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<&mut Self> {
            self.push(Some(name), value)
        }

        fn prefix(&mut self, prefix: &'static [u8]) -> Result<&mut Self> {
            self.out.extend_from_slice(prefix);
            Ok(self)
        }
    }

    pub struct TaggedReader<'de> {
        key: &'de [u8],
        pos: usize,
        index: usize,
    }

    impl<'de> TaggedReader<'de> {
        fn read<T: ReadField<'de, Tagged>>(&mut self, name: Option<&'static str>) -> Result<T> {
            let (index, start) = (self.index, self.pos);
            self.index += 1;
            T::read(self).map_err(|e| e.in_field(index, name, start))
        }

        fn tag(&mut self, want: u8, ty: &'static str) -> Result<()> {
            match self.key.get(self.pos) {
                Some(&tag) if tag == want => {
                    self.pos += 1;
                    Ok(())
                }
                Some(&tag) => Err(Error::invalid(ty, format!("the field's tag is {tag:02x}, not {want:02x}"))),
                None => Err(Error::Truncated { at: Location::at(self.pos), detail: "the key ends before this field" }),
            }
        }

        fn fixed<const N: usize>(&mut self, tag: u8, ty: &'static str) -> Result<[u8; N]> {
            self.tag(tag, ty)?;
            let bytes =
                self.key.get(self.pos..self.pos + N).ok_or_else(|| Error::invalid(ty, "the field is cut short"))?;
            self.pos += N;
            Ok(bytes.try_into().expect("N bytes"))
        }

        fn word(&mut self, tag: u8, ty: &'static str) -> Result<u64> {
            self.fixed::<8>(tag, ty).map(u64::from_be_bytes)
        }

        fn text(&mut self, ty: &'static str) -> Result<Cow<'de, [u8]>> {
            self.tag(TEXT, ty)?;
            let mut out = Vec::new();
            loop {
                match self.key.get(self.pos..self.pos + 2) {
                    Some([0, 0]) => break,
                    Some([0, 0xff]) => {
                        out.push(0);
                        self.pos += 2;
                    }
                    Some([0, other]) => {
                        return Err(Error::invalid(ty, format!("00 {other:02x} is neither an escaped 00 nor the end")));
                    }
                    _ if self.key.get(self.pos).is_some_and(|&b| b != 0) => {
                        out.push(self.key[self.pos]);
                        self.pos += 1;
                    }
                    _ => return Err(Error::invalid(ty, "the text has no 00 00 at its end")),
                }
            }
            self.pos += 2;
            Ok(Cow::Owned(out))
        }
    }

    impl<'de> KeyReader<'de, Tagged> for TaggedReader<'de> {
        fn field<T: ReadField<'de, Tagged>>(&mut self) -> Result<T> {
            self.read(None)
        }

        fn named_field<T: ReadField<'de, Tagged>>(&mut self, name: &'static str) -> Result<T> {
            self.read(Some(name))
        }

        fn prefix(&mut self, prefix: &'static [u8]) -> Result<()> {
            if !self.key[self.pos..].starts_with(prefix) {
                return Err(Error::invalid(
                    "prefix",
                    format!("the key does not start with {:?}", String::from_utf8_lossy(prefix)),
                )
                .in_field(0, Some("prefix"), self.pos));
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

    macro_rules! ints {
        ($($ty:ty: $tag:expr, $to:expr, $from:expr);* $(;)?) => {$(
            impl Ints<$ty> for Tagged {
                fn write_int<S: Sink>(value: $ty, out: &mut S) -> Result<()> {
                    out.write_byte($tag);
                    out.write(&$to(value).to_be_bytes());
                    Ok(())
                }

                fn read_int(input: &mut TaggedReader<'_>) -> Result<$ty> {
                    let word = input.word($tag, stringify!($ty))?;
                    let wide: i128 = $from(word);
                    <$ty>::try_from(wide).map_err(|_| Error::out_of_range(wide, stringify!($ty)))
                }
            }
        )*};
    }

    const SIGN: u64 = 1 << 63;
    fn signed(v: i64) -> u64 {
        v.cast_unsigned() ^ SIGN
    }
    fn unsigned_back(w: u64) -> i128 {
        i128::from(w)
    }
    fn signed_back(w: u64) -> i128 {
        i128::from((w ^ SIGN).cast_signed())
    }
    ints! {
        u8: UNSIGNED, u64::from, unsigned_back;
        u16: UNSIGNED, u64::from, unsigned_back;
        u32: UNSIGNED, u64::from, unsigned_back;
        u64: UNSIGNED, u64::from, unsigned_back;
        usize: UNSIGNED, |v: usize| v as u64, unsigned_back;
        i8: SIGNED, |v: i8| signed(v.into()), signed_back;
        i16: SIGNED, |v: i16| signed(v.into()), signed_back;
        i32: SIGNED, |v: i32| signed(v.into()), signed_back;
        i64: SIGNED, signed, signed_back;
        isize: SIGNED, |v: isize| signed(v as i64), signed_back;
    }

    impl Ints<u128> for Tagged {
        fn write_int<S: Sink>(value: u128, out: &mut S) -> Result<()> {
            out.write_byte(UNSIGNED_WIDE);
            out.write(&value.to_be_bytes());
            Ok(())
        }

        fn read_int(input: &mut TaggedReader<'_>) -> Result<u128> {
            input.fixed::<16>(UNSIGNED_WIDE, "u128").map(u128::from_be_bytes)
        }
    }

    impl Ints<i128> for Tagged {
        fn write_int<S: Sink>(value: i128, out: &mut S) -> Result<()> {
            out.write_byte(SIGNED_WIDE);
            out.write(&(value.cast_unsigned() ^ (1 << 127)).to_be_bytes());
            Ok(())
        }

        fn read_int(input: &mut TaggedReader<'_>) -> Result<i128> {
            input.fixed::<16>(SIGNED_WIDE, "i128").map(|b| (u128::from_be_bytes(b) ^ (1 << 127)).cast_signed())
        }
    }

    // IEEE total order: a negative value's bits all flipped, a positive one's sign bit.
    impl Floats<f64> for Tagged {
        fn write_float<S: Sink>(value: f64, out: &mut S) -> Result<()> {
            let bits = value.to_bits();
            out.write_byte(DOUBLE);
            out.write(&(if bits & SIGN != 0 { !bits } else { bits ^ SIGN }).to_be_bytes());
            Ok(())
        }

        fn read_float(input: &mut TaggedReader<'_>) -> Result<f64> {
            let bits = input.fixed::<8>(DOUBLE, "f64").map(u64::from_be_bytes)?;
            Ok(f64::from_bits(if bits & SIGN != 0 { bits ^ SIGN } else { !bits }))
        }
    }

    impl Floats<f32> for Tagged {
        fn write_float<S: Sink>(value: f32, out: &mut S) -> Result<()> {
            let bits = value.to_bits();
            out.write_byte(SINGLE);
            out.write(&(if bits >> 31 != 0 { !bits } else { bits ^ (1 << 31) }).to_be_bytes());
            Ok(())
        }

        fn read_float(input: &mut TaggedReader<'_>) -> Result<f32> {
            let bits = input.fixed::<4>(SINGLE, "f32").map(u32::from_be_bytes)?;
            Ok(f32::from_bits(if bits >> 31 != 0 { bits ^ (1 << 31) } else { !bits }))
        }
    }

    // `None` is one byte below every tag, so it sorts first.
    impl Options for Tagged {
        fn write_option<T: WriteField<Self> + ?Sized, S: Sink>(value: Option<&T>, out: &mut S) -> Result<()> {
            match value {
                None => {
                    out.write_byte(NONE);
                    Ok(())
                }
                Some(value) => value.write(out),
            }
        }

        fn read_option<'de, T: ReadField<'de, Self>>(input: &mut TaggedReader<'de>) -> Result<Option<T>> {
            if input.key.get(input.pos) == Some(&NONE) {
                input.pos += 1;
                return Ok(None);
            }
            T::read(input).map(Some)
        }
    }

    impl Uuids for Tagged {
        fn write_id<S: Sink>(value: &[u8; 16], out: &mut S) -> Result<()> {
            out.write_byte(UUID);
            out.write(value);
            Ok(())
        }

        fn read_id(input: &mut TaggedReader<'_>, ty: &'static str) -> Result<[u8; 16]> {
            input.fixed::<16>(UUID, ty)
        }
    }

    // Instants as their integers, addresses as their bytes: the field model's defaults.
    impl Instants for Tagged {}
    impl Addrs for Tagged {}

    // Every family of values: the schema reads and writes keys of this format.
    impl SchemaFormat for Tagged {
        fn schema_reader(key: &[u8], _: usize) -> TaggedReader<'_> {
            TaggedReader { key, pos: 0, index: 0 }
        }
    }

    impl Bools for Tagged {
        fn write_bool<S: Sink>(value: bool, out: &mut S) -> Result<()> {
            out.write(&[BOOL, u8::from(value)]);
            Ok(())
        }

        fn read_bool(input: &mut TaggedReader<'_>) -> Result<bool> {
            input.tag(BOOL, "bool")?;
            let byte = input.key.get(input.pos).copied();
            input.pos += 1;
            match byte {
                Some(0) => Ok(false),
                Some(1) => Ok(true),
                _ => Err(Error::invalid("bool", "the byte after the tag is not 00 or 01")),
            }
        }
    }

    fn write_text<S: Sink>(bytes: &[u8], out: &mut S) {
        out.write_byte(TEXT);
        for part in bytes.split(|&b| b == 0).enumerate() {
            if part.0 > 0 {
                out.write(&[0, 0xff]);
            }
            out.write(part.1);
        }
        out.write(&[0, 0]);
    }

    impl ByteStrings for Tagged {
        fn write_bytes<S: Sink>(value: &[u8], out: &mut S) -> Result<()> {
            write_text(value, out);
            Ok(())
        }

        fn read_bytes<'r, 'de: 'r>(input: &'r mut TaggedReader<'de>, ty: &'static str) -> Result<Cow<'de, [u8]>> {
            input.text(ty)
        }
    }

    impl Strings for Tagged {
        fn write_str<S: Sink>(value: &str, out: &mut S) -> Result<()> {
            write_text(value.as_bytes(), out);
            Ok(())
        }

        fn write_char<S: Sink>(value: char, out: &mut S) -> Result<()> {
            write_text(value.encode_utf8(&mut [0; 4]).as_bytes(), out);
            Ok(())
        }

        fn read_str<'r, 'de: 'r>(input: &'r mut TaggedReader<'de>, ty: &'static str) -> Result<Cow<'de, str>> {
            String::from_utf8(input.text(ty)?.into_owned())
                .map(Cow::Owned)
                .map_err(|_| Error::invalid(ty, "the text is not UTF-8"))
        }

        fn read_char(input: &mut TaggedReader<'_>) -> Result<char> {
            let text = Self::read_str(input, "char")?;
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(c),
                _ => Err(Error::invalid("char", "the text is not one character")),
            }
        }
    }

    /// Every field ends where its bytes do, so fixed fields bound a scan by their bytes.
    impl StoreFormat for Tagged {
        fn append<T: WriteField<Self> + ?Sized>(out: &mut Key, _: usize, _: usize, value: &T) -> Result<()> {
            value.write(out)
        }

        fn after_extensions(fields: &Key) -> Bound<Key> {
            match rowkey::prefix_successor(fields) {
                Some(end) => Bound::Excluded(end),
                None => Bound::Unbounded,
            }
        }

        // Text ends in `00 00`: without it, the start of every text that starts with `text`.
        fn text_prefix(fixed: &Key, index: usize, fields: usize, text: &str) -> Result<KeyRange> {
            let mut start = fixed.clone();
            Self::append(&mut start, index, fields, text)?;
            start.truncate(start.len() - 2);
            Ok(KeyRange::prefix(&start))
        }
    }
}

/// A key in the format, derived.
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(format = tagged::Tagged, prefix = "ev")]
struct Event {
    tenant: String,
    day: u32,
    seq: i64,
    done: bool,
}

/// A salted one: the bucket is written as the store formats write theirs, a `u16`.
#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
#[rowkey(format = tagged::Tagged, salt(buckets = 8, from = [tenant]))]
struct Spread {
    tenant: String,
    seq: i64,
    note: Option<u16>,
}

fn event(tenant: &str, day: u32, seq: i64, done: bool) -> Event {
    Event { tenant: tenant.to_owned(), day, seq, done }
}

fn events() -> impl Strategy<Value = Event> + Clone {
    (edge_strings(), prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()], edge_i64(), any::<bool>())
        .prop_map(|(tenant, day, seq, done)| Event { tenant, day, seq, done })
}

#[test]
fn a_derived_key_writes_the_format_s_bytes() {
    let key = event("a\0b", 7, -1, true).to_key().unwrap();
    let mut want = b"ev".to_vec();
    want.extend_from_slice(b"\x30a\x00\xffb\x00\x00");
    want.extend_from_slice(&[0x10, 0, 0, 0, 0, 0, 0, 0, 7]);
    want.extend_from_slice(&[0x11, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    want.extend_from_slice(&[0x20, 1]);
    assert_eq!(key.as_bytes(), want);
    assert_eq!(Event::from_key(&key).unwrap(), event("a\0b", 7, -1, true));
}

#[test]
fn tuples_are_keys_of_the_format_too() {
    let key = KeyFormat::to_key(&Tagged, &("x", 1u8)).unwrap();
    assert_eq!(key.as_bytes(), b"\x30x\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x01");
    let back: (String, u8) = KeyFormat::from_key(&Tagged, &key).unwrap();
    assert_eq!(back, ("x".to_owned(), 1));
    assert_eq!(<(String, u8) as FormatKey<Tagged>>::FIELDS, 2);
}

#[test]
fn a_bad_key_names_the_field_and_never_panics() {
    let key = event("acme", 300, 5, false).to_key().unwrap();
    let cases: Vec<(Vec<u8>, Option<&str>, &str)> = vec![
        (key[..key.len() - 1].to_vec(), Some("done"), "not 00 or 01"),
        ([&key[..], &[0]].concat(), None, "after the last field"),
        ([b"EV", &key[2..]].concat(), Some("prefix"), "does not start with"),
        (key.as_bytes().iter().map(|&b| if b == 0x10 { 0x11 } else { b }).collect(), Some("day"), "tag is 11"),
    ];
    for (bytes, field, says) in cases {
        let err = Event::from_key(&bytes).expect_err("a bad key");
        assert_eq!(err.location().name(), field, "{err}");
        assert!(err.to_string().contains(says), "{err}");
    }
    // A day past u8 read as a u8 field is out of range, not wrapped.
    let wide = KeyFormat::to_key(&Tagged, &(300u32,)).unwrap();
    assert!(KeyFormat::from_key::<(u8,)>(&Tagged, &wide).unwrap_err().to_string().contains("300"));
    assert_decode_total::<Event>();
}

#[test]
fn keys_sort_as_their_values_and_read_back() {
    assert_order_preserving_with((events(), events()), Event::cmp);
}

#[test]
fn a_salted_key_reads_back_and_refuses_a_bucket_of_another_salt() {
    let spread = Spread { tenant: "acme".into(), seq: i64::MIN, note: None };
    let key = spread.to_key().unwrap();
    assert_eq!(key[0], 0x10, "the bucket is the format's unsigned integer");
    assert_eq!(Spread::from_key(&key).unwrap(), spread);
    let mut moved = key.as_bytes().to_vec();
    moved[8] = (moved[8] + 1) % 8;
    let err = Spread::from_key(&moved).expect_err("another bucket");
    assert_eq!(err.location().name(), Some("bucket"), "{err}");
}

#[test]
fn the_scan_builder_bounds_exactly_the_matching_keys() {
    let rows: Vec<Event> = ["", "a", "a\0", "ab", "b"]
        .iter()
        .flat_map(|t| [0u32, 5, 6, 7, u32::MAX].map(|day| event(t, day, -3, false)))
        .collect();
    let keys: Vec<(Key, &Event)> = rows.iter().map(|e| (e.to_key().unwrap(), e)).collect();
    let check = |ranges: rowkey::KeyRanges, want: &dyn Fn(&Event) -> bool| {
        for (key, row) in &keys {
            assert_eq!(ranges.contains(key), want(row), "{row:?}");
        }
    };
    check(Event::scan().tenant("a").ranges().unwrap(), &|e| e.tenant == "a");
    check(Event::scan().tenant("a").day_range(5..7).ranges().unwrap(), &|e| e.tenant == "a" && (5..7).contains(&e.day));
    check(Event::scan().tenant("a").day(6).seq_range(..=-3).ranges().unwrap(), &|e| e.tenant == "a" && e.day == 6);
    check(Event::scan().tenant_starts_with("a").ranges().unwrap(), &|e| e.tenant.starts_with('a'));
    // The same bounds through the format's builder, as code generic over the format gets it.
    let mut scan = ScanFormat::scan(&Tagged, 4);
    KeyScan::prefix(&mut scan, b"ev").unwrap().fix("a").unwrap().fix(&6u32).unwrap();
    check(KeyScan::ranges(&scan), &|e| e.tenant == "a" && e.day == 6);
}

fn spreads() -> impl Strategy<Value = Spread> {
    (edge_strings(), edge_i64(), proptest::option::of(any::<u16>())).prop_map(|(tenant, seq, note)| Spread {
        tenant,
        seq,
        note,
    })
}

#[test]
fn the_schema_names_the_format_and_its_fields() {
    let schema = Event::SCHEMA;
    assert_eq!(schema.format.to_string(), "tagged");
    assert_eq!(schema.prefix, Some(&b"ev"[..]));
    let names: Vec<&str> = schema.fields.iter().map(|f| f.name).collect();
    assert_eq!(names, ["tenant", "day", "seq", "done"]);
    assert_eq!(Event::cmp(&event("a", 1, 1, true), &event("a", 1, 2, false)), Ordering::Less);
}

/// `inspect` reads the struct's values, `encode` of their text gives the key back, and
/// `unsalted` the key after the bucket.
fn inspects_and_encodes_back<T: rowkey::RowKeyOwned + KeySchema>(value: &T, expected: &[(&str, Value)]) {
    let key = value.to_key().unwrap();
    let inspection = T::SCHEMA.inspect(&key).unwrap_or_else(|e| panic!("{e}: {key:?}"));
    let got: Vec<(&str, Value)> = inspection.fields().iter().map(|f| (f.name(), f.value().clone())).collect();
    assert_eq!(got, expected);
    let texts: Vec<(&str, String)> = inspection.fields().iter().map(|f| (f.name(), f.value_text())).collect();
    let pairs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
    assert_eq!(T::SCHEMA.encode(&pairs).unwrap(), key, "{inspection}");
    if T::SCHEMA.salt.is_some() {
        assert_eq!(T::SCHEMA.unsalted(&key).unwrap(), &key[9..], "a bucket is 9 bytes");
    }
}

proptest! {
    #[test]
    fn the_schema_reads_and_writes_the_format_s_keys(e in events(), s in spreads()) {
        let text = |t: &str| Value::Str(t.to_owned());
        inspects_and_encodes_back(&e, &[
            ("prefix", text("ev")),
            ("tenant", text(&e.tenant)),
            ("day", Value::Int(e.day.into())),
            ("seq", Value::Int(e.seq.into())),
            ("done", Value::Bool(e.done)),
        ]);
        let salt = rowkey::salt::Salt::new(8, rowkey::salt::SaltHash::FarmHash).unwrap();
        let bucket = salt.bucket(&(s.tenant.as_str(),)).unwrap();
        inspects_and_encodes_back(&s, &[
            ("bucket", Value::Int(bucket.into())),
            ("tenant", text(&s.tenant)),
            ("seq", Value::Int(s.seq.into())),
            ("note", s.note.map_or(Value::Null, |n| Value::Int(n.into()))),
        ]);
    }

    #[test]
    fn inspect_fails_where_from_key_fails(
        e in events().prop_flat_map(|e| mutations(e.to_key().unwrap().into_vec())),
        s in spreads().prop_flat_map(|s| mutations(s.to_key().unwrap().into_vec())),
    ) {
        agrees_with_from_key::<Event>(&Event::SCHEMA, &e);
        agrees_with_from_key::<Spread>(&Spread::SCHEMA, &s);
    }

    #[test]
    fn schema_scans_are_the_builder_s(a in events(), b in events(), kind in 0u8..9) {
        let (ta, tb) = (texts(&a), texts(&b));
        check(&Event::SCHEMA, &ta, &["tenant"], None, Event::scan().tenant(&a.tenant).ranges())?;
        let (lo, hi) = common::schema_checks::bounds(kind, a.day, b.day);
        check(
            &Event::SCHEMA,
            &ta,
            &["tenant"],
            Some(("day", &tb, kind)),
            Event::scan().tenant(&a.tenant).day_range((lo, hi)).ranges(),
        )?;
    }
}

/// A format that leaves `SCHEMA_FORMAT` at its default is named by its schema, whose readers say what to use.
#[test]
fn a_schema_that_cannot_read_its_format_says_so() {
    use rowkey::schema::{CustomFormat, Format, Schema};

    const LEGACY: Schema = Schema {
        type_name: "Legacy",
        format: Format::Custom(CustomFormat::named("legacy")),
        prefix: None,
        salt: None,
        max_len: 4096,
        fields: &[],
        dynamodb: None,
    };
    assert_eq!(LEGACY.format.to_string(), "legacy");
    let err = LEGACY.inspect(b"\x01\x02").expect_err("not read by the schema");
    assert!(err.to_string().contains("`legacy` format") && err.to_string().contains("from_key"), "{err}");
    assert!(LEGACY.encode(&[]).is_err());
}
