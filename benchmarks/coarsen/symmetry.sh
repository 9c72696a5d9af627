#!/usr/bin/env bash
# COARSEN alone with and without folding identical thread templates (--no-symmetry):
# indexer(32) and the Figure 3 family (figure3.sh) in both forms. Prints per run: wall and
# user seconds, peak resident memory, data-flow edges, Datalog milliseconds, verdict counts.
#
#   benchmarks/coarsen/symmetry.sh [N...]     (Figure 3 thread counts, default: 10 20; m = 9)
#
# Environment: OFF_MAX (largest Figure 3 thread count also run unfolded, default 10: the
# unfolded run at 20 x 9 needs about 4 GB), MEMORY (MB per task, default 3500).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
cargo build --release --quiet
bin=target/release/duet-rs
off_max=${OFF_MAX:-10}
memory=${MEMORY:-3500}
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then sizes=(10 20); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # name mode args...
    local name=$1 mode=$2
    shift 2
    local out
    local flags=(--engines coarsen --stats --memory "$memory")
    if [ "$mode" = off ]; then flags+=(--no-symmetry); fi
    out=$( { /usr/bin/time -f 'TIME %e %U %M' "$bin" check "${flags[@]}" "$@" 2>&1; } 2>&1 || true)
    local t edges dl verdicts
    t=$(sed -n 's/^TIME //p' <<<"$out")
    edges=$(sed -n 's/^total: [0-9]* rounds, \([0-9]*\) edges.*/\1/p' <<<"$out")
    dl=$(sed -n 's/.*datalog \([0-9.]*\) ms.*/\1/p' <<<"$out")
    verdicts=$(grep -E '^  (safe|violated|unknown|timeout|error|out-of-memory) ' <<<"$out" | awk '$2 > 0 {printf "%s=%s ", $1, $2}')
    read -r wall user rss <<<"$t"
    printf "%-24s %-4s %8s %8s %8s %9s %11s  %s\n" "$name" "$mode" "$wall" "$user" "$((rss / 1024))" "${edges:-?}" "${dl:-?}" "$verdicts"
}

printf "%-24s %-4s %8s %8s %8s %9s %11s  %s\n" program fold wall-s user-s rss-MB edges datalog-ms verdicts
for mode in on off; do run "indexer(32)" "$mode" -D NTHREADS=32 benchmarks/bounded/indexer.c; done
for n in "${sizes[@]}"; do
    for form in shared distinct; do
        f="$tmp/figure3_${form}_${n}_9.c"
        benchmarks/coarsen/figure3.sh "$n" 9 "$form" >"$f"
        run "figure3($n x 9, $form)" on "$f"
        if [ "$n" -le "$off_max" ]; then run "figure3($n x 9, $form)" off "$f"; fi
    done
done
