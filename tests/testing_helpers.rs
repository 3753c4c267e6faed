//! `rowkey::testing` against deliberately broken key designs: each helper must catch its
//! bug with a useful counterexample, and pass the correct designs.

use std::panic::{AssertUnwindSafe, catch_unwind};

use proptest::prelude::*;
use rowkey::format::Delimited;
use rowkey::scan::{DelimitedScan, OrderedScan};
use rowkey::testing::{
    assert_decode_total, assert_order_preserving, assert_order_preserving_with, assert_prefix_isolated,
    assert_scan_exact, edge_i64, edge_strings,
};
use rowkey::{Desc, Error, Key, KeyRange, KeyRanges, RowKey};

/// Runs a helper that must fail, and returns its panic message.
fn failure(helper: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(helper)).expect_err("the helper must reject this design");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap()
}

/// A `format!` key with unpadded numbers: `"10" < "9"`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Unpadded(u32);

impl RowKey<'_> for Unpadded {
    fn encode_into(&self, out: &mut Key) -> rowkey::Result<()> {
        out.clear();
        out.extend_from_slice(self.0.to_string().as_bytes());
        Ok(())
    }

    fn from_key(bytes: &[u8]) -> rowkey::Result<Self> {
        let text =
            std::str::from_utf8(bytes).map_err(|_| Error::Truncated { at: Default::default(), detail: "utf8" })?;
        text.parse().map(Unpadded).map_err(|_| Error::Truncated { at: Default::default(), detail: "number" })
    }
}

/// An `i64` as `to_be_bytes`: negative values sort after positive ones.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RawBigEndian(i64);

impl RowKey<'_> for RawBigEndian {
    fn encode_into(&self, out: &mut Key) -> rowkey::Result<()> {
        out.clear();
        out.extend_from_slice(&self.0.to_be_bytes());
        Ok(())
    }

    fn from_key(bytes: &[u8]) -> rowkey::Result<Self> {
        let raw: [u8; 8] =
            bytes.try_into().map_err(|_| Error::Truncated { at: Default::default(), detail: "8 bytes" })?;
        Ok(RawBigEndian(i64::from_be_bytes(raw)))
    }
}

/// A decoder that indexes into its input without looking.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Careless(u8);

impl RowKey<'_> for Careless {
    fn encode_into(&self, out: &mut Key) -> rowkey::Result<()> {
        out.clear();
        out.push(self.0);
        Ok(())
    }

    fn from_key(bytes: &[u8]) -> rowkey::Result<Self> {
        Ok(Careless(bytes[0]))
    }
}

/// `format!("{tenant}#{id}")`: nothing stops a `#` inside the tenant.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Formatted(String, String);

impl RowKey<'_> for Formatted {
    fn encode_into(&self, out: &mut Key) -> rowkey::Result<()> {
        *out = Key::from(format!("{}#{}", self.0, self.1).as_str());
        Ok(())
    }

    fn from_key(bytes: &[u8]) -> rowkey::Result<Self> {
        let text = String::from_utf8_lossy(bytes);
        let (a, b) = text.split_once('#').ok_or(Error::Truncated { at: Default::default(), detail: "#" })?;
        Ok(Formatted(a.to_owned(), b.to_owned()))
    }
}

/// A tenant key in the delimited format, as `#[rowkey(delimited = "#")]` derives it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Hashed(String, String);

impl<'de> RowKey<'de> for Hashed {
    fn encode_into(&self, out: &mut Key) -> rowkey::Result<()> {
        Delimited::default().encode_into(&(self.0.as_str(), self.1.as_str()), out)
    }

    fn from_key(bytes: &'de [u8]) -> rowkey::Result<Self> {
        Delimited::default().from_key::<(String, String)>(bytes).map(|(a, b)| Hashed(a, b))
    }
}

#[test]
fn order_catches_unpadded_numbers_and_raw_big_endian() {
    let message = failure(|| {
        assert_order_preserving_with(any::<(u32, u32)>().prop_map(|(a, b)| (Unpadded(a), Unpadded(b))), Unpadded::cmp)
    });
    assert!(message.contains("key order differs from value order"), "{message}");
    assert!(message.contains("key(a) = ") && message.contains("minimal failing input"), "{message}");

    let message = failure(|| {
        assert_order_preserving_with(
            (edge_i64(), edge_i64()).prop_map(|(a, b)| (RawBigEndian(a), RawBigEndian(b))),
            RawBigEndian::cmp,
        );
    });
    assert!(message.contains("key order differs"), "{message}");
}

#[test]
fn order_passes_correct_designs() {
    assert_order_preserving::<(String, u32, Desc<i64>)>();
    assert_order_preserving::<(Option<Vec<u8>>, bool, i8)>();
}

#[test]
fn decode_total_catches_a_panicking_decoder() {
    let message = failure(assert_decode_total::<Careless>);
    assert!(message.contains("from_key panicked on"), "{message}");
    assert_decode_total::<(String, Desc<String>, u64)>();
}

#[test]
fn isolation_catches_a_delimiter_inside_a_tenant() {
    // Tenants from `a` and `#` alone: pairs like `a` and `a#a` come up in almost every run
    // of 256 cases, so the helper reliably meets the collision it must report.
    let keys = ("[a#]{1,3}", "[a-z]{1,3}").prop_map(|(t, id)| Formatted(t, id));
    let message = failure(|| {
        assert_prefix_isolated(
            keys,
            |k: &Formatted| k.0.clone(),
            |tenant: &String| Ok(KeyRanges::from(KeyRange::prefix(format!("{tenant}#").as_bytes()))),
        );
    });
    assert!(message.contains("falls inside the ranges of") || message.contains("outside its own"), "{message}");
}

#[test]
fn isolation_passes_the_delimited_and_ordered_formats() {
    assert_prefix_isolated(
        (edge_strings(), edge_strings()),
        |k: &(String, String)| k.0.clone(),
        |tenant: &String| {
            let mut scan = OrderedScan::new(2);
            scan.fix(tenant.as_str())?;
            Ok(scan.ranges())
        },
    );
    // The delimited format refuses tenants that hold the delimiter, so generate valid ones.
    let hash = Delimited::default();
    assert_prefix_isolated(
        ("[$-&a-c]{0,4}", "[a-c]{0,3}").prop_map(|(t, id)| Hashed(t, id)),
        |k: &Hashed| k.0.clone(),
        |tenant: &String| {
            let mut scan = DelimitedScan::new(&hash, 2);
            scan.fix(tenant.as_str())?;
            Ok(scan.ranges())
        },
    );
}

#[test]
fn scan_exact_catches_a_prefix_that_matches_longer_values() {
    // `user1` as a byte prefix also returns `user10`'s rows.
    let message = failure(|| {
        assert_scan_exact(
            // Single-digit queries against mostly two-digit users: `user1` meets `user10`
            // in most cases, so the helper reliably sees the bug.
            prop::collection::vec(("user[0-9]{1,2}", "[a-z]{1,2}").prop_map(|(u, p)| Formatted(u, p)), 10..40),
            "user[0-9]",
            |user: &String| Ok(KeyRanges::from(KeyRange::prefix(user.as_bytes()))),
            |user: &String, row: &Formatted| row.0 == *user,
        );
    });
    assert!(message.contains("returned but not matching"), "{message}");
}

#[test]
fn scan_exact_passes_field_aligned_bounds() {
    assert_scan_exact(
        prop::collection::vec(("user[0-9]{1,2}", edge_strings()), 0..40),
        "user[0-9]{1,2}",
        |user: &String| {
            let mut scan = OrderedScan::new(2);
            scan.fix(user.as_str())?;
            Ok(scan.ranges())
        },
        |user: &String, row: &(String, String)| row.0 == *user,
    );
}
