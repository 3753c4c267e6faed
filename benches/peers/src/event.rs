//! The third key shape: what a key of the field types real tables hold costs beside the
//! plain integer it replaces. `Event<T>` is a device's UUID, then the time as `T`: `i64`
//! microseconds, or the instant of chrono, jiff or time, which write the same bytes. rowkey
//! alone: the peers have no encoding of these crates' instants that keeps their order.

use std::hint::black_box;

use rowkey::{Key, RowKey};
use uuid::Uuid;

use crate::{INPUTS, Lcg, Pass, each};

/// The criterion group, and the key's name in the tables.
pub const GROUP: &str = "event";

/// A device's id and a time.
#[derive(RowKey, Clone, Debug, PartialEq)]
pub struct Event<T> {
    /// A random (version 4) UUID.
    pub device: Uuid,
    /// Microseconds since the epoch, as `T`.
    pub at: T,
}

/// [`INPUTS`] events with the time as `i64` microseconds, around 2023 to 2026.
#[must_use]
pub fn micros() -> Vec<Event<i64>> {
    let mut rng = Lcg(0x5851_f42d_4c95_7f2d);
    (0..INPUTS)
        .map(|_| Event {
            device: Uuid::from_u64_pair(rng.next(), rng.next()),
            at: 1_700_000_000_000_000 + rng.below(100_000_000_000_000).cast_signed(),
        })
        .collect()
}

fn with<T>(inputs: &[Event<i64>], time: impl Fn(i64) -> T) -> Vec<Event<T>> {
    inputs.iter().map(|e| Event { device: e.device, at: time(e.at) }).collect()
}

/// The inputs of every time type: the same instants.
pub struct Inputs {
    /// `i64` microseconds.
    pub micros: Vec<Event<i64>>,
    /// `jiff::Timestamp`.
    pub jiff: Vec<Event<jiff::Timestamp>>,
    /// `chrono::DateTime<Utc>`.
    pub chrono: Vec<Event<chrono::DateTime<chrono::Utc>>>,
    /// `time::OffsetDateTime`.
    pub time: Vec<Event<time::OffsetDateTime>>,
    /// The keys, which are the same for every type.
    pub keys: Vec<Key>,
}

impl Inputs {
    /// Builds them, and panics unless every type writes the `i64`'s key and reads it back.
    #[must_use]
    pub fn new() -> Self {
        let micros = micros();
        let inputs = Inputs {
            jiff: with(&micros, |us| jiff::Timestamp::from_microsecond(us).unwrap()),
            chrono: with(&micros, |us| chrono::DateTime::from_timestamp_micros(us).unwrap()),
            time: with(&micros, |us| time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(us) * 1000).unwrap()),
            keys: micros.iter().map(|e| e.to_key().unwrap()).collect(),
            micros,
        };
        for (i, e) in inputs.micros.iter().enumerate() {
            let key = e.to_key().unwrap();
            assert_eq!(inputs.jiff[i].to_key().unwrap(), key);
            assert_eq!(inputs.chrono[i].to_key().unwrap(), key);
            assert_eq!(inputs.time[i].to_key().unwrap(), key);
            assert_eq!(Event::<time::OffsetDateTime>::from_key(&key).unwrap(), inputs.time[i]);
        }
        inputs
    }
}

impl Default for Inputs {
    fn default() -> Self {
        Self::new()
    }
}

/// Encode into a reused key, and decode, for each time type, by bench id.
#[must_use]
pub fn operations(inputs: &Inputs) -> Vec<(&'static str, Pass<'_>)> {
    let keys = &inputs.keys;
    let mut ops: Vec<(&'static str, Pass<'_>)> = Vec::new();
    macro_rules! time_type {
        ($encode:literal, $decode:literal, $inputs:expr, $ty:ty) => {
            let mut key = Key::new();
            ops.push(($encode, each(&$inputs, move |e| e.encode_into(black_box(&mut key)).unwrap())));
            ops.push((
                $decode,
                each(keys, |k| {
                    black_box(Event::<$ty>::from_key(k).unwrap());
                }),
            ));
        };
    }
    time_type!("i64_encode_into", "i64_from_key", inputs.micros, i64);
    time_type!("jiff_encode_into", "jiff_from_key", inputs.jiff, jiff::Timestamp);
    time_type!("chrono_encode_into", "chrono_from_key", inputs.chrono, chrono::DateTime<chrono::Utc>);
    time_type!("time_encode_into", "time_from_key", inputs.time, time::OffsetDateTime);
    ops
}
