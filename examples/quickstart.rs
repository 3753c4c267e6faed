//! Encodes, decodes and sorts a few row keys, printing them as Bigtable tools show keys.
//!
//! `cargo run --example quickstart`

use rowkey::{Desc, Key, RowKey};

fn main() -> rowkey::Result<()> {
    // The device key of Bigtable's schema guide: type, id, then time, newest first.
    let readings = [
        ("phone", "4c410523", 1_588_291_200_000i64),
        ("phone", "4c410523", 1_588_291_260_000),
        ("phone", "4c4105", 1_588_291_200_000),
        ("tablet", "a0b81f74", 1_588_291_200_000),
        ("phone", "4c410523\0", 1_588_291_100_000),
    ];

    let mut keys: Vec<(Key, _)> = Vec::new();
    for (kind, id, millis) in readings {
        let key = (kind, id, Desc(millis)).to_key()?;
        keys.push((key, (kind, id, millis)));
    }

    // A store keeps rows sorted by key bytes: this is the order a scan returns them in.
    keys.sort();
    println!("{:<62} decoded", "key (as cbt prints it)");
    for (key, _) in &keys {
        let (kind, id, Desc(millis)) = <(&str, String, Desc<i64>)>::from_key(key)?;
        println!("{:<62} {kind} / {id:?} / {millis}", key.to_string());
    }

    // Shorter ids sort before longer ones that extend them, and the newest reading comes
    // first within one device.
    let first = <(String, String, Desc<i64>)>::from_key(&keys[0].0)?;
    assert_eq!((first.1.as_str(), first.2.0), ("4c4105", 1_588_291_200_000));

    // Bad bytes are an error that says where, never a panic.
    let err = <(String, String, Desc<i64>)>::from_key(b"phone\x00\x01oops").unwrap_err();
    println!("\ndecoding a truncated key: {err}");
    Ok(())
}
