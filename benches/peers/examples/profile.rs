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
//! every operation's id, a group a line; `--targets FILE` reads `group/id count` lines and
//! prints the speed targets in instructions (what `instructions.sh` does).

use rowkey_peers::{Device, Encoded, INPUTS, Subject, Wide, event, nested, operations, schema_path, targets};

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

/// Runs operation `id` of the event key; false when there is no such operation.
fn run_event(id: &str, repeat: usize) -> bool {
    let inputs = event::Inputs::new();
    let Some((_, mut pass)) = event::operations(&inputs).into_iter().find(|(name, _)| *name == id) else {
        return false;
    };
    measure(repeat, &mut pass);
    true
}

/// Runs operation `id` of the nested key; false when there is no such operation.
fn run_nested(id: &str, repeat: usize) -> bool {
    let inputs = nested::Inputs::new();
    let Some((_, mut pass)) = nested::operations(&inputs).into_iter().find(|(name, _)| *name == id) else {
        return false;
    };
    measure(repeat, &mut pass);
    true
}

/// Runs operation `id` of the schema path; false when there is no such operation.
fn run_schema(id: &str, repeat: usize) -> bool {
    let all = schema_path::All::new();
    let Some((_, mut pass)) = schema_path::operations(&all).into_iter().find(|(name, _)| name == id) else {
        return false;
    };
    measure(repeat, &mut pass);
    true
}

/// Every operation id, by group, for `--list`.
fn list() {
    let (inputs, keys) = (Vec::<Device>::new(), Encoded::new::<Device>(&[]));
    let ids: Vec<_> = operations(&inputs, &keys).into_iter().map(|(id, _)| id).collect();
    println!("{} {}", Device::GROUP, ids.join(" "));
    println!("{} {}", Wide::GROUP, ids.join(" "));
    let events = event::Inputs::new();
    let ids: Vec<_> = event::operations(&events).into_iter().map(|(id, _)| id).collect();
    println!("{} {}", event::GROUP, ids.join(" "));
    let readings = nested::Inputs { readings: Vec::new(), keys: Vec::new() };
    let ids: Vec<_> = nested::operations(&readings).into_iter().map(|(id, _)| id).collect();
    println!("{} {}", nested::GROUP, ids.join(" "));
    let ids: Vec<_> = schema_path::operations(&schema_path::All::new()).into_iter().map(|(id, _)| id).collect();
    println!("{} {}", schema_path::GROUP, ids.join(" "));
}

/// Reads `group/id count` lines (instructions per key) and prints each group's targets.
fn print_targets(path: &str) {
    let text = std::fs::read_to_string(path).expect("the counts file");
    let counts: Vec<(&str, &str, f64)> = text
        .lines()
        .filter_map(|line| {
            let (op, count) = line.split_once(' ')?;
            let (group, id) = op.split_once('/')?;
            Some((group, id, count.trim().parse().ok()?))
        })
        .collect();
    for group in [Device::GROUP, Wide::GROUP, event::GROUP, nested::GROUP, schema_path::GROUP] {
        let value = |id: &str| counts.iter().find(|(g, i, _)| *g == group && *i == id).map(|&(_, _, c)| c);
        let found = targets::check(group, &value);
        if !found.is_empty() {
            println!("\n### {group} key: targets, in instructions per key");
            targets::print(&found);
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "--list".to_owned());
    if op == "--list" {
        list();
        return;
    }
    if op == "--targets" {
        print_targets(&args.next().expect("--targets FILE"));
        return;
    }
    let repeat: usize = args.next().map_or(10, |r| r.parse().expect("the repeat count is a number"));
    let found = match op.split_once('/') {
        Some((group, id)) if group == Device::GROUP => run::<Device>(id, repeat),
        Some((group, id)) if group == Wide::GROUP => run::<Wide>(id, repeat),
        Some((group, id)) if group == event::GROUP => run_event(id, repeat),
        Some((group, id)) if group == nested::GROUP => run_nested(id, repeat),
        Some((group, id)) if group == schema_path::GROUP => run_schema(id, repeat),
        _ => false,
    };
    if found {
        eprintln!("{op}: {repeat} × {INPUTS} keys");
    } else {
        eprintln!("usage: profile {{device|wide|event|nested|schema}}/<operation> [repeat] | --list | --targets FILE");
        std::process::exit(2);
    }
}
