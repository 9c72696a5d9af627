#!/bin/sh
# Filter lock (generalised Peterson) for n = 3..8 (FILTER_N to choose): the finite-state
# engine alone, per n its verdicts, wall time and peak memory; then, for FILTER_TWIN_N (default
# 3 4), the broken twins under the default strategy (never safe; violated when the bounded
# search reaches the bug). Build first with `cargo build --release`.
cd "$(dirname "$0")/../.." || exit 1
dir=$(mktemp -d)
for n in ${FILTER_N:-3 4 5 6 7 8}; do
    python3 benchmarks/finite/gen_filter.py "$n" > "$dir/filter_$n.c"
    printf 'n=%s\t' "$n"
    /usr/bin/time -f '%e s %M KB' ./target/release/duet-rs check --engines finite --finite-time 60 "$dir/filter_$n.c" 2>&1 |
        awk '/^  safe|^  unknown|^  violated/ { printf "%s %s  ", $1, $2 } / KB$/ { print }'
done
for n in ${FILTER_TWIN_N:-3 4}; do
    for twin in no-victim strict skip-level; do
        python3 benchmarks/finite/gen_filter.py "$n" "$twin" > "$dir/filter_${n}_$twin.c"
        printf 'n=%s %s\t' "$n" "$twin"
        /usr/bin/time -f '%e s %M KB' ./target/release/duet-rs check "$dir/filter_${n}_$twin.c" 2>&1 |
            awk '/^  safe|^  unknown|^  violated/ { printf "%s %s  ", $1, $2 } / KB$/ { print }'
    done
done
rm -rf "$dir"
