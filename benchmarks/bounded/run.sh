#!/usr/bin/env bash
# The indexer benchmark (Sinha & Wang, Figure 3): the bounded check of benchmarks/bounded/indexer.c
# for 10, 15, 20, 25 and 32 threads: pruned against --no-prune, and with against without
# COARSEN's data-flow edges and ranges (--no-coarsen-hints). Prints |R|, |W|, the copy-
# constraint instances (read/write pairs and "no write in between" constraints) and the times.
#
#   benchmarks/bounded/run.sh [THREADS...]      (default: 10 15 20 25 32)
#
# Builds the release binary first. Environment: UNROLL (default 5), NO_PRUNE_MAX (largest
# thread count tried without pruning, default 20: beyond it the eager encoding exceeds the
# engine's limit of 20 million instances, or the solver's time limit).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin=target/release/duet-rs
unroll=${UNROLL:-5}
no_prune_max=${NO_PRUNE_MAX:-20}
threads=("$@")
if [ ${#threads[@]} -eq 0 ]; then threads=(10 15 20 25 32); fi

field() { grep -E "^ *$1 " <<<"$2" | awk '{print $NF}' | head -1; }

run() {
    local n=$1 mode=$2 flags=()
    case "$mode" in
        no-prune) flags=(--no-prune) ;;
        no-hints) flags=(--no-coarsen-hints) ;;
    esac
    local start end out verdict
    start=$(date +%s.%N)
    out=$("$bin" check --bound "$unroll" --stats "${flags[@]}" -D NTHREADS="$n" benchmarks/bounded/indexer.c 2>/dev/null || true)
    end=$(date +%s.%N)
    # The status column of the assertion's row.
    verdict=$(awk '/indexer\.c:[0-9]+:[0-9]+ /{print $2; exit}' <<<"$out")
    printf "%-8s %-9s %6s %6s %10s %12s %9s %9s %8s  %s\n" "$n" "$mode" "$(field reads "$out")" "$(field writes "$out")" \
        "$(field 'copy pairs' "$out")" "$(field 'between constraints' "$out")" "$(field 'encode s' "$out")" "$(field 'solve s' "$out")" \
        "$(printf %.2f "$(echo "$end - $start" | bc)")" "$verdict"
}

printf "%-8s %-9s %6s %6s %10s %12s %9s %9s %8s  %s\n" threads mode "|R|" "|W|" "copy-pairs" "in-between" "encode-s" "solve-s" "total-s" verdict
for n in "${threads[@]}"; do
    run "$n" pruned
    run "$n" no-hints
    if [ "$n" -le "$no_prune_max" ]; then run "$n" no-prune; else printf "%-8s %-9s %s\n" "$n" no-prune "skipped (NO_PRUNE_MAX=$no_prune_max)"; fi
done
