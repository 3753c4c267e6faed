//! The ordering bugs other key encoders shipped, each pinned here: lengths written beside
//! variable-length fields, an `FF` terminator or an unescaped NUL, integers without a sign flip and
//! floats as raw bits, sequences that sort after their extensions, and signed index bytes.

use rowkey::{Desc, RowKey};

fn key<'a, T: RowKey<'a>>(value: T) -> rowkey::Key {
    value.to_key().unwrap()
}

#[test]
fn a_length_after_a_variable_field_does_not_decide_order() {
    // ordcode, bonsaidb and cw-storage-plus wrote lengths that let the integer outrank the string.
    assert!(key(("ab", 0x6400i64)) < key(("abc", 1i64)));
    assert!(key((b"ab".to_vec(), 0x6400u64)) < key((b"abc".to_vec(), 1u64)));
}

#[test]
fn a_string_sorts_before_its_extensions() {
    // An 0xFF terminator puts "abc" after "abcd".
    assert!(key(("abc",)) < key(("abcd",)));
    assert!(key(("abc", 0u8)) < key(("abcd", 0u8)));
    assert!(key((Desc("abcd"),)) < key((Desc("abc"),)));
}

#[test]
fn an_embedded_nul_does_not_end_the_field() {
    // An unescaped NUL terminator lets ("a", 5) sort after ("a\0", 0).
    assert!(key(("a", 5i64)) < key(("a\0", 0i64)));
    assert!(key((b"a".to_vec(), 5i64)) < key((b"a\0".to_vec(), 0i64)));
    assert!(key(("a\0", 0i64)) < key(("a\0\0", 0i64)));
}

#[test]
fn negative_numbers_sort_before_positive_ones() {
    // Two's complement without a sign flip, and floats as raw bits, put negatives last.
    let ints = [i64::MIN, -65, -64, -1, 0, 1, 63, 64, i64::MAX];
    for pair in ints.windows(2) {
        assert!(key((pair[0],)) < key((pair[1],)), "{pair:?}");
    }
    let floats = [f64::NEG_INFINITY, -1e300, -1.0, -f64::MIN_POSITIVE, 0.0, 5e-324, 1.0, f64::INFINITY];
    for pair in floats.windows(2) {
        assert!(key((pair[0],)) < key((pair[1],)), "{pair:?}");
    }
}

#[test]
fn a_sequence_sorts_before_its_extensions() {
    assert!(key((vec![1u8],)) < key((vec![1u8, 0],)));
    assert!(key((vec![1u8, 0],)) < key((vec![2u8],)));
    assert!(key((vec![1u8], 9u8)) < key((vec![1u8, 0], 0u8)));
}

#[test]
fn enum_like_indexes_past_127_sort_after_small_ones() {
    // A signed byte for an index puts 128 before 1.
    for (small, large) in [(1u32, 128u32), (127, 128), (255, 256), (1, 70_000)] {
        assert!(key((small,)) < key((large,)), "{small} < {large}");
    }
}
