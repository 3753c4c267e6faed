//! The derived key types the decoder targets read, chosen by a selector byte: every scenario
//! key of the crate's tests, the keys of every field type in both Bigtable formats, the
//! store-format keys, and two small ones of this crate's own whose few fields the fuzzer can
//! get through quickly.

use rowkey::RowKey;

use crate::checks::KeyCheck;
use crate::keys::{
    DeviceReading, EveryField, EveryText, Monitor, OrderedReading, Reading, Shard, ShardText, TenantReading, WebPage,
    WebPageMicros,
};
use crate::stores::{FdbReading, HBaseVisit, McPlace, McReading};
use crate::typed::{Audit, ByUser, Machine, MachineMetric, MachineMetricOrdered, Order, Readable, Typed};

/// The field types whose decoders accept only part of their encoding's bytes, behind a length
/// limit a key can exceed.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(max_len = 20)]
pub struct Tiny {
    pub c: char,
    pub x: f32,
    pub a: [u8; 3],
    #[rowkey(desc)]
    pub d: Option<char>,
}

/// The text counterpart, with a two-byte delimiter.
#[derive(RowKey, Clone, Debug, PartialEq)]
#[rowkey(delimited = "!!", max_len = 24, salt(buckets = 10, from = [n], hash = "modulo"))]
pub struct TinyText {
    pub c: Option<char>,
    #[rowkey(hex)]
    pub a: [u8; 2],
    #[rowkey(width = 4)]
    pub n: i16,
    pub s: String,
}

/// How many types [`with_derived`] chooses from.
pub const COUNT: u8 = 24;

/// Runs `check` on `bytes` as a key of the type `selector` names (modulo [`COUNT`]).
pub fn with_derived(selector: u8, bytes: &[u8], check: &impl KeyCheck) {
    match selector % COUNT {
        0 => check.check::<Reading>(bytes),
        1 => check.check::<OrderedReading>(bytes),
        2 => check.check::<DeviceReading>(bytes),
        3 => check.check::<TenantReading>(bytes),
        4 => check.check::<WebPage>(bytes),
        5 => check.check::<WebPageMicros>(bytes),
        6 => check.check::<Monitor>(bytes),
        7 => check.check::<Shard>(bytes),
        8 => check.check::<ShardText>(bytes),
        9 => check.check::<EveryField>(bytes),
        10 => check.check::<EveryText>(bytes),
        11 => check.check::<ByUser>(bytes),
        12 => check.check::<Typed>(bytes),
        13 => check.check::<Readable>(bytes),
        14 => check.check::<Audit>(bytes),
        15 => check.check::<Machine>(bytes),
        16 => check.check::<Order>(bytes),
        17 => check.check::<MachineMetric>(bytes),
        18 => check.check::<MachineMetricOrdered>(bytes),
        19 => check.check::<Tiny>(bytes),
        20 => check.check::<TinyText>(bytes),
        21 => check.check::<FdbReading>(bytes),
        22 => check.check::<McReading>(bytes),
        _ => check.check::<HBaseVisit>(bytes),
    }
}

/// Keys of each type to start from, each behind its selector byte.
pub fn seeds() -> Vec<Vec<u8>> {
    let mut keys: Vec<(u8, rowkey::Result<rowkey::Key>)> = Vec::new();
    for n in [0u32, 1, 5, 11] {
        keys.push((9, EveryField::sample(n).to_key()));
        keys.push((10, EveryText::sample(n).to_key()));
        let every = EveryField::sample(n);
        keys.push((7, every.shard.to_key()));
        keys.push((8, EveryText::sample(n).shard.to_key()));
    }
    for (device_type, device_id, ts_millis) in
        [("phone", "4c410523", 1_588_291_200_000i64), ("", "", 0), ("tab", "a\0", 7)]
    {
        let (device_type, device_id) = (device_type.to_owned(), device_id.to_owned());
        keys.push((0, Reading { device_type: device_type.clone(), device_id: device_id.clone(), ts_millis }.to_key()));
        keys.push((
            1,
            OrderedReading { device_type: device_type.clone(), device_id: device_id.clone(), ts_millis }.to_key(),
        ));
        keys.push((2, DeviceReading { device_type: device_type.clone(), device_id, ts_millis }.to_key()));
        keys.push((6, Monitor { time: ts_millis, host: device_type.clone(), metric: "cpu".into() }.to_key()));
        keys.push((
            3,
            TenantReading { tenant: device_type, device_type: "phone".into(), device_id: 0x4c41_0523, date: 20200501 }
                .to_key(),
        ));
    }
    let crawled = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_588_291_200);
    keys.push((4, WebPage { host: "maps.google.com".into(), path: "/index.html".into(), crawled }.to_key()));
    keys.push((5, WebPageMicros { host: "localhost".into(), path: String::new(), crawled_micros: 7 }.to_key()));
    keys.push((19, Tiny { c: 'a', x: 0.5, a: *b"abc", d: Some('\0') }.to_key()));
    keys.push((19, Tiny { c: 'ß', x: f32::NAN, a: [0; 3], d: None }.to_key()));
    keys.push((20, TinyText { c: Some('é'), a: [0, 0xff], n: -12, s: "x".into() }.to_key()));
    keys.push((20, TinyText { c: None, a: [1, 2], n: 9999, s: String::new() }.to_key()));
    for (text, n) in [("dev", 7i64), ("", i64::MIN), ("a\0b", -1)] {
        let fdb =
            FdbReading { device: text.into(), at: n, tag: Some(text.into()), ok: n < 0, seq: 3, data: vec![0, 0xff] };
        keys.push((21, fdb.to_key()));
        let place = McPlace { city: text.repeat(5), zone: Some(2) };
        keys.push((22, McReading { region: text.into(), score: n as i32, place, note: None }.to_key()));
        let host = text.replace('\0', "");
        keys.push((23, HBaseVisit { host, ts: n, amount: n / 3, row: text.as_bytes().to_vec() }.to_key()));
    }
    keys.into_iter()
        .filter_map(|(selector, key)| key.ok().map(|key| [&[selector][..], key.as_bytes()].concat()))
        .collect()
}
