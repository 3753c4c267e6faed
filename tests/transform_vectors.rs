//! Checks the transforms against the shared vectors in `tests/data/`.

use rowkey::transform::{
    bit_reverse, bit_reverse_u64, reverse_domain, reverse_timestamp, unreverse_domain, unreverse_timestamp,
};

const SPANNER: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/spanner_bit_reverse.tsv"));
const IDIOMS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rowkey_idioms.tsv"));

/// The data lines of a vector file, split on tabs; `#` lines are comments.
fn rows(file: &str) -> impl Iterator<Item = (&str, Vec<&str>)> {
    file.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| (line, line.split('\t').collect()))
}

fn parse<T: std::str::FromStr>(text: &str, row: &str) -> T {
    text.parse().unwrap_or_else(|_| panic!("cannot parse {text:?} in row {row:?}"))
}

#[test]
fn spanner_bit_reverse_every_row() {
    let (mut plain, mut sequence) = (0, 0);
    for (row, cols) in rows(SPANNER) {
        let [input, preserve, result, hex] = cols[..] else {
            panic!("expected 4 columns in row {row:?}");
        };
        let preserve_sign: bool = parse(preserve, row);
        let expected: i64 = parse(result, row);
        assert_eq!(format!("{:016x}", expected.cast_unsigned()), hex, "the row's own columns disagree: {row:?}");

        let input: i64 = if let Some(counter) = input.strip_prefix("seq_counter=") {
            // The header: value_n = BIT_REVERSE(counter_n, true), the counter starting at 1
            // and counting up by one, and every value positive.
            let counter: i64 = parse(counter, row);
            sequence += 1;
            assert_eq!(counter, sequence, "sequence rows out of order: {row:?}");
            assert!(preserve_sign, "a sequence row without preserve_sign: {row:?}");
            assert!(expected > 0, "a sequence value must be positive: {row:?}");
            counter
        } else {
            plain += 1;
            parse(input, row)
        };

        let got = bit_reverse(input, preserve_sign);
        assert_eq!(got, expected, "bit_reverse({input}, {preserve_sign}) in row {row:?}");
        assert_eq!(bit_reverse(got, preserve_sign), input, "not an involution at row {row:?}");
        if !preserve_sign {
            // Without the sign bit it is the plain 64-bit reversal.
            assert_eq!(bit_reverse_u64(input.cast_unsigned()), expected.cast_unsigned(), "row {row:?}");
        }
    }
    assert_eq!((plain, sequence), (40, 16), "rows checked (plain, sequence)");
}

#[test]
fn rowkey_idioms_reversed_timestamps_and_domains() {
    let (mut timestamps, mut domains, mut skipped_u32) = (0, 0, 0);
    for (row, cols) in rows(IDIOMS) {
        let [idiom, input, result] = cols[..] else {
            panic!("expected 3 columns in row {row:?}");
        };
        match idiom {
            "reverse_ts_decimal19" | "reverse_ts_java_long_be8" => {
                let ts =
                    input.strip_prefix("Long.MAX_VALUE-").unwrap_or_else(|| panic!("unexpected input in row {row:?}"));
                let ts: i64 = parse(ts, row);
                let reversed = reverse_timestamp(ts).unwrap_or_else(|e| panic!("{e} in row {row:?}"));
                let text = if idiom == "reverse_ts_decimal19" {
                    format!("{reversed:019}")
                } else {
                    // Java's DataOutput.writeLong: 8 bytes, big-endian; the row adds the value.
                    let hex = format!("{:016x}", reversed.cast_unsigned());
                    format!("{hex} (={reversed})")
                };
                assert_eq!(text, result, "reverse_timestamp({ts}) in row {row:?}");
                assert_eq!(unreverse_timestamp(reversed), Ok(ts), "row {row:?}");
                timestamps += 1;
            }
            "reversed_domain" => {
                let got = reverse_domain(input).unwrap_or_else(|e| panic!("{e} in row {row:?}"));
                assert_eq!(got, result, "reverse_domain in row {row:?}");
                let back = unreverse_domain(result).unwrap_or_else(|e| panic!("{e} in row {row:?}"));
                assert_eq!(back, input, "unreverse_domain in row {row:?}");
                domains += 1;
            }
            // `u32::MAX - secs` is the idiom for a 4-byte seconds field. No transform here
            // computes it (reverse_timestamp is the i64 one); checking the row with the same
            // subtraction in this file would only test the file against itself.
            "reverse_ts_2^32-1_minus_secs_be4" => skipped_u32 += 1,
            // Zero padding, sign flips and float order belong to the field encodings.
            _ => {}
        }
    }
    assert_eq!(
        (timestamps, domains, skipped_u32),
        (10, 3, 2),
        "rows seen (reversed timestamps, reversed domains, u32 rows left unchecked)"
    );
}
