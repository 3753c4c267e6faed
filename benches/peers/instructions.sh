#!/usr/bin/env bash
# Instructions per key of every operation of the peer bench, counted by callgrind, then the
# speed targets checked on those counts: unlike wall-clock medians they repeat exactly, so they
# show what a change to rowkey gained even on a busy machine.
# Usage: benches/peers/instructions.sh [filter ...], e.g. device/ or from_key: the operations
# whose group/id holds any of the filters (all of them when none is given). A target is shown
# when all its operations were measured: `fdb foundationdb` gives the FoundationDB targets.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --quiet --release --example profile
target="${CARGO_TARGET_DIR:-target}"
profile="$target/release/examples/profile"
repeat=10
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
printf '| operation | instructions/key |\n|---|---:|\n'
while read -r group ids; do
    for id in $ids; do
        op="$group/$id"
        wanted=$(($# == 0))
        for filter in "$@"; do
            [[ "$op" == *"$filter"* ]] && wanted=1
        done
        ((wanted)) || continue
        out=$(mktemp)
        valgrind --tool=callgrind --toggle-collect='*measure*' --callgrind-out-file="$out" \
            "$profile" "$op" "$repeat" 2>/dev/null
        total=$(sed -n 's/^totals: //p' "$out")
        rm -f "$out"
        per_key=$((total / (repeat * 10000)))
        printf '| %s | %d |\n' "$op" "$per_key"
        echo "$op $per_key" >> "$counts"
    done
done < <("$profile" --list)
"$profile" --targets "$counts"
