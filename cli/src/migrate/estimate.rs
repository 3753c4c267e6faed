//! How many rows the old table holds, as `migrate plan --source` prints it: counted when the
//! table is small, else estimated from the bytes its key sample puts before each key.

use rowkey::bigtable::{Error, ReadOptions, SampledKey, Table};
use rowkey::{KeyRange, KeyRanges};

/// Keys read a request.
const PAGE: u64 = 10_000;

/// The rows of `table`: counted (keys only) when there are at most `limit`, else the rows
/// counted before a sample key scaled by the bytes before it against the table's bytes.
///
/// Each sample key counted past gives an estimate of its own; the one from the most rows is
/// printed, with the spread of the others, which shows how far the rows' sizes vary.
pub async fn rows(table: &Table, sample: &[SampledKey], limit: u64) -> Result<String, Error> {
    let total = sample.iter().map(|s| s.offset_bytes).max().unwrap_or(0);
    // Sample keys with bytes before them, in key order; the empty key that ends Bigtable's
    // sample stands for the end of the table, past every row.
    let points: Vec<&SampledKey> = sample.iter().filter(|s| !s.key.is_empty() && s.offset_bytes > 0).collect();
    let mut passed: Vec<(u64, u64)> = Vec::new(); // (rows before the key, bytes before it)
    let mut rows = 0u64;
    let mut ranges: KeyRanges = KeyRange::all().into();
    'pages: loop {
        let page = table.read_rows(&ranges, &ReadOptions::new().keys_only().limit(PAGE)).await?;
        let full = page.len() as u64 == PAGE;
        for row in &page {
            while let Some(point) = points.get(passed.len()).filter(|point| point.key <= row.key) {
                passed.push((rows, point.offset_bytes));
            }
            rows += 1;
            // Past the limit, read on only to the first sample key, so that there is a count
            // to scale (a piece of the table, which the sample keeps small).
            if rows > limit && (!passed.is_empty() || passed.len() == points.len()) {
                break 'pages;
            }
        }
        match page.last() {
            Some(last) if full => ranges = ranges.after(&last.key),
            _ => break,
        }
    }
    if rows <= limit {
        return Ok(format!("{rows} (counted)"));
    }
    let estimates: Vec<(u64, u64, u64)> = passed
        .iter()
        .filter(|(before, _)| *before > 0)
        .map(|&(before, bytes)| {
            let scaled = u128::from(before) * u128::from(total) / u128::from(bytes);
            (before, bytes, u64::try_from(scaled).unwrap_or(u64::MAX))
        })
        .collect();
    let Some(&(before, bytes, estimate)) = estimates.last() else {
        return Ok(format!(
            "more than {limit} (counting stopped there, and the table's sample has no key with bytes before it to \
             scale by; raise --count-limit to count them all)"
        ));
    };
    let low = estimates.iter().map(|e| e.2).min().unwrap_or(estimate);
    let high = estimates.iter().map(|e| e.2).max().unwrap_or(estimate);
    let spread = if estimates.len() > 1 {
        format!("the {} sample keys counted past give {low} to {high}", estimates.len())
    } else {
        "one sample key counted past, so no spread to show".to_owned()
    };
    Ok(format!(
        "about {estimate}, estimated: {before} rows lie before a sample key at {bytes} of the table's {total} bytes, \
         scaled to the whole; as rough as the rows' sizes vary across the table ({spread}); raise --count-limit to \
         count them"
    ))
}
