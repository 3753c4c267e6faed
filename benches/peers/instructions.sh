#!/usr/bin/env bash
# Instructions per key of every operation of the peer bench, counted by callgrind: unlike
# wall-clock medians they repeat exactly, so they show what a change to rowkey gained even on
# a busy machine. Usage: benches/peers/instructions.sh [device/|wide/|<id> filter]
set -euo pipefail
cd "$(dirname "$0")"
cargo build --quiet --release --example profile
target="${CARGO_TARGET_DIR:-target}"
profile="$target/release/examples/profile"
repeat=10
ids=$("$profile" --list 2>&1 | sed -n 's/^operations: //p')
printf '| operation | instructions/key |\n|---|---:|\n'
for group in device wide; do
    for id in $ids; do
        op="$group/$id"
        [[ "$op" == *"${1:-}"* ]] || continue
        out=$(mktemp)
        valgrind --tool=callgrind --toggle-collect='*measure*' --callgrind-out-file="$out" \
            "$profile" "$op" "$repeat" 2>/dev/null
        total=$(sed -n 's/^totals: //p' "$out")
        rm -f "$out"
        printf '| %s | %d |\n' "$op" $((total / (repeat * 10000)))
    done
done
