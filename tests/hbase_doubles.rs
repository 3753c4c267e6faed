//! A double as HBase's `OrderedNumeric` (`Numeric<f64>`): HBase encodes the digits of Java's
//! `Double.toString`, which changed in JDK 19. rowkey writes the digits of JDK 19 and later,
//! and reads exactly two forms of a double: those, and the digits JDK 18 and older wrote for
//! the same double (`jdk18_bytes`); no other decimal, however close.
//!
//! `hbase_double_digits.tsv` holds both JDKs' digits for the same doubles (made by running
//! `tests/data/HBaseDoubleDigits.java` on JDK 17 and JDK 25). The bytes of a row's digits are
//! made here by an encoder of the test's own, from the decimal text.

mod common;

use common::{data, hex, rows, to_hex};
use proptest::prelude::*;
use rowkey::Desc;
use rowkey::field::Numeric;
use rowkey::format::HBase;
use rowkey::format::hbase::numeric::jdk18_bytes;

/// The significant digits of a decimal text (`4.9E-324`, `1.0`, `123.5`) and its point: the
/// value is `0.DIGITS × 10^point`.
fn decimal(text: &str) -> (Vec<u8>, i64) {
    let (mantissa, exp) = text.split_once(['E', 'e']).unwrap_or((text, "0"));
    let exp: i64 = exp.parse().unwrap();
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let lead = all.iter().position(|&d| d != 0).expect("a non-zero decimal");
    let end = all.iter().rposition(|&d| d != 0).unwrap() + 1;
    (all[lead..end].to_vec(), int.len() as i64 - lead as i64 + exp)
}

/// SQLite 4's varuint, as `OrderedNumeric` writes its exponents.
fn varuint(v: u64) -> Vec<u8> {
    match v {
        0..=240 => vec![v as u8],
        241..=2287 => vec![((v - 240) / 256 + 241) as u8, ((v - 240) % 256) as u8],
        2288..=67823 => vec![249, ((v - 2288) / 256) as u8, ((v - 2288) % 256) as u8],
        _ => unreachable!("no double's exponent is this large"),
    }
}

/// The `OrderedNumeric` bytes (ascending) of a positive or negative decimal.
fn numeric_bytes(negative: bool, text: &str) -> Vec<u8> {
    let (mut digits, mut point) = decimal(text);
    // Pair the digits from the point: an odd point takes a leading zero.
    if point.rem_euclid(2) == 1 {
        digits.insert(0, 0);
        point += 1;
    }
    if digits.len() % 2 == 1 {
        digits.push(0);
    }
    let centimal: Vec<u8> = digits.chunks(2).map(|p| p[0] * 10 + p[1]).collect();
    let e = point / 2;
    let mut out = Vec::new();
    let invert = |v: Vec<u8>| v.into_iter().map(|b| !b).collect::<Vec<u8>>();
    match (negative, e) {
        (false, e) if e <= 0 => {
            out.push(0x16);
            out.extend(invert(varuint(e.unsigned_abs())));
        }
        (false, 1..=10) => out.push(0x17 + e as u8),
        (false, _) => {
            out.push(0x22);
            out.extend(varuint(e as u64));
        }
        (true, e) if e <= 0 => {
            out.push(0x14);
            out.extend(varuint(e.unsigned_abs()));
        }
        (true, 1..=10) => out.push(0x13 - e as u8),
        (true, _) => {
            out.push(0x08);
            out.extend(invert(varuint(e as u64)));
        }
    }
    let last = centimal.len() - 1;
    for (i, d) in centimal.iter().enumerate() {
        let byte = if i == last { 2 * d } else { 2 * d + 1 };
        out.push(if negative { !byte } else { byte });
    }
    out
}

fn read(bytes: &[u8]) -> rowkey::Result<f64> {
    HBase.from_key::<(Numeric<f64>,)>(bytes).map(|(Numeric(v),)| v)
}

fn read_desc(bytes: &[u8]) -> rowkey::Result<f64> {
    let inverted: Vec<u8> = bytes.iter().map(|b| !b).collect();
    HBase.from_key::<(Desc<Numeric<f64>>,)>(&inverted).map(|(Desc(Numeric(v)),)| v)
}

/// Every row, both signs: rowkey writes JDK 25's digits and reads them and JDK 17's back to
/// the double, both orders.
#[test]
fn every_double_row() {
    let mut checked = 0;
    let mut older = 0;
    for (line, f) in rows(&data("hbase_double_digits.tsv")) {
        let bits = u64::from_str_radix(&f[0], 16).unwrap_or_else(|e| panic!("{line}: {e}"));
        // Both signs of the magnitude: Java writes a negative double as its magnitude's digits.
        let (jdk17, jdk25) = (f[1].trim_start_matches('-'), f[2].trim_start_matches('-'));
        let magnitude = f64::from_bits(bits).abs();
        for negative in [false, true] {
            let value = if negative { -magnitude } else { magnitude };
            let want = numeric_bytes(negative, jdk25);
            let key = HBase.to_key(&(Numeric(value),)).unwrap();
            assert_eq!(to_hex(key.as_bytes()), to_hex(&want), "{line} ({value:e}): writes JDK 25's digits");
            // The older form, made by rowkey: JDK 17's digits, or none where they are JDK 25's.
            let older = jdk18_bytes(value).map(|b| to_hex(&b));
            let jdk17_bytes = to_hex(&numeric_bytes(negative, jdk17));
            let expected_older = (decimal(jdk17) != decimal(jdk25)).then_some(jdk17_bytes);
            assert_eq!(older, expected_older, "{line} ({value:e}): the digits JDK 17 wrote");
            for (text, what) in [(jdk25, "JDK 25"), (jdk17, "JDK 17")] {
                let bytes = numeric_bytes(negative, text);
                let back = read(&bytes).unwrap_or_else(|e| panic!("{line}: {what}'s bytes refused: {e}"));
                assert_eq!(back.to_bits(), value.to_bits(), "{line}: {what}'s bytes read as {back:e}");
                let back = read_desc(&bytes).unwrap_or_else(|e| panic!("{line}: {what}'s bytes refused: {e}"));
                assert_eq!(back.to_bits(), value.to_bits(), "{line}: {what}'s descending bytes read as {back:e}");
            }
        }
        older += usize::from(decimal(jdk17) != decimal(jdk25));
        checked += 1;
    }
    assert!(checked > 2500 && older > 900, "{checked} rows, {older} where the JDKs differ");
}

/// The bytes HBase wrote for the cases of the report, on JDK 17 and on a current JDK.
#[test]
fn the_reported_doubles() {
    let cases: [(f64, &str, &str); 3] = [
        // 83921203583632.625, a tie between two shortest decimals: Java takes the even digit.
        (f64::from_bits(0x42d3_14db_61d6_a428), "1ea7b919077549417c", "1ea7b919077549417c"),
        // The smallest subnormal: two digits, 4.9E-324.
        (5e-324, "165e09b4", "165e09b4"),
        // 1e23 on JDK 17 is 9.999999999999999E22; on JDK 19 and later, 1.0E23.
        (1e23, "220c13c7c7c7c7c7c7c7b4", "220c14"),
    ];
    for (value, jdk17, current) in cases {
        let key = HBase.to_key(&(Numeric(value),)).unwrap();
        assert_eq!(to_hex(key.as_bytes()), current, "{value:e}");
        for bytes in [jdk17, current] {
            assert_eq!(read(&hex(bytes)).unwrap().to_bits(), value.to_bits(), "{bytes}");
        }
    }
}

/// The second form is exactly JDK 18's digits for the double: a decimal as close or closer,
/// with as many digits or fewer, is refused; so are decimals that overflow or underflow.
#[test]
fn other_decimals_are_refused() {
    // 1e23: JDK 19's 1.0E23 and JDK 17's 9.999999999999999E22 are read, 9.9999999999999992E22
    // (17 digits, also rounding to 1e23) is not.
    for text in ["1.0E23", "9.999999999999999E22"] {
        assert_eq!(read(&numeric_bytes(false, text)).unwrap(), 1e23, "{text}");
    }
    let err = read(&numeric_bytes(false, "9.9999999999999992E22")).unwrap_err();
    assert!(err.to_string().contains("JDK 18 and older"), "{err}");
    // 0.1 with 18 digits rounds to 0.1, but no JDK wrote it.
    assert!(read(&numeric_bytes(false, "0.100000000000000001")).is_err());
    // 1e-400 rounds to zero and 1e400 to infinity: HBase writes those as 15 and 23.
    assert!(read(&numeric_bytes(false, "1e-400")).is_err());
    assert!(read(&numeric_bytes(true, "1e400")).is_err());
    // A trailing zero digit is no decimal's shortest centimal form, from any JDK.
    assert!(read(&[0x18, 0x03, 0x00]).is_err());
}

/// The decimal that Java's `Double.toString` specification (JDK 19) picks, by brute force:
/// try each length n from 1, the n-digit decimal nearest to the double (Rust's `{:.Ne}`
/// formatting is exact, ties to even) and its two neighbours, keeping those that parse back to
/// the double (parsing rounds to nearest, ties to even, as R is defined).
fn reference(value: f64) -> String {
    /// The n-digit decimals next to `m × 10^e` (m of n digits).
    fn around(m: u64, e: i32, n: u32) -> [(u64, i32); 3] {
        let low = 10u64.pow(n - 1);
        let down = if m == low { (10 * low - 1, e - 1) } else { (m - 1, e) };
        let up = if m + 1 == 10 * low { (low, e + 1) } else { (m + 1, e) };
        [down, (m, e), up]
    }
    let in_r = |m: u64, e: i32| format!("{m}e{e}").parse::<f64>().unwrap() == value;
    let candidates = |n: u32| -> Vec<(u64, i32)> {
        let text = format!("{:.*e}", n as usize - 1, value);
        let (mantissa, exp) = text.split_once('e').unwrap();
        let m: u64 = mantissa.replace('.', "").parse().unwrap();
        let e = exp.parse::<i32>().unwrap() - (n as i32 - 1);
        around(m, e, n).into_iter().filter(|&(m, e)| in_r(m, e)).collect()
    };
    let m = (1..=17).find(|&n| !candidates(n).is_empty()).expect("17 digits always suffice");
    let n = if m == 1 { 2 } else { m };
    let nearest = {
        let text = format!("{:.*e}", n as usize - 1, value);
        let (mantissa, exp) = text.split_once('e').unwrap();
        (mantissa.replace('.', "").parse::<u64>().unwrap(), exp.parse::<i32>().unwrap() - (n as i32 - 1))
    };
    // The nearest n-digit decimal is the closest of T when it is in R; when it is not, the
    // interval stops short of it on its side, and only the neighbour on the other side can be.
    let pick = candidates(n);
    let (m, e) = if pick.contains(&nearest) { nearest } else { pick[0] };
    format!("{m}e{e}")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    #[test]
    fn writes_the_specifications_digits(value in prop_oneof![
        any::<u64>().prop_map(|b| f64::from_bits(b & !(1 << 63))),
        (1u64..1 << 52).prop_map(f64::from_bits),
        // Dyadic values of 16 to 20 digits: ties between two shortest decimals happen here.
        ((1u64 << 52)..(1 << 53), 1u32..12).prop_map(|(a, b)| a as f64 / f64::from(1u32 << b)),
        (-1074i32..1024).prop_map(|e| 2f64.powi(e)),
        (-323i32..309).prop_map(|e| format!("1e{e}").parse::<f64>().unwrap()),
    ]) {
        prop_assume!(value.is_finite() && value != 0.0);
        let want = numeric_bytes(false, &reference(value));
        let key = HBase.to_key(&(Numeric(value),)).unwrap();
        prop_assert_eq!(to_hex(key.as_bytes()), to_hex(&want), "{:e}: the specification's {}", value, reference(value));
        prop_assert_eq!(read(key.as_bytes()).unwrap().to_bits(), value.to_bits());
    }

    /// One double, two keys at most: a decimal of up to 18 significant digits reads back only
    /// when its bytes are the key rowkey writes for the double it rounds to, or that double's
    /// `jdk18_bytes`; then as that double, in both orders.
    #[test]
    fn reads_a_decimal_only_in_the_two_forms(m in 1u64..1_000_000_000_000_000_000, e in -340i32..300, negative in any::<bool>()) {
        let text = format!("{m}e{e}");
        let magnitude: f64 = text.parse().unwrap();
        let bytes = numeric_bytes(negative, &text);
        let value = if negative { -magnitude } else { magnitude };
        let got = if negative { read_desc(&bytes) } else { read(&bytes) };
        // The key the descending read sees is the ascending bytes inverted: compare in one order.
        let current = HBase.to_key(&(Numeric(value),)).unwrap().as_bytes().to_vec();
        let older = jdk18_bytes(value);
        let one_of_two = magnitude.is_finite() && magnitude != 0.0 && (bytes == current || older.as_ref() == Some(&bytes));
        prop_assert_eq!(got.is_ok(), one_of_two, "{} read as {:?}", text, got);
        if let Ok(back) = got {
            prop_assert_eq!(back.to_bits(), value.to_bits());
        }
    }

    /// Both forms of random doubles read back as the double, and differ when both exist.
    #[test]
    fn both_forms_of_any_double_read_back(bits in any::<u64>()) {
        let value = f64::from_bits(bits);
        prop_assume!(value.is_finite() && value != 0.0);
        let key = HBase.to_key(&(Numeric(value),)).unwrap();
        prop_assert_eq!(read(key.as_bytes()).unwrap().to_bits(), value.to_bits());
        if let Some(older) = jdk18_bytes(value) {
            prop_assert_ne!(&older[..], key.as_bytes());
            prop_assert_eq!(read(&older).unwrap().to_bits(), value.to_bits());
        }
    }
}

/// Every double a running JDK 18 or older printed, from `ROWKEY_JDK_DIGITS`: a file of
/// `bits<TAB>Double.toString` lines that `.ci/run` makes with `tests/data/HBaseDoubleDigits.java`
/// when a JDK 17 is installed (millions of doubles, against the vector file's thousands).
/// Without the variable there is nothing to compare, and it says so.
#[test]
fn jdk18_digits_match_a_running_jdk() {
    let Ok(path) = std::env::var("ROWKEY_JDK_DIGITS") else {
        eprintln!("ROWKEY_JDK_DIGITS is not set: no JDK output to compare with");
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut checked = 0;
    for line in text.lines() {
        let (bits, printed) = line.split_once('\t').unwrap_or_else(|| panic!("{path}: not bits<TAB>digits: {line}"));
        let magnitude = f64::from_bits(u64::from_str_radix(bits, 16).unwrap()).abs();
        if !magnitude.is_finite() || magnitude == 0.0 {
            continue;
        }
        let want = to_hex(&numeric_bytes(false, printed.trim_start_matches('-')));
        let current = HBase.to_key(&(Numeric(magnitude),)).unwrap();
        let older = jdk18_bytes(magnitude).map_or_else(|| to_hex(current.as_bytes()), |b| to_hex(&b));
        assert_eq!(older, want, "{line}: rowkey's JDK 18 digits are not the JDK's");
        checked += 1;
    }
    assert!(checked > 0, "{path} holds no double");
    eprintln!("{checked} doubles as the JDK printed them");
}
