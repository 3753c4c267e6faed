//! A key format defined outside rowkey, with nothing inside rowkey changed for it: a
//! big-endian layout where each field is one tag byte (what the field is) then its bytes,
//! integers at a fixed width of 8 and text escaped and ended. Keys derive in it with
//! `#[rowkey(format = tagged::Tagged)]` and get `to_key`, `from_key`, the scan builder, their
//! schema and the order property tests, as a built-in format's keys do.
//!
//! | field | bytes |
//! |---|---|
//! | unsigned integer `n` | `10`, `n` as 8 bytes big-endian |
//! | signed integer `n` | `11`, `n` as 8 bytes big-endian with the sign bit flipped |
//! | `bool` | `20`, `00` or `01` |
//! | text or bytes | `30`, the bytes with each `00` as `00 ff`, then `00 00` |
//!
//! Cases per property: 256, or `PROPTEST_CASES`.

use std::cmp::Ordering;

use proptest::prelude::*;
use rowkey::format::{FormatKey, KeyFormat};
use rowkey::schema::Format;
use rowkey::testing::{assert_decode_total, assert_order_preserving_with, edge_i64, edge_strings};
use rowkey::{Key, RowKey};
use tagged::Tagged;

/// The format, as a user's crate would write it: the format type, its writer and reader, the
/// values it holds, and how a scan bounds its keys.
mod tagged {
    use std::borrow::Cow;
    use std::ops::Bound;

    use rowkey::field::{Bools, ByteStrings, Ints, ReadField, Sink, Strings, ValueFormat, WriteField};
    use rowkey::format::{KeyFormat, KeyReader, KeyWriter};
    use rowkey::range::KeyRange;
    use rowkey::scan::StoreFormat;
    use rowkey::{Error, Key, Location, Result};

    const UNSIGNED: u8 = 0x10;
    const SIGNED: u8 = 0x11;
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

        fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> TaggedWriter<'a> {
            TaggedWriter { out, index: 0 }
        }

        fn reader<'de>(&self, key: &'de [u8], _: usize) -> Result<TaggedReader<'de>> {
            Ok(TaggedReader { key, pos: 0, index: 0 })
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

        fn prefix(&mut self, prefix: &'static str) -> Result<&mut Self> {
            self.out.extend_from_slice(prefix.as_bytes());
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

        fn word(&mut self, tag: u8, ty: &'static str) -> Result<u64> {
            self.tag(tag, ty)?;
            let bytes =
                self.key.get(self.pos..self.pos + 8).ok_or_else(|| Error::invalid(ty, "the field is not 8 bytes"))?;
            self.pos += 8;
            Ok(u64::from_be_bytes(bytes.try_into().expect("8 bytes")))
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

        fn prefix(&mut self, prefix: &'static str) -> Result<()> {
            if !self.key[self.pos..].starts_with(prefix.as_bytes()) {
                return Err(Error::invalid("prefix", format!("the key does not start with {prefix:?}")).in_field(
                    0,
                    Some("prefix"),
                    self.pos,
                ));
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
    ints! {
        u8: UNSIGNED, u64::from, i128::from;
        u16: UNSIGNED, u64::from, i128::from;
        u32: UNSIGNED, u64::from, i128::from;
        u64: UNSIGNED, u64::from, i128::from;
        i32: SIGNED, |v: i32| i64::from(v).cast_unsigned() ^ SIGN, |w: u64| i128::from((w ^ SIGN).cast_signed());
        i64: SIGNED, |v: i64| v.cast_unsigned() ^ SIGN, |w: u64| i128::from((w ^ SIGN).cast_signed());
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
    let spread = Spread { tenant: "acme".into(), seq: i64::MIN };
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
}

#[test]
fn the_schema_names_the_format_and_its_fields() {
    let schema = Event::SCHEMA;
    assert_eq!(schema.format, Format::Custom("tagged"));
    assert_eq!(schema.prefix, Some("ev"));
    let names: Vec<&str> = schema.fields.iter().map(|f| f.name).collect();
    assert_eq!(names, ["tenant", "day", "seq", "done"]);
    // The schema does not frame a custom format's bytes: it says so, and what to use.
    let key = event("acme", 1, 2, true).to_key().unwrap();
    let err = schema.inspect(&key).expect_err("not read by the schema");
    assert!(err.to_string().contains("`tagged` format") && err.to_string().contains("from_key"), "{err}");
    assert_eq!(Event::cmp(&event("a", 1, 1, true), &event("a", 1, 2, false)), Ordering::Less);
}
