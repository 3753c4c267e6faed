//! Writes the decoder targets' seeds, `fuzz/seeds/<target>/`: keys of the targets' types
//! behind their selector bytes, and keys from the vector files in `tests/data`. The seeds
//! are committed; run this after changing the key types or the seed lists:
//! `cargo run --manifest-path fuzz/Cargo.toml --example seeds`.
//!
//! The structured targets (`roundtrip`, `scan`) read their input through `arbitrary`, where
//! a key is no better a start than any bytes: they start from an empty corpus.

use std::fs;
use std::path::{Path, PathBuf};

fn main() -> std::io::Result<()> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
    let vectors = vector_keys(&fuzz.join("../tests/data"))?;
    let targets: [(&str, Vec<Vec<u8>>); 5] = [
        ("derived", rowkey_fuzz::derived::seeds()),
        ("inspect", rowkey_fuzz::derived::seeds()),
        ("tuples", rowkey_fuzz::tuples::seeds()),
        ("serde", rowkey_fuzz::serde_types::seeds()),
        ("formats", rowkey_fuzz::formats::seeds()),
    ];
    for (target, mut seeds) in targets {
        // The vector keys behind a few selectors each: the decoders meet real keys of other types.
        for (i, key) in vectors.iter().enumerate() {
            seeds.push([&[(i % 7) as u8][..], key].concat());
        }
        write(&fuzz.join("seeds").join(target), &seeds)?;
    }
    Ok(())
}

fn write(dir: &PathBuf, seeds: &[Vec<u8>]) -> std::io::Result<()> {
    // Stale seeds of an earlier list go: the directory is exactly this list.
    if dir.exists() {
        fs::remove_dir_all(dir)?;
    }
    fs::create_dir_all(dir)?;
    for (i, seed) in seeds.iter().enumerate() {
        fs::write(dir.join(format!("seed-{i:03}")), seed)?;
    }
    println!("{}: {} seeds", dir.display(), seeds.len());
    Ok(())
}

/// Hex fields of the vector files' rows, which hold keys (5 from each file).
fn vector_keys(data: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    let mut keys = Vec::new();
    for file in ["orderedcode_go.tsv", "bigtable_struct_encodings.tsv", "rowkey_idioms.tsv", "salting.tsv"] {
        let text = fs::read_to_string(data.join(file))?;
        let rows = text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty());
        let found = rows.flat_map(|line| line.split('\t')).filter_map(hex).take(5);
        keys.extend(found);
    }
    Ok(keys)
}

fn hex(field: &str) -> Option<Vec<u8>> {
    let field = field.trim();
    if field.len() < 2 || !field.len().is_multiple_of(2) || !field.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..field.len()).step_by(2).map(|i| u8::from_str_radix(&field[i..i + 2], 16).ok()).collect()
}
