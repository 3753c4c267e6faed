//! One operation of the peer bench, repeated, for a profiler: the same code the bench times,
//! with no timing loop around it, so `callgrind` counts the same instructions on every run
//! (wall-clock medians on a busy machine move by ±30%; instruction counts do not move).
//!
//! ```sh
//! cargo build --release --manifest-path benches/peers/Cargo.toml --example profile
//! valgrind --tool=callgrind --toggle-collect='*measure*' \
//!     benches/peers/target/release/examples/profile device/rowkey_from_key 10
//! ```
//!
//! Instructions per key = the collected total / (10,000 × the repeat count). `--list` prints
//! every operation's id.

use rowkey_peers::{Device, Encoded, INPUTS, Subject, Wide, operations};

/// Runs `pass` `repeat` times; the only function callgrind collects in.
#[inline(never)]
fn measure(repeat: usize, pass: &mut dyn FnMut()) {
    for _ in 0..repeat {
        pass();
    }
}

/// Runs operation `id` of key type `T`; false when there is no such operation.
fn run<T: Subject>(id: &str, repeat: usize) -> bool {
    let inputs = T::inputs();
    let keys = Encoded::new(&inputs);
    let Some((_, mut pass)) = operations(&inputs, &keys).into_iter().find(|(name, _)| *name == id) else {
        return false;
    };
    measure(repeat, &mut pass);
    true
}

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "--list".to_owned());
    let repeat: usize = args.next().map_or(10, |r| r.parse().expect("the repeat count is a number"));
    let found = match op.split_once('/') {
        Some((group, id)) if group == Device::GROUP => run::<Device>(id, repeat),
        Some((group, id)) if group == Wide::GROUP => run::<Wide>(id, repeat),
        _ => false,
    };
    if found {
        eprintln!("{op}: {repeat} × {INPUTS} keys");
    } else {
        let (inputs, keys) = (Vec::<Device>::new(), Encoded::new::<Device>(&[]));
        let ids: Vec<_> = operations(&inputs, &keys).into_iter().map(|(id, _)| id).collect();
        eprintln!("usage: profile {{device|wide}}/<operation> [repeat]\noperations: {}", ids.join(" "));
        std::process::exit(if op == "--list" { 0 } else { 2 });
    }
}
