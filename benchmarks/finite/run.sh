#!/bin/sh
# Figure 3 family (SAS 2007): time to load and to prove, with Section 5's exceptions, and
# whether plain Cartesian abstraction (no exceptions) proves it (n <= 20 only); then, one
# process per size, the finite-state engine alone through the command line with its wall time
# and peak memory.
# Sizes: FIG3_N=10,20,... FIG3_M=1,3,... (defaults: the paper's n = 10..100, m = 1,3,5,7,9).
# FIG3_MODE (flags of gen_fig3.py, space-separated): --distinct gives every thread its own
# start routine (no symmetry to exploit); --loop creates the threads in a loop (the proof is
# then for every n); --tas takes the lock with a test-and-set loop (benchmarks/coarsen/figure3.sh's
# form) instead of a blocking atomic acquire.
cd "$(dirname "$0")/../.." || exit 1
cargo test --release --test finite bench_figure3 -- --ignored --nocapture || exit 1
cargo build --release -q || exit 1
dir=$(mktemp -d)
printf 'n\tm\tcheck_s\tpeak_kb\tverdicts\n'
for n in $(echo "${FIG3_N:-10,20,30,40,50,60,70,80,90,100}" | tr ',' ' '); do
    for m in $(echo "${FIG3_M:-1,3,5,7,9}" | tr ',' ' '); do
        # shellcheck disable=SC2086
        python3 benchmarks/finite/gen_fig3.py "$n" "$m" ${FIG3_MODE:-} > "$dir/fig3.c"
        /usr/bin/time -f '%e %M' -o "$dir/time" ./target/release/duet-rs check --engines finite --finite-time 60 "$dir/fig3.c" > "$dir/out" 2>&1
        verdicts=$(awk '/^  (safe|violated|unknown) / { c[$1] += $2 } END { printf "safe %d unknown %d violated %d", c["safe"], c["unknown"], c["violated"] }' "$dir/out")
        printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$m" "$(cut -d' ' -f1 "$dir/time")" "$(cut -d' ' -f2 "$dir/time")" "$verdicts"
    done
done
rm -rf "$dir"
